"""Replay: a game's state rebuilt from its log with the dice it rolled, and verified against the
stored one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel
from sqlalchemy.orm import defer
from sqlmodel import col, select

from server.errors import (
    NotFound,
)
from server.i18n import N_
from server.models import Event, Game
from server.platform.dice import ReplayDice
from server.platform.kinds import (
    Context,
    PersonInfo,
    Viewer,
    get_kind,
)
from server.platform.service.store import Store


class Replay:
    def __init__(self, store: Store) -> None:
        self.store = store

    def rebuild(
        self,
        game: Game,
        events: Sequence[Event],
        skip: Iterable[int] = (),
        start: Event | None = None,
    ) -> BaseModel:
        """The state the log gives, from the game's creation settings and its events alone, or
        from a snapshot (`start`, an event that holds one) and the events after it."""
        kind = get_kind(game.kind)
        if start is not None and start.snapshot is not None:
            state = kind.state_model.model_validate(start.snapshot)
            events = [e for e in events if e.seq > start.seq]
        else:
            state = kind.new_state(
                kind.settings_model.model_validate(game.settings.get("kind", {}))
            )
        undone = {e.undoes for e in events if e.type == "undo"} | set(skip)
        for event in events:
            if event.type == "person":
                info = PersonInfo(event.command["id"], event.command["role"], event.command["name"])
                state = kind.add_person(state, info)
            elif event.type == "access" and "role" in event.command:  # older logs: links only
                c = event.command
                info = PersonInfo(c["id"], c["role"], c["name"])
                if c["type"] == "link.revoke" and not c["was_revoked"]:
                    state = kind.remove_person(state, info)
                elif c["type"] == "link.reissue" and c["was_revoked"]:
                    state = kind.add_person(state, info)
            elif event.type == "command" and event.seq not in undone:
                actor = Viewer(event.actor_role, event.actor_id, event.actor_name)
                ctx = Context(actor, ReplayDice(event.rolls), event.at)
                state = kind.apply(state, kind.parse(event.command), ctx).state
        return state

    def steps(self, game_id: str) -> list[tuple[int, bool]]:
        """A game's actions, in order: each one's sequence number, and whether it was undone."""
        with self.store.db.read() as s:
            rows = s.exec(
                select(Event.seq, Event.undone_by)
                .where(Event.game_id == game_id, col(Event.type).in_(("command", "undo")))
                .order_by(col(Event.seq))
            ).all()
        return [(seq, undone_by is not None) for seq, undone_by in rows]

    def state_at(self, game_id: str, seq: int) -> tuple[Game, BaseModel]:
        """The game and its state just after its event `seq`, as it was then (issue 37): an
        action undone later still in it, one undone by then out. Built from the last snapshot at
        or before `seq` (an undo clears the snapshots it reaches behind, so every one left holds
        the log as it stood), then the hundred events at most that follow it."""
        with self.store.db.read() as s:
            game = s.get(Game, game_id, options=[defer(Game.state)])  # type: ignore[arg-type]
            if game is None:
                raise NotFound(N_("No such game."))
            seq = max(0, min(seq, game.seq))
            start = s.exec(
                select(Event)
                .where(
                    Event.game_id == game_id,
                    Event.seq <= seq,
                    col(Event.snapshot).is_not(None),
                )
                .order_by(col(Event.seq).desc())
                .limit(1)
            ).first()
            after = start.seq if start is not None else 0
            events = list(
                s.exec(
                    select(Event)
                    .where(Event.game_id == game_id, Event.seq > after, Event.seq <= seq)
                    .order_by(col(Event.seq))
                )
            )
            game.state = {}  # never the present one: a step is what was, not what is
        return game, self.rebuild(game, events, start=start)

    def verify(self, game_id: str) -> bool:
        """Does replaying the log give exactly the stored state?"""
        with self.store.db.read() as s:
            game = s.get(Game, game_id)
            if game is None:
                raise NotFound(N_("No such game."))
            events = self.store.events(s, game_id)
        rebuilt = self.rebuild(game, events).model_dump(mode="json")
        return bool(rebuilt == game.state)
