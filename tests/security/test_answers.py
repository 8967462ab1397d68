"""The answer to a command is cut for its sender by the same projection as their log: in the
scenes whose games keep secrets (`ANSWER_SECRETS` in each game's scenes), each person who is not
all-seeing sends each command of the kind, and no answer, in French or English, names what they
may not know. (A self-refereed match's coaches, command by command: in the game's own folder.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key
from tests.scene import declared

LANGUAGES = ("fr", "en")
# By scene, what a viewer of it may not know, as words.
SECRETS: dict[str, Callable[[GameService, str, Any], list[str]]] = declared("ANSWER_SECRETS")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("label", sorted(SECRETS))
def test_every_command_answers_every_role_without_a_secret(
    client: TestClient, rolls: ScriptedRolls, label: str, language: str
) -> None:
    """Each person who is not all-seeing sends each command of the kind (refused or not): no
    answer names what the scene's game keeps from them (a role of the other team, another
    team's power card)."""
    import re

    from tests.security.conftest import SCENES, commands_of

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    hidden_of = SECRETS[label]
    for persona, viewer in scene.people.items():
        if viewer.is_organizer:
            continue
        token = service.link_of(service.person(scene.game, viewer.person_id)).token  # type: ignore[arg-type]
        hidden = hidden_of(service, scene.game, viewer)
        assert hidden, (persona, "has something not to know")
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, hidden)) + r")\b", re.IGNORECASE)
        for command in commands_of(scene.kind):
            answer = client.post(
                f"/api/v1/games/{scene.game}/commands",
                json={"command": {"type": command}},
                headers={
                    "Authorization": f"Bearer {token}",
                    "Idempotency-Key": key(),
                    "Accept-Language": language,
                },
            )
            assert answer.status_code < 500, answer.text
            found = pattern.search(answer.text)
            assert found is None, (persona, command, found.group(0) if found else "", answer.text)
