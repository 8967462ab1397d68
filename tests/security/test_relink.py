"""A link revoked and re-issued gives its person their place back, in every kind and every phase:
a player in play keeps their seat (never refused, never a second seat, never the other side's),
so that a lost phone never stalls a game (found by an outside attack: a card game's player whose
link was revoked mid-game could not come back, and nobody could play for them)."""

from __future__ import annotations

import pytest

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key
from tests.security.conftest import SCENES


@pytest.mark.parametrize("label", sorted(SCENES))
def test_a_revoked_link_re_issued_keeps_the_person_s_place(
    service: GameService, rolls: ScriptedRolls, label: str
) -> None:
    scene = SCENES[label](service, rolls)
    org = scene.people["organizer"]
    for persona, viewer in scene.people.items():
        if persona in ("organizer", "stranger") or viewer.person_id is None:
            continue
        if service.person(scene.game, viewer.person_id).game_id != scene.game:
            continue  # a person of another game (a league's match)
        before = service.load(scene.game).state.model_dump()
        service.revoke(scene.game, org, viewer.person_id, idem_key=key())
        service.reissue(scene.game, org, viewer.person_id, idem_key=key())
        after = service.load(scene.game).state.model_dump()
        if scene.phase != "setup" and not label.endswith(":empty"):
            assert after == before, f"{persona} of {label} came back changed"
