"""Roi / Chevalier / Bourreau as a game kind: the wiring of its state, commands, rule handlers and
views. A rule goes in the module of its step of the rule book: `setup` (1 to 4), `round` (6 to
10), `ending` (11); each handler is listed in `MOVES`. `views.py` builds each viewer's view
from the state: a team's view holds no role but its own fighters'."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel

from server.errors import RuleError
from server.games.rcb import ending, round, setup, views
from server.games.rcb.commands import (
    Assign,
    Deal,
    DesignationDue,
    Duel,
    Fighters,
    RandomTeams,
    Reveal,
    RoundStart,
    SetMatrix,
    Settings,
    Stakes,
    TeamNames,
)
from server.games.rcb.state import Fighter, Phone, RCBSettings, RCBState
from server.i18n import N_
from server.platform.kinds import (
    NOBODY,
    ORGANIZER,
    GameKind,
    Move,
    PersonInfo,
    Phase,
    Viewer,
    staff_reads_all,
)

SETUP = Phase(lambda s: s.phase == "setup", N_("This is settled before the cards are dealt."))
NOT_OVER = Phase(lambda s: s.phase != "finished", N_("The game is over."))

# The game master's moves (the clock's countdown aside), in the order of the rule book.
MOVES = (
    Move(TeamNames, setup.on_team_names, ORGANIZER, (SETUP,), N_("team names")),
    Move(Settings, setup.on_settings, ORGANIZER, (SETUP,), N_("settings")),
    Move(SetMatrix, setup.on_matrix, ORGANIZER, (SETUP,), N_("who beats whom")),
    # A phone left out of every team is placed after the deal too (`setup.on_assign`).
    Move(Assign, setup.on_assign, ORGANIZER, (NOT_OVER,), N_("team choice")),
    Move(RandomTeams, setup.on_random_teams, ORGANIZER, (SETUP,), N_("teams drawn")),
    Move(Deal, setup.on_deal, ORGANIZER, (SETUP,), N_("the deal")),
    Move(RoundStart, round.on_round, ORGANIZER, (NOT_OVER,), N_("round start")),
    Move(DesignationDue, round.on_designation_due, NOBODY, (NOT_OVER,), N_("end of the countdown")),
    Move(Fighters, round.on_fighters, ORGANIZER, (NOT_OVER,), N_("the fighters")),
    Move(Stakes, round.on_stakes, ORGANIZER, (NOT_OVER,), N_("the stakes")),
    Move(Duel, round.on_duel, ORGANIZER, (NOT_OVER,), N_("the duel")),
    Move(Reveal, ending.on_reveal, ORGANIZER, (), N_("the reveal")),
)


class RoiChevalierBourreau(GameKind[RCBState]):
    key = "rcb"
    title = N_("King / Knight / Executioner")
    tagline = N_("Two teams, secret characters, bets and a bank: the game master's console.")
    roles = ("fighter", "team")
    max_people: ClassVar[Mapping[str, int]] = {"fighter": 17, "team": 2}  # the deal's table
    role_titles: ClassVar[dict[str, str]] = {
        "fighter": N_("fighter"),
        "team": N_("team phone"),
        "organizer": N_("game master"),
    }
    allows_referees = False
    state_model = RCBState
    invite_title = N_("Invite the fighters and the teams' phones")
    settings_model = RCBSettings
    moves = MOVES
    # The game master deals the characters and reads them all (the deal's shuffle aside: its
    # dice are nobody's while the game lasts, `record_readable`).
    reads_everything = staticmethod(staff_reads_all)
    parts = views.PARTS
    personal_block = "me"  # a fighter's own card: the rest of their part is their team's

    def new_state(self, settings: BaseModel) -> RCBState:
        assert isinstance(settings, RCBSettings)
        return RCBState(
            bets_setting=settings.bets,
            bank_setting=settings.bank,
            designation_seconds=settings.designation_seconds,
        )

    def add_person(self, state: RCBState, person: PersonInfo) -> RCBState:
        if person.role not in ("fighter", "team"):
            return state
        if str(person.id) in state.fighters or str(person.id) in state.phones:
            return state  # a link re-issued: the person keeps their place
        state = state.model_copy(deep=True)
        if state.phase != "setup":
            raise RuleError(N_("People join before the cards are dealt."))
        if person.role == "fighter":
            state.fighters[str(person.id)] = Fighter(id=person.id, name=person.name)
        else:
            state.phones[str(person.id)] = Phone(id=person.id, name=person.name)
        return state

    def remove_person(self, state: RCBState, person: PersonInfo) -> RCBState:
        key = str(person.id)
        if state.phase != "setup" or (key not in state.fighters and key not in state.phones):
            return state  # dealt: the cards are in play, the referee decides
        state = state.model_copy(deep=True)
        state.fighters.pop(key, None)
        state.phones.pop(key, None)
        return state

    # ------------------------------------------------------------------ platform questions

    def status(self, state: RCBState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    def next_deadline(self, state: RCBState) -> datetime | None:
        return state.timer.deadline if state.timer else None

    def due(self, state: RCBState, now: datetime) -> list[Any]:
        if state.phase == "designation" and state.timer is not None and state.timer.due(now):
            return [DesignationDue(type="designation_due")]
        return []

    # ------------------------------------------------------------------ what each viewer sees

    def page_for(self, viewer: Viewer) -> str:
        if viewer.is_organizer:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    def side_of(self, state: RCBState, viewer: Viewer) -> str | None:
        """A team's fighters and its phones share the team's part; the game master has none."""
        return None if viewer.is_organizer else views.team_of(state, viewer)

    log_view = staticmethod(views.log_view)

    roll_label = staticmethod(views.roll_label)

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


RCB = RoiChevalierBourreau()
