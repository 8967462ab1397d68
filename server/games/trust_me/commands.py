"""What the organizer and the players may ask of a Trust Me game: one model per command.

A survivor is named by their player's person id; an item by its id in the game (`Ref("item")`),
a box entry by its key (`Ref("box")`): the platform refuses a name that is not of this game, and
the rules refuse an item that is not the sender's to use."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from server.games.trust_me.catalog import Colour
from server.platform.commands import Strict
from server.platform.refs import PersonRef, Ref

ItemRef = Annotated[int, Ref("item"), Field(ge=1, le=100_000)]
BoxKey = Annotated[str, Ref("box"), Field(min_length=1, max_length=40)]
Slot = Literal[
    "left", "right", "hands", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9",
    "outfit", "backpack", "b1", "b2", "satchel", "passport",
]  # fmt: skip
TokenSlot = Literal["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "sneakers", "aside"]
DecorPiece = Literal[
    "bus", "defensive", "car", "dumpster", "sandbags", "sandbags_corner", "crevasse"
]


# ---------------------------------------------------------------------------- setup (12)


class SetBox(Strict):
    """The box's data as JSON (passports, weapons, objects, objectives, wound table, cells);
    empty: the sample."""

    type: Literal["box"]
    text: str = Field(default="", max_length=300_000)


class SetPassport(Strict):
    type: Literal["passport"]
    player: PersonRef
    passport: BoxKey | None = None  # None: drawn at random


class SetDecor(Strict):
    """12.3: the décor pieces a player placed, "entre 2 et 4 points"."""

    type: Literal["decor"]
    player: PersonRef
    pieces: list[DecorPiece] = Field(max_length=30)  # 2 to 4 points: the rules say so in words


class TableDeal(Strict):
    """12.3 to 12.9: the spare sheets' décors, objectives, starting tokens, the Community and
    zombie rolls, the first player."""

    type: Literal["deal"]


class Redraw(Strict):
    """12.5: once, an objective discarded face down for a new one."""

    type: Literal["redraw"]
    objective: int = Field(ge=0, le=20)  # its place among the player's objectives


class ItemPlace(Strict):
    item: ItemRef
    slot: Slot


class Keep(Strict):
    """12.6: two of the four starting tokens, and where each goes on the sheet."""

    type: Literal["keep"]
    items: list[ItemPlace] = Field(max_length=4)  # two (the rules say so in words)


class Community(Strict):
    """12.7: two Community tokens closer than 20 cm: this player rolls again."""

    type: Literal["community"]
    player: PersonRef


# ---------------------------------------------------------------------------- a turn (9, 11)


class SurvivorAct(Strict):
    """11: the active player puts a token on a cell (or the sneakers) and does the action."""

    type: Literal["act"]
    action: Literal["move", "run", "diversion", "nothing", "rest", "aim", "exchange"]
    slot: TokenSlot
    target: PersonRef | None = None  # aim: whom; exchange: with whom
    fatigue: int | None = Field(default=None, ge=0, le=2)  # rest: the token turned back


class Search(Strict):
    """11, Fouille: the token found, looked at, and where it goes (or back where it lay)."""

    type: Literal["search"]
    slot: TokenSlot
    found: BoxKey
    to: Slot | Literal["back"]
    displaced: Slot | None = None  # 11: what lay there goes to another place (None: the ground)


class Arrange(Strict):
    """11, Réorganisation (an action; free after an exchange): every item and placed token laid
    out again."""

    type: Literal["arrange"]
    slot: TokenSlot | None = None  # the token paying for it (none after an exchange)
    items: list[ItemPlace] = Field(default_factory=list, max_length=30)
    tokens: list[TokenSlot | None] = Field(default_factory=list, max_length=3)


class Use(Strict):
    """5: an object used for an action (Munitions, Fusée, Trousse de soin, Guide de survie)."""

    type: Literal["use"]
    slot: TokenSlot
    item: ItemRef
    weapon: ItemRef | None = None  # Munitions: the empty ranged weapon
    survivor: PersonRef | None = None  # Trousse de soin: whom (oneself by default)
    remove: Literal["wound", "infection"] = "wound"
    at: Slot | None = None  # Trousse de soin: the place of the marker taken off (else the last)


class SurvivorAttack(Strict):
    """10.1, 10.2: whom (a survivor, or a group of zombies) with which weapon in hand, and the
    malus the table sees (distance, obstacles), each an amount taken off the total."""

    type: Literal["attack"]
    slot: TokenSlot | None = None  # None: fired from the "Cible" marker (9.2)
    weapon: ItemRef
    target: PersonRef | None = None  # None: zombies
    zombies: int | None = Field(default=None, ge=1, le=30)  # how many in the group attacked
    malus: list[Annotated[int, Field(ge=0, le=20)]] = Field(default_factory=list, max_length=5)


class Reroll(Strict):
    """1 and 5: one die rolled again (a free "relancer" cell, a lucky charm), or none."""

    type: Literal["reroll"]
    die: int | None = Field(default=None, ge=0, le=9)


class Defend(Strict):
    type: Literal["defend"]


class Endure(Strict):
    """10.4: a result of 1 to 3: the defender takes a Fatigue or a wound."""

    type: Literal["endure"]
    take: Literal["fatigue", "wound"]
    slot: TokenSlot | None = None  # a token not placed yet, turned Fatigue, goes here


class PlaceWounds(Strict):
    """6: where the wounds (then the infections) go, in order."""

    type: Literal["wounds"]
    slots: list[Slot] = Field(min_length=1, max_length=6)


class Usage(Strict):
    """4, 10.5: the attacker's green die against the weapon's limit."""

    type: Literal["usage"]


class Zombies(Strict):
    """9.4, 12: zombies in contact attack a survivor, at 8 + 2 for each one more."""

    type: Literal["zombies"]
    survivor: PersonRef
    count: int = Field(ge=1, le=15)


class Aimed(Strict):
    """9.2: the aimer fires (an `attack` with no slot) or holds; the survivor attacked goes on
    with the action declared or stops."""

    type: Literal["aimed"]
    answer: Literal["hold", "go_on", "stop"]


class Drop(Strict):
    """11, Déposer un objet (free): items to the ground."""

    type: Literal["drop"]
    items: list[ItemRef] = Field(min_length=1, max_length=30)


class Bandage(Strict):
    """5, Bandage (free, on one's turn): a wound moved onto a bandage, one per bandage."""

    type: Literal["bandage"]
    wound: Slot


class Retarget(Strict):
    """11, Viser: « Une fois votre marqueur sur le plateau de jeu, vous pouvez gratuitement,
    durant votre tour, déplacer votre marqueur sur une autre cible valide »."""

    type: Literal["retarget"]
    target: PersonRef


class Give(Strict):
    """11, Échange: an item handed to the other survivor of the exchange, to a place of theirs."""

    type: Literal["give"]
    item: ItemRef
    to: Slot


class EndExchange(Strict):
    type: Literal["end_exchange"]


class Roll(Strict):
    """Dice for the table (a tie to break, a direction): colours rolled and logged."""

    type: Literal["roll"]
    dice: list[Colour] = Field(min_length=1, max_length=6)


# ---------------------------------------------------------------------------- zombies (12)


class Infections(Strict):
    """12: each infected survivor's green die; 3 or less, one more wound."""

    type: Literal["infections"]


class Spawn(Strict):
    """12: two d20 around the template; 19 or 20, roll again and place two."""

    type: Literal["spawn"]


class Recover(Strict):
    """6: after the zombies, every Action token back, or a single Fatigue one."""

    type: Literal["recover"]
    player: PersonRef | None = None  # the staff for a player; a player for themself
    take: Literal["actions", "fatigue"]
    fatigue: int | None = Field(default=None, ge=0, le=2)


# ---------------------------------------------------------------------------- the end (13, 14)


class Claim(Strict):
    """3.3: an objective only the table can judge: how many times it is met (kept hidden)."""

    type: Literal["claim"]
    objective: BoxKey
    times: int = Field(ge=0, le=20)


class Leave(Strict):
    """14: the survivor reaches their Community token with 5 points or more and leaves."""

    type: Literal["leave"]


# An action declared before its dice (an aim waiting for its target's answer), as it is kept.
Action = Annotated[
    SurvivorAct | Search | Arrange | Use | SurvivorAttack, Field(discriminator="type")
]
ACTIONS: TypeAdapter[Action] = TypeAdapter(Action)
