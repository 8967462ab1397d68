"""A command names only things of its own game (`tests/security/test_references.py`), in a
league: the one command naming another game (`open_match`) is the platform's alone, and a live
match's result is recorded by the match alone."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, seat_key
from tests.killpower.scenes import league_world
from tests.phones_kit import api


def test_a_match_is_opened_by_the_platform_only(client: TestClient, rolls: ScriptedRolls) -> None:
    """The one command naming another game (a league's `open_match`) is refused to everyone: the
    platform records it when it opens a match, with the ids it created itself."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    world = league_world(service, rolls)
    victim, owner = service.create_game("tally", "Soirée", "MJ", idem_key=key())  # any game
    for persona in ("organizer", "coach"):
        actor = world.people[persona]
        token = seat_key(service, world.game, actor.person_id)
        answer = api(
            client,
            token,
            world.game,
            {
                "type": "open_match",
                "game": victim.id,
                "team_a": world.ids["nabos"],
                "team_b": world.ids["titanos"],
                "coach_a": owner.person.id,
                "coach_b": owner.person.id,
                "organizer": owner.person.id,
            },
        )
        assert answer.status_code == 403, answer.text
    assert service.load(world.game).state.live == []  # type: ignore[attr-defined]


def test_a_live_match_is_recorded_by_its_game_alone(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """The league's owner recorded a made-up result in the name of a match still played on the
    live sheet; the true result was then refused. Only the match itself may name it."""
    from tests.killpower.conftest import Match

    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls)
    league = match.league
    owner = seat_key(service, league.id, league.owner.person_id)
    nabos, titanos = league.team("Nabos"), league.team("Titanos")
    fake = {
        "type": "match",
        "team_a": nabos.id,
        "team_b": titanos.id,
        "played_a": [g.id for g in nabos.gladiators],
        "played_b": [g.id for g in titanos.gladiators],
        "score_a": 3,
        "score_b": 0,
        "match_game": match.id,
    }
    assert api(client, owner, league.id, fake).status_code == 403
    for side in "AB":
        match.act(side, {"type": "lineup", "gladiators": match.ids[side][:1]})
    match.act(match.state.moving, {"type": "surrender"})
    record = league.state.matches[-1]
    assert league.state.live[0].recorded == record.number and record.score == (0, 0)
