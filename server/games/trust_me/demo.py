"""`python -m server demo trust_me`: three survivors dealt, their starting tokens kept, the first
round begun."""

from __future__ import annotations

from typing import Any

from server.games.demo import demo
from server.games.trust_me.catalog import ON_PASSPORT
from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered

PLAYERS = (("Léa", "marcus"), ("Hugo", "lena"), ("Ana", "doc"))


@demo("trust_me")
def trust_me_demo(service: GameService, key: str) -> tuple[Game, Registered]:
    game, organizer = service.create_game(
        "trust_me", "Démo · Trust Me", "Organisatrice", idem_key=key
    )
    org = Viewer("organizer", organizer.person.id, organizer.person.name)
    people = {}
    for name, passport in PLAYERS:
        person = service.register(game.id, org, "player", name, idem_key=f"{key}-{name}").person
        people[name] = Viewer("player", person.id, person.name)
        for command in (
            {"type": "passport", "player": person.id, "passport": passport},
            {"type": "decor", "player": person.id, "pieces": ["car", "sandbags"]},
        ):
            service.perform(game.id, org, command, idem_key=f"{key}-{command['type']}-{name}")
    service.perform(game.id, org, {"type": "deal"}, idem_key=f"{key}-deal")
    state: Any = service.load(game.id).state
    for name, viewer in people.items():
        offered = state.survivor(viewer.person_id).offered
        thing = state.box.thing(state.item(offered[2]).key)
        where = {"backpack": "backpack", "sneakers": "outfit", "satchel": "outfit"}.get(
            thing.effect
        )
        where = where or ("passport" if thing.effect in ON_PASSPORT else "c9")
        keep = [{"item": offered[0], "slot": "right"}, {"item": offered[2], "slot": where}]
        service.perform(
            game.id, viewer, {"type": "keep", "items": keep}, idem_key=f"{key}-keep-{name}"
        )
    return game, organizer
