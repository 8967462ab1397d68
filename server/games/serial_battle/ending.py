"""The end of a player and of the game (Points de vie: "il est éliminé"; Quand se termine la
partie ?): eliminations by the referee, the cards a player out leaves, the winner."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from server.errors import RuleError
from server.games.serial_battle.commands import Eliminate
from server.games.serial_battle.state import Elimination, Player, Result, SBState
from server.i18n import N_, Msg, joined
from server.platform.kinds import Applied, Context


def outcome(state: SBState) -> Result | None:
    """The end of the game (Quand se termine la partie ?): one survivor wins; none, nobody wins."""
    if state.phase in ("setup",):
        return None
    alive = state.alive()
    if len(alive) == 1:
        return Result(winner=alive[0].id, reason="last_survivor")
    if not alive:
        return Result(winner=None, reason="no_survivor")
    return None


def eliminate(
    state: SBState,
    player: Player,
    cause: Literal["zone", "out_of_bounds", "referee"],
    now: datetime,
    note: str = "",
) -> None:
    """Out by the referee's word (zone, bounds, a correction to 0 PV): no winner takes the cards,
    and the choices this player was still to make lapse."""
    player.eliminated = True
    player.knocked_out = False
    state.eliminations.append(Elimination(player=player.id, cause=cause, at=now, note=note))
    for pending in list(state.pending):
        if player.id not in (pending.winner, pending.loser):
            continue
        state.pending.remove(pending)
        other = state.player(pending.loser)
        other.knocked_out = False
        if pending.kind == "loot":
            return_cards(state, other)
    return_cards(state, player)
    finish_if_over(state, now)


def note_who_put_out(before: SBState, after: SBState, command: Any, ctx: Context) -> None:
    """After every action: the players it put out (eliminated, or knocked out), by the referee
    who sent it; another referee holding an assault on them is told by whom (issue 50)."""
    for key, player in after.players.items():
        was = before.players.get(key)
        if was is None:
            continue
        if (player.eliminated and not was.eliminated) or (
            player.knocked_out and not was.knocked_out
        ):
            player.put_out_by = ctx.actor.name


def finish_if_over(state: SBState, now: datetime) -> None:
    result = outcome(state)
    if result is not None and state.phase != "finished":
        state.result = result
        state.phase = "finished"
        state.ended_at = now
        state.zone = state.zone.pause(now) if state.zone else None
        for pending in state.pending:
            loser = state.player(pending.loser)
            loser.knocked_out = False
            if pending.kind == "loot":  # nobody is left to take them
                return_cards(state, loser)
        state.pending = []


def on_eliminate(state: SBState, c: Eliminate, ctx: Context) -> Applied:
    player = state.player(c.player)
    if player.eliminated:
        raise RuleError(N_("{player} is eliminated."), field="player", player=player.name)
    eliminate(state, player, c.cause, ctx.now, c.note)
    causes = {
        "zone": N_("{player} is eliminated: inside a closed sector."),
        "out_of_bounds": N_("{player} is eliminated: out of the play area."),
        "referee": N_("{player} is eliminated by the referee."),
    }
    return Applied(joined([Msg(causes[c.cause], {"player": player.name}), *end_note(state)]), {})


def return_cards(state: SBState, player: Player) -> None:
    state.pool.extend(h.copy_id for h in player.cards)
    player.cards = []


def end_note(state: SBState) -> list[Msg]:
    if state.phase != "finished" or state.result is None:
        return []
    if state.result.winner is not None:
        return [Msg(N_("{winner} wins!"), {"winner": state.player(state.result.winner).name})]
    return [Msg(N_("Nobody wins: the last players fell together."))]
