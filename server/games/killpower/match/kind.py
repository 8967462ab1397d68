"""A Killpower Ball match as a game kind: the wiring of its state, commands, rule handlers and
views.

A match is its own game, opened from a league with a snapshot of both teams. Each coach has a link;
with a referee, the referee's phone holds the sheet and the coaches follow; self-refereed, each coach
plays their own team from their phone and Arbitre is the neutral referee: it rolls, keeps the order
of phase 3, runs the timers and the team states of TABLE 7, and keeps each coach's RAP values,
power cards and bluff cards away from the other until the rules reveal them (4.3). When the match
ends, its result goes to the league's end-of-match operations (3.4, `contract.py`).

Where a rule goes: `state.py` holds what the match is made of, `commands.py` what may be asked,
`play.py` the engine every rule works through, and each rule module one part of the rule book
(`preparation` 3.2, `turn` 3.3 and 5, `ball` 6 and 7, `combat` 8 and 9, `powers` 4, `records`
TABLE 7, 11 and 13), its handlers listed in `HANDLERS` below; `views.py` says what each viewer
sees. Summaries in the log are what both coaches may read; what only one side may read (a die
against a hidden value, a power's name, a bluff) is a private note of that side (`Applied`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from server.games.killpower import rules
from server.games.killpower.match import (
    ball,
    combat,
    field,
    powers,
    preparation,
    records,
    turn,
    views,
)
from server.games.killpower.match.commands import (
    Act,
    Answer,
    Attack,
    BlindMove,
    Check,
    Command,
    EndPhase,
    Enter,
    Expel,
    FreeShot,
    GiveBall,
    Handoff,
    Hurt,
    Lineup,
    Move,
    Pick,
    Reentry,
    SetCondition,
    Shot,
    Surrender,
    Take,
    Throw,
    Trigger,
    UsePower,
)
from server.games.killpower.match.contract import league_record
from server.games.killpower.match.play import played, side_of
from server.games.killpower.match.state import SIDES, MatchSettings, MatchState, TeamPlay
from server.i18n import N_, Msg
from server.platform.kinds import GameKind, Handler, LoggedEvent, Viewer

HANDLERS: dict[type, Handler] = {
    Lineup: played(preparation.on_lineup),
    GiveBall: played(turn.on_give_ball),
    Enter: played(turn.on_enter),  # and "leave"
    EndPhase: played(turn.on_end_phase),
    Act: played(turn.on_act),
    Shot: played(ball.on_shot),
    Throw: played(ball.on_throw),
    Handoff: played(ball.on_handoff),
    Take: played(ball.on_take),
    Pick: played(ball.on_pick),  # and "drop"
    Attack: played(combat.on_attack),
    Answer: played(combat.on_answer),
    UsePower: played(powers.on_power),
    Trigger: played(powers.on_trigger),
    Check: played(powers.on_check),
    Hurt: played(records.on_hurt),
    SetCondition: played(records.on_condition),
    Expel: played(records.on_expel),
    Reentry: played(records.on_reentry),
    Surrender: played(records.on_surrender),
    FreeShot: played(records.on_free_throw),
    Move: played(field.on_move),
    BlindMove: played(field.on_blind_move),
}


class KillpowerMatch(GameKind[MatchState]):
    key = "killpower_match"
    title = N_("Killpower Ball match")
    tagline = N_("The referee sheet, live: turns, phases, rolls, timers and the score.")
    roles = ("coach",)
    max_people: ClassVar[Mapping[str, int]] = {"coach": 2}
    role_titles: ClassVar[dict[str, str]] = {"coach": N_("coach")}
    standalone = False  # opened from a league only (`KillpowerLeague.linked_game`)
    page_log = 40
    state_model = MatchState
    settings_model = MatchSettings
    command_union = Command
    commands: TypeAdapter[Any] = TypeAdapter(Command)
    handlers = HANDLERS
    parts = views.PARTS

    def new_state(self, settings: BaseModel) -> MatchState:
        assert isinstance(settings, MatchSettings)
        state = MatchState(
            league=settings.league,
            mode=settings.mode,
            tournament=settings.tournament,
            board=settings.board,
            cards={c.key: c for c in settings.cards},
        )
        for side, roster in zip(SIDES, settings.teams, strict=False):
            state.teams[side] = TeamPlay(roster=roster)
        return state

    add_person = staticmethod(preparation.seat_coach)

    def references(self, state: MatchState) -> Mapping[str, Collection[Any]]:
        return {
            "gladiator": {g["id"] for t in state.teams.values() for g in t.roster.gladiators},
            "power": {"bluff", *state.cards},
        }

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        return viewer.is_staff or viewer.role == "coach"

    subjects = staticmethod(turn.subjects)

    # Self-refereed, a coach's hand tools on the other team (platform.md, "Adversaries consent").
    consent_commands = records.HAND_TOOLS
    touches = staticmethod(records.touches)
    sides = staticmethod(records.sides)
    moment = staticmethod(records.moment)
    describe = staticmethod(views.described)

    def may_enter_dice(
        self, state: MatchState, actor: Viewer, physical: bool
    ) -> Callable[[str | None], bool]:
        """The referee (or the staff) enters any die. With physical dice, a self-refereeing coach
        enters their own side's (the rolls of their gladiators); the other side's and the
        referee's (TABLE 4, an expulsion's length, who places first) are Arbitre's to roll."""
        if actor.is_staff:
            return lambda owner: True
        side = side_of(state, actor) if physical else None
        return lambda owner: side is not None and owner == side

    # ------------------------------------------------------------------ the platform's questions

    def status(self, state: MatchState) -> str:
        if state.stage == "lineup":
            return "setup"
        return "finished" if state.stage == "finished" else "running"

    def followups(
        self, game_id: str, state: MatchState, result: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """3.4: the finished match goes to its league's end-of-match operations."""
        if not result.get("finished") or state.outcomes is None:
            return []
        return [league_record(game_id, state)]

    # ------------------------------------------------------------------ what each viewer sees

    def page_for(self, viewer: Viewer) -> str:
        return "staff" if viewer.is_staff else "board" if viewer.role == "public" else "player"

    side_of = staticmethod(side_of)
    reads_everything = staticmethod(views.reads_everything)

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        return views.log_view(event, viewer)

    def audiences(self, event: LoggedEvent, viewer: Viewer) -> Collection[str]:
        """A coach reads the private notes of the side they played when the event happened."""
        side = views.viewer_side(event, viewer)
        return {side} if side is not None else set()

    def roll_label(self, purpose: str, state: MatchState) -> Msg | str | None:
        return rules.roll_label(purpose)

    def label(self, command: Any, state: MatchState) -> Msg:
        return Msg(views.LABELS.get(command.type, N_("the action")))

    def template_globals(self) -> dict[str, Any]:
        return views.template_globals()

    now = staticmethod(views.now)


KILLPOWER_MATCH = KillpowerMatch()
