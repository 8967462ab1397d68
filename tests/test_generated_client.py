"""A client generated from the OpenAPI schema (openapi-python-client, as a client's author would
make one) tells every kind's commands and settings apart (issue 32): each kind has its own typed
creation and command functions; within a kind, each command `type` is one generated class; a
`type` two kinds share (`deal`, `act`...) is two classes unless it is one command of the server.
(The generated client, over this app, creating games and sending commands through them: in the
games' folders; the client itself is `generated` in tests/conftest.py.)"""

from __future__ import annotations

import typing
from enum import Enum
from types import ModuleType
from typing import get_args

from server.platform.kinds import KINDS
from server.web.api import kind_title, public_commands
from tests.conftest import module


def union_of(package: ModuleType, model: type, field: str) -> tuple[type, ...]:
    """The generated classes a field of a generated model may hold."""
    names = {**vars(module(package, "types")), **vars(module(package, "models"))}
    hint = eval(model.__annotations__[field], names)
    unset = names["Unset"]
    held = tuple(c for c in get_args(hint) if isinstance(c, type) and c is not unset)
    return held or (hint,)


def tags_of(package: ModuleType, generated_class: type) -> list[str]:
    """The `type` values a generated command class takes (a literal, or an enum of several)."""
    names = {**vars(typing), **vars(module(package, "models"))}
    hint = eval(generated_class.__annotations__["type_"], names)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return [str(member.value) for member in hint]
    return [str(tag) for tag in get_args(hint)]


def server_tags(key: str) -> dict[str, type]:
    """The server's commands of a kind a client may send, by `type`."""
    members = get_args(get_args(public_commands(KINDS[key]))[0])
    return {tag: m for m in members for tag in get_args(m.model_fields["type"].annotation)}


def same_shape(a: type, b: type) -> bool:
    return a is b or a.model_json_schema() == b.model_json_schema()  # type: ignore[attr-defined]


def test_every_kind_s_commands_are_told_apart(generated: ModuleType) -> None:
    models = module(generated, "models")
    kinds = sorted(k for k in KINDS if KINDS[k].command_union is not None)
    by_kind: dict[str, dict[str, type]] = {}
    for kind_key in kinds:
        body = getattr(models, f"{kind_title(kind_key)}CommandIn")
        sent = module(generated, f"api.api.{kind_key}_send_command")
        assert "body" in sent.sync_detailed.__annotations__
        classes = union_of(generated, body, "command")
        tagged = [(tag, c) for c in classes for tag in tags_of(generated, c)]
        tags = [tag for tag, _ in tagged]
        assert len(tags) == len(set(tags)), (kind_key, tags)  # one class a `type`
        assert set(tags) == set(server_tags(kind_key)), kind_key
        by_kind[kind_key] = dict(tagged)
    shared = 0
    for a in kinds:
        for b in kinds:
            for tag in set(by_kind[a]) & set(by_kind[b]) if a < b else ():
                # One class only for one shape (two kinds' bare `start`).
                same_command = same_shape(server_tags(a)[tag], server_tags(b)[tag])
                assert (by_kind[a][tag] is by_kind[b][tag]) == same_command, (a, b, tag)
                shared += not same_command
    assert shared >= 8  # the eight: deck, start, act, take, attack, settings, deal, give


def test_every_kind_s_settings_are_typed(generated: ModuleType) -> None:
    models = module(generated, "models")
    for kind_key in sorted(k for k in KINDS if KINDS[k].standalone):
        body = getattr(models, f"{kind_title(kind_key)}GameIn")
        (settings,) = union_of(generated, body, "settings")
        assert settings.__name__ == f"{kind_title(kind_key)}Settings"
        assert hasattr(module(generated, f"api.api.{kind_key}_create_game"), "sync_detailed")
