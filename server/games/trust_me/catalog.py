"""What the box holds, as data (spec: everything the book refers to without printing it is data the
organizer enters or imports): survivors' passports (3.2), weapons (4), objects (5), objective
cards (3.3), the wound table on the back of the circular template (10.4), the skills of the nine
inventory cells (1), read from one JSON document with the line or the card of the first problem.
A sample box ships, marked as a sample on every screen. What the book does print is in the rules,
not here: the dice's colours, the décor's points and its specials (8, 12.3)."""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from server.errors import InvalidInput
from server.i18n import N_
from server.platform.data_import import (
    CardList,
    card_error,
    csv_cell,
    csv_value,
    read_json,
    with_key,
)

# I.: "Bleu = 1D4, Jaune = 1D6, Rouge = 1D8, Noir et Vert = 1D12, Blanc = 1D20."
Colour = Literal["blue", "yellow", "red", "black", "green", "white"]
SIDES: dict[str, int] = {"blue": 4, "yellow": 6, "red": 8, "black": 12, "green": 12, "white": 20}
COLOUR_TITLES = {
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "red": N_("red"),
    "black": N_("black"),
    "green": N_("green"),
    "white": N_("white"),
}

Name = Annotated[str, Field(min_length=1, max_length=60)]
Key = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9-]+$")]


class Passport(BaseModel):
    """3.2: a survivor's identity, the bonuses added to combat dice, an effect in words; the
    defence dice (spec: the book names none, so they are the passport's)."""

    key: Key
    name: Name
    melee: int = Field(ge=-10, le=20)
    ranged: int = Field(ge=-10, le=20)
    survival: int = Field(ge=-10, le=20)
    defence: list[Colour] = Field(default=["yellow"], min_length=1, max_length=4)
    effect: str = Field(default="", max_length=300)


# 4: "5 types d'armes différentes (Surin, Arme Tranchante, Arme Contondante, Arme de Poing et
# Arme Militaire)"; "2 catégories d'arme dans le jeu : Mêlée et Distance".
Family = Literal["surin", "blade", "blunt", "handgun", "military"]
FAMILY_TITLES = {
    "surin": N_("shiv"),
    "blade": N_("blade"),
    "blunt": N_("blunt weapon"),
    "handgun": N_("handgun"),
    "military": N_("military weapon"),
}


class Weapon(BaseModel):
    key: Key
    name: Name
    family: Family
    category: Literal["melee", "ranged"]
    die: Colour  # "Dé d'attaque"
    limit: int = Field(ge=0, le=12)  # "Limite d'utilisation": the green die at or under it
    two_handed: bool = False
    starting: int = Field(default=0, ge=0, le=10)  # "Arme de départ" tokens of it in the box


# 5: the objects and what each does; the table applies most, Arbitre keeps what touches a sheet.
Effect = Literal[
    "ammo",  # Munitions: reload a ranged weapon
    "flare",  # Fusée: the Community token moved, a racket
    "medkit",  # Trousse de Soin: one wound or infection off
    "guide",  # Guide de Survie: one more objective card
    "special",  # Ressource (spéciale): no victory point, no objective
    "bandage",  # on the passport: holds one wound
    "charm",  # Porte-Bonheur, on the passport: re-roll one die
    "backpack",  # Sac à dos: two hidden cells
    "sneakers",  # Basket (outfit): an Action/Fatigue token on it
    "satchel",  # Sacoche (outfit): one hidden object on it
    "empty",  # Vide: discarded once revealed
    "resource",  # one of the four resources worth a victory point (13.1)
]
OUTFITS = ("sneakers", "satchel")  # "Indication Tenue"
ON_PASSPORT = ("bandage", "charm")


class Thing(BaseModel):
    """An object token (5): its effect, its use limit (the green heart) or X1 (one use)."""

    key: Key
    name: Name
    effect: Effect
    limit: int | None = Field(default=None, ge=0, le=12)
    single_use: bool = False  # "X1" in the green heart
    starting: int = Field(default=0, ge=0, le=10)  # "Objet de départ" tokens of it
    text: str = Field(default="", max_length=300)


# 3.3: an objective's condition, as Arbitre can check it from the sheets; "manual" for a text
# only the table can judge (its player says how many times it is met).
Condition = Literal["resource", "resources", "left_dead", "right_dead", "zombies", "manual"]


class Objective(BaseModel):
    key: Key
    text: str = Field(min_length=1, max_length=200)
    condition: Condition
    resource: str | None = Field(default=None, max_length=40)  # a resource's key
    count: int = Field(default=1, ge=1, le=20)
    copies: int = Field(default=1, ge=1, le=10)  # cards of it in the deck

    @model_validator(mode="after")
    def _resource_named(self) -> Objective:
        if self.condition == "resource" and not self.resource:
            raise ValueError("a “resource” condition names the resource")
        return self

    @property
    def name(self) -> str:
        return self.text


Outcome = Literal["none", "fatigue_or_wound", "wounds"]


class WoundRow(BaseModel):
    """A line of the wound table: from this difference (attack - defence) up to the next line."""

    at_least: int = Field(ge=-50, le=50)
    outcome: Outcome
    wounds: int = Field(default=0, ge=0, le=3)


# 1: the nine cells, each a skill while it is free; two are not named in the book (spec).
Skill = Literal[
    "melee_die",  # "1 dé Jaune supplémentaire lors de vos jets de dé d'attaque en Mêlée"
    "move",  # "Ajoutez 5cm au déplacement"
    "ranged_die",  # "1 dé Jaune supplémentaire ... à Distance"
    "reroll",  # "Lors de vos attaques, vous pouvez relancer l'un de vos dés"
    "defence_die",  # "1 dé Bleu supplémentaire lors de vos jets de dé de défense"
    "green",  # "Augmentez le résultat de votre dé Vert de +1"
    "hidden",  # "Un objet placé ici est obligatoirement face caché" (the "?")
    "attack",  # sample: +1 to attack totals
    "defence",  # sample: +1 to defence totals
    "none",
]


class Cell(BaseModel):
    skill: Skill
    label: str = Field(min_length=1, max_length=80)
    sample: bool = False  # a skill the book does not name


class Box(BaseModel):
    sample: bool = False
    passports: list[Passport]
    weapons: list[Weapon]
    things: list[Thing]
    objectives: list[Objective]
    wound_table: list[WoundRow] = Field(min_length=1, max_length=20)
    cells: list[Cell] = Field(min_length=9, max_length=9)

    @model_validator(mode="after")
    def _consistent(self) -> Box:
        resources = {t.key for t in self.things if t.effect == "resource"}
        for objective in self.objectives:
            if objective.condition == "resource" and objective.resource not in resources:
                raise ValueError(
                    f"objective “{objective.text}”: no resource “{objective.resource}”"
                )
        ats = [row.at_least for row in self.wound_table]
        if ats != sorted(set(ats)):
            raise ValueError("the wound table's lines go up, each from a different difference")
        if sum(1 for c in self.cells if c.skill == "hidden") != 1:
            raise ValueError("one cell, and one only, is the hidden “?” cell")
        return self

    def weapon(self, key: str) -> Weapon | None:
        return next((w for w in self.weapons if w.key == key), None)

    def thing(self, key: str) -> Thing | None:
        return next((t for t in self.things if t.key == key), None)

    def passport(self, key: str) -> Passport | None:
        return next((p for p in self.passports if p.key == key), None)

    def objective(self, key: str) -> Objective | None:
        return next((o for o in self.objectives if o.key == key), None)

    def name_of(self, key: str) -> str:
        found = self.weapon(key) or self.thing(key)
        return found.name if found else key

    def resources(self) -> list[Thing]:
        return [t for t in self.things if t.effect == "resource"]


SECTIONS: dict[str, tuple[type[BaseModel], str]] = {  # section: (its model, its name field)
    "passports": (Passport, "name"),
    "weapons": (Weapon, "name"),
    "things": (Thing, "name"),
    "objectives": (Objective, "text"),
}


def read_box(text: str) -> Box:
    """A box from JSON: each section's cards checked one by one, the first wrong one named with
    its section, number and problem; then the box as a whole."""
    data = read_json(text, "text")
    if not isinstance(data, dict):
        raise InvalidInput(N_("Expected an object with the box's sections."), field="text")
    read: dict[str, Any] = {"sample": data.get("sample") is True}
    for section, (model, name_field) in SECTIONS.items():
        items = data.get(section)
        if not isinstance(items, list):
            raise InvalidInput(
                N_("The box has no list “{section}”."), field="text", section=section
            )
        cards = []
        for index, item in enumerate(items, start=1):
            item = with_key(item, name_field)
            try:
                cards.append(model.model_validate(item))
            except ValidationError as error:
                raise in_section(
                    section, card_error(index, item, error, "text", name_field)
                ) from None
        CardList(model, key=section, field="text", name_field=name_field).check(cards)
        read[section] = cards
    for section in ("wound_table", "cells"):
        read[section] = data.get(section)
    try:
        return Box.model_validate(read)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        problem = str(first.get("msg", "")).removeprefix("Value error, ")
        raise InvalidInput(
            N_("The box, {where}: {problem}"), field="text", where=where or "—", problem=problem
        ) from None


# A box as CSV (a spreadsheet's export): one row per card, its list in the `section` column,
# the other columns its fields (empty: not given); a passport's defence dice "yellow;blue".
CSV_MODELS: dict[str, type[BaseModel]] = {
    **{section: model for section, (model, _) in SECTIONS.items()},
    "wound_table": WoundRow,
    "cells": Cell,
}
LIST_FIELDS = {"defence"}


def read_box_csv(text: str) -> Box:
    """A box from CSV, all or nothing: the first wrong row named by its line."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if "section" not in (reader.fieldnames or []):
        raise InvalidInput(N_("Line 1: the column “section” is missing."), field="text")
    data: dict[str, Any] = {"sample": False, **{section: [] for section in CSV_MODELS}}
    for row in reader:
        line = reader.line_num
        section = (row.get("section") or "").strip()
        model = CSV_MODELS.get(section)
        if model is None:
            raise InvalidInput(
                N_("Line {line}: no section “{section}” in a box."),
                field="text",
                line=line,
                section=section,
            )
        card: dict[str, Any] = {}
        for name, value in row.items():
            value = csv_value(value.strip()) if isinstance(value, str) else ""
            if name and name != "section" and value:
                card[name] = value.split(";") if name in LIST_FIELDS else value
        name_field = SECTIONS[section][1] if section in SECTIONS else None
        card = with_key(card, name_field) if name_field else card
        try:
            model.model_validate(card)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or section
            problem = str(first.get("msg", "")).removeprefix("Value error, ")
            raise InvalidInput(
                N_("Line {line}: {where}: {problem}"),
                field="text",
                line=line,
                where=where,
                problem=problem,
            ) from None
        data[section].append(card)
    return read_box(json.dumps(data))


def dump_box_csv(box: Box) -> str:
    """The same box as CSV, each cell safe from a spreadsheet's formulas."""
    rows: list[dict[str, Any]] = []
    for section in CSV_MODELS:
        for card in getattr(box, section):
            row = {"section": section}
            for name, value in card.model_dump(mode="json").items():
                row[name] = ";".join(value) if isinstance(value, list) else value
            rows.append(row)
    columns = ["section", *dict.fromkeys(name for row in rows for name in row if name != "section")]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(v) if v is not None else "" for k, v in row.items()})
    return out.getvalue()


def read_box_text(text: str) -> Box:
    """JSON or CSV, whichever was pasted or uploaded."""
    return read_box(text) if text.lstrip().startswith("{") else read_box_csv(text)


def in_section(section: str, error: InvalidInput) -> InvalidInput:
    return InvalidInput(
        N_("In “{section}”: {problem}"), field="text", section=section, problem=error.msg
    )


def dump_box(box: Box) -> str:
    return json.dumps(box.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"


@cache
def _sample_text() -> str:
    return (Path(__file__).parent / "sample_box.json").read_text(encoding="utf-8")


def sample_box() -> Box:
    return read_box(_sample_text())
