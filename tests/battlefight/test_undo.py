"""Undo never re-rolls a secret (`tests/security/test_undo.py`): the attack as the outside review
ran it on BattleFight: undo the start, start again, read the hands: the same deal."""

from __future__ import annotations

from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.battlefight.scenes import bf_game
from tests.conftest import key


def test_undoing_the_start_of_a_battlefight_deals_the_same_hands_again(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """The outside review's rigged deal: the organizer undid the start and started again to
    read a new order. The order is the same, and so is every hand."""
    scene = bf_game(service, rolls, start=True)
    org = scene.people["organizer"]
    dealt = service.load(scene.game).state.table.model_dump()  # type: ignore[attr-defined]
    for _ in range(3):
        service.undo(scene.game, org, idem_key=key())
        rolls._next += 5  # the dice source moves on
        service.perform(scene.game, org, {"type": "start"}, idem_key=key())
        table: Any = service.load(scene.game).state.table
        assert table.model_dump() == dealt
