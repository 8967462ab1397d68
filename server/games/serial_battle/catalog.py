"""Serial Battle cards as data.

The rule book lists the vocabulary (lexique) but not the card faces, so a deck is a catalogue the
organizer edits, imports and exports (JSON or CSV). Arbitre ships a sample deck of 32 cards built
from that vocabulary, marked as a sample.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from server.errors import InvalidInput
from server.i18n import N_, Msg
from server.platform.data_import import (
    CardList,
    csv_cell,
    csv_value,
    slug,
)

DECK_SIZE = 32
MAX_COPIES = 32


class Location(IntEnum):
    """The location die (Localisation des dégâts)."""

    TRUNK = 1  # le tronc
    RIGHT_ARM = 2  # le bras droit
    LEFT_ARM = 3  # le bras gauche
    RIGHT_LEG = 4  # la jambe droite
    LEFT_LEG = 5  # la jambe gauche
    HEAD = 6  # la tête

    @property
    def title(self) -> str:
        return LOCATION_TITLES[self]

    @property
    def is_arm(self) -> bool:
        return self in (Location.RIGHT_ARM, Location.LEFT_ARM)

    @property
    def is_vital(self) -> bool:
        """A severed trunk or head is fatal (Membre tranché)."""
        return self in (Location.TRUNK, Location.HEAD)


LOCATION_TITLES = {
    Location.TRUNK: N_("trunk"),
    Location.RIGHT_ARM: N_("right arm"),
    Location.LEFT_ARM: N_("left arm"),
    Location.RIGHT_LEG: N_("right leg"),
    Location.LEFT_LEG: N_("left leg"),
    Location.HEAD: N_("head"),
}


# Where a blow lands, as said aloud ("au tronc", "à la tête").
LOCATION_HIT = {
    Location.TRUNK: N_("on the trunk"),
    Location.RIGHT_ARM: N_("on the right arm"),
    Location.LEFT_ARM: N_("on the left arm"),
    Location.RIGHT_LEG: N_("on the right leg"),
    Location.LEFT_LEG: N_("on the left leg"),
    Location.HEAD: N_("on the head"),
}


class Category(StrEnum):
    DEFENCE = "defence"  # défense
    BLADE = "blade"  # arme blanche
    CONTAINER = "container"  # arme contenante
    THROWING = "throwing"  # arme de jet
    ENERGY = "energy"  # arme à énergie
    PERMANENT = "permanent"  # objet permanent
    MISC = "misc"  # objet divers


CATEGORY_TITLES = {
    Category.DEFENCE: N_("defence"),
    Category.BLADE: N_("blade"),
    Category.CONTAINER: N_("container weapon"),
    Category.THROWING: N_("throwing weapon"),
    Category.ENERGY: N_("energy weapon"),
    Category.PERMANENT: N_("permanent object"),
    Category.MISC: N_("miscellaneous object"),
}


class Effect(StrEnum):
    KNOCKED_OUT = "knocked_out"  # assommé
    STRANGLED = "strangled"  # étranglement: as knocked out
    SEVERED = "severed"  # membre tranché
    FRACTURED = "fractured"  # fracture
    CRITICAL = "critical"  # coup critique: kills outright

    @property
    def knocks_out(self) -> bool:
        return self in (Effect.KNOCKED_OUT, Effect.STRANGLED)


EFFECT_TITLES = {
    Effect.KNOCKED_OUT: N_("knocked out"),
    Effect.STRANGLED: N_("strangled"),
    Effect.SEVERED: N_("severed"),
    Effect.FRACTURED: N_("fractured"),
    Effect.CRITICAL: N_("critical"),
}


class Ability(StrEnum):
    INITIATIVE = "initiative"
    ABSOLUTE_INITIATIVE = "absolute_initiative"  # initiative absolue
    MULTIPLE_TARGETS = "multiple_targets"  # cible multiple
    MASS_DAMAGE = "mass_damage"  # dégât de masse
    LONG_RANGE = "long_range"  # longue portée
    TWO_HANDS = "two_hands"
    COMPLEMENTARY = "complementary"  # carte complémentaire
    PERMANENT = "permanent"  # objet permanent


ABILITY_TITLES = {
    Ability.INITIATIVE: N_("initiative"),
    Ability.ABSOLUTE_INITIATIVE: N_("absolute initiative"),
    Ability.MULTIPLE_TARGETS: N_("multiple targets"),
    Ability.MASS_DAMAGE: N_("mass damage"),
    Ability.LONG_RANGE: N_("long range"),
    Ability.TWO_HANDS: N_("two hands"),
    Ability.COMPLEMENTARY: N_("complementary"),
    Ability.PERMANENT: N_("permanent"),
}


class Face(BaseModel):
    """One face of the damage die: PV lost and an effect."""

    pv: int = Field(ge=0, le=99)
    effect: Effect | None = None


class Protection(BaseModel):
    """What a permanent object does at one location: PV removed from a hit, or immunity."""

    reduce: int = Field(default=0, ge=0, le=99)
    immune: bool = False


class Card(BaseModel):
    key: str = Field(min_length=1, max_length=60, pattern=r"^[a-z0-9-]+$")
    name: str = Field(min_length=1, max_length=60)
    category: Category
    faces: list[Face] | None = None  # none: no damage table (bare hands apply)
    abilities: list[Ability] = Field(default_factory=list)
    ammo: int | None = Field(default=None, ge=1, le=99)  # M:n; none: not counted
    unlimited_ammo: bool = False  # munitions illimitées
    recoverable: bool = False  # récupération des munitions
    protections: dict[Location, Protection] = Field(default_factory=dict)
    bonus: int = Field(default=0, ge=0, le=99)  # complementary: PV added to a hit
    copies: int = Field(default=1, ge=1, le=MAX_COPIES)
    text: str = Field(default="", max_length=400)

    @field_validator("faces")
    @classmethod
    def six_faces(cls, faces: list[Face] | None) -> list[Face] | None:
        if faces is not None and len(faces) != 6:
            raise ValueError(f"a damage table has 6 faces, not {len(faces)}")
        return faces

    @field_validator("abilities")
    @classmethod
    def distinct(cls, abilities: list[Ability]) -> list[Ability]:
        return list(dict.fromkeys(abilities))

    @model_validator(mode="after")
    def coherent(self) -> Card:
        if self.recoverable and self.ammo is None:
            raise ValueError("a recoverable projectile needs an ammunition count")
        return self

    def has(self, ability: Ability) -> bool:
        return ability in self.abilities

    @property
    def is_permanent(self) -> bool:
        return self.category == Category.PERMANENT or self.has(Ability.PERMANENT)

    @property
    def is_weapon(self) -> bool:
        """Can be used for an assault: it has a damage table and is not only worn."""
        return self.faces is not None and not self.is_permanent

    @property
    def initiative_level(self) -> int:
        """2 for absolute initiative, 1 for initiative, 0 otherwise (Initiative, lexique)."""
        if self.has(Ability.ABSOLUTE_INITIATIVE):
            return 2
        return 1 if self.has(Ability.INITIATIVE) else 0


# Mains nues: 1-2: 0 PV, 3-4: contusions 1 PV, 5: assommé 2 PV, 6: fracture 3 PV.
BARE_HANDS = Card(
    key="bare-hands",
    name="Mains nues",
    category=Category.MISC,
    faces=[
        Face(pv=0),
        Face(pv=0),
        Face(pv=1),
        Face(pv=1),
        Face(pv=2, effect=Effect.KNOCKED_OUT),
        Face(pv=3, effect=Effect.FRACTURED),
    ],
)


# ---------------------------------------------------------------------------- validation


CARDS = CardList(Card, key="cards")


def validate_deck(cards: list[Card]) -> list[Card]:
    """Refuses duplicate names or keys; returns the deck unchanged."""
    return CARDS.check(cards, field="cards")


def parse_json_deck(text: str) -> list[Card]:
    return CARDS.read(text)[0]


def dump_json_deck(cards: list[Card]) -> str:
    return CARDS.dump(cards, exclude_defaults=True)


# CSV: one card a line; faces as "3" or "3 ko" (ko, strangled, severed, fractured, critical).
CSV_COLUMNS = [
    "name",
    "category",
    "face1",
    "face2",
    "face3",
    "face4",
    "face5",
    "face6",
    "abilities",
    "ammo",
    "recoverable",
    "protections",
    "bonus",
    "copies",
    "text",
]
EFFECT_WORDS = {
    "ko": Effect.KNOCKED_OUT,
    "assomme": Effect.KNOCKED_OUT,
    "knocked_out": Effect.KNOCKED_OUT,
    "strangled": Effect.STRANGLED,
    "etranglement": Effect.STRANGLED,
    "severed": Effect.SEVERED,
    "tranche": Effect.SEVERED,
    "fractured": Effect.FRACTURED,
    "fracture": Effect.FRACTURED,
    "critical": Effect.CRITICAL,
    "critique": Effect.CRITICAL,
}
LOCATION_WORDS = {
    "trunk": Location.TRUNK,
    "tronc": Location.TRUNK,
    "right_arm": Location.RIGHT_ARM,
    "bras_droit": Location.RIGHT_ARM,
    "left_arm": Location.LEFT_ARM,
    "bras_gauche": Location.LEFT_ARM,
    "right_leg": Location.RIGHT_LEG,
    "jambe_droite": Location.RIGHT_LEG,
    "left_leg": Location.LEFT_LEG,
    "jambe_gauche": Location.LEFT_LEG,
    "head": Location.HEAD,
    "tete": Location.HEAD,
}


def _word(text: str) -> str:
    """A cell as a plain lowercase word: "Assommé" -> "assomme", "bras droit" -> "bras_droit"."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "_", folded).strip("_")


def parse_csv_deck(text: str) -> list[Card]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [c for c in ("name", "category") if c not in (reader.fieldnames or [])]
    if missing:
        raise InvalidInput(
            N_("Line 1: the columns {columns} are missing."),
            field="deck",
            columns=", ".join(missing),
        )
    cards = []
    for line, row in enumerate(reader, start=2):
        cells = {k: csv_value(v) if isinstance(v, str) else v for k, v in row.items()}
        cards.append(_csv_card(line, cells))
    return validate_deck(cards)


Fail = Callable[[Msg], InvalidInput]


def csv_faces(cells: list[str], fail: Fail) -> list[Face] | None:
    """Six faces as "3" or "3 ko", or none at all (a card without damage dice)."""
    if not any(cells):
        return None
    faces = []
    for number, cell in enumerate(cells, start=1):
        match = re.fullmatch(r"(-?\d+)\s*([\w\s]*)", cell)
        if not cell or not match:
            raise fail(Msg(N_("face {number} is missing or unreadable"), {"number": number}))
        pv, word = int(match.group(1)), _word(match.group(2))
        if pv < 0:
            raise fail(Msg(N_("face {number} has negative HP"), {"number": number}))
        if word and word not in EFFECT_WORDS:
            raise fail(Msg(N_("unknown effect “{effect}”"), {"effect": match.group(2).strip()}))
        faces.append(Face(pv=pv, effect=EFFECT_WORDS.get(word)))
    return faces


def csv_protections(cell: str, fail: Fail) -> dict[Location, Protection]:
    """ "head: immune; torso: -2": a location and what the card takes off there."""
    protections: dict[Location, Protection] = {}
    for part in filter(None, (p.strip() for p in cell.split(";"))):
        where, _, what = part.partition(":")
        location = LOCATION_WORDS.get(_word(where))
        if location is None:
            raise fail(Msg(N_("unknown location “{location}”"), {"location": where.strip()}))
        what = what.strip().lower()
        if what in ("immune", "immunisé", "immunise"):
            protections[location] = Protection(immune=True)
        elif re.fullmatch(r"-?\d+", what):
            protections[location] = Protection(reduce=abs(int(what)))
        else:
            raise fail(Msg(N_("unreadable protection “{protection}”"), {"protection": part}))
    return protections


def csv_ammo(cell: str, fail: Fail) -> int:
    if not re.fullmatch(r"-?\d+", cell):
        raise fail(Msg(N_("unreadable ammunition “{ammo}”"), {"ammo": cell}))
    ammo = int(cell)
    if ammo < 1:
        raise fail(Msg(N_("ammunition must be 1 or more, not {ammo}"), {"ammo": ammo}))
    return ammo


def _csv_card(line: int, row: dict[str, Any]) -> Card:
    name = (row.get("name") or "").strip()

    def fail(problem: Msg) -> InvalidInput:
        return InvalidInput(
            N_("Line {line} (“{name}”): {problem}"),
            field="deck",
            line=line,
            name=name,
            problem=problem,
        )

    faces = csv_faces([(row.get(f"face{i}") or "").strip() for i in range(1, 7)], fail)
    abilities = []
    for word in filter(None, (_word(w) for w in re.split(r"[;,]", row.get("abilities") or ""))):
        if word not in Ability.__members__.values() and word not in {a.value for a in Ability}:
            raise fail(Msg(N_("unknown ability “{ability}”"), {"ability": word}))
        abilities.append(Ability(word))
    protections = csv_protections(row.get("protections") or "", fail)
    ammo_cell = (row.get("ammo") or "").strip().lower()
    unlimited = ammo_cell in ("unlimited", "illimité", "illimite", "∞")
    ammo = csv_ammo(ammo_cell, fail) if ammo_cell and not unlimited else None
    data = {
        "key": slug(name),
        "name": name,
        "category": _word(row.get("category") or ""),
        "faces": faces,
        "abilities": abilities,
        "ammo": ammo,
        "unlimited_ammo": unlimited,
        "recoverable": _word(row.get("recoverable") or "") in ("yes", "oui", "true", "1"),
        "protections": protections,
        "bonus": int(row.get("bonus") or 0) if (row.get("bonus") or "0").strip().isdigit() else -1,
        "copies": int(row.get("copies") or 1)
        if (row.get("copies") or "1").strip().isdigit()
        else 0,
        "text": (row.get("text") or "").strip(),
    }
    try:
        return Card.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise fail(
            Msg(N_("{where}: {problem}"), {"where": where, "problem": first["msg"]})
        ) from None


def dump_csv_deck(cards: list[Card]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    words = {
        e: w
        for w, e in EFFECT_WORDS.items()
        if w in ("ko", "strangled", "severed", "fractured", "critical")
    }
    for card in cards:
        row: dict[str, Any] = {"name": card.name, "category": card.category.value}
        for i, face in enumerate(card.faces or [], start=1):
            row[f"face{i}"] = f"{face.pv} {words[face.effect]}" if face.effect else str(face.pv)
        row["abilities"] = ";".join(a.value for a in card.abilities)
        row["ammo"] = "unlimited" if card.unlimited_ammo else (card.ammo or "")
        row["recoverable"] = "yes" if card.recoverable else ""
        row["protections"] = ";".join(
            f"{loc.name.lower()}:{'immune' if p.immune else -p.reduce}"
            for loc, p in sorted(card.protections.items())
        )
        row["bonus"] = card.bonus or ""
        row["copies"] = card.copies if card.copies != 1 else ""
        row["text"] = card.text
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def expand(cards: list[Card]) -> list[str]:
    """The physical cards of a deck, as copy ids: "pistolet", "pistolet#2", ..."""
    copies = []
    for card in cards:
        copies.append(card.key)
        copies.extend(f"{card.key}#{n}" for n in range(2, card.copies + 1))
    return copies


def key_of(copy_id: str) -> str:
    return copy_id.split("#", 1)[0]


SAMPLE_DECK_FILE = Path(__file__).with_name("sample_deck.json")


def sample_deck() -> list[Card]:
    """The 32-card deck a game starts with, until its organizer imports their own."""
    data = json.loads(SAMPLE_DECK_FILE.read_text())
    return [Card.model_validate(c) for c in data["cards"]]
