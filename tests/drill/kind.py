"""A sixth game, for the drill of issue 52: three fingers. Each player shows one, two or three
fingers in secret; the referee reveals them; the highest number that no one else showed scores a
point (where every number was shown twice, a die names one of those who showed the highest); the
first to the target wins.

It lives in its own folder only (this kind, its templates in `templates/drill/`, its scenes and
its tests), added with no edit to any shared file: the platform finds it (`tests/conftest.py`
registers every `tests/<folder>/kind.py`'s `KIND`, `tests/scene.py` reads its scenes), and the
shared walks (contract, security, now-line, forms, replay, walker) go through it as through any
game. Its words are not translated: it is no product.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from server.errors import RuleError
from server.i18n import Msg
from server.platform.commands import Strict
from server.platform.kinds import (
    PLAYERS,
    STAFF,
    Applied,
    Context,
    GameKind,
    Move,
    Part,
    PersonInfo,
    Phase,
    Viewer,
)
from server.platform.now import NOTHING_LEFT, WATCH, Now

FINGERS = (1, 2, 3)


class Player(BaseModel):
    id: int
    name: str
    points: int = 0
    shown: int | None = None  # this round's, secret until the reveal


class DrillState(BaseModel):
    phase: Literal["setup", "playing", "finished"] = "setup"
    target: int = 2
    round: int = 0
    players: dict[str, Player] = Field(default_factory=dict)
    last: str = ""  # the last reveal, as said
    winner: str | None = None


class DrillSettings(Strict):
    target: int = Field(default=2, ge=1, le=9)


class DrillStart(Strict):
    type: Literal["start"]


class Show(Strict):
    type: Literal["show"]
    fingers: int = Field(ge=1, le=3)


class Reveal(Strict):
    type: Literal["reveal"]


def on_start(state: DrillState, c: DrillStart, ctx: Context) -> Applied:
    if len(state.players) < 2:
        raise RuleError("Two players at least.")
    state.phase, state.round = "playing", 1
    return Applied(Msg("Round 1: show your fingers."))


def on_show(state: DrillState, c: Show, ctx: Context) -> Applied:
    me = state.players.get(str(ctx.actor.person_id))
    if me is None:
        raise RuleError("Only a player shows fingers.")
    if me.shown is not None:
        raise RuleError("You showed your fingers this round.")
    me.shown = c.fingers
    note = Msg("You show {n}.", {"n": c.fingers})
    return Applied(Msg("{name} is ready.", {"name": me.name}), private={f"person:{me.id}": [note]})


def waiting(state: DrillState) -> list[str]:
    return sorted(p.name for p in state.players.values() if p.shown is None)


def on_reveal(state: DrillState, c: Reveal, ctx: Context) -> Applied:
    if waiting(state):
        raise RuleError("Waiting for {names}.", names=", ".join(waiting(state)))
    shown = {key: p.shown for key, p in state.players.items()}
    values = list(shown.values())
    unique = [v for v in values if v is not None and values.count(v) == 1]
    said = ", ".join(f"{p.name} {p.shown}" for p in state.players.values())
    top = max(unique) if unique else max(v for v in values if v is not None)
    tied = [
        state.players[k] for k, v in sorted(shown.items(), key=lambda kv: int(kv[0])) if v == top
    ]
    scorer = tied[0] if unique else tied[ctx.dice.roll(len(tied), "tie") - 1]
    for p in state.players.values():
        p.shown = None
    scorer.points += 1
    state.last = f"{said}: {scorer.name} scores" + ("." if unique else " (the die).")
    if scorer.points >= state.target:
        state.phase, state.winner = "finished", scorer.name
        return Applied(Msg("{last} {name} wins.", {"last": state.last, "name": scorer.name}))
    state.round += 1
    return Applied(Msg("Round {n}: {last}", {"n": state.round - 1, "last": state.last}))


SETUP = Phase(lambda s: s.phase == "setup", "This is settled before the game starts.")
PLAYING = Phase(lambda s: s.phase == "playing", "No round is being played.")

MOVES = (
    Move(DrillStart, on_start, STAFF, (SETUP,), "the start"),
    Move(Show, on_show, PLAYERS, (PLAYING,), "the fingers shown"),
    Move(Reveal, on_reveal, STAFF, (PLAYING,), "the reveal"),
)


def board(state: DrillState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """What everyone sees: the scores, who is ready (never with what), the last reveal."""
    return {
        "phase": state.phase,
        "round": state.round,
        "target": state.target,
        "players": [
            {"id": p.id, "name": p.name, "points": p.points, "ready": p.shown is not None}
            for p in state.players.values()
        ],
        "waiting": waiting(state),
        "last": state.last,
        "winner": state.winner,
    }


def me(state: DrillState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    player = state.players.get(str(viewer.person_id))
    if player is None:
        return None
    return {"me": {"name": player.name, "points": player.points, "shown": player.shown}}


class Drill(GameKind[DrillState]):
    key = "drill"
    title = "Three fingers"
    tagline = "A test game: fingers shown in secret, revealed by the referee."
    roles = ("player",)
    max_people: ClassVar[Mapping[str, int]] = {"player": 6}
    state_model = DrillState
    settings_model = DrillSettings
    moves = MOVES
    parts = (Part("board", "game", board), Part("me", "person", me))

    def new_state(self, settings: BaseModel) -> DrillState:
        assert isinstance(settings, DrillSettings)
        return DrillState(target=settings.target)

    def add_person(self, state: DrillState, person: PersonInfo) -> DrillState:
        if person.role != "player" or str(person.id) in state.players:
            return state
        if state.phase != "setup":
            raise RuleError("Players join before the game starts.")
        state = state.model_copy(deep=True)
        state.players[str(person.id)] = Player(id=person.id, name=person.name)
        return state

    def remove_person(self, state: DrillState, person: PersonInfo) -> DrillState:
        if state.phase != "setup" or str(person.id) not in state.players:
            return state
        state = state.model_copy(deep=True)
        del state.players[str(person.id)]
        return state

    def status(self, state: DrillState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    def reads_everything(self, state: DrillState, viewer: Viewer) -> bool:
        """The fingers shown are the players' until the reveal: the referee reads the game whole
        while none is hidden."""
        return viewer.is_staff and all(p.shown is None for p in state.players.values())

    def now(self, view: Mapping[str, Any], viewer: Viewer) -> Now:
        phase, mine = view["phase"], view.get("me")
        if phase == "finished":
            where = Msg("{name} wins.", {"name": view["winner"]})
            return Now(where, None if viewer.role == "public" else Msg(NOTHING_LEFT))
        if phase == "setup":
            where = Msg("Before the game: {n} players", {"n": len(view["players"])})
            if viewer.is_staff:
                return Now(where, Msg("Start the game once everyone is in."), yours=True)
            return Now(where, None if viewer.role == "public" else Msg(WATCH))
        where = Msg("Round {n}", {"n": view["round"]})
        if viewer.is_staff:
            if view["waiting"]:
                return Now(
                    where, Msg("Waiting for {names}.", {"names": ", ".join(view["waiting"])})
                )
            return Now(where, Msg("Reveal the fingers."), yours=True)
        if mine is None:
            return Now(where, None if viewer.role == "public" else Msg(WATCH))
        if mine["shown"] is None:
            return Now(where, Msg("Show your fingers."), yours=True)
        return Now(where, Msg("You show {n}: the referee reveals.", {"n": mine["shown"]}))


KIND = Drill()
