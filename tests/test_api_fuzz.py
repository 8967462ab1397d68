"""Bad input at scale: schemathesis generates requests from the API's own OpenAPI schema, aimed at
real games under way (those the games declare, `FUZZED`) with real tokens. Not one answer may be a 500, and every refusal is JSON
with a stable code and a message."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from server.platform.kinds import KINDS
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import all_scenes, declared


@pytest.fixture
def targets(app: Any) -> list[tuple[str, str, int]]:
    """A game of each kind the games offer (`FUZZED`), and of the platform's test kind: its
    organizer's token and a person's id, under way."""
    service: GameService = app.state.service
    service.dice.endless = True  # type: ignore[attr-defined]
    scenes, _waits = all_scenes()
    found = []
    for label in sorted(declared("FUZZED")):
        scene = scenes[label](service, service.dice)  # type: ignore[arg-type]
        organizer = service.person(scene.game, scene.people["organizer"].person_id)  # type: ignore[arg-type]
        roles = KINDS[scene.kind].roles
        person = next(v for v in scene.people.values() if v.role in roles)
        found.append((scene.game, service.link_of(organizer).token, person.person_id or 0))
    game, organizer = service.create_game("tally", "Fuzz", "Org", idem_key=key())
    org = viewer_of(organizer)
    people = [service.register(game.id, org, "player", f"P{i}", idem_key=key()) for i in range(6)]
    found.append((game.id, organizer.link.token, people[0].person.id or 0))
    return found


def test_the_api_never_answers_500(app: Any, targets: list[tuple[str, str, int]]) -> None:
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    counter = itertools.count()
    tried: dict[str, int] = {}
    for found in schema.get_all_operations():
        operation = found.ok()

        @given(case=operation.as_strategy())
        @settings(
            max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        def call(case: Any) -> None:
            turn = next(counter)
            game_id, token, person = targets[turn % len(targets)]
            if case.path_parameters and turn % 4 != 3:  # most requests aim at a real game
                if "game_id" in case.path_parameters:
                    case.path_parameters["game_id"] = game_id
                if "person_id" in case.path_parameters and turn % 2:
                    case.path_parameters["person_id"] = person
            headers = {"Authorization": f"Bearer {token}"} if turn % 5 else {}
            if turn % 7 and case.method in ("POST", "DELETE"):
                headers["Idempotency-Key"] = key()
            response = case.call(headers=headers)
            assert response.status_code < 500, (case.method, case.formatted_path, response.text)
            if response.status_code >= 400:
                body = response.json()
                assert isinstance(body.get("code"), str) and body["code"]
                assert isinstance(body.get("message"), str) and body["message"]
            tried[case.operation.label] = tried.get(case.operation.label, 0) + 1

        call()
    assert len(tried) >= 10 and sum(tried.values()) > 300
    print(f"\nfuzz: {sum(tried.values())} generated requests over {len(tried)} operations, no 500")
