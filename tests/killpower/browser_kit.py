"""Killpower Ball's browser helpers: a self-refereed match between two coaches."""

from __future__ import annotations

from server.games.killpower.demo import wizard
from server.platform.service import GameService, Registered
from tests.conftest import key, viewer_of


def two_coach_match(
    service: GameService, *, board: bool = False
) -> tuple[str, dict[str, Registered], str]:
    """A league (Alix's Nabos, Basile's Titanos) and a self-refereed match opened between them:
    the league's id, the coaches, the match's id."""
    game, owner = service.create_game("killpower_league", "Ligue", "Camille", idem_key=key())
    org = viewer_of(owner)
    coaches = {
        name: service.register(game.id, org, "coach", name, idem_key=key())
        for name in ("Alix", "Basile")
    }
    for name, team in (("Alix", "Nabos"), ("Basile", "Titanos")):
        service.perform(game.id, viewer_of(coaches[name]), wizard(team), idem_key=key())
    teams = {t.name: t.id for t in service.load(game.id).state.teams.values()}
    request = {"team_a": teams["Nabos"], "team_b": teams["Titanos"], "mode": "self", "board": board}
    match_id = service.open_linked(game.id, viewer_of(coaches["Alix"]), request, idem_key=key())
    return game.id, coaches, match_id
