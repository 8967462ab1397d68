"""Every page, live part and export of every kind, in every phase, for every role: never a 500.

A scene (`scenes.py`) is a game driven to one of its phases or ends (a surrender, a forfeit, a
perfect tie, no winner...). Each person of the scene, the public and a stranger open every GET
route of the app that names a game (the full page and the part htmx asks for), and each answer is
a page or a refusal with a message: never a server error. A route added later is walked too.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.security.scenes import SCENES, Scene, stranger
from tests.test_authorization import all_routes

HX = {"HX-Request": "true"}
SKIPPED = {"/g/{game_id}/events"}  # an endless stream: tests/test_pages.py walks it
PAGES = ("staff", "player", "board", "people")


def phones(client: TestClient, service: GameService, scene: Scene) -> dict[str, TestClient]:
    """One browser per person of the scene, the public and a stranger of another game."""
    out = {}
    for persona, viewer in scene.people.items():
        phone = TestClient(client.app, follow_redirects=False)
        person = service.person(scene.game, viewer.person_id)  # type: ignore[arg-type]
        assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
        out[persona] = phone
    out["public"] = TestClient(client.app, follow_redirects=False)
    intruder = TestClient(client.app, follow_redirects=False)
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


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_page_of_every_phase_answers_without_a_server_error(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    routes = all_routes(client.app.routes)  # type: ignore[attr-defined]
    urls = addresses(routes, scene, service)
    assert any(u.endswith("/live/board") for u in urls)
    failures: list[tuple[str, str, int]] = []
    for persona, phone in phones(client, service, scene).items():
        for url in urls:
            for headers in ({}, HX):
                answer = phone.get(url, headers=headers)
                if answer.status_code >= 500:
                    failures.append((persona, url, answer.status_code))
    assert not failures, failures


def test_the_scenes_cover_every_kind_and_end() -> None:
    """Each kind has its phases and its ends among the scenes (a new kind must add its own)."""
    from server.platform.kinds import KINDS

    kinds = {label.split(":")[0] for label in SCENES}
    assert kinds == set(KINDS) - {"tally"}
    ends = {label for label in SCENES if label.split(":")[1] in ENDS}
    assert {label.split(":")[0] for label in ends} == kinds - {"killpower_league"}


ENDS = {"won", "no_survivor", "ended", "perfect_tie", "revealed", "surrendered", "forfeit"}
