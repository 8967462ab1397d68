"""The walk over every page of a scene, for the security tests.

Every game's scenes (`tests/scene.py`, declared in each `tests/<game>/scenes.py`) are walked as
every person of the scene, the public and a stranger (a person of another game): every page,
live part, export and command answer.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from fastapi.testclient import TestClient

from server.platform.kinds import KINDS
from server.platform.service import GameService
from tests.conftest import Phone
from tests.scene import Builder, Scene, all_scenes, registered, stranger

__all__ = ["SCENES", "WAITS_ON", "Builder", "Scene", "registered", "stranger"]

SCENES, WAITS_ON = all_scenes()


HX = {"HX-Request": "true"}


SKIPPED = {"/g/{game_id}/events"}  # an endless stream: tests/test_pages.py walks it


PAGES = ("staff", "player", "board", "people")


def phones(client: TestClient, service: GameService, scene: Scene) -> dict[str, TestClient]:
    """One browser per person of the scene, the public and a stranger of another game."""
    out = {}
    for persona, viewer in scene.people.items():
        phone = Phone(client, follow_redirects=False)
        person = service.person(scene.game, viewer.person_id)  # type: ignore[arg-type]
        assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
        out[persona] = phone
    out["public"] = Phone(client, follow_redirects=False)
    intruder = Phone(client, follow_redirects=False)
    assert intruder.get(f"/t/{stranger(service).link.token}").status_code == 303
    out["stranger"] = intruder
    return out


def addresses(routes: set[tuple[str, str]], scene: Scene, service: GameService) -> list[str]:
    """Every GET route naming a game, filled with this scene's ids (each page of `live/`)."""
    people = [p.id for p in service.people(scene.game)]
    values = {
        "game_id": [scene.game],
        "page": list(PAGES),
        "person_id": [*people[:2], 999_999],
        "team_id": [scene.extra.get("team", 1), 999],
        "match_id": [scene.extra.get("match", "nomatch")],
        "token": ["not-the-invitation"],
    }
    found = []
    for method, path in sorted(routes):
        if method != "GET" or "{game_id}" not in path or path in SKIPPED:
            continue
        filled = [path]
        for name in re.findall(r"{(\w+)}", path):
            filled = [f.replace(f"{{{name}}}", str(v)) for f in filled for v in values[name]]
        found += filled
    return found


def commands_of(kind_key: str) -> dict[str, Any]:
    """Each command type of a kind and its model."""
    union = get_args(KINDS[kind_key].commands._type)[0]  # Annotated[Union[...], discriminator]
    found = {}
    for model in get_args(union):
        for literal in get_args(model.model_fields["type"].annotation):
            found[literal] = model
    return found
