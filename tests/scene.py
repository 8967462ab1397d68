"""Scenes: a game of some kind in one of its phases or ends, with the links of the people who
look at it (its organizer, a referee where the kind has any, each kind of player).

Each game declares its own in its tests' folder, `tests/<game>/scenes.py`: `SCENES` (a label
"kind:phase" to the function that builds it) and `WAITS_ON` (whom each scene waits for: the
personas whose now-line is marked as theirs). `all_scenes()` finds them through the registry of
kinds; the shared walks (`tests/security`, the now-line, the seats, the pushed pages, the
browser's layout) go through every one, and name no game.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tests
from server.games.demo import DEMOS
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, Viewer
from server.platform.service import GameService, Registered
from tests.conftest import key, viewer_of
from tests.kinds.tally import TALLY


@dataclass
class Scene:
    kind: str
    phase: str
    game: str
    people: dict[str, Viewer]  # by persona: "organizer", "referee", "player", "coach_a"...
    extra: dict[str, Any] = field(default_factory=dict)  # ids the routes name (team, match)

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.phase}"


Builder = Callable[[GameService, ScriptedRolls], Scene]


def registered(service: GameService, game: str, org: Viewer, role: str, name: str) -> Viewer:
    return viewer_of(service.register(game, org, role, name, idem_key=key()))


def stranger(service: GameService) -> Registered:
    """A person of another game (the platform's test kind), whose link opens nothing here."""
    game, owner = service.create_game(TALLY.key, "Ailleurs", "Hôte", idem_key=key())
    return service.register(game.id, viewer_of(owner), "referee", "Intrus", idem_key=key())


def scene_modules() -> list[Any]:
    """Each game's `tests/<folder>/scenes.py`."""
    found = []
    for folder in pkgutil.iter_modules(tests.__path__):
        if folder.ispkg and importlib.util.find_spec(f"tests.{folder.name}.scenes") is not None:
            found.append(importlib.import_module(f"tests.{folder.name}.scenes"))
    return found


def declared(name: str) -> dict[str, Any]:
    """What each game's scenes module declares under `name` (a dict by kind), merged."""
    merged: dict[str, Any] = {}
    for module in scene_modules():
        merged.update(getattr(module, name, {}))
    return merged


def all_scenes() -> tuple[dict[str, Builder], dict[str, set[str]]]:
    """Every game's scenes and whom each waits for, from each `tests/<folder>/scenes.py`; every
    registered kind with a demo (every game, not the platform's test kind) has at least one."""
    scenes: dict[str, Builder] = {}
    waits: dict[str, set[str]] = {}
    for module in scene_modules():
        scenes.update(module.SCENES)
        waits.update(getattr(module, "WAITS_ON", {}))
    found = {label.split(":", 1)[0] for label in scenes}
    missing = sorted(k for k in KINDS if k in DEMOS and k not in found)
    assert not missing, f"no scenes for {missing}: declare them in tests/<game>/scenes.py"
    return scenes, waits
