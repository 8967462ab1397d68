"""Trust Me's game file (`tests/security/test_game_file.py`): the organizer's file holds no
objective and no deck order."""

from __future__ import annotations

from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.files_kit import dicts_in, file_of, lists_in
from tests.security.conftest import SCENES


def test_trust_me_no_objective_and_no_deck_order(
    service: GameService, rolls: ScriptedRolls
) -> None:
    scene = SCENES["trust_me:fight"](service, rolls)
    state: Any = service.load(scene.game).state
    body = file_of(service, scene)
    seen = list(lists_in(body))
    assert state.objective_deck and state.objective_deck not in seen
    for survivor in state.survivors.values():
        assert survivor.objectives and survivor.objectives not in seen
        for objective in survivor.objectives:
            assert not [d for d in dicts_in(body) if objective in d.values()], objective
