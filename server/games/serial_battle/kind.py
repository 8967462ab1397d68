"""Serial Battle as a game kind: the wiring of its state, commands, rule handlers and views.

Where a rule goes: `state.py` holds what the game is made of, `commands.py` what may be asked,
and each rule module one chapter of the rule book (`setup`, `assault`, `cards`, `zone`), its
handlers at the bottom and listed in `MOVES` below; `views.py` says what each viewer sees.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel

from server.errors import RuleError
from server.games.serial_battle import assault, cards, ending, setup, telling, views, zone
from server.games.serial_battle.catalog import expand, sample_deck
from server.games.serial_battle.commands import (
    Assault,
    CloseSectors,
    Correct,
    Eliminate,
    End,
    GiveCard,
    KnockoutAgain,
    KnockoutTake,
    Loot,
    Pause,
    Place,
    ReplaceDeck,
    Resume,
    SetSectors,
    SetSettings,
    Start,
    TagPlayer,
    TakeCard,
    ZoneDue,
)
from server.games.serial_battle.state import (
    Player,
    SBSettings,
    SBState,
    copy_but_deck,
    dump_but_deck,
)
from server.i18n import N_, Msg
from server.platform.kinds import (
    NOBODY,
    GameKind,
    LoggedEvent,
    Move,
    PersonInfo,
    Phase,
    Viewer,
    staff_reads_all,
)

SETUP = Phase(lambda s: s.phase == "setup", N_("This is settled before the game starts."))
STARTED = Phase(lambda s: s.phase != "setup", N_("The game has not started."))
NOT_OVER = Phase(lambda s: s.phase != "finished", N_("The game is over."))
PLAY = (STARTED, NOT_OVER)

# Every move a referee makes (the organizer too), in the order of the rule book's chapters.
MOVES = (
    Move(SetSettings, setup.on_settings, when=(SETUP,), label=N_("settings")),
    Move(ReplaceDeck, setup.on_deck, when=(SETUP,), label=N_("deck")),
    Move(TagPlayer, setup.on_tag, label=N_("player tag")),
    Move(Start, setup.on_start, when=(SETUP,), label=N_("start")),
    Move(Pause, setup.on_pause, label=N_("pause")),
    Move(Resume, setup.on_resume, label=N_("resume")),
    Move(End, setup.on_end, label=N_("end of the game")),
    Move(Assault, assault.on_assault, when=PLAY),
    # Words true whatever was chosen (a winner may take nothing): the undo button's, and a
    # replay's for whoever's journal says nothing of it.
    Move(KnockoutTake, assault.on_knockout_take, when=PLAY, label=N_("choice after a knock-out")),
    Move(KnockoutAgain, assault.on_knockout_again, when=PLAY, label=N_("second assault")),
    Move(Eliminate, ending.on_eliminate, when=PLAY, label=N_("elimination")),
    Move(Loot, cards.on_loot, when=PLAY, label=N_("the loser’s cards")),
    Move(GiveCard, cards.on_give, when=PLAY, label=N_("card given")),
    Move(TakeCard, cards.on_take, when=PLAY, label=N_("card taken back")),
    Move(Correct, cards.on_correct, when=PLAY, label=N_("correction")),
    Move(SetSectors, zone.on_sectors, when=(SETUP,), label=N_("sectors")),
    Move(Place, zone.on_place, when=PLAY, label=N_("players placed")),
    Move(CloseSectors, zone.on_close, when=PLAY, label=N_("sectors closed")),
    Move(ZoneDue, zone.on_zone_due, by=NOBODY, label=N_("zone shrink")),
)


class SerialBattle(GameKind[SBState]):
    key = "serial_battle"
    title = N_("Serial Battle")
    tagline = N_("Outdoor battle royale: duels, hit points, cards and a shrinking zone.")
    roles = ("player",)
    max_people: ClassVar[Mapping[str, int]] = {"player": 32, "referee": 20}  # 12 to 32 players
    state_model = SBState
    settings_model = SBSettings
    moves = MOVES
    # The referees see every card, hit point and sector: nothing is hidden from them.
    reads_everything = staticmethod(staff_reads_all)
    parts = views.PARTS
    page_query = ("attacker", "defenders")  # an assault being entered, its players picked
    page_query_ends = frozenset({"assault"})
    # Spec, "Assault defaults and knockouts": the assault's three taps rest on them.
    declared_defaults: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "assault": {"touch": "attacker", "answer": "true", "card": "*", "defender_card": "*"}
    }

    def new_state(self, settings: BaseModel) -> SBState:
        assert isinstance(settings, SBSettings)
        return SBState(
            deck=sample_deck(),
            sample_deck=True,
            shrink_minutes=settings.shrink_minutes,
            deal_mode=settings.deal_mode,
        )

    def add_person(self, state: SBState, person: PersonInfo) -> SBState:
        state = state.model_copy(deep=True)
        if person.role == "referee":
            state.referees[str(person.id)] = person.name
        elif person.role == "player" and str(person.id) not in state.players:
            if state.phase != "setup":
                raise RuleError(N_("Players join before the game starts."))
            state.players[str(person.id)] = Player(id=person.id, name=person.name)
        return state

    def remove_person(self, state: SBState, person: PersonInfo) -> SBState:
        key = str(person.id)
        if key in state.referees or (state.phase == "setup" and key in state.players):
            state = state.model_copy(deep=True)
            state.referees.pop(key, None)
            if state.phase == "setup":
                state.players.pop(key, None)
        return state

    from_form = staticmethod(cards.loot_from_form)

    after = staticmethod(ending.note_who_put_out)

    copy = staticmethod(copy_but_deck)
    dump = staticmethod(dump_but_deck)

    # ------------------------------------------------------------------ the platform's questions

    def status(self, state: SBState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    def next_deadline(self, state: SBState) -> datetime | None:
        if state.phase == "running" and state.zone is not None:
            return state.zone.deadline
        return None

    def due(self, state: SBState, now: datetime) -> list[Any]:
        if state.phase == "running" and state.zone is not None and state.zone.due(now):
            assert state.zone.deadline is not None
            return [ZoneDue(type="zone_due", deadline=state.zone.deadline)]
        return []

    def references(self, state: SBState) -> Mapping[str, Collection[Any]]:
        return {
            "card": {"bare", *expand(state.deck)},
            # Every choice ever opened: one already made gets the rules' own answer.
            "pending": range(1, state.next_pending),
            "sector": {s.name for s in state.sectors},
        }

    def subjects(self, state: SBState, command: Any, actor: Viewer) -> list[int] | None:
        if isinstance(command, Assault):
            return [command.attacker, *command.defenders]
        if isinstance(command, KnockoutTake | KnockoutAgain | Loot):
            pending = next((p for p in state.pending if p.id == command.pending), None)
            return [pending.winner, pending.loser] if pending else []
        if isinstance(command, GiveCard | TakeCard | Correct | Eliminate | TagPlayer):
            return [command.player]
        if isinstance(command, Place):
            return list(command.players)
        return None

    # ------------------------------------------------------------------ what each viewer sees

    log_view = staticmethod(views.log_view)

    roll_label = staticmethod(telling.roll_label)

    def replay_line(self, event: LoggedEvent, state: SBState) -> Msg:
        return views.replay_line(event, state) or super().replay_line(event, state)

    def label(self, command: Any, state: SBState) -> Msg:
        return views.label(command, state, super().label(command, state))

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


SERIAL_BATTLE = SerialBattle()
