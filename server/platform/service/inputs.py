"""What every text and command is checked for before a game sees it: plain names, no hidden
characters, pydantic's first problem said plainly."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from server.errors import (
    InvalidInput,
    validation_problem,
)
from server.i18n import N_


def invalid_from(error: ValidationError, *, tag: Any = None) -> InvalidInput:
    """The first problem pydantic found, said plainly, with the field it concerns as the form
    names it (`action`, not `act.action`: `tag`, a command's type, is left out of the path)."""
    first: dict[str, Any] = dict(error.errors()[0])
    loc: tuple[Any, ...] = tuple(first.get("loc", ()))
    if tag is not None and len(loc) > 1 and loc[0] == tag:
        first["loc"] = loc[1:]
    where, message = validation_problem(first, named=False)
    return InvalidInput(message.text, field=where, **message.params)


# Characters no name or text may hold: controls (NUL, escapes), invisible ones (zero-width space,
# word joiner, byte-order mark) and those that turn text around (bidi overrides), which would make
# a name read aloud or shown differ from itself, or pass for another.
HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]"
)


def check_text(value: Any, where: str = "") -> None:
    """Refuses a command whose text holds a control character (line breaks and tabs are text),
    wherever it is in the command."""
    if isinstance(value, str):
        if HIDDEN.search(value):
            raise InvalidInput(
                N_("“{where}” holds a control character: type it again."),
                field=where or None,
                where=where or "?",
            )
    elif isinstance(value, Mapping):
        for k, v in value.items():
            check_text(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            check_text(v, where)


def clean_name(name: str, *, limit: int = 80, what: str = "name") -> str:
    check_text(name, what)
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput(N_("A name is needed."), field=what)
    if len(name) > limit:
        raise InvalidInput(
            N_("“{name}” is too long ({limit} characters at most)."),
            field=what,
            name=name[:20] + "…",
            limit=limit,
        )
    return name
