"""A command names only things of its own game: for every kind, every command and every field that
names something (a person, a team, a gladiator, a card, a pending choice, a sector, a game), the
same thing taken from ANOTHER game of the same kind is refused with a message that names the field
or the foreign value, and nothing changes. Where a command's valid form is known here, it is sent
afterwards and accepted: the refusal came from the foreign id, not from something else.

Each game declares its kinds' tables (`REFERENCES` in its tests' scenes: a `References`, with the
two games' world, a row per command, and the fields whose name says they name something but do
not). They must list every command a person may send (`test_every_command_is_listed`), and every
field whose name says it names something: a new command or field must come with its row.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import seat_key
from tests.phones_kit import api
from tests.scene import References, declared
from tests.security.conftest import commands_of

KIND_CASES: dict[str, References] = declared("REFERENCES")


# Field names that say the field names something of the game.
ID_WORDS = {
    "player",
    "players",
    "attacker",
    "defenders",
    "person",
    "a",
    "b",
    "team",
    "team_a",
    "team_b",
    "gladiator",
    "gladiators",
    "attackers",
    "target",
    "to",
    "card",
    "defender_card",
    "pending",
    "take",
    "give_back",
    "defender_cards",
    "coach",
    "played_a",
    "played_b",
    "risk",
    "lost_equipment",
    "match_game",
    "game",
    "sector",
    "sectors",
    "coach_a",
    "coach_b",
    "organizer",
    "survivor",
    "item",
    "items",
    "weapon",
    "found",
    "passport",
    "objective",
}


CASES = [(k, c) for k, kind in sorted(KIND_CASES.items()) for c in sorted(kind.cases)]


@pytest.mark.parametrize(("kind", "command"), CASES)
def test_an_id_of_another_game_is_refused(
    client: TestClient, rolls: ScriptedRolls, kind: str, command: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    spec = KIND_CASES[kind]
    world = spec.world(service, rolls)
    base, foreign = spec.cases[command](world, service, rolls)
    missing = naming_fields(kind, command) - set(foreign) - {"side"}
    assert not missing, f"fields naming something with no foreign value: {missing}"
    actor = world.people[spec.actor_for.get(command, spec.actor)]
    token = seat_key(service, world.game, actor.person_id)
    if base is None:
        assert spec.template is not None, f"{kind} has no command template for {command}"
    template = base or spec.template(world, command)  # type: ignore[misc]
    for name, value in foreign.items():
        seq = service.load(world.game).game.seq
        answer = api(client, token, world.game, {**template, name: value})
        assert 400 <= answer.status_code < 500, (name, answer.status_code, answer.text)
        said = answer.json()
        values = list(value) if isinstance(value, list | dict) else [value]
        named = said.get("field") in (name, name.rstrip("s")) or any(
            str(v) in said["message"] for v in values
        )
        assert named, (name, value, said)
        assert service.load(world.game).game.seq == seq  # nothing changed
    if base is not None:  # the well-formed command is accepted: the foreign id was the reason
        answer = api(client, token, world.game, base)
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_every_command_is_listed(kind: str) -> None:
    """Every command a person may send that names something has a row (each row's fields are
    checked in the walk)."""
    spec = KIND_CASES[kind]
    naming = {c for c in commands_of(kind) if naming_fields(kind, c)}
    assert naming - spec.platform_only <= set(spec.cases)


def naming_fields(kind: str, command: str) -> set[str]:
    model = commands_of(kind)[command]
    return {n for n in model.model_fields if n in ID_WORDS} - {
        f for c, f in KIND_CASES[kind].not_references if c == command
    }
