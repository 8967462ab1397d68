"""A league moves between servers with its match (`tests/test_moving.py`): the coach still
reaches the match; the file holds no token, and only the organizer takes it."""

from __future__ import annotations

import json

import pytest

from server.errors import NotAllowed
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.files_kit import exported, imported
from tests.security.conftest import SCENES


def test_a_league_moves_with_its_match_and_the_coach_still_reaches_it(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    scene = SCENES["killpower_league:live_match"](service, rolls)
    text = exported(service, scene.game)
    assert len(json.loads(text)["replay"]) == 2
    league = imported(other, text)
    match = other.load(league.id).state.live[0].game  # type: ignore[attr-defined]
    assert match != scene.extra["match"]
    moved = other.load(match)
    assert moved.game.settings["parent"] == league.id
    assert other.verify(match)
    coach = next(p for p in other.people(league.id) if p.role == "coach")
    link = other.handoff(league.id, Viewer("coach", coach.id, coach.name), match)
    assert link is not None
    person = other.person_by_token(link.token)
    assert person.game_id == match and person.name.startswith(coach.name)
    # The match still reports to the league it moved with.
    delegates = moved.game.settings["delegates"]
    assert {int(k) for k in delegates} <= {p.id for p in other.people(match)}


def test_the_file_holds_no_token_and_only_the_organizer_takes_it(
    service: GameService, rolls: ScriptedRolls
) -> None:
    scene = SCENES["killpower_league:live_match"](service, rolls)
    service.set_invitation(scene.game, scene.people["organizer"], open_it=True)
    text = json.dumps(service.export_game(scene.game, scene.people["organizer"]))
    for person in service.people(scene.game) + service.people(scene.extra["match"]):
        link = service.link_of(person)
        assert link.token not in text and link.code not in text
        assert person.nonce not in text
    for word in ("invite", "idem", "token_hash", "code_hash", "nonce", "fingerprint"):
        assert word not in text
    for persona, viewer in scene.people.items():
        if persona != "organizer":
            with pytest.raises(NotAllowed):
                service.export_game(scene.game, viewer)
