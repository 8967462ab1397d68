"""Serial Battle's state: the players, their cards and wounds, the sectors, the choices a
referee owes, the result. Section names are the rule book's (`../shared/seeds/000_…`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from server.errors import RuleError
from server.games.serial_battle.catalog import Card, Effect, Location, key_of
from server.i18n import N_
from server.platform.commands import Strict
from server.platform.kinds import copied
from server.platform.timers import Timer

START_PV = 36  # Points de vie: "Au départ, vous possédez 36 PV."

MAX_CARDS = 5  # "Un joueur ne peut posséder plus de 5 cartes"

ADVISED_PLAYERS = (12, 32)  # "il faudra prévoir de 12 à 32 joueurs"

PLAYERS_PER_REFEREE = 6  # "jusqu'à un arbitre par tranche de six joueurs"

Touch = Literal["attacker", "defender", "simultaneous"]

Order = Literal["attacker", "defender", "simultaneous"]


class Held(BaseModel):
    copy_id: str
    ammo: int | None = None  # left; none when not counted


class Player(BaseModel):
    id: int
    name: str
    tag: str = ""  # a number or a team colour
    pv: int = START_PV
    cards: list[Held] = Field(default_factory=list)
    wounds: dict[Location, Effect] = Field(default_factory=dict)  # severed or fractured
    knocked_out: bool = False
    eliminated: bool = False
    sector: str | None = None
    assaults: int = 0  # the assaults this player took part in (launched or answered)
    damage_dealt: int = 0
    kills: int = 0
    last_fight: int = 0  # the number of the last assault this player was in (recent first)
    # The referee whose action last put this player out (eliminated or knocked out): what a
    # referee holding an assault on them is told (issue 50).
    put_out_by: str = ""

    @property
    def alive(self) -> bool:
        return not self.eliminated

    @property
    def arm_disabled(self) -> bool:
        """A severed or fractured arm forbids two-handed cards (Membre tranché/fracture)."""
        return any(location.is_arm for location in self.wounds)

    def holds(self, copy_id: str) -> Held | None:
        return next((h for h in self.cards if h.copy_id == copy_id), None)


class Sector(BaseModel):
    name: str
    open: bool = True
    closed_at: int | None = None  # the shrink that closed it


class Pending(BaseModel):
    """A choice the rules leave to a player, which the referee records."""

    id: int
    kind: Literal["knockout", "loot"]
    winner: int  # who chooses
    loser: int
    copy_id: str | None = None  # the card the winner struck with


class Elimination(BaseModel):
    player: int
    by: int | None = None
    cause: Literal["assault", "zone", "out_of_bounds", "referee"]
    at: datetime
    note: str = ""


class Result(BaseModel):
    winner: int | None
    reason: Literal["last_survivor", "no_survivor", "ended_by_referee"]


class SBSettings(Strict):
    shrink_minutes: int = Field(default=10, ge=1, le=120)
    deal_mode: Literal["random", "scattered"] = "random"


class SBState(BaseModel):
    phase: Literal["setup", "running", "paused", "finished"] = "setup"
    deck: list[Card] = Field(default_factory=list)
    sample_deck: bool = True
    pool: list[str] = Field(default_factory=list)  # copies in the referee's hands
    out: list[str] = Field(default_factory=list)  # copies out of the game (no ammunition)
    players: dict[str, Player] = Field(default_factory=dict)
    referees: dict[str, str] = Field(default_factory=dict)
    sectors: list[Sector] = Field(default_factory=list)
    shrink_minutes: int = 10
    deal_mode: Literal["random", "scattered"] = "random"
    closing: Literal["choose", "plan"] = "choose"
    plan: list[list[str]] = Field(default_factory=list)
    zone: Timer | None = None
    shrinks: int = 0
    shrink_due: bool = False  # the referee must say which sectors close
    started_at: datetime | None = None
    ended_at: datetime | None = None
    pending: list[Pending] = Field(default_factory=list)
    next_pending: int = 1
    eliminations: list[Elimination] = Field(default_factory=list)
    result: Result | None = None
    assault_count: int = 0

    def card(self, copy_id: str) -> Card:
        key = key_of(copy_id)
        for card in self.deck:
            if card.key == key:
                return card
        raise RuleError(N_("Unknown card “{card}”."), field="card", card=copy_id)

    def player(self, player_id: int | str) -> Player:
        player = self.players.get(str(player_id))
        if player is None:
            raise RuleError(N_("No player number {player}."), field="player", player=player_id)
        return player

    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.alive]

    def open_sectors(self) -> list[Sector]:
        return [s for s in self.sectors if s.open]


def dump_but_deck(state: SBState) -> dict[str, Any]:
    """The state as stored, its deck dumped once for all the states that share it
    (`copy_but_deck`): three quarters of the dump's time, at every action (`make bench`'s
    profile), for a deck that changes only before the game starts."""
    made = state.model_dump(mode="json", exclude={"deck"})
    made["deck"] = _DECKS.dumped(state.deck)
    return made


class _DumpedDecks:
    """The decks last dumped, by identity: each entry holds its deck, so that its `id` is not
    taken by another list while it is here."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._held: OrderedDict[int, tuple[list[Card], list[dict[str, Any]]]] = OrderedDict()

    def dumped(self, deck: list[Card]) -> list[dict[str, Any]]:
        with self._lock:
            held = self._held.get(id(deck))
            if held is not None and held[0] is deck and len(held[1]) == len(deck):
                self._held.move_to_end(id(deck))
                return held[1]
        made = [card.model_dump(mode="json") for card in deck]
        with self._lock:
            self._held[id(deck)] = (deck, made)
            while len(self._held) > self._size:
                self._held.popitem(last=False)
        return made


_DECKS = _DumpedDecks()


def copy_but_deck(state: SBState) -> SBState:
    """A deep copy to change, sharing the deck: cards are never changed in place (a new deck
    replaces the old one whole), and copying them was most of an action's cost."""
    deck = state.deck
    made = copied(state.model_copy(update={"deck": []}))
    made.deck = deck
    return made


class Weapon(BaseModel):
    copy_id: str | None  # none: bare hands
    card: Card
