"""`python -m server demo battlefight`: two players with random decks, the game begun and the
first moves played."""

from __future__ import annotations

from server.games.demo import demo
from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered

PLAYERS = ("Léa", "Hugo")


@demo("battlefight")
def battlefight_demo(service: GameService, key: str) -> tuple[Game, Registered]:
    game, organizer = service.create_game(
        "battlefight", "Démo · BattleFight", "Organisatrice", idem_key=key
    )
    org = Viewer("organizer", organizer.person.id, organizer.person.name)
    people = {}
    for name in PLAYERS:
        person = service.register(game.id, org, "player", name, idem_key=f"{key}-{name}").person
        people[name] = Viewer("player", person.id, person.name)
        service.perform(
            game.id, people[name], {"type": "boosters"}, idem_key=f"{key}-boosters-{name}"
        )
    service.perform(game.id, org, {"type": "start"}, idem_key=f"{key}-start")
    for turn in range(2):  # each draws a card: their first hands
        state = service.load(game.id).state
        pending = state.table.pending  # type: ignore[attr-defined]
        player = next(v for v in people.values() if v.person_id == pending.player)
        service.perform(
            game.id,
            player,
            {"type": "choose", "values": ["base-concentration"]},
            idem_key=f"{key}-turn-{turn}",
        )
    return game, organizer
