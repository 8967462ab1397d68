"""A Trust Me game's state: the box, each survivor's sheet (1), the round and whose token it is
(9), a fight in progress (10), the zombie phase's checklist (12), the end (14).

A sheet's places ("slots"): the two hands `left` and `right` (a two-handed weapon holds `hands`),
the nine inventory cells `c1`..`c9` in the box's order, `outfit`, the backpack's own place
`backpack` and the two hidden cells in it `b1` `b2`, the satchel's hidden place `satchel`, and
`passport` for what is laid on it (a bandage, a lucky charm; several may be)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from server.games.trust_me.catalog import Box, Colour
from server.platform.commands import Strict

HANDS = ("left", "right")
CELLS = tuple(f"c{i}" for i in range(1, 10))
WOUND_SLOTS = HANDS + CELLS  # 6: "l'une des deux cases mains ou l'une des neuf cases"
PACK = ("b1", "b2")
Phase = Literal["setup", "preparing", "players", "zombies", "finished"]
Face = Literal["action", "fatigue"]


class Token(BaseModel):
    """6: an Action token (Fatigue on its back): not placed yet, or on a cell (or the sneakers)."""

    face: Face = "action"
    slot: str | None = None


class Item(BaseModel):
    """A weapon or an object token in play: its box key, and whether a ranged weapon is empty."""

    id: int
    key: str
    empty: bool = False  # 4: "Liseret Vide"


class Survivor(BaseModel):
    id: int  # the player's person id
    name: str
    passport: str | None = None
    decor: list[str] = Field(default_factory=list)  # 12.3: the décor pieces this player placed
    items: dict[str, str] = Field(default_factory=dict)  # item id -> slot
    wounds: list[str] = Field(default_factory=list)  # the slot of each wound ("bandage": on one)
    infections: list[str] = Field(default_factory=list)
    tokens: list[Token] = Field(default_factory=lambda: [Token(), Token(), Token()])
    objectives: list[str] = Field(default_factory=list)  # objective keys, hidden (3.3)
    redrawn: bool = False  # 12.5: once
    offered: list[int] = Field(default_factory=list)  # 12.6: the four starting tokens seen
    kept: bool = False
    community: int | None = None  # 12.7: the d20's direction
    aiming: int | None = None  # the survivor this one's "Cible" marker is beside (6)
    zombies_killed: int = 0
    claims: dict[str, int] = Field(default_factory=dict)  # a "manual" objective: times met
    dead: bool = False
    exited: bool = False

    def slot_of(self, item: int) -> str | None:
        return self.items.get(str(item))

    def item_in(self, slot: str) -> int | None:
        for item, where in self.items.items():
            if where == slot or (where == "hands" and slot in HANDS):
                return int(item)
        return None

    def free_tokens(self) -> list[int]:
        return [i for i, t in enumerate(self.tokens) if t.slot is None]

    @property
    def playing(self) -> bool:
        return not self.dead and not self.exited


class Die(BaseModel):
    colour: Colour
    value: int
    why: str = ""  # "weapon", "cell", "defence"...


class Fight(BaseModel):
    """10: a fight in progress, survivor against survivor, survivor against zombies, or zombies
    against a survivor (attacker None)."""

    attacker: int | None  # None: zombies (12)
    target: int | None  # None: a group of zombies
    zombies: int = 0  # zombies in contact (their attack) / in the group attacked (0: not said)
    weapon: int | None = None
    ranged: bool = False
    one_handed: bool = False  # a two-handed weapon in one hand (4)
    malus: list[tuple[str, int]] = Field(default_factory=list)
    attack_dice: list[Die] = Field(default_factory=list)
    attack_bonus: int = 0
    defence_dice: list[Die] = Field(default_factory=list)
    defence_bonus: int = 0
    stage: Literal["attack_reroll", "defence", "defence_reroll", "endure", "placing", "usage"]
    wounds: int = 0  # to place
    from_aim: bool = False
    rerolled: list[Literal["cell", "charm"]] = Field(default_factory=list)  # this roll's re-rolls
    said: list[dict[str, Any]] = Field(default_factory=list)  # the fight's sentences so far

    @property
    def attack_total(self) -> int:
        if self.attacker is None:
            return 8 + 2 * (self.zombies - 1)  # 12: "8 (pas de jet de dé) et +2 pour chaque"
        dice = sum(d.value for d in self.attack_dice)
        return dice + self.attack_bonus - sum(m for _, m in self.malus)

    @property
    def defence_total(self) -> int:
        return sum(d.value for d in self.defence_dice) + self.defence_bonus


class Placement(BaseModel):
    """Wounds (and infections) waiting for whoever places them (6): the attacker, or the wounded
    player when zombies or an infection wound them."""

    placer: int
    survivor: int
    wounds: int = 0
    infections: int = 0


class Declared(BaseModel):
    """9.2: an action declared while others aim at the active survivor: it waits while each
    aimer in turn fires or holds; after a fight, the survivor attacked goes on or stops (6). The
    command is the player's alone (a search names what was found): no view shows it.

    `ready`: every aimer held and the action rolls the survivor's own dice (10.2 « L'attaquant
    lance ses dés d'attaque »): it waits for its player to do it, entering their own dice."""

    survivor: int
    aimers: list[int]
    command: dict[str, Any]
    action: str  # what the table heard declared ("move", "search"...)
    attacked: bool = False
    ready: bool = False

    @property
    def aimer(self) -> int | None:
        """The survivor aiming who decides now (none once one has fired)."""
        return self.aimers[0] if self.aimers and not self.attacked else None


class ZombiePhase(BaseModel):
    infections_rolled: bool = False
    spawned: bool = False
    spawns: list[int] = Field(default_factory=list)  # directions on the circular template
    recovered: list[int] = Field(default_factory=list)  # who took their tokens back


class TMSettings(Strict):
    """Nothing to settle at creation: the box, passports and décor come at the table."""


class TMState(BaseModel):
    phase: Phase = "setup"
    box: Box
    survivors: dict[str, Survivor] = Field(default_factory=dict)
    order: list[int] = Field(default_factory=list)  # clockwise, from the first player (9)
    items: dict[str, Item] = Field(default_factory=dict)
    next_item: int = 1
    objective_deck: list[str] = Field(default_factory=list)  # face down, nobody's to read
    specials: list[str] = Field(default_factory=list)  # 8: décor sheets flipped, drawn
    zombie_starts: list[int] = Field(default_factory=list)  # 12.8: the two directions
    search_tokens: int = 0  # 12.4
    round: int = 0
    turn: int | None = None  # whose token it is
    fight: Fight | None = None
    placements: list[Placement] = Field(default_factory=list)
    declared: Declared | None = None
    exchange: list[int] = Field(default_factory=list)  # two survivors exchanging (11)
    acted: bool = False  # the active survivor's action is done: the turn passes once settled
    last_acted: int | None = None  # who acted last: they may step out at their Community (14)
    racket: Literal["racket", "echo"] | None = None  # 6: Vacarme, then its echo
    zombies: ZombiePhase | None = None
    first_exit: int | None = None  # the round of the first exit (14)
    winners: list[int] = Field(default_factory=list)
    scores: dict[str, int] = Field(default_factory=dict)  # at the end, every score

    def survivor(self, person: int) -> Survivor:
        return self.survivors[str(person)]

    def item(self, item: int) -> Item:
        return self.items[str(item)]

    def playing(self) -> list[Survivor]:
        return [self.survivor(p) for p in self.order if self.survivor(p).playing]
