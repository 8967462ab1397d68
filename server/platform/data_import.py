"""What every game's data import shares (card decks, power decks): keys from names, JSON read with
the line of the first problem, and a message naming the card that is wrong."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from pydantic import ValidationError

from server.errors import InvalidInput
from server.platform.i18n import N_


def slug(name: str, default: str = "card") -> str:
    """A key from a name: "Œil de lynx" -> "oeil-de-lynx"."""
    text = name.replace("œ", "oe").replace("Œ", "Oe")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40] or default


MAX_DEPTH = 32  # nesting of imported JSON: a deck is three levels deep


def json_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """How deeply a JSON text nests its arrays and objects, counted without parsing it (the
    parser would recurse that deep first); stops counting past `limit`."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def read_json(text: str, field: str) -> Any:
    if json_depth(text) > MAX_DEPTH:
        raise InvalidInput(
            N_("This JSON nests deeper than {limit} levels: it is not a deck."),
            field=field,
            limit=MAX_DEPTH,
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            N_("Line {line}: this is not valid JSON ({problem})."),
            field=field,
            line=error.lineno,
            problem=error.msg,
        ) from None


def with_key(item: Any) -> Any:
    """A card given without a key gets one from its name."""
    if isinstance(item, dict) and "key" not in item and "name" in item:
        return {**item, "key": slug(str(item["name"]))}
    return item


def card_error(index: int, item: Any, error: ValidationError, field: str) -> InvalidInput:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    name = item.get("name", "?") if isinstance(item, dict) else "?"
    return InvalidInput(
        N_("Card {index} (“{name}”), {where}: {problem}"),
        field=field,
        index=index,
        name=name,
        where=where or "?",
        problem=first.get("msg", ""),
    )


# OWASP, CSV injection: a spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell written to a CSV export, neutralised: text that a spreadsheet would run as a
    formula gets a leading apostrophe (shown as text; `csv_value` takes it off on import)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_value(value: str) -> str:
    """A cell read from a CSV import: an apostrophe put by `csv_cell` comes off."""
    if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value
