"""Dice have owners: every die a command asks for is declared with its purpose and its owner, and
only those allowed enter it by hand; a value for a die the action never rolls is refused; a die
entered by hand is marked as such in every viewer's log. (A self-refereed match's coaches and
their own side's dice: in the game's own folder.)"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from server.errors import ArbitreError
from server.platform.service import GameService
from tests.conftest import key, tally_game


def test_the_referee_enters_any_die_and_its_mark_shows_to_everyone(
    client: TestClient, service: GameService
) -> None:
    app_service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, _org, referee, (lea, _hugo) = tally_game(app_service)
    done = app_service.perform(
        game.id,
        referee,
        {"type": "roll", "player": lea.person_id},
        idem_key=key(),
        rolls={"points": 4},
    )
    assert done.result == {"points": 4}
    with pytest.raises(ArbitreError, match="aucun dé"):
        app_service.perform(
            game.id,
            referee,
            {"type": "roll", "player": lea.person_id},
            idem_key=key(),
            rolls={"points": 4, "bonus": 2},
        )
    with pytest.raises(ArbitreError):  # a player enters no die
        app_service.perform(
            game.id,
            lea,
            {"type": "roll", "player": lea.person_id},
            idem_key=key(),
            rolls={"points": 6},
        )
    log = app_service.log(game.id, referee)
    assert log[-1]["rolls"] == [{"purpose": "points", "sides": 6, "value": 4, "manual": True}]
