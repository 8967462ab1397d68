"""People who leave a Serial Battle (`tests/test_service.py`): a player revoked in play stays in
the story."""

from __future__ import annotations

import pytest

from server.errors import RuleError
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of


def test_a_player_revoked_in_play_stays_in_the_story(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Mid-game a player is eliminated by the referee, not erased: revoking ends the link only,
    and a link re-issued gives them their place back (a lost phone never stalls a game); a new
    player still cannot join."""
    rolls.endless = True
    game, organizer = service.create_game("serial_battle", "Parc", "Orga", idem_key=key())
    org = viewer_of(organizer)
    lea = service.register(game.id, org, "player", "Léa", idem_key=key()).person
    service.register(game.id, org, "player", "Hugo", idem_key=key())
    service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    service.revoke(game.id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
    assert str(lea.id) in service.load(game.id).state.players  # type: ignore[attr-defined]
    before = service.load(game.id).state.model_dump()
    service.reissue(game.id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
    assert service.load(game.id).state.model_dump() == before
    with pytest.raises(RuleError, match="avant le début"):
        service.register(game.id, org, "player", "Zoé", idem_key=key())
