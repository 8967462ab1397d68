"""The end (step 11): no bet card left, or no duel that can still be won; the reveal."""

from __future__ import annotations

from server.errors import RuleError
from server.games.rcb.commands import Reveal
from server.games.rcb.state import RCBState, Result
from server.i18n import N_, Msg
from server.platform.kinds import Applied, Context


def end_of_game(state: RCBState) -> Result | None:
    """A team with no fighter ends the game: most bet cards wins, equal cards both win. When only
    fighters who can never beat each other remain, it is a perfect tie: both teams win."""
    left_a, left_b = state.standing("A"), state.standing("B")
    if not left_a or not left_b:
        if state.bets["A"] == state.bets["B"]:
            return Result(winners=["A", "B"], reason="no_fighters")
        return Result(
            winners=["A" if state.bets["A"] > state.bets["B"] else "B"], reason="no_fighters"
        )
    if all(
        state.matrix.duel(x.role, y.role) == "tie"  # type: ignore[arg-type]
        for x in left_a
        for y in left_b
    ):
        return Result(winners=["A", "B"], reason="perfect_tie")
    return None


def finish(state: RCBState, result: Result) -> None:
    state.result = result
    state.phase = "finished"
    state.timer = None
    # What stayed in the middle after a tie goes back to its team.
    for team in ("A", "B"):
        state.bets[team] += state.carry[team]
    state.carry = {"A": 0, "B": 0}


def maybe_end(state: RCBState) -> Msg | None:
    result = end_of_game(state)
    if result is None:
        return None
    finish(state, result)
    if result.reason == "perfect_tie":
        return Msg(N_("Perfect tie: no duel can be won any more, both teams win!"))
    if len(result.winners) == 2:
        return Msg(N_("Game over: equal bet cards, both teams win!"))
    return Msg(
        N_("Game over: team {team} wins with {cards} bet cards!"),
        {"team": state.team_names[result.winners[0]], "cards": state.bets[result.winners[0]]},
    )


# -------------------------------------------------------------------- handlers


def on_reveal(state: RCBState, c: Reveal, ctx: Context) -> Applied:
    if state.phase != "finished":
        raise RuleError(N_("Roles are revealed only at the end."))
    state.revealed = True
    return Applied(Msg(N_("The game master reveals every role.")))
