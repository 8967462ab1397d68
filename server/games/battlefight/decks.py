"""Decks (1.1.2, 1.1.3): boosters of 10 cards (2 of each type), a random deck (2 boosters), a
constructed deck (4 of each type from the collection), a sealed deck (4 of each type from 3
boosters). A collection is data: a sample ships, marked as one (the book prints no card list),
and an organizer imports their own (JSON, read all or nothing)."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from functools import cache
from pathlib import Path

from server.errors import InvalidInput
from server.games.battlefight.cards import (
    BOOSTER_PER_TYPE,
    TYPE_TITLES,
    TYPES,
    CardError,
    Technique,
    check_deck,
)
from server.i18n import N_, Msg
from server.platform.data_import import CardList, csv_cell, csv_value
from server.platform.dice import SERVER, Dice

SAMPLE = Path(__file__).with_name("sample_cards.json")
TECHNIQUES = CardList(Technique, key="cards", name_field="title")


@cache
def _sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def sample_collection() -> list[Technique]:
    """The sample cards: six of each type, written with the book's steps."""
    return read_collection(_sample_text())


def read_collection(text: str) -> list[Technique]:
    """A collection from JSON ({"cards": [...]} or a bare list); the first card Arbitre cannot
    read is named with its number and the step it stops at, and nothing is imported. Each type
    needs at least one card, or no deck can be made."""
    cards, _settings = TECHNIQUES.read(text)
    missing = [kind for kind in TYPES if not any(c.type == kind for c in cards)]
    if missing:
        kind = Msg(TYPE_TITLES[missing[0]])
        raise CardError(N_("The collection has no card of type {type}."), type=kind)
    return cards


def dump_collection(cards: list[Technique], *, sample: bool = False) -> str:
    return TECHNIQUES.dump(cards, sample=sample)


# CSV: one card a line; its steps in one cell, separated by ";" (a step holds none).
CSV_COLUMNS = ["title", "type", "steps"]


def read_collection_csv(text: str) -> list[Technique]:
    """The same collection as CSV (a spreadsheet's export): title, type, steps "Corps à corps;
    Blesser 2"; read all or nothing, the first wrong line named."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise InvalidInput(
            N_("Line 1: the columns {columns} are missing."),
            field="deck",
            columns=", ".join(missing),
        )
    items = []
    for row in reader:
        cells = {k: csv_value(v) if isinstance(v, str) else "" for k, v in row.items() if k}
        steps = [step.strip() for step in cells.get("steps", "").split(";") if step.strip()]
        items.append(
            {
                "title": cells.get("title", "").strip(),
                "type": cells.get("type", "").strip(),
                "steps": steps,
            }
        )
    return read_collection(json.dumps({"cards": items}))


def read_any(text: str) -> list[Technique]:
    """JSON or CSV, whichever the text is."""
    return (
        read_collection(text)
        if text.lstrip("\ufeff \n\t")[:1] in "[{"
        else read_collection_csv(text)
    )


def dump_collection_csv(cards: list[Technique]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    for card in cards:
        row = {"title": card.title, "type": card.type, "steps": "; ".join(card.steps)}
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def booster(collection: list[Technique], dice: Dice, owner: str) -> list[Technique]:
    """1.1.2: 2 cards of each type, drawn at random and in secret (distinct within a booster
    when the collection has enough of a type)."""
    opened: list[Technique] = []
    for kind in TYPES:
        pool = [c for c in collection if c.type == kind]
        for _ in range(BOOSTER_PER_TYPE):
            left = [c for c in pool if c not in opened] or pool
            # 1.1.2: "distribuées aléatoirement et secrètement": nobody enters a booster's die.
            die = dice.roll(len(left), f"booster for {owner}", owner=SERVER, secret=True)
            opened.append(left[die - 1])
    return opened


def random_deck(collection: list[Technique], dice: Dice, owner: str) -> list[Technique]:
    """1.1.3.1: open 2 boosters and join them: 4 of each type."""
    return check_deck(booster(collection, dice, owner) + booster(collection, dice, owner))


def sealed_pool(collection: list[Technique], dice: Dice, owner: str) -> list[Technique]:
    """1.1.3.3: the 3 boosters a sealed deck is chosen from."""
    return [c for _ in range(3) for c in booster(collection, dice, owner)]


def chosen_deck(chosen: list[str], pool: list[Technique]) -> list[Technique]:
    """1.1.3.2 and 1.1.3.3: 4 cards of each type chosen from `pool` (the collection, where a
    card may be taken several times; or a sealed pool, each card as many times as it came)."""
    by_key = {c.key: c for c in pool}
    unknown = [k for k in chosen if k not in by_key]
    if unknown:
        raise CardError(N_("“{card}” is not among the cards to choose from."), card=unknown[0])
    deck = [by_key[k] for k in chosen]
    return check_deck(deck)


def within(chosen: list[str], pool: list[Technique]) -> None:
    """A sealed deck takes each card at most as many times as the boosters gave it."""
    have = Counter(c.key for c in pool)
    for key, count in Counter(chosen).items():
        if count > have[key]:
            raise CardError(
                N_("Too many “{card}”: the boosters gave {have}."), card=key, have=have[key]
            )
