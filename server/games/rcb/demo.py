"""`python -m server demo rcb`: eight fighters in two teams, a phone for each team, the cards
dealt."""

from __future__ import annotations

from server.games.demo import demo
from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered

FIGHTERS = {"A": ["Léa", "Hugo", "Zoé", "Malik"], "B": ["Inès", "Tom", "Chloé", "Sami"]}


@demo("rcb")
def rcb_demo(service: GameService, key: str) -> tuple[Game, Registered]:
    game, organizer = service.create_game(
        "rcb", "Démo · Soirée Roi / Chevalier / Bourreau", "Maître du jeu", idem_key=key
    )
    gm = Viewer("organizer", organizer.person.id, organizer.person.name)
    service.perform(
        game.id, gm, {"type": "team_names", "a": "Rouges", "b": "Bleus"}, idem_key=f"{key}-names"
    )
    for team, names in FIGHTERS.items():
        for name in names:
            person = service.register(game.id, gm, "fighter", name, idem_key=f"{key}-{name}")
            service.perform(
                game.id,
                gm,
                {"type": "assign", "person": person.person.id, "team": team},
                idem_key=f"{key}-team-{name}",
            )
        phone = service.register(
            game.id, gm, "team", f"Téléphone {team}", idem_key=f"{key}-phone-{team}"
        )
        service.perform(
            game.id,
            gm,
            {"type": "assign", "person": phone.person.id, "team": team},
            idem_key=f"{key}-team-phone-{team}",
        )
    service.perform(game.id, gm, {"type": "deal"}, idem_key=f"{key}-deal")
    return game, organizer
