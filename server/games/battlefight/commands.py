"""What the organizer and the players may ask of a BattleFight game: one model per command."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from server.games.battlefight.state import CardsAt, DeckMode
from server.platform.commands import Strict
from server.platform.refs import PersonRef

Key = Annotated[str, Field(min_length=1, max_length=40)]


class Collection(Strict):
    """The cards decks are made of: a JSON collection, or the sample when empty."""

    type: Literal["collection"]
    text: str = Field(default="", max_length=200_000)


class SetDeckMode(Strict):
    type: Literal["deck_mode"]
    mode: DeckMode


class SetCards(Strict):
    """Where the cards are played: on the players' phones, or physical at one table."""

    type: Literal["cards"]
    at: CardsAt


class OpenBoosters(Strict):
    """1.1.3.1: a random deck (2 boosters); 1.1.3.3: a sealed pool (3 boosters)."""

    type: Literal["boosters"]
    player: PersonRef | None = None  # the organizer for a player; a player for themselves


class ChooseDeck(Strict):
    """1.1.3.2, 1.1.3.3: 4 cards of each type, by their keys."""

    type: Literal["deck"]
    player: PersonRef | None = None
    cards: list[Key] = Field(min_length=1, max_length=20)


class Start(Strict):
    type: Literal["start"]


class Choose(Strict):
    """The pending choice answered by its player: one option, or N cards to discard."""

    type: Literal["choose"]
    values: list[Key] = Field(min_length=1, max_length=20)


class OfferDraw(Strict):
    """2.6.1: a draw proposed (or accepted); when every player still in agrees, it is a draw."""

    type: Literal["draw"]


class ClaimRepetition(Strict):
    """2.6.2: a turn begins in a state reached twice before: any player may claim the draw."""

    type: Literal["repetition"]


class DeclareNull(Strict):
    """0.2: a situation the book does not settle: the game is null."""

    type: Literal["null"]


class NextGame(Strict):
    """The next game of the match (2.1.6): the same decks, the first player who lost first."""

    type: Literal["next_game"]
