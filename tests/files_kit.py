"""A game's file, as a test reads and brings it: its organizer's download, the whole file the
server's runner takes, what it holds (lists, dicts, dice), brought to a server (the shared file
tests and the games' own, `tests/<game>/test_game_file.py`, read it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from server.models import Game
from server.platform.kinds import SYSTEM, Viewer
from server.platform.service import GameService
from tests.conftest import key, top_of
from tests.scene import Scene


def exported(service: GameService, game_id: str) -> str:
    return json.dumps(service.export_game(game_id, SYSTEM))


def imported(server: GameService, text: str) -> Game:
    game, _ = server.import_game(text, caller="test", idem_key=key())
    return game


def organizer_of(service: GameService, game_id: str) -> Viewer:
    person = next(p for p in service.people(game_id) if p.role == "organizer")
    return Viewer(person.role, person.id, person.name)


def file_of(service: GameService, scene: Scene, ticket: str | None = None) -> dict[str, Any]:
    """The file the organizer of the scene's game (of the league, for a match) downloads."""
    top = top_of(service, scene.game)
    body = service.export_game(top, organizer_of(service, top), ticket=ticket)
    return json.loads(json.dumps(body))


def lists_in(data: Any) -> Iterator[list[Any]]:
    if isinstance(data, list):
        yield data
        for item in data:
            yield from lists_in(item)
    elif isinstance(data, dict):
        for value in data.values():
            yield from lists_in(value)


def dicts_in(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from dicts_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from dicts_in(item)


def clear_file(service: GameService, scene: Scene) -> dict[str, Any]:
    """The whole file, as the server's runner takes it on the command line."""
    return json.loads(json.dumps(service.export_game(top_of(service, scene.game), SYSTEM)))


def dice_of(server: GameService, game_id: str) -> list[dict[str, Any]]:
    """Every die the game's log keeps, as stored (a log page shows each reader their part)."""
    with server.db.read() as s:
        return [r for e in server.store.events(s, game_id) for r in e.rolls]


def brought(server: GameService, data: dict[str, Any]) -> Any:
    return server.import_game(json.dumps(data), caller="attacker", idem_key=key())
