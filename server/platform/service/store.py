"""Storage of games: the lock that serializes a game's actions, the log appended with its
idempotency keys, the stored state with its snapshots, and the cache of parsed states."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from threading import Lock
from typing import Any, Protocol

from pydantic import BaseModel
from sqlalchemy import bindparam
from sqlalchemy import select as select_core
from sqlalchemy.orm import defer
from sqlmodel import Session, SQLModel, col, select

from server.db import Database
from server.errors import (
    GameMoved,
    NotFound,
    StaleScreen,
)
from server.i18n import N_, Msg
from server.models import Event, Game
from server.platform import idempotency
from server.platform.clock import Clock
from server.platform.dice import DiceSource
from server.platform.idempotency import (
    IdemKey,
)
from server.platform.kinds import (
    GameKind,
    Viewer,
    log_entry,
    logged,
)
from server.platform.sealing import trusted_keys

log = logging.getLogger("arbitre.service")


DICE_MODES = ("server", "physical")
SNAPSHOT_EVERY = 100  # events between two snapshots of a game's state
_events = SQLModel.metadata.tables["event"].c
IDEM_USED = select_core(_events.id).where(
    _events.game_id == bindparam("game_id"), _events.idem_key == bindparam("idem_key")
)
# What an undo would take back now: the game's latest command not undone (`undo_target`); its
# actor alone for the referees' undo buttons, read at every change without the event parsed.
UNDOABLE = (
    _events.game_id == bindparam("game_id"),
    _events.type == "command",
    _events.undone_by.is_(None),
)
UNDO_ACTOR = select_core(_events.actor_id).where(*UNDOABLE).order_by(_events.seq.desc()).limit(1)


def may_undo(viewer: Viewer, actor_id: int | None) -> bool:
    """Whether a member of the staff may undo an action made by `actor_id` (None: the clock):
    a referee their own, the organizer anyone's (`Actions.undo` judges the same way)."""
    return viewer.is_organizer or actor_id in (None, viewer.person_id)


class Publish(Protocol):
    def __call__(self, game_id: str, seq: int, *, access_changed: bool = False) -> None: ...


class Committed:
    """A tiny bus: who hears that a change of a game was committed (the live phones' broker;
    in the web app, the broker through the nudges an action's request holds until its answer is
    out: `server.web.answer_first`). Told after the commit, never inside it."""

    def __init__(self) -> None:
        self._listeners: list[Publish] = []

    def subscribe(self, listener: Publish) -> None:
        self._listeners.append(listener)

    def __call__(self, game_id: str, seq: int, *, access_changed: bool = False) -> None:
        for listener in self._listeners:
            listener(game_id, seq, access_changed=access_changed)


class Store:
    """The unit of work every job of the service shares: the database and its game lock, the
    log, the states' cache; the clock, the dice, the keys; and the bus told of each commit."""

    def __init__(
        self,
        db: Database,
        secret: str,
        clock: Clock,
        dice: DiceSource,
        *,
        trusted_servers: str = "",
    ) -> None:
        self.db = db
        self.secret = secret
        # The servers whose tickets and files this one takes for games in progress
        # (`TRUSTED_SERVERS`, and itself: `server.platform.sealing`).
        self.trusted = trusted_keys(secret, trusted_servers)
        self.clock = clock
        self.dice = dice
        self.committed = Committed()
        self._cache: dict[str, tuple[int, BaseModel]] = {}
        self._cache_lock = Lock()

    def lock(self, s: Session, game_id: str) -> Game:
        """The game, locked for this write. Its stored state is read only when asked
        (`game.state`): an action finds it parsed in the cache (`_state`)."""
        statement = select(Game).where(Game.id == game_id).options(defer(Game.state))  # type: ignore[arg-type]
        if not self.db.is_sqlite:
            statement = statement.with_for_update()
        game = s.exec(statement).first()
        if game is None:
            raise NotFound(N_("No such game."))
        moved = game.settings.get("moved")
        if moved:  # sealed to another server (`Moves.export_game`): it is played there now
            raise GameMoved(
                N_("This game moved to another server on {date}: it is played there now."),
                date=str(moved)[:16].replace("T", " "),
            )
        return game

    def by_idem(self, s: Session, game_id: str, idem: IdemKey) -> Event | None:
        """The event this caller's key already made in this game, if the same request did."""
        # Asked at every action, and almost always none: a Core statement says so first.
        params = {"game_id": game_id, "idem_key": idem.stored}
        if s.connection().execute(IDEM_USED, params).first() is None:
            return None
        prior = s.exec(
            select(Event).where(Event.game_id == game_id, Event.idem_key == idem.stored)
        ).first()
        if prior is not None:
            idem.check(prior.idem_fingerprint)
        return prior

    def events(
        self, s: Session, game_id: str, after: int = 0, upto: int | None = None
    ) -> list[Event]:
        query = select(Event).where(Event.game_id == game_id, Event.seq > after)
        if upto is not None:
            query = query.where(Event.seq <= upto)
        return list(s.exec(query.order_by(col(Event.seq))))

    def undo_target(self, s: Session, game_id: str) -> Event | None:
        latest = select(Event).where(*UNDOABLE).order_by(col(Event.seq).desc()).limit(1)
        return s.exec(latest, params={"game_id": game_id}).first()

    def check_fresh(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        seen_seq: int,
        subjects: list[int] | None,
        actor: Viewer,
    ) -> None:
        """Refuses an action computed on a screen that missed a change touching the same people,
        made by someone else (platform.md): what its sender did meanwhile, they know. The change
        is said as the sender's own journal says it, or not at all (another player's secret
        claim is theirs: its sentence never reaches anyone else through a refusal)."""
        if seen_seq > game.seq:
            raise StaleScreen(N_("Your screen is ahead of the game: reload it."))
        if seen_seq == game.seq:
            return
        newer = s.exec(
            select(Event).where(
                Event.game_id == game.id,
                Event.seq > seen_seq,
                col(Event.type).in_(("command", "undo")),
            )
        ).all()
        touched = set(subjects) if subjects is not None else None
        for event in newer:
            if actor.person_id is not None and event.actor_id == actor.person_id:
                continue
            if touched is None or event.subjects is None or touched & set(event.subjects):
                entry = log_entry(kind, logged(event), actor)
                if not entry or not entry.get("summary"):
                    raise StaleScreen(
                        N_("The game changed since your screen was shown: check and retry.")
                    )
                raise StaleScreen(
                    N_(
                        "The game changed since your screen was shown ({summary}, by {name}): "
                        "check and retry."
                    ),
                    summary=str(entry["summary"]).rstrip(". "),
                    name=event.actor_name or "?",
                )

    def append(
        self,
        s: Session,
        game: Game,
        type_: str,
        actor: Viewer,
        command: dict[str, Any],
        *,
        summary: Msg,
        label: Msg,
        rolls: list[dict[str, Any]] | None = None,
        result: Mapping[str, Any] | None = None,
        subjects: list[int] | None = None,
        idem: IdemKey | None = None,
        undoes: int | None = None,
        at: datetime | None = None,
    ) -> Event:
        game.seq += 1
        event = Event(
            game_id=game.id,
            seq=game.seq,
            type=type_,
            at=at or self.clock.now(),
            actor_id=actor.person_id,
            actor_role=actor.role,
            actor_name=actor.name,
            command=command,
            rolls=rolls or [],
            result=dict(result or {}),
            summary=summary.to_json(),
            label=label.to_json(),
            subjects=subjects,
            idem_key=idem.stored if idem else None,
            idem_fingerprint=idem.fingerprint if idem else None,
            undoes=undoes,
        )
        s.add(event)
        s.add(game)
        s.info["appended"] = event
        return event

    def state_of(self, game: Game, kind: GameKind[Any], *, copy: bool = True) -> BaseModel:
        """The game's state as its kind's model, parsed once per sequence number. Without
        `copy`, the cached object itself: for the rules, which never change their input."""
        state = self.cached(game.id, game.seq)
        if state is None:
            state = self.parsed(game.id, game.seq, kind, game.state)
        return state.model_copy(deep=True) if copy else state

    def cached(self, game_id: str, seq: int) -> BaseModel | None:
        """The parsed state this process keeps for the game at `seq`, if it does."""
        with self._cache_lock:
            cached = self._cache.get(game_id)
        return cached[1] if cached is not None and cached[0] == seq else None

    def parsed(self, game_id: str, seq: int, kind: GameKind[Any], stored: Any) -> BaseModel:
        """The stored state of the game at `seq` parsed, and kept for the next reader."""
        state = kind.state_model.model_validate(stored)
        self.remember(game_id, seq, state)
        return state

    def remember(self, game_id: str, seq: int, state: BaseModel) -> None:
        """Only ever called with a committed sequence number: a rolled-back one could come
        again with another state."""
        with self._cache_lock:
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[game_id] = (seq, state)

    def save_state(self, s: Session, game: Game, kind: GameKind[Any], state: BaseModel) -> None:
        game.state = kind.dump(state)
        appended: Event | None = s.info.get("appended")
        if appended is not None and appended.seq == game.seq and game.seq % SNAPSHOT_EVERY == 0:
            appended.snapshot = game.state
        game.status = kind.status(state)
        game.next_deadline = kind.next_deadline(state)


def make_idem(caller: str, key: str, operation: str, body: Mapping[str, Any]) -> IdemKey:
    return idempotency.idem_key(caller, key, operation, body)


def dumped(command: Any) -> dict[str, Any]:
    if isinstance(command, BaseModel):
        return command.model_dump(mode="json")
    return dict(command)
