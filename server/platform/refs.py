"""What in a command names a person: `PersonRef` fields, checked by the platform.

A command may name only people of its own game. A field typed `PersonRef` (or a list of them, or
an optional one) is found here, and the service refuses the command when the person belongs to
another game, before the rules see it. Ids local to a game's state (a league's teams and
gladiators, a deck's cards) are the rules' to check: they look them up in the state itself.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel


class Ref:
    """Marks an id field with what it names."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return f"Ref({self.what!r})"


PERSON = Ref("person")
PersonRef = Annotated[int, PERSON]


def _names_person(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        return any(isinstance(m, Ref) and m.what == "person" for m in get_args(annotation)[1:])
    return any(_names_person(arg) for arg in get_args(annotation))


@cache
def person_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a command model that name people."""
    fields = []
    for name, info in model.model_fields.items():
        marked = any(isinstance(m, Ref) and m.what == "person" for m in info.metadata)
        if marked or _names_person(info.annotation):
            fields.append(name)
    return tuple(fields)


def person_refs(command: Any) -> dict[str, int]:
    """Each person id the command names, with a field that names it (`defenders.1`)."""
    if not isinstance(command, BaseModel):
        return {}
    found: dict[str, int] = {}
    for name in person_fields(type(command)):
        value = getattr(command, name)
        if isinstance(value, int):
            found[name] = value
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                if isinstance(item, int):
                    found[f"{name}.{index}"] = item
    return found
