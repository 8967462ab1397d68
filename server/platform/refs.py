"""What in a command names something of the game, checked by the platform before the rules run.

A command may name only things of its own game. A field typed with a `Ref` (`PersonRef`, or a
kind's own such as `Ref("gladiator")`; alone, optional, in a list, or as the keys of a mapping)
is found here, and the service refuses the command when what it names is not part of this game:
a person of another game (people are checked in the database), or anything else the kind does not
list in `GameKind.references(state)` (a league's teams, a match's gladiators, a deck's cards).
The rules then only ever see names of their own game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, Field


class Ref:
    """Marks an id field with what it names ("person", "gladiator", "card"...). `checked=False`:
    a name of another game that only the platform itself writes (a league records the people of
    the match it opened); not checked against this game, but renumbered when a game moves."""

    def __init__(self, what: str, *, checked: bool = True) -> None:
        self.what = what
        self.checked = checked

    def __repr__(self) -> str:
        return f"Ref({self.what!r})" if self.checked else f"Ref({self.what!r}, checked=False)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and (other.what, other.checked) == (self.what, self.checked)

    def __hash__(self) -> int:
        return hash(("Ref", self.what, self.checked))


PersonRef = Annotated[int, Ref("person"), Field(ge=1, le=2**31 - 1)]  # a row id, never huge
# A person of a game this one opened, written by the platform only (`Ref` above).
LinkedPersonRef = Annotated[int, Ref("person", checked=False), Field(ge=1, le=2**31 - 1)]


def _ref_in(annotation: Any) -> Ref | None:
    """The Ref an annotation carries, at any depth (`list[Ref]`, `Ref | None`, `dict[Ref, int]`)."""
    if get_origin(annotation) is Annotated:
        found = next((m for m in get_args(annotation)[1:] if isinstance(m, Ref)), None)
        if found is not None:
            return found
    for arg in get_args(annotation):
        found = _ref_in(arg)
        if found is not None:
            return found
    return None


@cache
def _refs(model: type[BaseModel]) -> tuple[tuple[str, Ref], ...]:
    fields = []
    for name, info in model.model_fields.items():
        ref = next((m for m in info.metadata if isinstance(m, Ref)), None) or _ref_in(
            info.annotation
        )
        if ref is not None:
            fields.append((name, ref))
    return tuple(fields)


def ref_fields(model: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """(field, what it names) for each field of a command model that names something of its
    own game."""
    return tuple((name, ref.what) for name, ref in _refs(model) if ref.checked)


def renumbered(command: BaseModel, people: Mapping[int, int]) -> BaseModel:
    """The command with every person it names (checked or not, in parts too) given the number
    `people` maps it to: a game moved to another server has new person ids."""

    def new(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return renumbered(value, people)
        if isinstance(value, list | tuple):
            return type(value)(new(v) for v in value)
        return value

    def named(value: Any) -> Any:  # a person the mapping does not know: KeyError
        if isinstance(value, Mapping):
            return {people[k]: v for k, v in value.items()}
        if isinstance(value, list | tuple | set):
            return type(value)(people[v] for v in value)
        return people[value]

    changes = {name: new(value) for name, value in command}
    for name, ref in _refs(type(command)):
        if ref.what == "person" and changes[name] is not None:
            changes[name] = named(changes[name])
    return command.model_copy(update=changes)


def refs_of(command: Any) -> list[tuple[str, str, Any]]:
    """(what, field, value) for every name a command gives: each item of a list, each key of a
    mapping, each name inside a part of the command (a list of places, each naming an item: the
    outer field is said); an empty optional field names nothing."""
    if not isinstance(command, BaseModel):
        return []
    found: list[tuple[str, str, Any]] = []
    for name, value in command:
        parts = value if isinstance(value, list | tuple) else [value]
        for part in parts:
            if isinstance(part, BaseModel):
                found += [(what, name, item) for what, _, item in refs_of(part)]
    for name, what in ref_fields(type(command)):
        value = getattr(command, name)
        if value is None:
            continue
        if isinstance(value, Mapping):
            items: list[Any] = list(value)
        elif isinstance(value, list | tuple | set):
            items = list(value)
        else:
            items = [value]
        found += [(what, name, item) for item in items]
    return found
