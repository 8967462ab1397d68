"""What each viewer of a Serial Battle may see (the public board, a player's own status,
the referees' console), the journal's words for dice and actions."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.serial_battle.assault import default_weapon, usable_cards
from server.games.serial_battle.catalog import BARE_HANDS, Card
from server.games.serial_battle.commands import Assault
from server.games.serial_battle.setup import advice, start_missing
from server.games.serial_battle.state import MAX_CARDS, START_PV, Held, Player, SBState
from server.i18n import N_, Msg, joined, sort_key
from server.platform.kinds import LoggedEvent, Part, Viewer, full_event
from server.platform.now import NOTHING_LEFT, WATCH, Now

CAUSE_TITLES = {
    "assault": N_("assault"),
    "zone": N_("closed sector"),
    "out_of_bounds": N_("out of the area"),
    "referee": N_("referee's decision"),
}


def board_part(state: SBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    return public(state)


def console_part(state: SBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    return staff(state)


def me_part(state: SBState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    player = state.players.get(str(viewer.person_id))
    if viewer.role != "player" or player is None:
        return None
    return {"me": own(state, player)}


# What viewers see: the board for all, the console for the staff, a player's own status.
PARTS: tuple[Part[SBState], ...] = (
    Part("board", "game", board_part),
    Part("console", "staff", console_part),
    Part("me", "person", me_part),
)


def public(state: SBState) -> dict[str, Any]:
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


def own(state: SBState, player: Player) -> dict[str, Any]:
    """A player's own status: nothing about anyone else's cards."""
    return {
        "id": player.id,
        "name": player.name,
        "pv": player.pv,
        "start_pv": START_PV,
        "cards": [held_card(state, h) for h in player.cards],
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


def pool_kinds(state: SBState) -> list[dict[str, Any]]:
    kinds: dict[str, dict[str, Any]] = {}
    for copy_id in state.pool:
        card = state.card(copy_id)
        kind = kinds.setdefault(card.key, {"copy_id": copy_id, "name": card.name, "count": 0})
        kind["count"] += 1
    return sorted(kinds.values(), key=lambda k: sort_key(k["name"]))


def held_card(state: SBState, held: Held) -> dict[str, Any]:
    card = state.card(held.copy_id)
    return {"copy_id": held.copy_id, "ammo": held.ammo, "card": card_json(card)}


# Cards as JSON, by card object: a card is never changed in place (a new deck replaces the old
# one whole, `state.copy_but_deck`) and the cached state keeps its deck from change to change,
# so each card is dumped once, not once per player's part at every change (a sixth of a change's
# fan-out at 6,400 phones). The card is kept with its dump: its id is not reused meanwhile.
_CARD_JSON: dict[int, tuple[Card, dict[str, Any]]] = {}


def card_json(card: Card) -> dict[str, Any]:
    """The card as JSON (shared: read it, never change it)."""
    known = _CARD_JSON.get(id(card))
    if known is not None and known[0] is card:
        return known[1]
    made = card.model_dump(mode="json")
    if len(_CARD_JSON) > 20_000:
        _CARD_JSON.clear()
    _CARD_JSON[id(card)] = (card, made)
    return made


def staff(state: SBState) -> dict[str, Any]:
    players = sorted(state.players.values(), key=lambda p: (not p.alive, sort_key(p.name)))
    # The assault's player chips: those just in an assault first (they often walk up again),
    # then by name as a reader sorts them.
    fighters = sorted(state.alive(), key=lambda p: (-p.last_fight, sort_key(p.name)))
    shown = {p.id: staff_player(state, p) for p in players}  # once each, for both lists
    return {
        "players": [shown[p.id] for p in players],
        "fighters": [shown[p.id] for p in fighters],
        "pool": [{"copy_id": c, "name": state.card(c).name} for c in state.pool],
        # The cards a referee may hand out, one line a kind, as a reader sorts them.
        "pool_kinds": pool_kinds(state),
        "out": [{"copy_id": c, "name": state.card(c).name} for c in state.out],
        "pending": [p.model_dump(mode="json") for p in state.pending],
        "deck": [card_json(c) for c in state.deck],
        "sample_deck": state.sample_deck,
        "deal_mode": state.deal_mode,
        "closing": state.closing,
        "plan": state.plan,
        "shrink_due": state.shrink_due,
        "advice": [m.render() for m in advice(state)],
        "missing": [m.render() for m in start_missing(state)],
        "referees": list(state.referees.values()),
        "bare_hands": BARE_HANDS.model_dump(mode="json"),
    }


def staff_player(state: SBState, p: Player) -> dict[str, Any]:
    return {
        **own(state, p),
        "tag": p.tag,
        "assaults": p.assaults,
        "damage": p.damage_dealt,
        "kills": p.kills,
        "last_fight": p.last_fight,
        "default_card": default_weapon(state, p),
        # The cards the assault forms offer: those it may strike with now, ammunition, state
        # and card allowing (`assault.weapon_for`), as the rules judge them.
        "usable": usable_cards(state, p),
        # Waiting for a choice after a knockout (`assault.ready_for_assault`): no assault now.
        "waiting": any(p.id in (w.winner, w.loser) for w in state.pending),
        "put_out_by": p.put_out_by,
    }


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
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


def replay_line(event: LoggedEvent, state: SBState) -> Msg | None:
    """An action as the public may know it once the game is over (its summary shows each
    player's assaults, damage dealt and eliminations): an assault's blows, who struck whom for
    how many PV, never with which card nor where; an elimination, whose. None: the words of
    its move."""

    def name(player_id: Any) -> str:
        found = state.players.get(str(player_id))
        return found.name if found else str(player_id)

    command = event.command
    if event.type == "command" and command.get("type") in ("assault", "knockout_again"):
        blows = [b for b in event.result.get("blows", ()) if b.get("hit", True)]
        if not blows:
            if command.get("attacker") is None:  # a second assault names its pending choice
                return None
            return Msg(
                N_("{name} attacks: no blow lands."), {"name": name(command.get("attacker"))}
            )
        said = []
        for blow in blows:
            params = {"striker": name(blow["striker"]), "target": name(blow["target"])}
            out = blow.get("fatal") or blow.get("remaining", 1) <= 0
            text = (
                N_("{striker} → {target}: {pv} HP, out")
                if out
                else N_("{striker} → {target}: {pv} HP")
            )
            said.append(Msg(text, params | {"pv": blow.get("pv", 0)}))
        return joined(said, " · ")
    if event.type == "command" and command.get("type") == "eliminate":
        return Msg(N_("{name} is eliminated."), {"name": name(command.get("player"))})
    return None


def label(command: Any, state: SBState, declared: Msg) -> Msg:
    """The undo button's words: the move's declared label, with whom it concerns."""
    name = lambda pid: state.players[str(pid)].name if str(pid) in state.players else "?"  # noqa: E731
    if isinstance(command, Assault):
        return Msg(
            N_("assault of {attacker} on {defenders}"),
            {
                "attacker": name(command.attacker),
                "defenders": ", ".join(name(d) for d in command.defenders),
            },
        )
    if command.type == "knockout_take" and command.card is None:
        return Msg(N_("knock-out left with no card"))
    player = getattr(command, "player", None)
    if player is not None:
        return Msg(N_("{what} ({player})"), {"what": declared, "player": name(player)})
    return declared


def template_globals() -> dict[str, Any]:
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
        "start_pv": START_PV,
        "max_cards": MAX_CARDS,
    }


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """Where the game stands, and what this referee, player or organizer does now."""
    phase, me, staff = view["phase"], view.get("me"), viewer.is_staff
    alive = {"alive": view["alive_count"], "count": view["player_count"]}
    watcher = viewer.role == "public"
    if phase == "setup":
        where = Msg(N_("Setting up: the game has not started."))
        if viewer.is_organizer:
            return Now(where, Msg(N_("Name the sectors, then start the game.")), yours=True)
        if staff:
            return Now(
                where, Msg(N_("Once the organizer starts the game, resolve the assaults here."))
            )
        return Now(
            where, None if watcher else Msg(N_("Wait for the start: your cards will show here."))
        )
    if phase == "finished":
        result = view.get("result") or {}
        if result.get("winner"):
            where = Msg(N_("The game is over: {name} wins!"), {"name": result["winner"]})
        elif result.get("reason") == "no_survivor":
            where = Msg(N_("The game is over: the last players fell together."))
        else:
            where = Msg(N_("The game is over: ended by the referee."))
        if staff:
            return Now(
                where, Msg(N_("Nothing left to do, but undo the last action if it was a mistake."))
            )
        if me and me["won"]:
            return Now(where, Msg(N_("You won!")))
        return Now(where, None if watcher else Msg(NOTHING_LEFT))
    if phase == "paused":
        where = Msg(N_("Game paused · {alive} of {count} still in play"), alive)
        if staff:
            return Now(where, Msg(N_("Resume the game when everyone is ready.")), yours=True)
        return Now(where, None if watcher else Msg(N_("Wait: the game is paused.")))
    where = Msg(N_("Game on · {alive} of {count} still in play"), alive)
    if staff:
        if view.get("shrink_due"):
            return Now(
                where,
                Msg(N_("The zone shrinks: close the sectors due.")),
                yours=True,
            )
        if view.get("pending"):
            return Now(
                where, Msg(N_("A decision waits for you above: settle it first.")), yours=True
            )
        return Now(where, Msg(N_("Resolve each assault in the panel above.")), yours=True)
    if me is None:
        return Now(where, None if watcher else Msg(WATCH))
    if me["eliminated"]:
        return Now(where, Msg(N_("You are out of the game.")))
    if me["knocked_out"]:
        return Now(where, Msg(N_("You are knocked out: a referee settles what happens to you.")))
    return Now(where, Msg(N_("Play: after each fight, go to a referee with your opponent.")))
