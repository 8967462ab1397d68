"""BattleFight's game file (`tests/security/test_game_file.py`): on phones, the organizer's file
holds no hand and no draw order; a game in progress moves sealed to one server, once."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.errors import GameMoved, InvalidInput
from server.platform.dice import ScriptedRolls
from server.platform.sealing import server_key
from server.platform.service import GameService
from tests.conftest import OTHER_SECRET, counts, key
from tests.files_kit import (
    brought,
    dice_of,
    dicts_in,
    file_of,
    lists_in,
    organizer_of,
)
from tests.security.conftest import SCENES


def test_battlefight_on_phones_no_hand_no_draw_order(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """The outside attack: the organizer read every draw pile in order and every hand, then
    undid the deal and read the new order. Their file holds neither; undo gives the same deal."""
    scene = SCENES["battlefight:playing"](service, rolls)
    state: Any = service.load(scene.game).state
    body = file_of(service, scene)
    seen = list(lists_in(body))
    for seat in state.table.seats:
        assert seat.draw and seat.draw not in seen
        assert len(seat.hand) < 2 or seat.hand not in seen
        assert not [d for d in dicts_in(body) if d.get("hand") == seat.hand and seat.hand]


def test_a_game_in_progress_moves_sealed_to_one_server_once(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    scene = SCENES["battlefight:playing"](service, rolls)
    state: Any = service.load(scene.game).state
    ticket = other.new_ticket()
    # The source seals only to a server its runner trusts (the outside review made a ticket of
    # its own key and read every hand).
    with pytest.raises(InvalidInput, match=r"TRUSTED_SERVERS"):
        file_of(service, scene, ticket=ticket.text)
    service.store.trusted = service.store.trusted | {server_key(OTHER_SECRET)}
    body = file_of(service, scene, ticket=ticket.text)
    assert "replay" not in body and body["sealed"]["ticket"] == ticket.id
    for seat in state.table.seats:
        assert json.dumps(seat.draw) not in json.dumps(body)
    # Not here: the file was sealed to the other server's key.
    with pytest.raises(InvalidInput, match=r"another server|autre serveur"):
        brought(service, body)
    game, organizer = brought(other, body)
    assert other.verify(game.id) and organizer.person.role == "organizer"
    moved: Any = other.load(game.id).state

    def order(table: Any) -> list[list[str]]:  # copies are named by their owner's new number
        return [[c.split(":")[-1] for c in seat.draw] for seat in table.seats]

    assert order(moved.table) == order(state.table)
    # Another server's dice are "from a file" in every log of the new one.
    dice = dice_of(other, game.id)
    assert dice and all(r.get("from_file") for r in dice)
    # The ticket opened one file, once.
    before = counts(other)
    with pytest.raises(InvalidInput, match=r"used already|déjà servi"):
        brought(other, body)
    assert counts(other) == before
    # The game moved: where it was, nothing changes it any more (issue 51's second outside
    # attack: two copies went on, the moved one's seats all free for its organizer).
    org = organizer_of(service, scene.game)
    seq = service.load(scene.game).game.seq
    with pytest.raises(GameMoved, match=r"moved to another server|partie sur un autre serveur"):
        service.perform(scene.game, org, {"type": "end_turn"}, idem_key=key())
    with pytest.raises(GameMoved):
        service.register(scene.game, org, "player", "Nouvelle", idem_key=key())
    player = next(p for p in service.people(scene.game) if p.role == "player")
    with pytest.raises(GameMoved):
        service.reissue(scene.game, org, player.id or 0, idem_key=key())
    assert service.load(scene.game).game.seq == seq
    assert service.load(scene.game).game.next_deadline is None
    # Its record can still be read, and saved again (a transfer that failed on the way).
    assert file_of(service, scene)["records"]
