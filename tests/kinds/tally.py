"""A small game kind that exists only for the platform's tests: players score points, a referee
rolls dice for them, a timer rings by itself. Players see their own points only."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from server.errors import RuleError
from server.i18n import Msg
from server.platform.kinds import (
    NOBODY,
    STAFF,
    Applied,
    Context,
    GameKind,
    LoggedEvent,
    Move,
    PersonInfo,
    Viewer,
    full_event,
    staff_reads_all,
)
from server.platform.now import Now
from server.platform.refs import PersonRef
from server.platform.timers import Timer


class Player(BaseModel):
    name: str
    points: int = 0
    out: bool = False


class TallyState(BaseModel):
    players: dict[str, Player] = Field(default_factory=dict)
    target: int = 20
    timer: Timer | None = None
    rings: int = 0


class TallySettings(BaseModel):
    target: int = Field(default=20, ge=1, le=1000)


class Score(BaseModel):
    type: Literal["score"]
    player: PersonRef
    points: int = Field(ge=-10, le=10)


class Dice(BaseModel):
    type: Literal["roll"]
    player: PersonRef


class Out(BaseModel):
    type: Literal["out"]
    player: PersonRef


class TimerStart(BaseModel):
    type: Literal["timer.start"]
    seconds: int = Field(ge=1, le=3600)


class TimerPause(BaseModel):
    type: Literal["timer.pause"]


class TimerResume(BaseModel):
    type: Literal["timer.resume"]


class TimerRing(BaseModel):
    type: Literal["timer.ring"]


def player_of(state: TallyState, player_id: int) -> Player:
    player = state.players.get(str(player_id))
    if player is None:
        raise RuleError("No player {player}.", field="player", player=player_id)
    if player.out:
        raise RuleError("{name} is out.", field="player", name=player.name)
    return player


def on_points(state: TallyState, c: Score | Dice, ctx: Context) -> Applied:
    player = player_of(state, c.player)
    points = c.points if isinstance(c, Score) else ctx.dice.roll(6, "points")
    player.points += points
    return Applied(
        Msg("{name} scores {points}.", {"name": player.name, "points": points}),
        {"points": points},
    )


def on_out(state: TallyState, c: Out, ctx: Context) -> Applied:
    player = player_of(state, c.player)
    player.out = True
    return Applied(Msg("{name} is out.", {"name": player.name}))


def on_timer(state: TallyState, c: Any, ctx: Context) -> Applied:
    if isinstance(c, TimerStart):
        state.timer = Timer.start(ctx.now, c.seconds)
    elif isinstance(c, TimerRing):
        state.timer, state.rings = None, state.rings + 1
    elif state.timer is None:
        raise RuleError("No timer.")
    else:
        state.timer = (
            state.timer.pause(ctx.now) if isinstance(c, TimerPause) else state.timer.resume(ctx.now)
        )
    return Applied(Msg("Timer: {type}.", {"type": c.type}))


# A player rolls for themself (`Tally.may_send`), the staff for anyone; the clock rings.
MOVES = (
    Move(Score, on_points),
    Move(Dice, on_points, STAFF | {"player"}),
    Move(Out, on_out),
    Move(TimerStart, on_timer),
    Move(TimerPause, on_timer),
    Move(TimerResume, on_timer),
    Move(TimerRing, on_timer, NOBODY),
)


class Tally(GameKind[TallyState]):
    key = "tally"
    title = "Tally"
    tagline = "A test game: points and dice."
    roles = ("player",)
    state_model = TallyState
    settings_model = TallySettings
    moves = MOVES
    reads_everything = staticmethod(staff_reads_all)

    def new_state(self, settings: BaseModel) -> TallyState:
        assert isinstance(settings, TallySettings)
        return TallyState(target=settings.target)

    def add_person(self, state: TallyState, person: PersonInfo) -> TallyState:
        if person.role != "player":
            return state
        players = dict(state.players)
        players[str(person.id)] = Player(name=person.name)
        return state.model_copy(update={"players": players})

    def status(self, state: TallyState) -> str:
        return (
            "finished"
            if any(p.points >= state.target for p in state.players.values())
            else "running"
        )

    def next_deadline(self, state: TallyState) -> datetime | None:
        return state.timer.deadline if state.timer else None

    def due(self, state: TallyState, now: datetime) -> list[Any]:
        if state.timer is not None and state.timer.due(now):
            return [TimerRing(type="timer.ring")]
        return []

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        if viewer.role == "player" and getattr(command, "player", None) != viewer.person_id:
            return False
        return super().may_send(viewer, command)

    def subjects(self, state: TallyState, command: Any, actor: Viewer) -> list[int] | None:
        player = getattr(command, "player", None)
        return [player] if player is not None else None

    def label(self, command: Any, state: TallyState) -> Msg:
        player = state.players.get(str(getattr(command, "player", "")))
        if player is not None:
            return Msg("{type} for {name}", {"type": command.type, "name": player.name})
        return Msg("{type}", {"type": command.type})

    def view(self, state: TallyState, viewer: Viewer, now: datetime) -> dict[str, Any]:
        if viewer.is_staff:
            return {
                "players": {k: p.model_dump() for k, p in state.players.items()},
                "timer": state.timer,
                "rings": state.rings,
                "target": state.target,
            }
        base: dict[str, Any] = {
            "count": len(state.players),
            "timer": state.timer,
            "names": sorted(p.name for p in state.players.values()),
        }
        me = state.players.get(str(viewer.person_id))
        if me is not None:
            base["me"] = me.model_dump()
        return base

    def now(self, view: Mapping[str, Any], viewer: Viewer) -> Now:
        you = Msg("Add points.") if viewer.is_staff else None
        return Now(Msg("Tally"), you, yours=viewer.is_staff)

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        if viewer.is_staff:
            return full_event(event)
        if viewer.person_id is not None and event.command.get("player") == viewer.person_id:
            return {"seq": event.seq, "summary": event.summary.render()}
        return None


TALLY = Tally()
