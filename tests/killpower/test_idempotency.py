"""Idempotency keys (`tests/security/test_idempotency.py`): the keys the server uses for a
finished match's result live where no client can write."""

from __future__ import annotations

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.killpower.conftest import Match, team_command


def test_a_coach_cannot_keep_a_match_result_from_the_league(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """A follow-up's key was predictable (`follow:{match}:{seq}:0`) and spendable in the league
    by a coach, so the result never arrived. Now the server's keys are out of any client's reach."""
    rolls.endless = True
    match = Match(service, rolls)
    A, B = "A", "B"
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:1]})
    match.act(B, {"type": "lineup", "gladiators": match.ids[B][:1]})
    coach = match.league.coaches["Nadia"]
    seq = service.load(match.id).game.seq + 1  # the surrender's event
    for n, guess in enumerate((f"follow:{match.id}:{seq}:0", f"follow:{match.id}:{seq}:1")):
        # Spent in the league by a coach's own action, which succeeds.
        team = team_command(f"Réserve{n}", ["gloves"] * 7)
        service.perform(match.league.id, coach, team, idem_key=guess)
    match.act(match.state.moving, {"type": "surrender"})
    assert match.league.state.matches, "the result did not reach the league"
    assert match.league.state.live[0].recorded == match.league.state.matches[-1].number
