"""A league's game file (`tests/security/test_game_file.py`): a match comes with its league or
not at all."""

from __future__ import annotations

import json

import pytest

from server.errors import InvalidInput
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.files_kit import brought, clear_file
from tests.security.conftest import SCENES


def test_a_match_comes_with_its_league_or_not_at_all(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    scene = SCENES["killpower_league:live_match"](service, rolls)
    body = clear_file(service, scene)
    assert [g["kind"] for g in body["replay"]] == ["killpower_league", "killpower_match"]
    alone = {**body, "replay": body["replay"][1:]}
    with pytest.raises(InvalidInput, match=r"opened by another game|ne s’ouvre que depuis"):
        brought(other, alone)
    orphan = json.loads(json.dumps(alone))
    orphan["replay"][0]["settings"].pop("parent", None)
    with pytest.raises(InvalidInput):
        brought(other, orphan)
