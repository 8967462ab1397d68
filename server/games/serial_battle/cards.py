"""Cards (Munitions, Points de vie: 5 cards at most): ammunition spent and recovered, cards
found and given back, the loot of a fallen player, a referee's corrections."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.errors import InvalidInput, RuleError
from server.games.serial_battle.commands import Correct, GiveCard, Loot, TakeCard
from server.games.serial_battle.ending import eliminate
from server.games.serial_battle.state import MAX_CARDS, Held, Pending, Player, SBState, Weapon
from server.i18n import N_, P_, Msg, joined, listed
from server.platform.dice import Dice
from server.platform.kinds import Applied, Context


def recovered(die: int) -> bool:
    """Récupération des munitions: 1 to 5 the projectile is recovered, 6 it is lost."""
    return die <= 5


def spend_ammunition(
    state: SBState, striker: Player, weapon: Weapon, dice: Dice, prefix: str
) -> dict[str, int | bool | str | None]:
    """One unit per shot; a recoverable projectile comes back on 1-5; an empty weapon leaves the
    game and goes back to the referee (Munitions)."""
    if weapon.copy_id is None:
        return {}
    held = striker.holds(weapon.copy_id)
    if held is None or held.ammo is None:
        return {}
    held.ammo -= 1
    recovery: int | None = None
    if weapon.card.recoverable:
        recovery = dice.roll(6, f"{prefix}recovery")
        if recovered(recovery):
            held.ammo += 1
    gone = held.ammo <= 0
    if gone:
        striker.cards = [h for h in striker.cards if h.copy_id != weapon.copy_id]
        state.out.append(weapon.copy_id)
    return {"card": weapon.copy_id, "left": held.ammo, "recovery": recovery, "gone": gone}


def take_pending(state: SBState, pending_id: int, kind: str) -> Pending:
    pending = next((p for p in state.pending if p.id == pending_id and p.kind == kind), None)
    if pending is None:
        raise RuleError(N_("This choice was already made."), field="pending")
    state.pending.remove(pending)
    return pending


def move_card(state: SBState, source: Player, target: Player, copy_id: str) -> None:
    held = source.holds(copy_id)
    if held is None:
        raise RuleError(
            N_("{player} does not hold “{card}”."),
            field="card",
            player=source.name,
            card=state.card(copy_id).name,
        )
    if len(target.cards) >= MAX_CARDS:
        raise RuleError.counted(
            P_(
                "{player} already holds {count} card, the most allowed.",
                "{player} already holds {count} cards, the most allowed.",
            ),
            "count",
            field="card",
            player=target.name,
            count=MAX_CARDS,
        )
    source.cards.remove(held)
    target.cards.append(held)


def fresh_card(state: SBState, copy_id: str) -> Held:
    card = state.card(copy_id)
    return Held(copy_id=copy_id, ammo=card.ammo if not card.unlimited_ammo else None)


def ammunition_notes(state: SBState, spent: Mapping[str, Mapping[str, Any]]) -> list[Msg]:
    """Munitions: what became of a projectile (Récupération des munitions: 1 to 5 recovered, 6
    lost) and of a weapon that ran out ("retirée de la partie et remise à l'arbitre")."""
    notes = []
    for player_id, info in spent.items():
        card = info.get("card")
        if not card:
            continue
        player = state.player(player_id)
        params = {"player": player.name, "card": state.card(str(card)).name}
        recovery = info.get("recovery")
        if recovery is not None and not player.eliminated:  # out: the loot says where cards go
            text = (
                N_("{player} recovers the {card} projectile (die: {die}).")
                if recovered(int(recovery))
                else N_("{player} loses the {card} projectile (die: {die}).")
            )
            notes.append(Msg(text, {**params, "die": recovery}))
        if info.get("gone"):
            notes.append(
                Msg(N_("The card {card} of {player} is empty: take the card back."), params)
            )
    return notes


# -------------------------------------------------------------------- handlers


def check_loot(winner: Player, loser: Player, take: list[str], give_back: list[str]) -> None:
    """The winner takes only what the loser holds, gives back only their own, and ends with
    MAX_CARDS at most."""
    for copy_id in take:
        if loser.holds(copy_id) is None:
            raise RuleError(
                N_("{loser} does not hold “{card}”."), field="take", loser=loser.name, card=copy_id
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
        raise RuleError.counted(
            P_(
                "{winner} would hold {count} card, {limit} at most: take fewer, or give "
                "back some of their own.",
                "{winner} would hold {count} cards, {limit} at most: take fewer, or give "
                "back some of their own.",
            ),
            "count",
            field="take",
            winner=winner.name,
            count=count,
            limit=MAX_CARDS,
        )


def loot_from_form(payload: dict[str, Any]) -> dict[str, Any]:
    """The loot's form starts with nothing ticked (what the winner takes is never chosen for
    the referee): its button takes the cards ticked, and taking none is a button of its own."""
    if payload.get("type") != "loot":
        return payload
    payload = dict(payload)
    if payload.pop("choice", None) == "nothing":
        payload.pop("take", None)
        payload.pop("give_back", None)
    elif not payload.get("take"):
        raise InvalidInput(N_("Tick the cards to take, or tap “Take nothing”."), field="take")
    return payload


def on_loot(state: SBState, c: Loot, ctx: Context) -> Applied:
    pending = next((p for p in state.pending if p.id == c.pending and p.kind == "loot"), None)
    if pending is None:
        raise RuleError(N_("This choice was already made."), field="pending")
    winner, loser = state.player(pending.winner), state.player(pending.loser)
    take, give_back = list(dict.fromkeys(c.take)), list(dict.fromkeys(c.give_back))
    check_loot(winner, loser, take, give_back)
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
    return Applied(joined(pieces), facts)


def on_give(state: SBState, c: GiveCard, ctx: Context) -> Applied:
    player = state.player(c.player)
    if player.eliminated:
        raise RuleError(N_("{player} is eliminated."), field="player", player=player.name)
    if c.card not in state.pool:
        raise RuleError(N_("“{card}” is not in the referee's hands."), field="card", card=c.card)
    if len(player.cards) >= MAX_CARDS:
        raise RuleError.counted(
            P_(
                "{player} already holds {count} card, the most allowed.",
                "{player} already holds {count} cards, the most allowed.",
            ),
            "count",
            field="card",
            player=player.name,
            count=MAX_CARDS,
        )
    state.pool.remove(c.card)
    player.cards.append(fresh_card(state, c.card))
    return Applied(
        Msg(
            N_("{player} picks up the card {card}."),
            {"player": player.name, "card": state.card(c.card).name},
        ),
        {},
    )


def on_take(state: SBState, c: TakeCard, ctx: Context) -> Applied:
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
    return Applied(
        Msg(
            N_("The card {card} goes back from {player} to the referee."),
            {"player": player.name, "card": state.card(c.card).name},
        ),
        {},
    )


def on_correct(state: SBState, c: Correct, ctx: Context) -> Applied:
    player = state.player(c.player)
    if player.eliminated:
        raise RuleError(
            N_("{player} is out of the game: undo the elimination instead."),
            field="player",
            player=player.name,
        )
    changes = []
    # What changes is said, not what the form sent as it was (issue 50: "munitions 4 → 4").
    if c.pv is not None and c.pv != player.pv:
        changes.append(Msg(N_("HP {old} → {new}"), {"old": player.pv, "new": c.pv}))
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
        if c.ammo != held.ammo:
            changes.append(Msg(N_("ammunition {old} → {new}"), {"old": held.ammo, "new": c.ammo}))
            held.ammo = c.ammo
    if not changes:
        raise RuleError(
            N_("Nothing to correct: say the HP, or a card's ammunition, to change."), field="pv"
        )
    if player.pv <= 0:
        eliminate(state, player, "referee", ctx.now, c.reason)
    return Applied(
        Msg(
            N_("Correction for {player}: {changes} ({reason})."),
            {"player": player.name, "changes": joined(changes, ", "), "reason": c.reason},
        ),
        {},
    )
