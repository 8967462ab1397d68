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
TABLE 7, 11 and 13), its rules listed in `MOVES` below; `views.py` says what each viewer
sees. Summaries in the log are what both coaches may read; what only one side may read (a die
against a hidden value, a power's name, a bluff) is a private note of that side (`Applied`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

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
from server.games.killpower.match import commands as c
from server.games.killpower.match.contract import league_record
from server.games.killpower.match.play import played, side_of
from server.games.killpower.match.state import SIDES, MatchSettings, MatchState, TeamPlay
from server.i18n import N_, Msg
from server.platform.kinds import STAFF, GameKind, LoggedEvent, Move, Viewer

# A coach plays their own team (self-refereed), or the referee holds the sheet and a coach gives
# the lineup (`played` says which); the staff may make any move.
EITHER = STAFF | {"coach"}

# The match's moves, each an engine rule (`played` runs it: who plays, what must be answered
# first, and what every command ends with).
MOVES = (
    Move(c.Lineup, preparation.on_lineup, EITHER, label=N_("the lineup")),
    Move(c.GiveBall, turn.on_give_ball, EITHER, label=N_("giving the ball")),
    Move(c.Enter, turn.on_enter, EITHER, label=N_("the entry on the field")),  # and "leave"
    Move(c.EndPhase, turn.on_end_phase, EITHER, label=N_("the end of the phase")),
    Move(c.Act, turn.on_act, EITHER, label=N_("the action")),
    Move(c.Shot, ball.on_shot, EITHER, label=N_("the shot")),
    Move(c.Throw, ball.on_throw, EITHER, label=N_("the throw")),
    Move(c.Handoff, ball.on_handoff, EITHER, label=N_("the hand-off")),
    Move(c.Take, ball.on_take, EITHER, label=N_("taking the ball")),
    Move(c.Pick, ball.on_pick, EITHER, label=N_("picking the ball up")),  # and "drop"
    Move(c.Attack, combat.on_attack, EITHER, label=N_("the attack")),
    Move(c.Answer, combat.on_answer, EITHER, label=N_("the answer")),
    Move(c.Hurt, records.on_hurt, EITHER, label=N_("the damage")),
    Move(c.SetCondition, records.on_condition, EITHER, label=N_("the state")),
    Move(c.Expel, records.on_expel, EITHER, label=N_("the expulsion")),
    Move(c.Reentry, records.on_reentry, EITHER, label=N_("the re-entry")),
    Move(c.UsePower, powers.on_power, EITHER, label=N_("the power card")),
    Move(c.Check, powers.on_check, EITHER, label=N_("the roll")),
    Move(c.Trigger, powers.on_trigger, EITHER, label=N_("the power's moment")),
    Move(c.Surrender, records.on_surrender, EITHER, label=N_("the surrender")),
    Move(c.FreeShot, records.on_free_throw, EITHER, label=N_("the free throw")),
    Move(c.Move, field.on_move, EITHER, label=N_("the move")),
    Move(c.BlindMove, field.on_blind_move, EITHER, label=N_("the move")),
)


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
    moves = MOVES
    engine = staticmethod(played)
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

    subjects = staticmethod(turn.subjects)

    # Self-refereed, a coach's hand tools on the other team (platform.md, "Adversaries consent").
    consent_commands = records.HAND_TOOLS
    touches = staticmethod(records.touches)
    sides = staticmethod(records.sides)
    moment = staticmethod(records.moment)

    def describe(self, command: Any, state: MatchState) -> Msg:
        return views.described(command, state) or self.label(command, state)

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

    log_view = staticmethod(views.log_view)

    def audiences(self, event: LoggedEvent, viewer: Viewer) -> Collection[str]:
        """A coach reads the private notes of the side they played when the event happened."""
        side = views.viewer_side(event, viewer)
        return {side} if side is not None else set()

    def roll_label(self, purpose: str, state: MatchState) -> Msg | str | None:
        return rules.roll_label(purpose)

    def label(self, command: Any, state: MatchState) -> Msg:
        second = views.SECOND_LABELS.get(command.type)
        return Msg(second) if second is not None else super().label(command, state)

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


KILLPOWER_MATCH = KillpowerMatch()
