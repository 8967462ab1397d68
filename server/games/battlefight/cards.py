"""Techniques as data (1.1, 3.2, 3.3, 4): a title, a type and steps written in the rule book's own
words ("Corps à corps", "Blesser 2", "L'adversaire a Pousser 1", "Stable 1"), each read into a
keyword, a modifier and a parameter (4.1). A step Arbitre cannot read is refused with its line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from server.i18n import N_, Msg, joined

TechniqueType = Literal["attack", "defence", "movement", "concentration", "rhetoric"]
TYPES: tuple[TechniqueType, ...] = ("attack", "defence", "movement", "concentration", "rhetoric")
TYPE_TITLES = {  # 3.2.2
    "attack": N_("attack"),
    "defence": N_("defence"),
    "movement": N_("movement"),
    "concentration": N_("concentration"),
    "rhetoric": N_("rhetoric"),
}
TYPE_WORDS: dict[str, TechniqueType] = {  # the book's words, and ours
    "attaque": "attack",
    "defense": "defence",
    "deplacement": "movement",
    "concentration": "concentration",
    "rhetorique": "rhetoric",
    **{t: t for t in TYPES},
}

Modifier = Literal["opponent", "everyone"]
MODIFIERS: dict[
    str, Modifier
] = {  # 4.4 (the first list so numbered): "L'adversaire a", "Tout le monde a"
    "l'adversaire a": "opponent",
    "tout le monde a": "everyone",
}

Keyword = Literal[
    "wound",
    "block",
    "charm",
    "melee",
    "discard",
    "ranged",
    "force",
    "destabilise",
    "stable",
    "draw",
    "push",
    "protection",
    "play_again",
    "wound_self",
    "move",
    "forbid_type",
    "forbid_card",
    "discard_if_possible",
    "speed",
]

# 4.4.1 to 4.4.19: each keyword and what its parameter is: "n" a number that must be there, "n?"
# a number with a default, "type" / "type?" a technique type, "" none.
KEYWORDS: dict[str, tuple[Keyword, str, int | None]] = {
    # normalised words: (keyword, parameter, default)
    "blesser": ("wound", "n", None),
    "bloquer": ("block", "n", None),
    "charme": ("charm", "n", None),
    "corps a corps": ("melee", "", None),
    "defausser": ("discard", "n", None),
    "distance": ("ranged", "n?", 2),  # 4.4.6: "Si N est omis, N = 2"
    "force": ("force", "n", None),
    "destabiliser": ("destabilise", "", None),
    "stable": ("stable", "n?", 0),  # 4.4.9: "Si N est omis, N = 0"
    "piocher": ("draw", "n", None),
    "pousser": ("push", "n", None),
    "protection": ("protection", "n", None),
    "rejouer": ("play_again", "", None),
    "se blesser": ("wound_self", "n", None),
    "se deplacer": ("move", "n", None),
    "s'empecher": ("forbid_type", "type", None),
    "s'empecher carte": ("forbid_card", "type?", None),
    "si possible defausser": ("discard_if_possible", "n", None),
    "vitesse": ("speed", "n", None),
}


class CardError(ValueError):
    """A step, a card or a deck the book does not allow: the message says what was expected."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(Msg(message, dict(params)).render())
        self.msg = Msg(message, dict(params))


def fold(text: str) -> str:
    """Lower case, no accents, one kind of apostrophe, single spaces: "S’Empêcher  Carte" and
    "s'empecher carte" read the same."""
    text = text.replace("’", "'").replace("`", "'")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(text.lower().replace(" '", "'").split())


@dataclass(frozen=True)
class Step:
    """One step read (4.1): its keyword, its modifier if any, its parameter if any."""

    keyword: Keyword
    modifier: Modifier | None = None
    n: int | None = None
    type: TechniqueType | None = None

    @property
    def lasting(self) -> bool:
        """A step whose effect lasts while the technique is active (Force, Charme, ...)."""
        return self.keyword in LASTING


LASTING = {"charm", "force", "protection", "speed", "forbid_type", "forbid_card"}
NUMBER = re.compile(r"[+-]?\d+")
# 4.3 "un mot ou un nombre": the book bounds no number; Arbitre reads -999 to 999 (counts 0 to
# 999), a guard against typos said as such, not a rule (spec, "Numbers in steps").
MAX_N = 999
COUNTS = {"discard", "discard_if_possible", "draw", "push", "stable"}


def parse_step(text: str) -> Step:
    """A step's text as the book writes it: [modifier] keyword [parameter]."""
    words = fold(text)
    if not words:
        raise CardError(N_("An empty step."))
    modifier = None
    for phrase, value in MODIFIERS.items():
        if words == phrase or words.startswith(phrase + " "):
            modifier, words = value, words[len(phrase) :].strip()
            break
    # The longest keyword that starts the text ("se blesser" before "blesser", "s'empecher
    # carte" before "s'empecher").
    for phrase in sorted(KEYWORDS, key=len, reverse=True):
        if words == phrase or words.startswith(phrase + " "):
            keyword, kind, default = KEYWORDS[phrase]
            return _with_parameter(text, keyword, kind, default, modifier, words[len(phrase) :])
    raise CardError(N_("“{step}” is not a step of the rule book (chapter 4)."), step=text.strip())


def _with_parameter(
    text: str,
    keyword: Keyword,
    kind: str,
    default: int | None,
    modifier: Modifier | None,
    rest: str,
) -> Step:
    rest = rest.strip()
    if kind == "":
        if rest:
            raise CardError(N_("“{step}” takes no parameter."), step=text.strip())
        return Step(keyword, modifier)
    if kind.startswith("n"):
        if not rest and kind == "n?":
            return Step(keyword, modifier, n=default)
        if not NUMBER.fullmatch(rest):
            raise CardError(N_("“{step}” needs a number."), step=text.strip())
        n = int(rest)
        # N cards, N times: a count (0 to 999); elsewhere a bonus or malus (-999 to 999).
        low = 0 if keyword in COUNTS else -MAX_N
        if not low <= n <= MAX_N:
            raise CardError(
                N_(
                    "“{step}”: Arbitre reads numbers from {low} to {high} (a guard against typos; "
                    "the rule book bounds none, 4.3)."
                ),
                step=text.strip(),
                low=low,
                high=MAX_N,
            )
        return Step(keyword, modifier, n=n)
    if not rest and kind == "type?":
        return Step(keyword, modifier)
    kind_of = TYPE_WORDS.get(rest)
    if kind_of is None:
        raise CardError(
            N_(
                "“{step}” needs a technique type: attaque, défense, déplacement, concentration or rhétorique."
            ),
            step=text.strip(),
        )
    return Step(keyword, modifier, type=kind_of)


class Technique(BaseModel):
    """A technique (3.2): a card, or one of the five base techniques (3.3, `base=True`)."""

    key: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9-]+$")
    title: str = Field(min_length=1, max_length=60)
    type: TechniqueType
    steps: list[str] = Field(min_length=1, max_length=12)  # 3.2.3: one or more steps
    base: bool = False

    @field_validator("type", mode="before")
    @classmethod
    def _type_word(cls, value: object) -> object:
        return TYPE_WORDS.get(fold(value), value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _readable(self) -> Technique:
        for number, text in enumerate(self.steps, start=1):
            try:
                parse_step(text)
            except CardError as error:
                step = Msg(N_("step {number}: {problem}"), {"number": number, "problem": error.msg})
                raise ValueError(step.render()) from None
        return self

    @property
    def parsed(self) -> list[Step]:
        return [parse_step(text) for text in self.steps]

    @property
    def name(self) -> str:
        return self.title


# 3.3: the five base techniques, never cards.
BASE_TECHNIQUES = (
    Technique(
        key="base-attack",
        title="Attaque de base",
        type="attack",
        steps=["Corps à corps", "Blesser 1"],  # 4.4.4 spells the keyword so
        base=True,
    ),
    Technique(
        key="base-defence", title="Défense de base", type="defence", steps=["Bloquer 1"], base=True
    ),
    Technique(
        key="base-movement",
        title="Déplacement de base",
        type="movement",
        steps=["Se déplacer 1"],
        base=True,
    ),
    Technique(
        key="base-concentration",
        title="Concentration de base",
        type="concentration",
        steps=["Piocher 1"],
        base=True,
    ),
    Technique(
        key="base-rhetoric",
        title="Rhétorique de base",
        type="rhetoric",
        steps=["Déstabiliser"],
        base=True,
    ),
)

DECK_PER_TYPE = 4  # 1.1.3: 4 cards of each of the 5 types, 20 in all
BOOSTER_PER_TYPE = 2  # 1.1.2: a booster of 10 cards, 2 of each type


def check_deck(cards: list[Technique]) -> list[Technique]:
    """1.1.3: four cards of each type (the same card may come more than once); every type that
    is wrong is said at once."""
    counts = {kind: sum(1 for c in cards if c.type == kind) for kind in TYPES}
    wrong = [
        Msg(N_("{count} of type {type}"), {"count": n, "type": Msg(TYPE_TITLES[kind])})
        for kind, n in counts.items()
        if n != DECK_PER_TYPE
    ]
    if wrong:
        raise CardError(
            N_("A deck holds 4 cards of each type, not {wrong}."),
            wrong=joined(wrong, ", "),
            count=next(n for n in counts.values() if n != DECK_PER_TYPE),
        )
    return cards
