"""Undo never re-rolls a secret (platform.md, "One door in, one door out"): an action undone and
done again rolls what it rolled. An attacker's script over every kind, in every phase: the last
action that rolled dice is undone and sent again; the server's dice (a shuffle, a deal, a draw, a
blow, a spawn) come out the same, and so does the game. (The attack as the outside review ran it
on one game: in that game's folder.)
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import col, select

from server.models import Event
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key
from tests.scene import declared
from tests.security.conftest import SCENES

# Scenes in which the server rolled no die yet (a setup, a game ended by hand): nothing to fish
# (`DICE_FREE` in each game's scenes).
DICE_FREE = set(declared("DICE_FREE"))


def event_of(service: GameService, game: str, seq: int) -> Event:
    with service.db.read() as s:
        event = s.exec(select(Event).where(Event.game_id == game, Event.seq == seq)).one()
        s.expunge(event)
    return event


def last_diced_action(service: GameService, game: str) -> Event | None:
    """The game's latest action not undone in which the server rolled a die."""
    with service.db.read() as s:
        events = s.exec(
            select(Event)
            .where(Event.game_id == game, Event.type == "command", col(Event.undone_by).is_(None))
            .order_by(col(Event.seq).desc())
        ).all()
        for event in events:
            if any(not r.get("manual") for r in event.rolls):
                s.expunge(event)
                return event
    return None


def actor_of(service: GameService, game: str, event: Event) -> Viewer:
    assert event.actor_id is not None
    person = service.person(game, event.actor_id)
    return Viewer(person.role, person.id, person.name)


def state_of(service: GameService, game: str) -> dict[str, Any]:
    return service.load(game).state.model_dump(mode="json")


@pytest.mark.parametrize("label", sorted(SCENES))
def test_an_action_undone_and_sent_again_rolls_what_it_rolled(
    service: GameService, rolls: ScriptedRolls, label: str
) -> None:
    scene = SCENES[label](service, rolls)
    event = last_diced_action(service, scene.game)
    assert (event is None) == (label in DICE_FREE)
    if event is None:
        return
    organizer = next(p for p in service.people(scene.game) if p.role == "organizer")
    org = Viewer("organizer", organizer.id, organizer.name)
    while (service.last_undoable(scene.game) or (0,))[0] != event.seq:
        service.undo(scene.game, org, idem_key=key())  # back to the diced action
    before = state_of(service, scene.game)
    service.undo(scene.game, org, idem_key=key(), target_seq=event.seq)
    # Fresh dice would now come out otherwise: the scripted source moves on.
    rolls.values.clear()
    rolls.endless, rolls._next = True, rolls._next + 3
    again = service.perform(
        scene.game, actor_of(service, scene.game, event), dict(event.command), idem_key=key()
    )
    redone = event_of(service, scene.game, again.seq)
    server_rolls = [r for r in event.rolls if not r.get("manual")]
    assert [r for r in redone.rolls if not r.get("manual")] == server_rolls
    assert state_of(service, scene.game) == before


def test_every_kind_has_scenes_with_dice_to_fish_for() -> None:
    kinds = {label.split(":")[0] for label in SCENES}
    assert {label.split(":")[0] for label in set(SCENES) - DICE_FREE} == kinds
