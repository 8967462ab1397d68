"""`python -m server demo serial_battle`: a started game in a park, 12 players, two referees."""

from __future__ import annotations

from server.games.demo import demo
from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered

PLAYERS = [
    "Léa",
    "Hugo",
    "Zoé",
    "Malik",
    "Inès",
    "Tom",
    "Chloé",
    "Sami",
    "Jade",
    "Yanis",
    "Lina",
    "Noé",
]


@demo("serial_battle")
def serial_battle_demo(service: GameService, key: str) -> tuple[Game, Registered]:
    game, organizer = service.create_game(
        "serial_battle", "Démo · Parc de la Tête d'Or", "Organisateur", idem_key=key
    )
    org = Viewer("organizer", organizer.person.id, organizer.person.name)
    for number, name in enumerate(("Arbitre Nord", "Arbitre Sud"), start=1):
        service.register(game.id, org, "referee", name, idem_key=f"{key}-ref-{number}")
    for number, name in enumerate(PLAYERS, start=1):
        service.register(game.id, org, "player", name, idem_key=f"{key}-player-{number}")
    service.perform(
        game.id,
        org,
        {
            "type": "sectors",
            "names": "Lac, Roseraie, Serres, Zoo, Vélodrome, Prairie",
            "plan": "Vélodrome\nZoo\nSerres\nRoseraie",
        },
        idem_key=f"{key}-sectors",
    )
    service.perform(game.id, org, {"type": "start"}, idem_key=f"{key}-start")
    return game, organizer
