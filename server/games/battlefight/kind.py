"""BattleFight as a game kind: the wiring of its state, commands, rule handlers and views.

Where a rule goes: `board.py` is the board (1.2), `cards.py` techniques as data (1.1, 3.2, 3.3,
4.1 to 4.4: steps read), `decks.py` decks and boosters (1.1), `engine.py` the execution of
techniques step by step (2.4 to 2.6, 3.4, 4), `setup.py` and `play.py` the handlers listed in
`MOVES` below; `views.py` says what each viewer sees.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from server.errors import RuleError
from server.games.battlefight import play, setup, views
from server.games.battlefight.commands import (
    Choose,
    ChooseDeck,
    ClaimRepetition,
    DeclareNull,
    NextGame,
    OfferDraw,
    OpenBoosters,
    SetCards,
    SetDeckMode,
    Start,
)
from server.games.battlefight.commands import (
    Collection as CollectionCommand,
)
from server.games.battlefight.decks import sample_collection
from server.games.battlefight.state import MAX_PLAYERS, BFSettings, BFState, Player
from server.i18n import N_, Msg
from server.platform.kinds import (
    PLAYERS,
    STAFF,
    GameKind,
    Move,
    PersonInfo,
    Phase,
    Viewer,
)

SETUP = Phase(lambda s: s.phase == "setup", N_("This is settled before the game starts."))
PLAYING = Phase(lambda s: s.phase == "playing", N_("No game is being played."))
# A choice: the player's own, or the organizer's at a table of physical cards (the rule checks
# which).
EITHER = STAFF | PLAYERS

MOVES = (
    Move(CollectionCommand, setup.on_collection, STAFF, (SETUP,), N_("the new collection")),
    Move(SetDeckMode, setup.on_deck_mode, STAFF, (SETUP,), N_("the way decks are made")),
    Move(SetCards, setup.on_cards, STAFF, (SETUP,), N_("where the cards are played")),
    Move(OpenBoosters, setup.on_boosters, EITHER, (SETUP,), N_("the boosters")),
    Move(ChooseDeck, setup.on_deck, EITHER, (SETUP,), N_("the deck")),
    Move(Start, setup.on_start, STAFF, (SETUP,), N_("the start")),
    Move(NextGame, setup.on_next_game, STAFF, (), N_("the next game")),
    Move(Choose, play.on_choose, EITHER, (PLAYING,), N_("the choice")),
    # A draw offered or claimed: the players' own.
    Move(OfferDraw, play.on_offer_draw, PLAYERS, (PLAYING,), N_("the draw offer")),
    Move(ClaimRepetition, play.on_repetition, PLAYERS, (PLAYING,), N_("the draw by repetition")),
    Move(DeclareNull, play.on_null, STAFF, (PLAYING,), N_("the null game")),
)


class BattleFight(GameKind[BFState]):
    key = "battlefight"
    person_texts = (r"^(?P<id>\d+):\d+$",)  # a card copy: its owner's number, its place
    title = N_("BattleFight")
    tagline = N_("A card duel on a hex board: Arbitre executes every technique step by step.")
    roles = ("player",)
    max_people: ClassVar[Mapping[str, int]] = {"player": MAX_PLAYERS}  # 1.1: 2 to 6
    page_log = 0
    state_model = BFState
    settings_model = BFSettings
    moves = MOVES
    parts = views.PARTS

    def reads_everything(self, state: BFState, viewer: Viewer) -> bool:
        """On phones, nobody holds the hands and piles (1.3.1, 1.3.2) until the game is over; at
        one table of physical cards the organizer enters them all."""
        return viewer.is_staff and (state.cards == "table" or state.phase == "finished")

    def new_state(self, settings: BaseModel) -> BFState:
        assert isinstance(settings, BFSettings)
        return BFState(
            deck_mode=settings.deck_mode,
            cards=settings.cards,
            collection=sample_collection(),
            sample=True,
        )

    def add_person(self, state: BFState, person: PersonInfo) -> BFState:
        if person.role != "player" or str(person.id) in state.players:
            return state  # a link re-issued: the player keeps their seat
        if state.phase != "setup":
            raise RuleError(N_("Players join before the game starts."))
        if len(state.players) >= 6:
            raise RuleError(N_("BattleFight is played by 2 to 6 players, not {count}."), count=7)
        state = state.model_copy(deep=True)
        state.players[str(person.id)] = Player(id=person.id, name=person.name)
        return state

    def remove_person(self, state: BFState, person: PersonInfo) -> BFState:
        if state.phase != "setup" or str(person.id) not in state.players:
            return state  # in play, a player stays in the story
        state = state.model_copy(deep=True)
        del state.players[str(person.id)]
        return state

    def subjects(self, state: BFState, command: Any, actor: Viewer) -> list[int] | None:
        """A deck opened or chosen concerns its player alone: two players opening their boosters
        at once are not each other's stale screens; anything else, the whole game."""
        if isinstance(command, OpenBoosters | ChooseDeck):
            player = command.player if command.player is not None else actor.person_id
            return [player] if player is not None else None
        return None

    def from_form(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A deck form sends `count_<key>` per card: the deck lists each key that many times."""
        if payload.get("type") != "deck":
            return payload
        data = {k: v for k, v in payload.items() if not k.startswith("count_")}
        cards = []
        for name, value in payload.items():
            if name.startswith("count_") and re.fullmatch(r"[0-9]{1,3}", str(value).strip()):
                cards += [name[6:]] * min(int(value), 20)
        data["cards"] = cards
        return data

    # ------------------------------------------------------------------ the platform's questions

    def status(self, state: BFState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    log_view = staticmethod(views.log_view)

    def roll_label(self, purpose: str, state: BFState) -> Msg | str | None:
        return None  # shuffles and boosters: nobody at the table reads them

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


BATTLEFIGHT = BattleFight()
