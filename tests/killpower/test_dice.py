"""Dice have owners (`tests/security/test_dice.py`): in a self-refereed match a coach enters
their own side's dice (with physical dice), never the other side's; a value for a die the action
never rolls is refused; a die entered by hand is marked as such in every viewer's log, its value
hidden where secret."""

from __future__ import annotations

from typing import Any

import pytest

from server.platform.dice import BadRoll, MissingRoll, ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key
from tests.killpower.conftest import Match


def raps(match: Match, side: str, n: int) -> dict[str, int]:
    state = match.service.load(match.id).state
    roster = {g["id"]: g["name"] for g in state.teams[side].roster.gladiators}  # type: ignore[attr-defined]
    return {f"RAP of {roster[g]}": 7 for g in match.ids[side][:n]}


def send(match: Match, side: str, command: dict[str, Any], rolls: dict[str, int]) -> Any:
    return match.service.perform(match.id, match.coach[side], command, idem_key=key(), rolls=rolls)


def lineup(match: Match, side: str) -> dict[str, Any]:
    return {"type": "lineup", "gladiators": match.ids[side][:2], "bluff": 1}


def test_a_coach_never_enters_the_other_sides_dice(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """With server dice, no die is a coach's to enter: their own RAP is Arbitre's to roll, and
    the other side's is not even rolled in their action."""
    rolls.endless = True
    match = Match(service, rolls)
    send(match, "A", lineup(match, "A"), {})
    before = service.load(match.id).game.seq
    with pytest.raises(BadRoll, match="Arbitre"):
        send(match, "B", lineup(match, "B"), raps(match, "B", 2))
    with pytest.raises(BadRoll, match="aucun dé"):
        send(match, "B", lineup(match, "B"), raps(match, "A", 2))
    with pytest.raises(BadRoll, match="aucun dé"):  # a die the action never rolls
        send(match, "B", lineup(match, "B"), {"shot of nobody": 3})
    assert service.load(match.id).game.seq == before


def test_with_physical_dice_each_coach_enters_their_own_rap_and_only_theirs(
    service: GameService, rolls: ScriptedRolls
) -> None:
    rolls.endless = True
    match = Match(service, rolls, dice="physical")
    with pytest.raises(MissingRoll) as asked:  # Nadia is asked for her own team's RAP
        send(match, "A", lineup(match, "A"), {})
    assert asked.value.field is not None and asked.value.field[5:] in raps(match, "A", 2)
    send(match, "A", lineup(match, "A"), raps(match, "A", 2))
    # Tomas completes the lineups: asked for his own team's RAP only, never Nabos' again.
    with pytest.raises(MissingRoll) as asked:
        send(match, "B", lineup(match, "B"), {})
    assert asked.value.field is not None and asked.value.field[5:] in raps(match, "B", 2)
    with pytest.raises(BadRoll):
        send(match, "B", lineup(match, "B"), {**raps(match, "B", 2), **raps(match, "A", 1)})
    send(match, "B", lineup(match, "B"), raps(match, "B", 2))
    event = service.log(match.id, match.organizer)[-1]
    manual = {r["purpose"]: r["manual"] for r in event["rolls"] if r["purpose"].startswith("RAP")}
    assert manual == dict.fromkeys(raps(match, "B", 2), True)
    # Nadia's log marks Tomas' RAP as entered by hand, without its value nor whose (the name
    # would tell Titanos' lineup); hers show theirs.
    hers = service.log(match.id, match.coach["A"])
    entered = [r for r in hers[-1]["rolls"] if r["manual"]]
    assert [r["purpose"] for r in entered] == ["secret", "secret"]
    assert all(r["value"] is None for r in entered)
    own = [r for e in hers for r in e.get("rolls", []) if r["purpose"] in raps(match, "A", 2)]
    assert len(own) == 2 and all(r["value"] == 7 and r["manual"] for r in own)
