"""Serial Battle as a game kind: commands applied by the pure rules, a view for each viewer."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, TypeAdapter

from server.errors import RuleError
from server.games.serial_battle import rules
from server.games.serial_battle.catalog import (
    BARE_HANDS,
    Ability,
    Card,
    expand,
    validate_deck,
)
from server.games.serial_battle.rules import (
    MAX_CARDS,
    Assault,
    CloseSectors,
    Correct,
    Eliminate,
    End,
    GiveCard,
    KnockoutAgain,
    KnockoutTake,
    Loot,
    Pause,
    Place,
    Player,
    ReplaceDeck,
    Resume,
    SBSettings,
    SBState,
    Sector,
    SetSectors,
    SetSettings,
    Start,
    TagPlayer,
    TakeCard,
    ZoneDue,
)
from server.platform.dice import SERVER, Dice
from server.platform.i18n import N_, P_, Msg, joined, listed, sort_key
from server.platform.kinds import (
    Context,
    GameKind,
    LoggedEvent,
    Outcome,
    PersonInfo,
    Viewer,
    full_event,
)
from server.platform.timers import Timer

SAMPLE_DECK_FILE = Path(__file__).with_name("sample_deck.json")
CAUSE_TITLES = {
    "assault": N_("assault"),
    "zone": N_("closed sector"),
    "out_of_bounds": N_("out of the area"),
    "referee": N_("referee's decision"),
}


def sample_deck() -> list[Card]:
    data = json.loads(SAMPLE_DECK_FILE.read_text())
    return [Card.model_validate(c) for c in data["cards"]]


CommandModel = Annotated[rules.Command, Field(discriminator="type")]

SETUP_ONLY = (SetSettings, SetSectors, ReplaceDeck, Start)
NEEDS_PLAY = (
    Assault,
    KnockoutTake,
    KnockoutAgain,
    Loot,
    GiveCard,
    TakeCard,
    Correct,
    Place,
    Eliminate,
    CloseSectors,
)


def copy_but_deck(state: SBState) -> SBState:
    """A deep copy to change, sharing the deck: cards are never changed in place (a new deck
    replaces the old one whole), and copying them was most of an action's cost."""
    deck = state.deck
    hollow = state.model_copy(update={"deck": []})
    copied = hollow.model_copy(deep=True)
    copied.deck = deck
    return copied


# The dice of an assault (rules.assault): "damage", "answer_location", "3_recovery" (against the
# third player of a multiple assault), "hit_3".
_ROLL = re.compile(r"(?P<answer>answer_)?(?:(?P<id>\d+)_)?(?P<what>damage|location|recovery|hit)")
_ROLL_WHAT = {
    "damage": N_("damage"),
    "location": N_("location"),
    "recovery": N_("projectile recovery"),
}


class SerialBattle(GameKind[SBState]):
    key = "serial_battle"
    title = N_("Serial Battle")
    tagline = N_("Outdoor battle royale: duels, hit points, cards and a shrinking zone.")
    roles = ("player",)
    state_model = SBState
    settings_model = SBSettings
    commands: TypeAdapter[Any] = TypeAdapter(CommandModel)

    # ------------------------------------------------------------------ the rules

    def new_state(self, settings: BaseModel) -> SBState:
        assert isinstance(settings, SBSettings)
        return SBState(
            deck=sample_deck(),
            sample_deck=True,
            shrink_minutes=settings.shrink_minutes,
            deal_mode=settings.deal_mode,
        )

    def add_person(self, state: SBState, person: PersonInfo) -> SBState:
        state = state.model_copy(deep=True)
        if person.role == "referee":
            state.referees[str(person.id)] = person.name
        elif person.role == "player":
            if state.phase != "setup":
                raise RuleError(N_("Players join before the game starts."))
            state.players[str(person.id)] = Player(id=person.id, name=person.name)
        return state

    def remove_person(self, state: SBState, person: PersonInfo) -> SBState:
        key = str(person.id)
        if key in state.referees or (state.phase == "setup" and key in state.players):
            state = state.model_copy(deep=True)
            state.referees.pop(key, None)
            if state.phase == "setup":
                state.players.pop(key, None)
        return state

    def apply(self, state: SBState, command: Any, ctx: Context) -> Outcome[SBState]:
        state = copy_but_deck(state)
        if isinstance(command, SETUP_ONLY) and state.phase != "setup":
            raise RuleError(N_("This is settled before the game starts."))
        if isinstance(command, NEEDS_PLAY) and state.phase in ("setup", "finished"):
            raise RuleError(
                N_("The game has not started.")
                if state.phase == "setup"
                else N_("The game is over.")
            )
        handler = getattr(self, f"_{command.type}")
        summary, result = handler(state, command, ctx.dice, ctx.now)
        return Outcome(state, summary, result)

    def _settings(self, state: SBState, c: SetSettings, dice: Dice, now: datetime) -> Any:
        state.shrink_minutes, state.deal_mode, state.closing = (
            c.shrink_minutes,
            c.deal_mode,
            c.closing,
        )
        return Msg(N_("Settings saved.")), {}

    def _sectors(self, state: SBState, c: SetSectors, dice: Dice, now: datetime) -> Any:
        names = rules.parse_names(c.names)
        state.sectors = [Sector(name=n) for n in names]
        plan = []
        for number, line in enumerate(c.plan.splitlines(), start=1):
            step = rules.parse_names(line)
            unknown = [s for s in step if s not in names]
            if unknown:
                raise RuleError(
                    N_("Shrink {number} closes “{sector}”, which is not a sector."),
                    field="plan",
                    number=number,
                    sector=unknown[0],
                )
            if step:
                plan.append(step)
        state.plan = plan
        if plan:
            state.closing = "plan"
        return Msg(N_("{count} sectors."), {"count": len(names)}), {}

    def _deck(self, state: SBState, c: ReplaceDeck, dice: Dice, now: datetime) -> Any:
        validate_deck(c.cards)
        state.deck, state.sample_deck = c.cards, c.sample
        return Msg(N_("Deck of {count} cards saved."), {"count": len(expand(c.cards))}), {}

    def _tag(self, state: SBState, c: TagPlayer, dice: Dice, now: datetime) -> Any:
        state.player(c.player).tag = c.tag.strip()
        return Msg(
            N_("{player}: “{tag}”."), {"player": state.player(c.player).name, "tag": c.tag}
        ), {}

    def _start(self, state: SBState, c: Start, dice: Dice, now: datetime) -> Any:
        missing = rules.start_missing(state)
        if missing:
            raise RuleError(N_("Not yet: {missing}"), missing=joined(missing))
        copies = expand(state.deck)
        dealt: dict[str, str] = {}
        if state.deal_mode == "random":
            # Début de la partie: the deck is shuffled and each player gets one card at random.
            order = list(copies)
            for i in range(len(order) - 1, 0, -1):
                j = dice.roll(i + 1, f"shuffle_{i}", owner=SERVER, secret=True) - 1
                order[i], order[j] = order[j], order[i]
            for player in state.players.values():
                if order:
                    copy_id = order.pop(0)
                    player.cards = [rules.fresh_card(state, copy_id)]
                    dealt[str(player.id)] = copy_id
            state.pool = order
        else:
            # Une autre façon de commencer: the cards are scattered and picked up later.
            state.pool = copies
        state.phase = "running"
        state.started_at = now
        state.zone = Timer.start(now, state.shrink_minutes * 60)
        return Msg(N_("The game starts: {count} players."), {"count": len(state.players)}), {
            "dealt": dealt
        }

    def _pause(self, state: SBState, c: Pause, dice: Dice, now: datetime) -> Any:
        if state.phase != "running":
            raise RuleError(N_("The game is not running."))
        state.phase = "paused"
        state.zone = state.zone.pause(now) if state.zone else None
        return Msg(N_("Game paused.")), {}

    def _resume(self, state: SBState, c: Resume, dice: Dice, now: datetime) -> Any:
        if state.phase != "paused":
            raise RuleError(N_("The game is not paused."))
        state.phase = "running"
        state.zone = state.zone.resume(now) if state.zone else None
        return Msg(N_("Game resumed.")), {}

    def _end(self, state: SBState, c: End, dice: Dice, now: datetime) -> Any:
        if state.phase in ("setup", "finished"):
            raise RuleError(N_("Only a game under way can be ended."))
        result = rules.outcome(state)
        state.result = result or rules.Result(winner=None, reason="ended_by_referee")
        state.phase = "finished"
        state.ended_at = now
        state.zone = state.zone.pause(now) if state.zone else None
        for pending in state.pending:
            state.player(pending.loser).knocked_out = False
        state.pending = []
        return Msg(N_("The referee ends the game.")), {}

    def _assault(self, state: SBState, c: Assault, dice: Dice, now: datetime) -> Any:
        blows, details = rules.assault(state, c, dice, now)
        sentences = [rules.describe_blow(state, b) for b in blows]
        sentences.extend(rules.ammunition_notes(state, details["ammunition"]))
        sentences.extend(self._pending_notes(state, c.attacker, *c.defenders))
        sentences.extend(self._end_note(state))
        result = {"blows": [b.model_dump(mode="json") for b in blows], **details}
        return joined(sentences), result

    def _pending_notes(self, state: SBState, *players: int) -> list[Msg]:
        notes = []
        for pending in state.pending:
            if pending.winner in players or pending.loser in players:
                winner, loser = state.player(pending.winner), state.player(pending.loser)
                text = (
                    N_("{winner} chooses: take a card from {loser}, or a second assault.")
                    if pending.kind == "knockout"
                    else N_("{winner} may take {loser}’s cards.")
                )
                notes.append(Msg(text, {"winner": winner.name, "loser": loser.name}))
        return notes

    def _end_note(self, state: SBState) -> list[Msg]:
        if state.phase != "finished" or state.result is None:
            return []
        if state.result.winner is not None:
            return [Msg(N_("{winner} wins!"), {"winner": state.player(state.result.winner).name})]
        return [Msg(N_("Nobody wins: the last players fell together."))]

    def _knockout_take(self, state: SBState, c: KnockoutTake, dice: Dice, now: datetime) -> Any:
        pending = rules.take_pending(state, c.pending, "knockout")
        winner, loser = state.player(pending.winner), state.player(pending.loser)
        if c.give_back is not None:
            # 5 cards at most (Points de vie): one of the winner's own goes back to the referee
            # to make room ("les autres sont remises à l'arbitre").
            held = winner.holds(c.give_back)
            if held is None:
                raise RuleError(
                    N_("{winner} does not hold “{card}”."),
                    field="give_back",
                    winner=winner.name,
                    card=c.give_back,
                )
            winner.cards.remove(held)
            state.pool.append(held.copy_id)
        rules.move_card(state, loser, winner, c.card)
        loser.knocked_out = False
        return Msg(
            N_("{winner} takes the card {card} from {loser} and leaves."),
            {"winner": winner.name, "loser": loser.name, "card": state.card(c.card).name},
        ), {}

    def _knockout_again(self, state: SBState, c: KnockoutAgain, dice: Dice, now: datetime) -> Any:
        """Assommé: a second assault wakes the defender up, who may then strike back."""
        pending = rules.take_pending(state, c.pending, "knockout")
        winner, loser = state.player(pending.winner), state.player(pending.loser)
        weapon = rules.weapon_for(state, winner, c.card or pending.copy_id)
        blow = rules.roll_blow(state, winner, loser, weapon, dice, "")
        spent = {str(winner.id): rules.spend_ammunition(state, winner, weapon, dice, "")}
        loser.knocked_out = False
        rules.land(state, blow)
        blows = [blow]
        if loser.pv <= 0:
            loser.eliminated = True
        elif not loser.knocked_out and not weapon.card.has(Ability.LONG_RANGE):
            # Longue portée: "sans que ceux-ci ne puissent répliquer", the second assault too.
            reply = c.defender_card or rules.default_weapon(state, loser)
            answer = rules.weapon_for(state, loser, reply, "defender_card")
            back = rules.roll_blow(state, loser, winner, answer, dice, "answer_")
            spent[str(loser.id)] = rules.spend_ammunition(state, loser, answer, dice, "answer_")
            rules.land(state, back)
            blows.append(back)
            if winner.pv <= 0:
                winner.eliminated = True
        rules.settle(state, blows, now)
        sentences = [rules.describe_blow(state, b) for b in blows]
        sentences.extend(rules.ammunition_notes(state, spent))
        sentences.extend(self._pending_notes(state, winner.id, loser.id))
        sentences.extend(self._end_note(state))
        return joined(sentences), {
            "blows": [b.model_dump(mode="json") for b in blows],
            "ammunition": spent,
        }

    def _loot(self, state: SBState, c: Loot, dice: Dice, now: datetime) -> Any:
        pending = next((p for p in state.pending if p.id == c.pending and p.kind == "loot"), None)
        if pending is None:
            raise RuleError(N_("This choice was already made."), field="pending")
        winner, loser = state.player(pending.winner), state.player(pending.loser)
        take, give_back = list(dict.fromkeys(c.take)), list(dict.fromkeys(c.give_back))
        for copy_id in take:
            if loser.holds(copy_id) is None:
                raise RuleError(
                    N_("{loser} does not hold “{card}”."),
                    field="take",
                    loser=loser.name,
                    card=copy_id,
                )
        for copy_id in give_back:
            if winner.holds(copy_id) is None:
                raise RuleError(
                    N_("{winner} does not hold “{card}”."),
                    field="give_back",
                    winner=winner.name,
                    card=copy_id,
                )
        count = len(winner.cards) - len(give_back) + len(take)
        if count > MAX_CARDS:
            raise RuleError(
                N_(
                    "{winner} would hold {count} cards, {limit} at most: take fewer, or give "
                    "back some of their own."
                ),
                field="take",
                winner=winner.name,
                count=count,
                limit=MAX_CARDS,
            )
        state.pending.remove(pending)
        kept = [h for h in winner.cards if h.copy_id not in give_back]
        winner.cards = kept + [h for h in loser.cards if h.copy_id in take]
        returned = give_back + [h.copy_id for h in loser.cards if h.copy_id not in take]
        loser.cards = []
        state.pool.extend(returned)
        taken = [state.card(k).name for k in take]
        facts = {"take": take, "give_back": give_back, "returned": returned}
        params = {"winner": winner.name, "cards": listed(taken), "taken": len(taken)}
        pieces = [
            Msg.counted(
                P_("{winner} takes the card {cards}.", "{winner} takes the cards {cards}."),
                "taken",
                params,
            )
            if taken
            else Msg(N_("{winner} takes nothing."), params)
        ]
        if returned:
            pieces.append(
                Msg.counted(
                    P_(
                        "{count} card goes back to the referee.",
                        "{count} cards go back to the referee.",
                    ),
                    "count",
                    {"count": len(returned)},
                )
            )
        return joined(pieces), facts
        return Msg.counted(
            P_(
                "{winner} takes {cards}; {count} card goes back to the referee.",
                "{winner} takes {cards}; {count} cards go back to the referee.",
            ),
            "count",
            params,
        ), facts

    def _give(self, state: SBState, c: GiveCard, dice: Dice, now: datetime) -> Any:
        player = state.player(c.player)
        if player.eliminated:
            raise RuleError(N_("{player} is eliminated."), field="player", player=player.name)
        if c.card not in state.pool:
            raise RuleError(
                N_("“{card}” is not in the referee's hands."), field="card", card=c.card
            )
        if len(player.cards) >= MAX_CARDS:
            raise RuleError(
                N_("{player} already holds {count} cards, the most allowed."),
                field="card",
                player=player.name,
                count=MAX_CARDS,
            )
        state.pool.remove(c.card)
        player.cards.append(rules.fresh_card(state, c.card))
        return Msg(
            N_("{player} picks up the card {card}."),
            {"player": player.name, "card": state.card(c.card).name},
        ), {}

    def _take(self, state: SBState, c: TakeCard, dice: Dice, now: datetime) -> Any:
        player = state.player(c.player)
        held = player.holds(c.card)
        if held is None:
            raise RuleError(
                N_("{player} does not hold “{card}”."),
                field="card",
                player=player.name,
                card=state.card(c.card).name,
            )
        player.cards.remove(held)
        state.pool.append(c.card)
        return Msg(
            N_("The card {card} goes back from {player} to the referee."),
            {"player": player.name, "card": state.card(c.card).name},
        ), {}

    def _correct(self, state: SBState, c: Correct, dice: Dice, now: datetime) -> Any:
        player = state.player(c.player)
        if player.eliminated:
            raise RuleError(
                N_("{player} is out of the game: undo the elimination instead."),
                field="player",
                player=player.name,
            )
        changes = []
        if c.pv is not None:
            changes.append(Msg(N_("PV {old} → {new}"), {"old": player.pv, "new": c.pv}))
            player.pv = c.pv
        if (c.card is None) != (c.ammo is None):
            raise RuleError(
                N_("Say both the card and its ammunition, or neither."),
                field="card" if c.ammo is not None else "ammo",
            )
        if c.card is not None and c.ammo is not None:
            held = player.holds(c.card)
            if held is None or held.ammo is None:
                raise RuleError(
                    N_("{player} holds no card with ammunition named “{card}”."),
                    field="card",
                    player=player.name,
                    card=c.card,
                )
            capacity = state.card(c.card).ammo or 0
            if c.ammo > capacity:
                raise RuleError(
                    N_("“{card}” holds {count} rounds at most."),
                    field="ammo",
                    card=state.card(c.card).name,
                    count=capacity,
                )
            changes.append(Msg(N_("ammunition {old} → {new}"), {"old": held.ammo, "new": c.ammo}))
            held.ammo = c.ammo
        if not changes:
            raise RuleError(N_("Say what to correct: PV, or a card's ammunition."), field="pv")
        if player.pv <= 0:
            rules.eliminate(state, player, "referee", now, c.reason)
        return Msg(
            N_("Correction for {player}: {changes} ({reason})."),
            {"player": player.name, "changes": joined(changes, ", "), "reason": c.reason},
        ), {}

    def _place(self, state: SBState, c: Place, dice: Dice, now: datetime) -> Any:
        if c.sector not in {s.name for s in state.sectors}:
            raise RuleError(N_("Unknown sector “{sector}”."), field="sector", sector=c.sector)
        names = []
        for player_id in c.players:
            player = state.player(player_id)
            player.sector = c.sector
            names.append(player.name)
        return Msg(
            N_("In sector {sector}: {players}."), {"sector": c.sector, "players": listed(names)}
        ), {}

    def _eliminate(self, state: SBState, c: Eliminate, dice: Dice, now: datetime) -> Any:
        player = state.player(c.player)
        if player.eliminated:
            raise RuleError(N_("{player} is eliminated."), field="player", player=player.name)
        rules.eliminate(state, player, c.cause, now, c.note)
        causes = {
            "zone": N_("{player} is eliminated: inside a closed sector."),
            "out_of_bounds": N_("{player} is eliminated: out of the play area."),
            "referee": N_("{player} is eliminated by the referee."),
        }
        return joined([Msg(causes[c.cause], {"player": player.name}), *self._end_note(state)]), {}

    def _close(self, state: SBState, c: CloseSectors, dice: Dice, now: datetime) -> Any:
        closed = rules.close_sectors(state, c.sectors)
        state.shrink_due = False
        if state.zone is None and state.phase == "running":
            state.zone = rules.next_zone_timer(state, now)
        pieces = [Msg(N_("Sectors closed: {sectors}."), {"sectors": listed(closed)})]
        return joined([*pieces, *self._inside(state, closed)]), {"closed": closed}

    def _inside(self, state: SBState, closed: list[str]) -> list[Msg]:
        """Who the referees must eliminate now; when nobody was placed, what to look for."""
        if not closed:
            return []
        inside = [p.name for p in state.alive() if p.sector in closed]
        if inside:
            return [Msg(N_("Still inside, to eliminate: {players}."), {"players": listed(inside)})]
        if not any(p.sector for p in state.alive()):
            return [
                Msg(
                    N_("Nobody is placed in a sector: eliminate whoever is still in {sectors}."),
                    {"sectors": listed(closed)},
                )
            ]
        return []

    def _zone_due(self, state: SBState, c: ZoneDue, dice: Dice, now: datetime) -> Any:
        closed = rules.zone_due(state, c.deadline)
        if closed:
            forms = P_(
                "The zone shrinks: {sectors} is closed.", "The zone shrinks: {sectors} are closed."
            )
            said = Msg.counted(forms, "count", {"sectors": listed(closed), "count": len(closed)})
            return joined([said, *self._inside(state, closed)]), {"closed": closed}
        return Msg(N_("The zone shrinks: the referee says which sectors close.")), {}

    # ------------------------------------------------------------------ the platform's questions

    def status(self, state: SBState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    def next_deadline(self, state: SBState) -> datetime | None:
        if state.phase == "running" and state.zone is not None:
            return state.zone.deadline
        return None

    def due(self, state: SBState, now: datetime) -> list[Any]:
        if state.phase == "running" and state.zone is not None and state.zone.due(now):
            assert state.zone.deadline is not None
            return [ZoneDue(type="zone_due", deadline=state.zone.deadline)]
        return []

    def references(self, state: SBState) -> Mapping[str, Collection[Any]]:
        return {
            "card": {"bare", *expand(state.deck)},
            # Every choice ever opened: one already made gets the rules' own answer.
            "pending": range(1, state.next_pending),
            "sector": {s.name for s in state.sectors},
        }

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        return viewer.is_staff and not isinstance(command, ZoneDue)

    def subjects(self, state: SBState, command: Any) -> list[int] | None:
        if isinstance(command, Assault):
            return [command.attacker, *command.defenders]
        if isinstance(command, KnockoutTake | KnockoutAgain | Loot):
            pending = next((p for p in state.pending if p.id == command.pending), None)
            return [pending.winner, pending.loser] if pending else []
        if isinstance(command, GiveCard | TakeCard | Correct | Eliminate | TagPlayer):
            return [command.player]
        if isinstance(command, Place):
            return list(command.players)
        return None

    def roll_label(self, purpose: str, state: SBState) -> Msg | str | None:
        """ "answer_3_location" is said "answer of Hugo: location"."""
        m = _ROLL.fullmatch(
            purpose.replace("hit_", "") + "_hit" if purpose.startswith("hit_") else purpose
        )
        if m is None:
            return purpose
        player = state.players.get(m["id"] or "")
        name = player.name if player else m["id"]
        if m["what"] == "hit":
            return Msg(N_("hit on {name}"), {"name": name})
        what = Msg(_ROLL_WHAT[m.group(3)])
        if m["answer"] and name:
            return Msg(N_("answer of {name}: {what}"), {"name": name, "what": what})
        if m["answer"]:
            return Msg(N_("answer: {what}"), {"what": what})
        if name:
            return Msg(N_("{what} on {name}"), {"name": name, "what": what})
        return what

    def label(self, command: Any, state: SBState) -> Msg:
        name = lambda pid: state.players[str(pid)].name if str(pid) in state.players else "?"  # noqa: E731
        if isinstance(command, Assault):
            return Msg(
                N_("assault of {attacker} on {defenders}"),
                {
                    "attacker": name(command.attacker),
                    "defenders": ", ".join(name(d) for d in command.defenders),
                },
            )
        labels = {
            "settings": N_("settings"),
            "sectors": N_("sectors"),
            "deck": N_("deck"),
            "tag": N_("player tag"),
            "start": N_("start"),
            "pause": N_("pause"),
            "resume": N_("resume"),
            "end": N_("end of the game"),
            "knockout_take": N_("card taken after a knock-out"),
            "knockout_again": N_("second assault"),
            "loot": N_("cards taken"),
            "give": N_("card given"),
            "take": N_("card taken back"),
            "correct": N_("correction"),
            "place": N_("players placed"),
            "eliminate": N_("elimination"),
            "close": N_("sectors closed"),
            "zone_due": N_("zone shrink"),
        }
        text = labels[command.type]
        player = getattr(command, "player", None)
        if player is not None:
            return Msg(N_("{what} ({player})"), {"what": Msg(text), "player": name(player)})
        return Msg(text)

    # ------------------------------------------------------------------ pages

    def template_globals(self) -> dict[str, Any]:
        from server.games.serial_battle import catalog

        def titled(table: dict[Any, str], convert: Any) -> Any:
            def title(value: Any) -> str:
                try:
                    return table[convert(value)]
                except (KeyError, ValueError):
                    return str(value)

            return title

        return {
            "category_title": titled(catalog.CATEGORY_TITLES, catalog.Category),
            "effect_title": titled(catalog.EFFECT_TITLES, catalog.Effect),
            "ability_title": titled(catalog.ABILITY_TITLES, catalog.Ability),
            "location_title": titled(catalog.LOCATION_TITLES, lambda v: catalog.Location(int(v))),
            "cause_title": titled(CAUSE_TITLES, str),
            "start_pv": rules.START_PV,
        }

    # ------------------------------------------------------------------ views

    def view(self, state: SBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
        public = self._public(state)
        if viewer.is_staff:
            return {**public, **self._staff(state)}
        if viewer.role == "player" and str(viewer.person_id) in state.players:
            return {**public, "me": self._own(state, state.players[str(viewer.person_id)])}
        return public

    def _public(self, state: SBState) -> dict[str, Any]:
        """What anyone may see: the public board (spec: Public board and end of game)."""
        alive = sorted(state.alive(), key=lambda p: sort_key(p.name))
        eliminated = [
            {
                "order": n,
                "name": state.player(e.player).name,
                "cause": e.cause,
                "at": e.at.isoformat(),
            }
            for n, e in enumerate(state.eliminations, start=1)
        ]
        view: dict[str, Any] = {
            "phase": state.phase,
            "alive": [{"name": p.name, "tag": p.tag} for p in alive],
            "alive_count": len(alive),
            "player_count": len(state.players),
            "eliminations": eliminated,
            "sectors": [{"name": s.name, "open": s.open} for s in state.sectors],
            "zone": state.zone.model_dump(mode="json") if state.zone else None,
            "shrinks": state.shrinks,
            # La zone de combat: what the last shrink closed, announced on every phone.
            "just_closed": [
                s.name for s in state.sectors if state.shrinks and s.closed_at == state.shrinks
            ],
            "shrink_minutes": state.shrink_minutes,
        }
        if state.phase == "finished" and state.result is not None:
            view["result"] = {
                "winner": state.player(state.result.winner).name
                if state.result.winner is not None
                else None,
                "reason": state.result.reason,
            }
            view["summary"] = [
                {
                    "name": p.name,
                    "assaults": p.assaults,
                    "damage": p.damage_dealt,
                    "kills": p.kills,
                    "alive": p.alive,
                    "pv": p.pv,
                }
                for p in sorted(state.players.values(), key=lambda p: (-p.kills, sort_key(p.name)))
            ]
            view["elimination_details"] = [
                {
                    "name": state.player(e.player).name,
                    "by": state.player(e.by).name if e.by else None,
                    "cause": e.cause,
                }
                for e in state.eliminations
            ]
        return view

    def _own(self, state: SBState, player: Player) -> dict[str, Any]:
        """A player's own status: nothing about anyone else's cards."""
        return {
            "id": player.id,
            "name": player.name,
            "pv": player.pv,
            "start_pv": rules.START_PV,
            "cards": [self._held(state, h) for h in player.cards],
            "wounds": {int(k): v.value for k, v in player.wounds.items()},
            "arm_disabled": player.arm_disabled,
            "knocked_out": player.knocked_out,
            "eliminated": player.eliminated,
            "sector": player.sector,
            "out": next(
                (
                    {"cause": e.cause, "by": state.player(e.by).name if e.by else None}
                    for e in state.eliminations
                    if e.player == player.id
                ),
                None,
            ),
            "won": state.result is not None and state.result.winner == player.id,
        }

    def _pool_kinds(self, state: SBState) -> list[dict[str, Any]]:
        kinds: dict[str, dict[str, Any]] = {}
        for copy_id in state.pool:
            card = state.card(copy_id)
            kind = kinds.setdefault(card.key, {"copy_id": copy_id, "name": card.name, "count": 0})
            kind["count"] += 1
        return sorted(kinds.values(), key=lambda k: sort_key(k["name"]))

    def _held(self, state: SBState, held: rules.Held) -> dict[str, Any]:
        card = state.card(held.copy_id)
        return {"copy_id": held.copy_id, "ammo": held.ammo, "card": card.model_dump(mode="json")}

    def _staff(self, state: SBState) -> dict[str, Any]:
        players = sorted(state.players.values(), key=lambda p: (not p.alive, sort_key(p.name)))
        # The assault's player chips: those just in an assault first (they often walk up again),
        # then by name as a reader sorts them.
        fighters = sorted(state.alive(), key=lambda p: (-p.last_fight, sort_key(p.name)))
        return {
            "players": [self._staff_player(state, p) for p in players],
            "fighters": [self._staff_player(state, p) for p in fighters],
            "pool": [{"copy_id": c, "name": state.card(c).name} for c in state.pool],
            # The cards a referee may hand out, one line a kind, as a reader sorts them.
            "pool_kinds": self._pool_kinds(state),
            "out": [{"copy_id": c, "name": state.card(c).name} for c in state.out],
            "pending": [p.model_dump(mode="json") for p in state.pending],
            "deck": [c.model_dump(mode="json") for c in state.deck],
            "sample_deck": state.sample_deck,
            "deal_mode": state.deal_mode,
            "closing": state.closing,
            "plan": state.plan,
            "shrink_due": state.shrink_due,
            "advice": [m.render() for m in rules.advice(state)],
            "missing": [m.render() for m in rules.start_missing(state)],
            "referees": list(state.referees.values()),
            "bare_hands": BARE_HANDS.model_dump(mode="json"),
        }

    def _staff_player(self, state: SBState, p: Player) -> dict[str, Any]:
        return {
            **self._own(state, p),
            "tag": p.tag,
            "assaults": p.assaults,
            "damage": p.damage_dealt,
            "kills": p.kills,
            "last_fight": p.last_fight,
            "default_card": rules.default_weapon(state, p),
        }

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        if viewer.is_staff:
            return full_event(event)
        if viewer.person_id is None or event.type != "command":
            return None
        command = event.command
        involved = {
            command.get("attacker"),
            command.get("player"),
            *command.get("defenders", []),
            *command.get("players", []),
        }
        if viewer.person_id in involved:
            return {
                "seq": event.seq,
                "at": event.at.isoformat(),
                "summary": event.summary.render(),
                "undone": event.undone,
            }
        return None


SERIAL_BATTLE = SerialBattle()
