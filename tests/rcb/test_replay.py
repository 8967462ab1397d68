"""A finished Roi / Chevalier / Bourreau game replays move by move (`tests/test_replay.py`): the
public never reads a role before the game master reveals them; a step is asked again once the
game moves (the reveal undone)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key
from tests.security.conftest import SCENES


def test_the_public_never_reads_a_role_before_it_is_revealed(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES["rcb:won"](service, rolls)  # over, the roles not revealed
    roles = re.compile(r"\b(Roi|Chevalier|Bourreau|King|Knight|Executioner)\b")
    last = len(service.steps(scene.game))
    for step in range(last + 1):
        for language in ("fr", "en"):
            page = client.get(
                f"/g/{scene.game}/replay?step={step}", headers={"Accept-Language": language}
            ).text
            text = re.sub(r"<title>.*?</title>", "", page, flags=re.S)
            assert not roles.search(re.sub(r"<[^>]+>", " ", text)), (step, language)


def test_a_step_is_asked_again_once_the_game_moves(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """A finished game can still change: the game master reveals, then undoes the reveal. The
    step kept by the browser is not shown again as if nothing happened."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES["rcb:revealed"](service, rolls)
    first = client.get(f"/g/{scene.game}/replay")
    tag = first.headers["etag"]
    service.undo(scene.game, scene.people["organizer"], idem_key=key())
    later = client.get(f"/g/{scene.game}/replay", headers={"If-None-Match": tag})
    assert later.status_code == 200 and later.headers["etag"] != tag
    assert f'data-last="{len(service.steps(scene.game))}"' in later.text
