"""Reads: a game, its people, a viewer and the log as each viewer may read it. No write."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel
from sqlalchemy import bindparam
from sqlalchemy import select as select_core
from sqlmodel import Session, SQLModel, col, select

from server.errors import (
    LinkInvalid,
    NotFound,
    NotSignedIn,
)
from server.i18n import N_, Msg
from server.models import Event, Game, Person
from server.platform.access import (
    code_hash,
    token_hash,
)
from server.platform.kinds import (
    GameKind,
    Viewer,
    get_kind,
    log_entry,
    logged,
)
from server.platform.service.store import (
    UNDO_ACTOR,
    Store,
    may_undo,
)

# Read at every change of a watched game, or at every stream's opening: Core statements built
# once (`Database.read_rows`). The game's whole list of people (a few dozen) costs less than
# naming those watching.
_people, _games = SQLModel.metadata.tables["person"].c, SQLModel.metadata.tables["game"].c
LINKS_HELD = select_core(_people.id, _people.version).where(
    _people.game_id == bindparam("game_id"), _people.revoked.is_(False)
)
# A game without its stored state (read only when this process has not parsed that version).
GAME_BUT_STATE = select_core(*(c for c in _games if c.name != "state")).where(
    _games.id == bindparam("game_id")
)
GAME_WITH_STATE = select_core(*_games).where(_games.id == bindparam("game_id"))
SEQ_OF = select_core(_games.seq).where(_games.id == bindparam("game_id"))
TOKEN_HOLDER = select_core(
    _people.game_id, _people.role, _people.id, _people.name, _people.claimed_at
).where(_people.token_hash == bindparam("token_hash"), _people.revoked.is_(False))


class Recent(NamedTuple):
    """One of the latest actions, as staff screens list it: its number, its sentence, whether
    it was undone."""

    seq: int
    summary: Msg
    undone: bool


@dataclass(frozen=True)
class Loaded:
    """A game read by `GameService.load`: `game.state` (the stored JSON) is not read, `state`
    is the parsed one."""

    game: Game
    kind: GameKind[Any]
    state: BaseModel


class Reads:
    """What a game is and shows, read without writing."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def load(self, game_id: str) -> Loaded:
        """A game and its state, for reading: the state is the one this process keeps for the
        game's sequence number, shared by every reader, so views must not change it (the tests
        render every page and check). The stored state is read and parsed only when the game
        moved since this process last saw it."""
        with self.store.db.read_rows() as rows:
            found = rows.execute(GAME_BUT_STATE, {"game_id": game_id}).first()
            state = self.store.cached(game_id, found.seq) if found is not None else None
            if found is not None and state is None:  # the state with the number it goes with
                found = rows.execute(GAME_WITH_STATE, {"game_id": game_id}).first()
        if found is None:
            raise NotFound(N_("No such game."))
        fields = dict(found._mapping)
        stored = fields.pop("state", None)
        # A Core row made the game's object without the ORM's unit of work: a third of the time
        # of `Session.get`, read at every change and every page (`make bench`'s profile).
        game = Game.model_construct(**fields)
        kind = get_kind(game.kind)
        if state is None:
            state = self.store.parsed(game_id, game.seq, kind, stored)
        return Loaded(game, kind, state)

    def seq_of(self, game_id: str) -> int:
        """A game's sequence number alone, without reading its state (a stream opening)."""
        with self.store.db.read_rows() as rows:
            seq = rows.execute(SEQ_OF, {"game_id": game_id}).scalar()
        if seq is None:
            raise NotFound(N_("No such game."))
        return seq

    def person_by_token(self, token: str) -> Person:
        with self.store.db.read() as s:
            person = s.exec(select(Person).where(Person.token_hash == token_hash(token))).first()
        if person is None or person.revoked:
            raise LinkInvalid(N_("This link is no longer valid."))
        return person

    def token_viewer(self, token: str) -> tuple[str, Viewer]:
        """The game a link's token opens, and who holds it: what the API asks at every call,
        by a Core statement (`person_by_token` without the ORM's object)."""
        with self.store.db.read_rows() as rows:
            found = rows.execute(TOKEN_HOLDER, {"token_hash": token_hash(token)}).first()
        if found is None:
            raise LinkInvalid(N_("This link is no longer valid."))
        game_id, role, person_id, name, claimed_at = found
        if role != "organizer" and claimed_at is None:
            # A seat's ticket reads nothing by itself: it is claimed first (`POST /api/v1/claim`),
            # which hands the seat's own key to whoever claims it, once.
            raise NotSignedIn(
                N_("This link is a seat's ticket: claim the seat first (POST /api/v1/claim).")
            )
        return game_id, Viewer(role, person_id, name)

    def person_by_code(self, code: str) -> Person:
        with self.store.db.read() as s:
            person = s.exec(select(Person).where(Person.code_hash == code_hash(code))).first()
        if person is None or person.revoked:
            raise LinkInvalid(N_("This code is not valid."), field="code")
        return person

    def viewer(self, game_id: str, person_id: int, version: int) -> Viewer | None:
        """The viewer a session names, if the person still holds that version of their link."""
        with self.store.db.read() as s:
            person = s.get(Person, person_id)
        if person is None or person.game_id != game_id or person.revoked:
            return None
        if person.version != version:
            return None
        if person.role != "organizer" and person.claimed_at is None:
            return None  # a seat no phone took: no session holds it (one from before seats)
        return Viewer(person.role, person.id, person.name)

    def links_held(self, game_id: str, person_ids: set[int]) -> dict[int, int]:
        """The version of the link each of these people holds, for those whose link still opens
        the game (a revoked one is left out): who may still be shown their part."""
        if not person_ids:
            return {}
        with self.store.db.read_rows() as rows:
            held = rows.execute(LINKS_HELD, {"game_id": game_id})
            return {person_id: version for person_id, version in held if person_id in person_ids}

    def people(self, game_id: str) -> list[Person]:
        with self.store.db.read() as s:
            return list(
                s.exec(select(Person).where(Person.game_id == game_id).order_by(col(Person.id)))
            )

    def person(self, game_id: str, person_id: int) -> Person:
        with self.store.db.read() as s:
            person = s.get(Person, person_id)
        if person is None or person.game_id != game_id:
            raise NotFound(N_("No such person in this game."))
        return person

    def people_in(self, s: Session, game_id: str) -> list[Person]:
        return list(
            s.exec(select(Person).where(Person.game_id == game_id).order_by(col(Person.id)))
        )

    def undo_actor(self, game_id: str) -> int | None:
        """Who made the action an undo would take back now (None: nobody, or the clock)."""
        with self.store.db.read_rows() as rows:
            found = rows.execute(UNDO_ACTOR, {"game_id": game_id}).first()
        return found[0] if found is not None else None

    def last_undoable(self, game_id: str, viewer: Viewer | None = None) -> tuple[int, Msg] | None:
        """The action an undo would take back now, as `viewer` may undo it (`may_undo`)."""
        with self.store.db.read() as s:
            target = self.store.undo_target(s, game_id)
        if target is None or (viewer is not None and not may_undo(viewer, target.actor_id)):
            return None
        return (target.seq, Msg.from_json(target.label))

    def log(
        self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> list[dict[str, Any]]:
        """The journal as `viewer` may read it, the events after `after` (up to `upto`)."""
        loaded = self.load(game_id)
        with self.store.db.read() as s:
            events = self.store.events(s, game_id, after=after, upto=upto)
        over = loaded.game.status == "finished"
        shown = []
        for event in events:
            view = log_entry(loaded.kind, logged(event, over=over), viewer)
            if view is not None:
                shown.append(view)
        return shown

    def step_lines(
        self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> dict[int, Msg | str]:
        """A replay's actions said for `viewer`, by sequence number: as their journal says them,
        else as the public may know them once the game is over (`GameKind.replay_line`)."""
        loaded = self.load(game_id)
        with self.store.db.read() as s:
            events = self.store.events(s, game_id, after=after, upto=upto)
        over = loaded.game.status == "finished"
        lines: dict[int, Msg | str] = {}
        for event in events:
            if event.type not in ("command", "undo"):
                continue
            read = logged(event, over=over)
            entry = log_entry(loaded.kind, read, viewer)
            said = entry.get("summary") if entry else None
            lines[event.seq] = said or loaded.kind.replay_line(read, loaded.state)
        return lines

    def recent_summaries(self, game_id: str, limit: int = 5) -> list[Recent]:
        """The latest actions' sentences, for staff screens."""
        with self.store.db.read() as s:
            events = s.exec(
                select(Event)
                .where(Event.game_id == game_id, col(Event.type).in_(("command", "undo")))
                .order_by(col(Event.seq).desc())
                .limit(limit)
            ).all()
        return [Recent(e.seq, Msg.from_json(e.summary), e.undone_by is not None) for e in events]
