"""`python -m server demo killpower_league`: a league of four coaches, their teams, two matches played."""

from __future__ import annotations

from typing import Any

from server.games.demo import demo
from server.games.killpower.league import LeagueState
from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered

TEAMS = {"Alix": "Nabos", "Basile": "Titanos", "Chloé": "Vikings", "Dany": "Zorgs"}
SPECIALIZATIONS = ["archer", "defender", "warrior", "mentor", "shooter", "warrior", "defender"]
EQUIPMENT = ["armour", "powers", "gloves", "powers", "gloves", "armour", "gloves"]
NAMES = ["Tom", "Ana", "Rok", "Ixa", "Bel", "Gus", "Mia"]


def wizard(team: str) -> dict[str, Any]:
    return {
        "type": "team",
        "name": team,
        "gladiators": [
            {
                "name": f"{name} {team[:3]}",
                "number": number,
                "specialization": SPECIALIZATIONS[number - 1],
                "equipment": EQUIPMENT[number - 1],
            }
            for number, name in enumerate(NAMES, start=1)
        ],
    }


@demo("killpower_league")
def league_demo(service: GameService, key: str) -> tuple[Game, Registered]:
    game, organizer = service.create_game(
        "killpower_league", "Démo · Ligue de Killpower Ball", "Responsable", idem_key=key
    )
    owner = Viewer("organizer", organizer.person.id, organizer.person.name)
    teams = {}
    for coach_name, team in TEAMS.items():
        coach = service.register(game.id, owner, "coach", coach_name, idem_key=f"{key}-{team}")
        coach_viewer = Viewer("coach", coach.person.id, coach_name)
        done = service.perform(game.id, coach_viewer, wizard(team), idem_key=f"{key}-w-{team}")
        teams[team] = done.result["team"]
    state = service.load(game.id).state
    assert isinstance(state, LeagueState)

    def match(a: str, b: str, score: tuple[int, int], number: int) -> None:
        ids = [[g.id for g in state.teams[str(teams[t])].gladiators] for t in (a, b)]
        command = {
            "type": "match",
            "team_a": teams[a],
            "team_b": teams[b],
            "played_a": ids[0],
            "played_b": ids[1],
            "score_a": score[0],
            "score_b": score[1],
        }
        service.perform(game.id, owner, command, idem_key=f"{key}-m{number}")

    match("Nabos", "Titanos", (4, 1), 1)
    match("Vikings", "Zorgs", (2, 2), 2)
    return game, organizer
