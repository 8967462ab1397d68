"""People who leave a league (`tests/test_service.py`): a coach who leaves takes an unplayed team
along."""

from __future__ import annotations

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of


def test_a_coach_who_leaves_takes_an_unplayed_team_along(
    service: GameService, rolls: ScriptedRolls
) -> None:
    rolls.endless = True
    from server.games.killpower.demo import wizard

    game, organizer = service.create_game("killpower_league", "Ligue", "Orga", idem_key=key())
    org = viewer_of(organizer)
    alix = service.register(game.id, org, "coach", "Alix", idem_key=key())
    service.perform(game.id, viewer_of(alix), wizard("Nabos"), idem_key=key())
    assert [t.name for t in service.load(game.id).state.teams.values()] == ["Nabos"]
    service.revoke(game.id, org, alix.person.id, idem_key=key())  # type: ignore[arg-type]
    assert not service.load(game.id).state.teams
    assert service.verify(game.id)
