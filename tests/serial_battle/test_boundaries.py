"""The edges of the server (`tests/security/test_boundaries.py`) in Serial Battle: a deck's CSV
export never holds a formula; a sector's name refuses control characters."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from server.errors import InvalidInput
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of


def test_serial_battle_decks_round_trip_through_a_neutralised_csv(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    from server.games.serial_battle.catalog import dump_csv_deck, parse_csv_deck, sample_deck

    cards = sample_deck()
    cards[0] = cards[0].model_copy(update={"text": "=1+1 (a formula once)"})
    text = dump_csv_deck(cards)
    assert ",'=1+1" in text
    assert parse_csv_deck(text)[0].text == "=1+1 (a formula once)"


@pytest.mark.parametrize("name", ["Zo\x00é", "Hugo\x1b[31m", "Ana\u202egnp.exe", "\x7fDEL"])
def test_a_sector_s_name_refuses_control_characters(service: GameService, name: str) -> None:
    sb, owner = service.create_game("serial_battle", "Forêt", "Orga", idem_key=key())
    command = {"type": "sectors", "names": f"Nord, {name}"}
    with pytest.raises(InvalidInput, match=r"contrôle|control"):
        service.perform(sb.id, viewer_of(owner), command, idem_key=key())
    assert service.load(sb.id).game.seq == 1  # nothing but the organizer
