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


def read_json(text: str, field: str) -> Any:
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
