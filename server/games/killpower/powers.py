"""Power cards as data (4.1 and 4.2): their faces are not in the rule book, so each league keeps its
own deck, edited by its owner, imported and exported as JSON. A sample deck ships, marked as one."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from server.errors import InvalidInput
from server.i18n import N_
from server.platform.data_import import CardList

ActivationKind = Literal["while_active", "if_activated", "automatic", "on_hit"]
KIND_TITLES = {
    "while_active": N_("while active"),  # « Tant que le pouvoir est actif »
    "if_activated": N_("if activated"),  # « Si le pouvoir est activé »
    "automatic": N_("automatic"),  # « Grâce au pouvoir… »
    "on_hit": N_("if the bearer hits"),  # « Si le porteur touche… »
}
SAMPLE = Path(__file__).with_name("sample_powers.json")


class Activation(BaseModel):
    """Activation (XX/XX): the characteristic rolled (none for automatic and on-hit powers), its
    cost in actions, and how the power works once activated."""

    characteristic: Literal["", "DEP", "PHY", "HAB", "POU", "BAL", "VIE"] = ""
    cost: Literal[0, 1] = 0
    kind: ActivationKind = "automatic"


EffectKind = Literal[
    "condition",  # the target takes a state for some turns (Sommeil: asleep 2, Peur: afraid 12)
    "damage",  # the target takes `dice` d10 of damage against VIE + armour (Rayon laser)
    "armour",  # while on the table, the bearer's armour + `amount` (Peau de pierre)
    "move",  # the bearer moves `amount` squares more this phase (Sprint éclair)
    "knockdown",  # on a hit: the target drops the ball and falls, no damage (Main de fer)
    "ghost",  # while on the table: through occupied squares, never hit nor taken (Fantôme)
    "long_shot",  # no distance malus on a basket shot beyond 8 squares (Œil de lynx)
    "fetch_ball",  # the free ball within `amount` squares, in view, to the bearer (Aimant)
    "second_chance",  # a failed risk-of-death roll rolled again at the end (Dernière chance)
    "shield",  # the bearer takes the damage aimed at an adjacent friend (Bouclier humain)
    "teleport",  # the bearer to a free square of their own half (Téléportation)
]


class PowerEffect(BaseModel):
    """What Arbitre does when the power works, for a card whose text it can carry out: one of
    the engine's effects, with its figures (as card engines describe cards by their effects).
    `target`: who the coach names (4.1, CIBLE: « un ami, un ennemi ou le porteur lui-même si
    rien n'est inscrit »); the bearer for a power on themself. A card with no effect is read
    aloud and its text applied with the sheet's tools."""

    kind: EffectKind
    target: Literal["bearer", "any", "enemy", "friend"] = "bearer"
    condition: Literal["asleep", "afraid", "blind", "immobile", "on_ground"] | None = None
    turns: int = Field(default=0, ge=0, le=20)
    amount: int = Field(default=0, ge=0, le=20)
    dice: int = Field(default=0, ge=0, le=3)
    # With the board, the target stands in the bearer's half (Rayon laser: « le premier
    # gladiateur ennemi qui passe la ligne 14 »).
    in_half: bool = False


class PowerCard(BaseModel):
    key: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9-]+$")
    name: str = Field(min_length=1, max_length=60)
    activation: Activation = Field(default_factory=Activation)
    deactivation: str = Field(default="", max_length=300)
    # The roll its bearer must pass to take it back (Rayon laser: « Jet de POU réussi par le
    # porteur »); none: taken back at will.
    deactivation_roll: Literal["", "DEP", "PHY", "HAB", "POU", "BAL", "VIE"] = ""
    uses: int | None = Field(default=None, ge=1, le=20)  # per match; none: at will
    text: str = Field(default="", max_length=2000)
    read_aloud: str = Field(default="", max_length=600)  # the underlined part (4.3)
    # 4.3: "Parfois, il y a des conditions": the underlined part is read only once this happens
    # (Rayon laser: "tant qu'aucun gladiateur ne passera la ligne 14"); empty: at activation.
    read_when: str = Field(default="", max_length=300)
    # The characteristic the target resists under, if it may (Rayon laser: VIE, Sommeil: POU).
    resistance: Literal["", "DEP", "PHY", "HAB", "POU", "BAL", "VIE"] = ""
    copies: int = Field(default=1, ge=1, le=7)
    # 3.3 and 3.4 « sauf contre-indication du pouvoir »: what the power (active on its bearer, or
    # a state it put on a target) outlasts, when its card says so: an expulsion, a badly wounded
    # gladiator, a basket's (or a gift point's) return to the side-line zones.
    survives: list[Literal["expulsion", "bg", "reset"]] = Field(default_factory=list, max_length=3)
    effect: PowerEffect | None = None

    @field_validator("name", "text", "read_aloud", "deactivation", "read_when")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()


class PowerDeck(BaseModel):
    powers: list[PowerCard] = Field(default_factory=list, max_length=200)
    bluff: int = Field(default=6, ge=0, le=30)  # bluff cards in the league's box (4.4)
    sample: bool = False

    def card(self, key: str) -> PowerCard | None:
        return next((p for p in self.powers if p.key == key), None)

    def names(self) -> dict[str, str]:
        return {p.key: p.name for p in self.powers}

    def copies(self) -> list[str]:
        return [p.key for p in self.powers for _ in range(p.copies)]


@lru_cache(maxsize=1)
def _sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def sample_deck() -> PowerDeck:
    return PowerDeck.model_validate_json(_sample_text())


POWER_CARDS = CardList(PowerCard, key="powers")


def parse_json_deck(text: str) -> PowerDeck:
    """A deck from JSON: {"powers": [...], "bluff": n} or a bare list of cards. The first wrong
    card is named with its number, and then nothing is imported."""
    cards, settings = POWER_CARDS.read(text)
    try:
        return PowerDeck(powers=cards, bluff=settings.get("bluff", 6), sample=False)
    except ValidationError:
        raise InvalidInput(
            N_("“bluff” is a number of bluff cards from 0 to 30."), field="deck"
        ) from None


def dump_json_deck(deck: PowerDeck) -> str:
    return POWER_CARDS.dump(deck.powers, bluff=deck.bluff)
