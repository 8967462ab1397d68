"""What a referee (or the clock) may ask of a Serial Battle: one model per command."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from server.games.serial_battle.catalog import Card
from server.games.serial_battle.state import START_PV, Touch
from server.platform.commands import Strict
from server.platform.refs import PersonRef, Ref

# What commands name (checked by the platform against `SerialBattle.references`): a card copy
# of the deck ("bare": bare hands), a choice the referee owes, a sector.
CardRef = Annotated[str, Ref("card")]

PendingRef = Annotated[int, Ref("pending")]

SectorRef = Annotated[str, Ref("sector")]


class SetSettings(Strict):
    type: Literal["settings"]
    shrink_minutes: int = Field(ge=1, le=120)
    deal_mode: Literal["random", "scattered"]
    closing: Literal["choose", "plan"]


class SetSectors(Strict):
    type: Literal["sectors"]
    names: str = Field(max_length=2000, description="One sector a line, or separated by commas.")
    plan: str = Field(
        default="", max_length=4000, description="One shrink a line: the sectors it closes."
    )


class ReplaceDeck(Strict):
    type: Literal["deck"]
    cards: list[Card] = Field(max_length=200)
    sample: bool = False


class TagPlayer(Strict):
    type: Literal["tag"]
    player: PersonRef
    tag: str = Field(default="", max_length=20)


class Start(Strict):
    type: Literal["start"]


class Pause(Strict):
    type: Literal["pause"]


class Resume(Strict):
    type: Literal["resume"]


class End(Strict):
    type: Literal["end"]


class Assault(Strict):
    """One assault (Assaut), the heart of the console: steps 1-8 of the spec."""

    type: Literal["assault"]
    attacker: PersonRef
    defenders: list[PersonRef] = Field(min_length=1, max_length=32)
    touch: Touch = "attacker"  # who touched or called first
    card: CardRef = "bare"  # the attacker's card copy, or "bare" for bare hands
    # The (single) defender's answer card; left out only when they hold at most one usable card
    # (nobody chooses it for them: the page preselects the likeliest, visibly).
    defender_card: CardRef | None = None
    # Each defender's answer card in a group assault (form fields defender_card_<id>), by the
    # same rule.
    defender_cards: dict[PersonRef, CardRef] = Field(default_factory=dict, max_length=32)
    answer: bool = True  # does the defender strike back (if still standing)

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = [k for k in data if isinstance(k, str) and k.startswith("defender_card_")]
        if not fields:
            return data
        data = dict(data)
        cards = dict(data.get("defender_cards") or {})
        for key in fields:
            value = data.pop(key)
            if value not in (None, ""):
                cards[key.removeprefix("defender_card_")] = value
        data["defender_cards"] = cards
        return data


class KnockoutTake(Strict):
    type: Literal["knockout_take"]
    pending: PendingRef
    # The card taken; none: the winner leaves with nothing, which only a loser holding no card
    # allows (Assommé: "lui prendre la carte de votre choix et partir").
    card: CardRef | None = None
    # With 5 cards already, one of the winner's own goes back to the referee to make room.
    give_back: CardRef | None = None


class KnockoutAgain(Strict):
    type: Literal["knockout_again"]
    pending: PendingRef
    card: CardRef | None = None  # default: the card of the first assault
    # Assommé: woken up, the defender "pourra alors répliquer": with this card, default the best.
    defender_card: CardRef | None = None


class Loot(Strict):
    """Points de vie: "le vainqueur peut prendre sa ou ses cartes [...] Un joueur ne peut posséder
    plus de 5 cartes, les autres sont remises à l'arbitre". `take`: the loser's cards the winner
    takes; `give_back`: the winner's own cards handed to the referee to make room. The loser's
    other cards go back to the referee."""

    type: Literal["loot"]
    pending: PendingRef
    take: list[CardRef] = Field(default_factory=list, max_length=32)
    give_back: list[CardRef] = Field(default_factory=list, max_length=5)


class GiveCard(Strict):
    type: Literal["give"]
    player: PersonRef
    card: CardRef  # a copy id in the referee's hands


class TakeCard(Strict):
    type: Literal["take"]
    player: PersonRef
    card: CardRef


class Correct(Strict):
    type: Literal["correct"]
    player: PersonRef
    pv: int | None = Field(default=None, ge=0, le=START_PV)  # no card heals
    card: CardRef | None = None
    ammo: int | None = Field(default=None, ge=0, le=99)
    reason: str = Field(min_length=1, max_length=200)


class Place(Strict):
    type: Literal["place"]
    players: list[PersonRef] = Field(min_length=1, max_length=64)
    sector: SectorRef = Field(max_length=60)


class Eliminate(Strict):
    type: Literal["eliminate"]
    player: PersonRef
    cause: Literal["zone", "out_of_bounds", "referee"]
    note: str = Field(default="", max_length=200)


class CloseSectors(Strict):
    type: Literal["close"]
    sectors: list[SectorRef] = Field(min_length=1, max_length=64)


class ZoneDue(Strict):
    """The clock reached a shrink (sent by the server, never by a person)."""

    type: Literal["zone_due"]
    deadline: datetime
