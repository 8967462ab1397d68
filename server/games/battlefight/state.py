"""A BattleFight game's state: the players and their decks, the collection the decks come from,
the table the engine plays on, the match (several games, 2.1.6) and the draw offers (2.6)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from server.games.battlefight.cards import Technique
from server.games.battlefight.engine import Table
from server.i18n import N_
from server.platform.commands import Strict

Phase = Literal["setup", "playing", "finished"]
DeckMode = Literal["random", "constructed", "sealed"]
DECK_MODE_TITLES = {  # 1.1.3
    "random": N_("random: two boosters"),
    "constructed": N_("constructed: 4 of each type from the collection"),
    "sealed": N_("sealed: 4 of each type from three boosters"),
}
# Where the cards are: each player's phone (Arbitre deals, shuffles and keeps hands), or
# physical cards at one table, where the organizer enters the decks, what each draws and plays.
CardsAt = Literal["phones", "table"]
CARDS_AT_TITLES = {
    "phones": N_("on each player's phone: Arbitre deals and keeps the hands"),
    "table": N_("physical cards at one table: the organizer enters decks, draws and plays"),
}
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class Player(BaseModel):
    id: int
    name: str
    deck: list[str] = Field(default_factory=list)  # technique keys of the collection
    pool: list[str] = Field(default_factory=list)  # a sealed deck's three boosters
    wins: int = 0


class BFSettings(Strict):
    deck_mode: DeckMode = "random"
    cards: CardsAt = "phones"


class BFState(BaseModel):
    phase: Phase = "setup"
    deck_mode: DeckMode = "random"
    cards: CardsAt = "phones"
    collection: list[Technique] = Field(default_factory=list)
    sample: bool = True  # the collection is the sample shipped with Arbitre
    players: dict[str, Player] = Field(default_factory=dict)
    table: Table | None = None
    games: int = 0  # games of the match played
    draws: int = 0
    first_out: int | None = None  # 2.1.6: who lost first in the last game
    draw_offer: list[int] = Field(default_factory=list)  # 2.6.1: who agreed to a draw
    positions: dict[str, int] = Field(default_factory=dict)  # 2.6.2: states at turn starts
    result: str | None = None  # "won", "draw_agreed", "draw_repetition", "null"

    def player(self, person: int) -> Player:
        return self.players[str(person)]

    def technique(self, key: str) -> Technique | None:
        return next((t for t in self.collection if t.key == key), None)
