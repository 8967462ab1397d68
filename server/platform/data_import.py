"""What every game's data import shares (card decks, power decks): keys from names, JSON read with
the line of the first problem, a message naming the card that is wrong, `CardList` which reads
and writes one game's cards, and CSV cells that a spreadsheet will not run."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from server.errors import InvalidInput
from server.i18n import N_


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
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            N_("Line {line}: this is not valid JSON ({problem})."),
            field=field,
            line=error.lineno,
            problem=error.msg,
        ) from None
    found = hidden_character(data)
    if found is not None:
        raise InvalidInput(
            N_("“{text}” holds an invisible character (U+{code}): type it again."),
            field=field,
            text=found[0][:40],
            code=found[1],
        )
    return data


def hidden_character(data: Any) -> tuple[str, str] | None:
    """A text holding a character nobody sees (a control, a zero-width space, a direction mark):
    two cards that look the same would be two cards. The text and the character's code."""
    if isinstance(data, str):
        for char in data:
            category = unicodedata.category(char)
            if (category == "Cc" and char not in "\n\r\t") or category in ("Cf", "Co", "Cs"):
                return data.encode("ascii", "replace").decode(), f"{ord(char):04X}"
        return None
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        found = hidden_character(key) if isinstance(key, str) else None
        found = found or hidden_character(value)
        if found is not None:
            return found
    return None


def with_key(item: Any, name_field: str = "name") -> Any:
    """A card given without a key gets one from its name."""
    if isinstance(item, dict) and "key" not in item and name_field in item:
        return {**item, "key": slug(str(item[name_field]))}
    return item


def card_error(
    index: int, item: Any, error: ValidationError, field: str, name_field: str = "name"
) -> InvalidInput:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    name = item.get(name_field, "?") if isinstance(item, dict) else "?"
    problem = str(first.get("msg", "")).removeprefix("Value error, ")
    if not where:  # the card as a whole (a step it cannot read)
        return InvalidInput(
            N_("Card {index} (“{name}”): {problem}"),
            field=field,
            index=index,
            name=name,
            problem=problem,
        )
    return InvalidInput(
        N_("Card {index} (“{name}”), {where}: {problem}"),
        field=field,
        index=index,
        name=name,
        where=where,
        problem=problem,
    )


C = TypeVar("C", bound=BaseModel)


@dataclass(frozen=True)
class CardList(Generic[C]):
    """How one game's cards travel as JSON: a bare list, or an object holding the list under
    `key` beside the deck's own settings. Read all or nothing: the first wrong card is named with
    its number and its problem, a key or a name given twice is refused, an empty deck too.
    Every game with cards as data (decks, power decks, techniques, objects) reads them here."""

    card: type[C]
    key: str = "cards"
    field: str = "deck"
    name_field: str = "name"  # what a card's name is called ("title" for a technique)

    def read(self, text: str) -> tuple[list[C], dict[str, Any]]:
        """The cards, and the other fields of the object they came in (empty for a list)."""
        data = read_json(text, self.field)
        if isinstance(data, list):
            data = {self.key: data}
        if not isinstance(data, dict) or not isinstance(data.get(self.key), list):
            raise InvalidInput(
                N_("Expected a list of cards, or an object with “{key}”."),
                field=self.field,
                key=self.key,
            )
        cards = []
        for index, item in enumerate(data[self.key], start=1):
            item = with_key(item, self.name_field)
            try:
                cards.append(self.card.model_validate(item))
            except ValidationError as error:
                raise card_error(index, item, error, self.field, self.name_field) from None
        self.check(cards)
        return cards, {k: v for k, v in data.items() if k != self.key}

    def check(self, cards: list[C], field: str | None = None) -> list[C]:
        """No key nor name twice (names compared without case), at least one card; the message
        goes next to `field` (the import's own by default)."""
        field = field or self.field
        keys: set[str] = set()
        names: dict[str, str] = {}
        for card in cards:
            key, name = getattr(card, "key", None), getattr(card, self.name_field, None)
            if isinstance(name, str):
                if name.casefold() in names:
                    raise InvalidInput(N_("Two cards are named “{name}”."), field=field, name=name)
                names[name.casefold()] = name
            if isinstance(key, str):
                if key in keys:
                    raise InvalidInput(N_("Two cards have the key “{key}”."), field=field, key=key)
                keys.add(key)
        if not cards:
            raise InvalidInput(N_("A deck needs at least one card."), field=field)
        return cards

    def dump(self, cards: list[C], *, exclude_defaults: bool = False, **settings: Any) -> str:
        """The cards as JSON the same `read` takes back, with the deck's settings beside them."""
        items = [
            c.model_dump(mode="json", exclude_defaults=exclude_defaults)
            | ({"key": c.key} if hasattr(c, "key") else {})
            for c in cards
        ]
        return json.dumps({self.key: items, **settings}, ensure_ascii=False, indent=1) + "\n"


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
