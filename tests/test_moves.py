"""A game declared once: from a kind's list of moves the platform derives its command union, its
handlers, the commands no client sends, `check`, `may_send` and `label` (`server.platform.kinds`)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ValidationError

from server.errors import RuleError
from server.i18n import Msg
from server.platform.dice import ScriptedRolls
from server.platform.kinds import (
    KINDS,
    NOBODY,
    ORGANIZER,
    STAFF,
    Applied,
    Context,
    GameKind,
    Move,
    Phase,
    Viewer,
    may_now,
)
from server.platform.now import Now
from server.web.templating import make_environment


class Board(BaseModel):
    started: bool = False
    moves: list[str] = []


class Begin(BaseModel):
    type: Literal["begin"]


class Step(BaseModel):
    type: Literal["step"]
    to: str


class Tick(BaseModel):
    type: Literal["tick"]


def on_begin(state: Board, c: Begin, ctx: Context) -> Applied:
    state.started = True
    return Applied(Msg("Begun."))


def on_step(state: Board, c: Step, ctx: Context) -> Applied:
    state.moves.append(c.to)
    return Applied(Msg("Stepped."))


STARTED = Phase(lambda s: s.started, "Not started.")
SETUP = Phase(lambda s: not s.started, "Already started.")


class Steps(GameKind[Board]):
    """A kind of three moves, declared and never registered."""

    key = "steps"
    title = tagline = "Steps"
    state_model = Board
    settings_model = Board
    moves = (
        Move(Begin, on_begin, ORGANIZER, (SETUP,), "the beginning"),
        Move(Step, on_step, STAFF | {"player"}, (STARTED,), "the step"),
        Move(Tick, on_step, NOBODY),
    )

    def new_state(self, settings: BaseModel) -> Board:
        return Board()

    def after(self, before: Board, after: Board, command: Any, ctx: Context) -> Msg | None:
        return Msg("Three steps.") if len(after.moves) == 3 and len(before.moves) == 2 else None

    def now(self, view: Any, viewer: Viewer) -> Now:
        return Now(Msg("Steps"), None)


STEPS = Steps()
CTX = Context(Viewer("organizer"), ScriptedRolls(), datetime(2026, 1, 1, tzinfo=UTC))


def test_the_union_and_the_handlers_come_from_the_moves() -> None:
    assert isinstance(STEPS.parse({"type": "step", "to": "B2"}), Step)
    with pytest.raises(ValidationError):
        STEPS.parse({"type": "jump"})
    assert STEPS.handlers == {Begin: on_begin, Step: on_step, Tick: on_step}
    assert STEPS.internal == (Tick,)


@pytest.mark.parametrize(
    ("role", "command", "may"),
    [
        ("organizer", Begin(type="begin"), True),
        ("referee", Begin(type="begin"), False),
        ("player", Begin(type="begin"), False),
        ("referee", Step(type="step", to="A1"), True),
        ("player", Step(type="step", to="A1"), True),
        ("public", Step(type="step", to="A1"), False),
        ("organizer", Tick(type="tick"), False),
        ("system", Tick(type="tick"), False),
    ],
)
def test_who_may_send_a_move_is_its_by(role: str, command: Any, may: bool) -> None:
    assert STEPS.may_send(Viewer(role), command) is may


def test_a_move_outside_its_phases_is_refused_with_the_phase_s_words() -> None:
    with pytest.raises(RuleError) as refused:
        STEPS.apply(Board(), Step(type="step", to="A1"), CTX)
    assert refused.value.args[0] == "Not started."
    started = STEPS.apply(Board(), Begin(type="begin"), CTX).state
    with pytest.raises(RuleError, match="Already started"):
        STEPS.apply(started, Begin(type="begin"), CTX)


@pytest.mark.parametrize(
    ("role", "started", "may"),
    [
        ("organizer", False, {"begin"}),
        ("organizer", True, {"step"}),
        ("referee", False, set()),
        ("player", True, {"step"}),
        ("public", True, set()),
        ("system", True, set()),  # the clock's own tick is nobody's to offer
    ],
)
def test_what_a_viewer_may_do_now_is_read_from_the_moves(
    role: str, started: bool, may: set[str]
) -> None:
    """The one source the walker holds every offered form to: the moves naming the viewer's
    role whose phases hold, the same `check` and `may_send` judge by."""
    assert may_now(STEPS, Board(started=started), Viewer(role)) == may


def test_what_follows_every_command_is_said_after_its_rule() -> None:
    state = Board(started=True, moves=["A1", "A2"])
    done = STEPS.apply(state, Step(type="step", to="A3"), CTX)
    assert done.summary.render() == "Stepped. Three steps."
    assert state.moves == ["A1", "A2"]  # the rule worked on a copy
    assert STEPS.label(Begin(type="begin"), state).render() == "the beginning"


@pytest.mark.parametrize("key", sorted(KINDS))
def test_every_kind_is_declared_by_its_moves(key: str) -> None:
    kind = KINDS[key]
    assert kind.moves, f"{key} declares its moves"
    assert set(kind.handlers) == {m.command for m in kind.moves} == set(kind.declared)
    assert set(kind.internal) == {m.command for m in kind.moves if not m.by}
    for move in kind.moves:
        assert move.by <= {*kind.registrable_roles(), *STAFF, "system"}, (key, move.command)


def test_a_kind_that_says_nothing_of_its_secrets_keeps_them() -> None:
    """The defaults a game's author may forget are the safe ones: nobody reads a game's record
    whole (its file in clear) until the kind says who, and the journal tells what happened, never
    what was sent (a player's pick), even to the staff."""
    from server.platform.kinds import LoggedEvent

    state = Board(started=True)
    assert not STEPS.reads_everything(state, Viewer("organizer", 1))
    event = LoggedEvent(
        seq=3,
        type="command",
        at=datetime(2026, 1, 1, tzinfo=UTC),
        actor_role="player",
        actor_name="Léa",
        command={"type": "step", "to": "secret-square"},
        rolls=[],
        result={},
        summary=Msg("Stepped."),
        undone=False,
        actor_id=2,
    )
    for viewer in (Viewer("organizer", 1), Viewer("referee", 5), Viewer("player", 3)):
        entry = STEPS.log_view(event, viewer)
        assert entry is not None and "secret-square" not in str(entry), viewer
        assert entry["summary"] == "Stepped."


@pytest.mark.parametrize(("may", "shown"), [({"step"}, True), ({"begin"}, False), (None, True)])
def test_a_page_offers_no_form_for_a_move_the_game_refuses_now(
    may: set[str] | None, shown: bool
) -> None:
    """The forms read the same source: `action_form` renders nothing for a command outside
    the viewer's moves now (the page context's `may`)."""

    page = make_environment().from_string(
        '{% import "_macros.html" as m with context %}'
        '{% call m.action_form(game, 3, "step") %}<button>Go</button>{% endcall %}'
    )
    context: dict[str, Any] = {"game": SimpleNamespace(id="g1"), "replay": False}
    if may is not None:
        context["may"] = may
    html = page.render(context)
    assert ('name="type" value="step"' in html) is shown, html
