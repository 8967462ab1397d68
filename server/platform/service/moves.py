"""A game moved between servers: exported as its reader may know it, imported as a creation plus a
replay that passes the guards of a live action (`server.platform.moving` says what the file holds
and what is renamed on the way; `server.platform.sealing` how a game in progress moves sealed).

An import takes the write lock twice, briefly: to reserve the games and the people (their
numbers), then to write what the replay made, in one batch. The replay runs between the two,
holding no lock, so a big or bad file never makes another game's action wait."""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session, col, delete, select

from server.errors import ArbitreError, InvalidInput, NotAllowed, NotFound
from server.i18n import N_, Msg
from server.migrate import revisions
from server.models import Event, Game, Person, Ticket
from server.platform.access import new_nonce
from server.platform.consent import (
    TOLD,
    UNDO,
    Proposal,
    Status,
    agreed_summary,
    alone_undoes,
    applies,
    moved_on,
    proposed,
    refused,
    stored,
    trial,
    undo_of,
)
from server.platform.dice import RecordedDice, ReplayDiverged, held_after_undo, take_held
from server.platform.idempotency import AlreadyCreated
from server.platform.kinds import (
    KINDS,
    SYSTEM,
    Context,
    GameKind,
    PersonInfo,
    Viewer,
    logged,
    record_readable,
)
from server.platform.moving import (
    FORMAT,
    GameFile,
    ImportLimits,
    MovedEvent,
    MovedGame,
    Renaming,
    read_game_file,
    read_replay,
)
from server.platform.refs import refs_of, renumbered
from server.platform.sealing import (
    TICKET_HOURS,
    NewTicket,
    new_ticket,
    open_sealed,
    read_ticket,
    seal,
    server_key,
    signer,
    witness,
)
from server.platform.service.actions import parsed
from server.platform.service.inputs import invalid_from
from server.platform.service.linked import Linked
from server.platform.service.people import Registered, joined, link_changed
from server.platform.service.store import SNAPSHOT_EVERY, dumped, make_idem

# What a crafted or damaged log may raise while the rules replay it.
_BROKEN = (
    ArbitreError,
    ReplayDiverged,
    ValidationError,
    KeyError,
    ValueError,
    TypeError,
    IndexError,
    AssertionError,
)
IMPORTING = "importing"  # a reserved game's status until its replay is written
STALE_RESERVATION = timedelta(minutes=10)
WRITE_BATCH = 1000  # a moved log's rows written under one hold of the write lock  # a reservation a crash left behind, swept after


class Damaged(InvalidInput):
    """A game file that does not replay; said with the game and the entry."""


def _damaged(game: MovedGame, seq: int | str, problem: str | Msg) -> Damaged:
    return Damaged(
        N_("“{name}” does not replay at entry {seq} ({problem}): nothing was imported."),
        field="file",
        name=game.name,
        seq=seq,
        problem=problem,
    )


@dataclass
class _Replayed:
    """One game rebuilt on this server: its rows, its people's final access, and the states kept
    on the way (every MOVED_SNAPSHOTS entries) to replay an undo from."""

    game: Game
    events: list[Event] = field(default_factory=list)
    revoked: dict[int, bool] = field(default_factory=dict)
    people: dict[int, tuple[str, str]] = field(default_factory=dict)  # role and name
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    before: dict[int, BaseModel] = field(default_factory=dict)  # the state before a command
    active: list[Event] = field(default_factory=list)  # commands not undone, in order
    person_rows: list[Event] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # dice held by undo, as the game's
    in_play: Counter[str] = field(default_factory=Counter)  # people of each role, links alive
    snapshotted: list[Event] = field(default_factory=list)  # rows that keep a snapshot
    proposals: list[Proposal] = field(default_factory=list)  # waiting for the other side

    def snapshot(self, row: Event, state: BaseModel) -> None:
        """The state after `row`, kept with it every SNAPSHOT_EVERY entries, as the live service
        keeps them."""
        if row.seq % SNAPSHOT_EVERY == 0:
            row.snapshot = state.model_dump(mode="json")
            self.snapshotted.append(row)


@dataclass(frozen=True)
class _Reservation:
    """The games and people an import reserved: their new numbers, by their old ones."""

    renaming: Renaming
    people: dict[str, list[Person]]


# An undo replays from the state before the action it undoes, kept for the latest commands, or
# from a snapshot taken every MOVED_SNAPSHOTS entries.
KEPT_BEFORE = 2048
MOVED_SNAPSHOTS = 20


Join = tuple[int, MovedGame, MovedEvent]
REJOINS = 4  # people of a role a file may hold: its room, times this (those who left included)


def _joins(games: Sequence[MovedGame]) -> list[Join]:
    """Everyone who joined any of the games, by their old number, checked: a number, a role and
    a name each, nobody twice, one organizer a game."""
    joins: list[Join] = []
    for g in games:
        organizers = 0
        for e in g.events:
            if e.type != "person":
                continue
            old, role, name = e.command.get("id"), e.command.get("role"), e.command.get("name")
            if not isinstance(old, int) or isinstance(old, bool):
                raise _damaged(g, e.seq, Msg(N_("a person without a number")))
            if not isinstance(role, str) or not isinstance(name, str) or not 0 < len(name) <= 80:
                raise _damaged(g, e.seq, Msg(N_("a person without a role or a name")))
            organizers += role == "organizer"
            joins.append((old, g, e))
        if organizers != 1:
            raise _damaged(
                g, "-", Msg(N_("a game has one organizer, not {count}"), {"count": organizers})
            )
        # Before anything is reserved: no more people of a role than the kind holds, counting
        # those who left and came back (`REJOINS` times its room) (an outside attack's file of
        # 50,000 referees held the write lock 14 s reserving them).
        kind = KINDS[g.kind]
        roles = Counter(str(e.command.get("role")) for e in g.events if e.type == "person")
        for role, count in roles.items():
            if role != "organizer" and count > REJOINS * kind.people_limit(role):
                raise InvalidInput(
                    N_("This game has no room for another {role}: {count} at most."),
                    field="file",
                    role=Msg(kind.role_title(role)),
                    count=kind.people_limit(role),
                )
    if len({old for old, _, _ in joins}) != len(joins):
        raise _damaged(games[0], "-", Msg(N_("a person who joined twice")))
    return joins


class Moves(Linked):
    # ------------------------------------------------------------------------------ export

    def export_game(
        self, game_id: str, reader: Viewer, *, ticket: str | None = None
    ) -> dict[str, Any]:
        """The game and the games it opened, as its reader may know them (`records`: their view
        and their journal), and what replays them: in clear when the reader may know all of it
        (`kinds.record_readable`), sealed to another server's import ticket when one is given,
        else not at all (the file is then a record to read). Only the organizer takes it (the
        server's runner, `SYSTEM`, on the command line); never a token."""
        sealed_to = read_ticket(ticket, self.trusted) if ticket else None
        now = self.clock.now()
        family = self._family(game_id, reader)
        moved = [self._moved(g, events) for g, events, _ in family]
        records = [
            self._record(KINDS[g.kind], g, events, viewer, now) for g, events, viewer in family
        ]
        readable = self._readable(family)
        body: dict[str, Any] = {
            "arbitre": "game",
            "format": FORMAT,
            "schema": revisions()[-1],
            "exported_at": now.isoformat(),
            "records": records,
        }
        replay = [m.model_dump(mode="json") for m in moved]
        if sealed_to is not None:
            body["sealed"] = {"ticket": sealed_to[0], "box": seal(sealed_to[1], replay)}
        elif readable:
            body["replay"] = replay
        if "sealed" in body or "replay" in body:
            body["witness"] = witness(self.secret, replay)
        return body

    def exports_in_clear(self, game_id: str, reader: Viewer) -> bool:
        """Whether this reader's file of the game holds what replays it (else a record to read,
        unless sealed for another server)."""
        return self._readable(self._family(game_id, reader))

    def _family(self, game_id: str, reader: Viewer) -> list[tuple[Game, list[Event], Viewer]]:
        """The game and the games it opened, each with its log and its reader: the organizer of
        each (who exported the first), or the server's runner."""
        if reader is not SYSTEM and not reader.is_organizer:
            raise NotAllowed(N_("Only the organizer exports the whole game."))
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None or game.status == IMPORTING:
                raise NotFound(N_("No such game."))
            games = [game, *self._opened_by(s, game_id)]
            return [
                (
                    g,
                    list(self._events(s, g.id)),
                    reader if reader is SYSTEM else self._organizer_viewer(s, g),
                )
                for g in games
            ]

    @staticmethod
    def _readable(family: list[tuple[Game, list[Event], Viewer]]) -> bool:
        return all(
            record_readable(
                KINDS[g.kind],
                KINDS[g.kind].state_model.model_validate(g.state),
                [e.rolls for e in events],
                viewer,
            )
            for g, events, viewer in family
        )

    def _organizer_viewer(self, s: Session, game: Game) -> Viewer:
        person = self._organizer(s, game)
        return Viewer(person.role, person.id, person.name)

    @staticmethod
    def _record(
        kind: GameKind[Any], game: Game, events: Sequence[Event], viewer: Viewer, now: datetime
    ) -> dict[str, Any]:
        """The game as this reader may know it: their view, and their journal (the kind's
        projections, as their pages show them)."""
        state = kind.state_model.model_validate(game.state)
        reader = viewer if viewer is not SYSTEM else Viewer("organizer", None, "Arbitre")
        over = game.status == "finished"
        entries = (kind.log_entry(logged(event, over=over), reader) for event in events)
        journal = [e for e in entries if e]
        return {
            "id": game.id,
            "kind": game.kind,
            "name": game.name,
            "status": game.status,
            "view": kind.view(state, reader, now),
            "log": journal,
        }

    def _opened_by(self, s: Session, game_id: str) -> list[Game]:
        children = list(
            s.exec(
                select(Game)
                .where(Game.settings["parent"].as_string() == game_id)
                .order_by(col(Game.created_at))
            )
        )
        return [g for child in children for g in (child, *self._opened_by(s, child.id))]

    @staticmethod
    def _moved(game: Game, events: Sequence[Event]) -> MovedGame:
        settings = {k: v for k, v in game.settings.items() if k != "invite"}
        return MovedGame(
            id=game.id,
            kind=game.kind,
            name=game.name,
            created_at=game.created_at,
            settings=settings,
            state=game.state,
            events=[
                MovedEvent.model_validate(e, from_attributes=True).model_copy(
                    update={"agreed_by": e.result.get("agreed_by")}
                )
                for e in events
            ],
        )

    # ------------------------------------------------------------------------------ tickets

    def new_ticket(self) -> NewTicket:
        """A key pair for one game to come in sealed: its public half goes to the source."""
        made = new_ticket(self.secret)
        now = self.clock.now()
        with self.db.write() as s:
            # A ticket past its day opens nothing: its row goes (it is kept a day more, so a late
            # file hears "more than a day old", not "another server").
            expired = now - timedelta(hours=2 * TICKET_HOURS)
            s.exec(delete(Ticket).where(col(Ticket.created_at) < expired))
            s.add(
                Ticket(
                    id=made.id,
                    public_key=made.public_key,
                    private_key=made.private_key,
                    created_at=now,
                )
            )
        return made

    def _unsealed(self, file: GameFile, limits: ImportLimits) -> list[MovedGame]:
        """What replays the file's games: in clear, or opened with this server's ticket."""
        if file.sealed is None:
            if file.replay is None:
                raise InvalidInput(
                    N_(
                        "This file is a record of the game as its organizer may read it: it holds "
                        "secrets they may not, so it cannot be played on. To move the game, make "
                        "an import ticket on this server and save the file with it."
                    ),
                    field="file",
                )
            return file.replay
        with self.db.read() as s:
            ticket = s.get(Ticket, file.sealed.ticket)
        self._check_ticket(ticket)
        assert ticket is not None
        return read_replay(open_sealed(self.secret, ticket.private_key, file.sealed.box), limits)

    def _check_ticket(self, ticket: Ticket | None) -> None:
        if ticket is None:
            raise InvalidInput(
                N_("This file was sealed for another server: import it there."), field="file"
            )
        if ticket.used_at is not None:
            raise InvalidInput(
                N_("This file's import ticket was used already: make a new one."), field="file"
            )
        if self.clock.now() - ticket.created_at > timedelta(hours=TICKET_HOURS):
            raise InvalidInput(
                N_("This file's import ticket is more than a day old: make a new one."),
                field="file",
            )

    # ------------------------------------------------------------------------------ import

    def import_game(
        self,
        text: str,
        *,
        caller: str,
        idem_key: str,
        limits: ImportLimits | None = None,
    ) -> tuple[Game, Registered]:
        """Creates the games of a file, their people with fresh links, and their logs replayed
        on this server's rules through a live action's guards (who may send what, as whom, the
        dice's owners and faces) and checked against the states they were exported with;
        nothing is created unless all of it holds. Returns the first game and its organizer,
        whose link goes to the one who imported it. A retry with the same key and file creates
        nothing more. Dice of a file this server did not write show as "from a file"."""
        limits = limits or ImportLimits()
        file = read_game_file(text, revisions(), limits)
        games = self._unsealed(file, limits)
        signed_by = signer(
            [g.model_dump(mode="json") for g in games],
            file.witness.model_dump() if file.witness else None,
        )
        from_file = signed_by != server_key(self.secret)
        claimed_key = file.witness.by if file.witness else ""
        self._check_games(games)
        if signed_by not in self.trusted:  # before any work
            rolls = [[e.rolls for e in g.events] for g in games]
            self._check_unsigned(games, [g.state for g in games], rolls, claimed_key)
        joins = _joins(games)
        digest = hashlib.sha256(text.encode()).hexdigest()
        idem = make_idem(caller, idem_key, "import", {"file": digest})
        texts = {p for g in games for p in KINDS[g.kind].person_texts}
        reserved = self._reserve(games, joins, idem, texts)
        if not isinstance(reserved, _Reservation):
            return reserved  # the first try's game
        renaming, people = reserved.renaming, reserved.people
        try:
            replayed = [self._replay(g, renaming, people[g.id], from_file, games) for g in games]
            if signed_by not in self.trusted:
                states = [r.game.state for r in replayed]
                rolls = [[e.rolls for e in r.events] for r in replayed]
                self._check_unsigned(games, states, rolls, claimed_key)
            return self._write(games, replayed, people, renaming, file)
        except BaseException:
            self._release(list(renaming.games.values()))
            raise

    @staticmethod
    def _check_unsigned(
        games: list[MovedGame], states: list[dict[str, Any]], rolls: list[list[list[Any]]], key: str
    ) -> None:
        """A file no server this one trusts wrote: each of its games must be one its organizer
        may read whole (a finished game, a Serial Battle with no card dealt face down...), or
        anyone could bring in a deal they chose, or read one they sealed to a key of their own.
        Asked of the states the file claims before any replay, then of the states replayed."""
        for g, state, dice in zip(games, states, rolls, strict=True):
            kind = KINDS[g.kind]
            try:
                model = kind.state_model.model_validate(state)
            except ValidationError:
                continue  # a damaged state: the replay says where
            organizer = next(
                (e.command.get("name") for e in g.events if e.command.get("role") == "organizer"),
                "",
            )
            reader = Viewer("organizer", None, str(organizer))
            if not record_readable(kind, model, dice, reader):
                raise InvalidInput(
                    N_(
                        "“{name}” holds what its organizer may not read (hands, a deck's order, "
                        "secret dice): it comes in only from a server this one trusts, sealed "
                        "with an import ticket or saved by that server's runner "
                        "(TRUSTED_SERVERS; this file's server: {key})."
                    ),
                    field="file",
                    name=g.name,
                    key=key or "-",
                )

    def _check_games(self, games: list[MovedGame]) -> None:
        """Known kinds, each game once, and a game only another opens (a league's match) with
        the game that opened it."""
        for g in games:
            if g.kind not in KINDS:
                raise InvalidInput(N_("Unknown game: “{kind}”."), field="file", kind=g.kind)
        ids = {g.id for g in games}
        if len(ids) != len(games):
            raise _damaged(games[0], "-", Msg(N_("a game twice")))
        for g in games:
            parent = g.settings.get("parent")
            if not KINDS[g.kind].standalone and (parent not in ids or parent == g.id):
                raise InvalidInput(
                    N_("“{name}” is opened by another game only: bring that game's file."),
                    field="file",
                    name=g.name,
                )
            if parent is not None and parent not in ids:
                raise _damaged(g, "-", Msg(N_("the game that opened it is not in the file")))

    def _reserve(
        self, games: list[MovedGame], joins: list[Join], idem: Any, texts: set[str]
    ) -> tuple[Game, Registered] | _Reservation:
        """The write lock, briefly: the games' rows (not shown until written) and their people's
        (numbered by this server, in the order of their old numbers), or the game a first try
        of the same request created."""
        now = self.clock.now()
        with self.db.write() as s:
            self._sweep(s)
            existing = self._created(s, idem)
            if existing is not None:
                if existing.status == IMPORTING:
                    raise AlreadyCreated(N_("This game is being imported: try again in a moment."))
                return existing, Registered(self._organizer(s, existing), self._link(s, existing))
            renaming = Renaming({}, {g.id: self._free_id(s) for g in games}, texts)
            for g in games:
                s.add(
                    Game(
                        id=renaming.games[g.id],
                        kind=g.kind,
                        name=g.name,
                        created_at=g.created_at,
                        status=IMPORTING,
                        settings={"importing": now.isoformat()},
                        creation_key=idem.stored if g is games[0] else None,
                        creation_fingerprint=idem.fingerprint if g is games[0] else None,
                    )
                )
            s.flush()  # each game a row first: people belong to one
            people: dict[str, list[Person]] = {g.id: [] for g in games}
            for old, g, e in sorted(joins, key=lambda join: join[0]):
                person = Person(
                    game_id=renaming.games[g.id],
                    role=e.command["role"],
                    name=e.command["name"],
                    nonce=new_nonce(),
                    created_at=e.at,
                    revoked=True,  # no link opens until the game is written
                )
                s.add(person)
                s.flush()
                assert person.id is not None
                renaming.people[old] = person.id
                people[g.id].append(person)
            for ps in people.values():
                for person in ps:
                    s.expunge(person)
        return _Reservation(renaming, people)

    def _sweep(self, s: Session) -> None:
        """Reservations a crash left behind (a process killed mid-import) are taken away."""
        cutoff = self.clock.now() - STALE_RESERVATION
        stale = [
            g.id
            for g in s.exec(select(Game).where(Game.status == IMPORTING))
            if str(g.settings.get("importing", "")) < cutoff.isoformat()
        ]
        self._delete_games(s, stale)

    def _release(self, game_ids: list[str]) -> None:
        with self.db.write() as s:
            self._delete_games(s, game_ids)

    @staticmethod
    def _delete_games(s: Session, game_ids: list[str]) -> None:
        if not game_ids:
            return
        s.exec(delete(Event).where(col(Event.game_id).in_(game_ids)))
        s.exec(delete(Person).where(col(Person.game_id).in_(game_ids)))
        s.exec(delete(Game).where(col(Game.id).in_(game_ids)))

    def _write(
        self,
        games: list[MovedGame],
        replayed: list[_Replayed],
        people: dict[str, list[Person]],
        renaming: Renaming,
        file: GameFile,
    ) -> tuple[Game, Registered]:
        """The write lock again, briefly each time: the log's rows in bounded batches (the
        games still hidden while they are importing), then the games, their people and the
        ticket used, in one batch."""
        rows = [e for r in replayed for e in r.events]
        for start in range(0, len(rows), WRITE_BATCH):
            with self.db.write() as s:
                s.add_all(rows[start : start + WRITE_BATCH])
        with self.db.write() as s:
            if file.sealed is not None:
                ticket = s.get(Ticket, file.sealed.ticket)
                self._check_ticket(ticket)
                assert ticket is not None
                ticket.used_at = self.clock.now()
                s.add(ticket)
            for r in replayed:
                row = s.get(Game, r.game.id)
                assert row is not None
                for name in (
                    "settings",
                    "state",
                    "seq",
                    "status",
                    "next_deadline",
                    "held_dice",
                    "proposals",
                ):
                    setattr(row, name, getattr(r.game, name))
                s.add(row)
            persons = {}
            for ps in people.values():
                for p in ps:
                    person = s.get(Person, p.id)
                    assert person is not None
                    persons[person.id] = person
            for r in replayed:
                for person_id, revoked in r.revoked.items():
                    persons[person_id].revoked = revoked
                    self._set_link(persons[person_id])
            s.add_all(persons.values())
            top = s.get(Game, renaming.games[games[0].id])
            assert top is not None
            organizer = next(
                (persons[p.id] for p in people[games[0].id] if p.role == "organizer"), None
            )
            if organizer is None or organizer.revoked:
                raise _damaged(games[0], "-", Msg(N_("nobody organizes it")))
            return top, Registered(organizer, self.link_of(organizer))

    def _free_id(self, s: Session) -> str:
        while True:
            new = secrets.token_urlsafe(9)
            if s.get(Game, new) is None:
                return new

    # ------------------------------------------------------------------------------ replay

    def _replay(
        self,
        g: MovedGame,
        renaming: Renaming,
        people: list[Person],
        from_file: bool,
        games: list[MovedGame],
    ) -> _Replayed:
        """The game's log applied again, entry by entry, as this server's service would have
        applied it as a live action: the same guards, summaries, results and subjects, under the
        new names."""
        kind = KINDS[g.kind]
        game = Game(id=renaming.games[g.id], kind=g.kind, name=g.name, created_at=g.created_at)
        settings = renaming.platform_settings(g.settings)
        try:
            kind_settings = kind.settings_model.model_validate(
                renaming.texts_in(settings.get("kind", {}))
            )
        except ValidationError as error:
            raise _damaged(g, 0, invalid_from(error).msg) from None
        settings["kind"] = kind_settings.model_dump(mode="json")
        game.settings = settings
        replayed = _Replayed(game)
        roles = {"organizer", *kind.roles, *(("referee",) if kind.allows_referees else ())}
        for p in people:
            if p.role not in roles:
                raise _damaged(
                    g, "-", Msg(N_("a role this game does not have: “{role}”"), {"role": p.role})
                )
        guard = _Guard(
            kind=kind,
            mine={p.id for p in people},
            physical=settings.get("dice") == "physical",
            from_file=from_file,
            opens=any(o.settings.get("parent") == g.id for o in games),
        )
        state: BaseModel = kind.new_state(kind_settings)
        for number, e in enumerate(g.events, start=1):
            if e.seq != number:
                raise _damaged(g, e.seq, Msg(N_("entries out of order")))
            try:
                state = self._entry(guard, game, replayed, e, renaming, state)
            except Damaged:
                raise
            except ValidationError as error:
                raise _damaged(g, e.seq, invalid_from(error).msg) from None
            except ArbitreError as error:
                raise _damaged(g, e.seq, error.msg) from None
            except _BROKEN:
                raise _damaged(g, e.seq, Msg(N_("the rules do not play it so"))) from None
        after = state.model_dump(mode="json")
        where = renaming.difference(g.state, after)
        if where is not None:
            raise InvalidInput(
                N_(
                    "“{name}” does not give back its exported state (at {where}): nothing was "
                    "imported."
                ),
                field="file",
                name=g.name,
                where=where[:120],
            )
        game.state, game.seq = after, len(g.events)
        game.held_dice = replayed.held or None
        game.proposals = stored(replayed.proposals)
        game.status, game.next_deadline = kind.status(state), kind.next_deadline(state)
        return replayed

    def _entry(
        self,
        guard: _Guard,
        game: Game,
        replayed: _Replayed,
        e: MovedEvent,
        renaming: Renaming,
        state: BaseModel,
    ) -> BaseModel:
        """One entry of the log: its event row added to `replayed`, the state after it returned."""
        kind = guard.kind
        actor = guard.actor(e, renaming, replayed)
        row = Event(
            game_id=game.id,
            seq=e.seq,
            type=e.type,
            at=e.at,
            actor_id=actor.person_id,
            actor_role=e.actor_role,
            actor_name=e.actor_name,
        )
        if e.type in ("person", "access"):
            state = self._people_entry(guard, replayed, e, renaming, row, actor, state)
        elif e.type == "proposal":
            self._proposal_entry(guard, replayed, e, renaming, row, actor, state)
        elif e.type == "consent":
            self._refusal_entry(guard, replayed, e, row, actor, state)
        elif e.type == "command":
            command = guard.admitted(actor, renaming, e.command)
            self._check_names(kind, state, command, guard.mine)
            side = kind.consent_of(state, command, actor)
            agreed = None
            if side is not None:  # sent on another side's pieces: that side agreed
                agreed = self._agreed(guard, replayed, e, renaming, actor, dumped(command), state)
            dice = RecordedDice(
                renaming.rolls(e.rolls),
                may_enter=kind.may_enter_dice(state, actor, guard.physical),
                physical_only=guard.physical,
                from_file=guard.from_file,
            )
            label = kind.label(command, state)
            row.subjects = kind.subjects(state, command, actor)
            before = state
            outcome = kind.apply(state, command, Context(actor, dice, e.at))
            if dice.pending:
                raise ReplayDiverged("dice left over")
            self._roll_again(replayed, dice.rolls)
            state = outcome.state
            row.command, row.rolls, row.result = dumped(command), dice.rolls, dict(outcome.result)
            row.summary, row.label = outcome.summary.to_json(), label.to_json()
            if agreed is not None:
                row.result["agreed_by"] = agreed.person_id
                row.summary = agreed_summary(outcome.summary, agreed).to_json()
            replayed.before[e.seq] = before
            replayed.active.append(row)
            guard.move_on(replayed, state, e.at)
            if len(replayed.before) > KEPT_BEFORE:
                del replayed.before[next(iter(replayed.before))]
            if e.seq % MOVED_SNAPSHOTS == 0:
                replayed.snapshots[e.seq] = state.model_dump(mode="json")
        else:
            state = self._undo_entry(guard, game, replayed, e, row, actor, renaming, state)
            guard.move_on(replayed, state, e.at)
            return state
        replayed.events.append(row)
        replayed.snapshot(row, state)
        return state

    def _proposal_entry(
        self,
        guard: _Guard,
        replayed: _Replayed,
        e: MovedEvent,
        renaming: Renaming,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> None:
        """A proposal, as the live service makes one: by a side's member, of a command on
        another side's pieces the rules accept now, or of an undo that needs consent."""
        kind = guard.kind
        if actor.is_staff or actor.person_id is None:
            raise NotAllowed(N_("Only a side proposes."))
        if e.command.get("type") == UNDO:
            target = replayed.active[-1] if replayed.active else None
            if target is None or target.seq != e.command.get("seq"):
                raise KeyError("an undo of what was not the last action")
            side = guard.undo_consent(replayed, state, actor, target)
            what = undo_of(target)
            command: dict[str, Any] = {"type": UNDO, "seq": target.seq}
        else:
            parsed_command = guard.admitted(actor, renaming, e.command)
            self._check_names(kind, state, parsed_command, guard.mine)
            side = kind.consent_of(state, parsed_command, actor)
            what = trial(kind, state, parsed_command, actor, e.at)
            command = dumped(parsed_command)
        if side is None:
            raise KeyError("a proposal of what needs nobody's consent")
        row.command, row.result, row.subjects = command, {"side": side}, []
        row.summary = proposed(actor, what).to_json()
        row.label = what.to_json()
        replayed.proposals = [  # as `Actions._propose`: the proposer's notices give way
            p for p in replayed.proposals if p.status == "open" or p.proposer != actor.person_id
        ]
        replayed.proposals.append(
            Proposal(
                id=e.seq,
                side=side,
                proposer=actor.person_id,
                proposer_role=actor.role,
                proposer_name=actor.name,
                command=command,
                what=what.to_json(),
                moment=kind.moment(state),
            )
        )

    def _refusal_entry(
        self,
        guard: _Guard,
        replayed: _Replayed,
        e: MovedEvent,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> None:
        """A proposal refused by the side it was made to, or withdrawn by its proposer."""
        proposal = guard.open_proposal(replayed, e.command.get("proposal"), state)
        withdrawn = proposal.proposer == actor.person_id
        if not withdrawn and guard.kind.side_of(state, actor) != proposal.side:
            raise NotAllowed(N_("Only the other side answers this proposal."))
        guard.ended(replayed, proposal, "withdrawn" if withdrawn else "refused", actor, state)
        proposer = Viewer(proposal.proposer_role, proposal.proposer, proposal.proposer_name)
        row.command = {"type": "refuse", "proposal": proposal.id}
        row.result, row.subjects = {"proposal": proposal.id, "accepted": False}, []
        row.summary = refused(actor, proposer, Msg.from_json(proposal.what), withdrawn).to_json()
        row.label = proposal.what
        replayed.events.append(row)

    def _agreed(
        self,
        guard: _Guard,
        replayed: _Replayed,
        e: MovedEvent,
        renaming: Renaming,
        actor: Viewer,
        command: dict[str, Any],
        state: BaseModel,
    ) -> Viewer:
        """Who agreed to a command that needed consent: a member of the side it was proposed
        to, to this very command, proposed by its sender at this moment of the game."""
        person = renaming.people.get(e.agreed_by) if e.agreed_by is not None else None
        known = replayed.people.get(person) if person is not None else None
        if person is None or known is None or replayed.revoked.get(person, True):
            raise NotAllowed(N_("Only the other side answers this proposal."))
        agreed = Viewer(known[0], person, known[1])
        proposal = next(
            (
                p
                for p in replayed.proposals
                if p.status == "open" and p.proposer == actor.person_id and p.command == command
            ),
            None,
        )
        if proposal is None or guard.kind.moment(state) != proposal.moment:
            raise KeyError("a command on another side's pieces nobody agreed to")
        if guard.kind.side_of(state, agreed) != proposal.side:
            raise NotAllowed(N_("Only the other side answers this proposal."))
        guard.ended(replayed, proposal, "accepted", agreed, state)
        return agreed

    def _people_entry(
        self,
        guard: _Guard,
        replayed: _Replayed,
        e: MovedEvent,
        renaming: Renaming,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> BaseModel:
        """Someone joined, or their link was revoked or re-issued, within the kind's room."""
        kind = guard.kind
        c = e.command
        person = renaming.people[c["id"]]
        if person not in guard.mine:
            raise KeyError("a person of another game")
        # Older logs said only the number in a link's entry: the person is the one who joined.
        known = replayed.people.get(person)
        role, name = c.get("role", known and known[0]), c.get("name", known and known[1])
        if not isinstance(role, str) or not isinstance(name, str):
            raise KeyError("a person without a role or a name")
        info = PersonInfo(person, role, name)
        linked = "parent" in (replayed.game.settings or {})
        guard.may_change_people(actor, e, role, linked, person)
        row.command = {**c, "id": person, "role": role, "name": name}
        if e.type == "access":
            row.command["was_revoked"] = replayed.revoked.get(person, False)
        if e.type == "person":
            guard.room(replayed, role, +1)
            state = kind.add_person(state, info)
            replayed.revoked[person] = False
            replayed.people[person] = (role, name)
            row.summary = row.label = joined(kind, info.role, info.name).to_json()
        else:
            revoke = c["type"] == "link.revoke"
            if revoke and not replayed.revoked[person]:
                guard.room(replayed, role, -1)
                state = kind.remove_person(state, info)
            elif not revoke and replayed.revoked[person]:
                guard.room(replayed, role, +1)
                state = kind.add_person(state, info)
            replayed.revoked[person] = revoke
            row.summary = row.label = link_changed(info.name, revoke=revoke).to_json()
        row.subjects = []
        replayed.person_rows.append(row)
        replayed.events.append(row)
        return state

    def _undo_entry(
        self,
        guard: _Guard,
        game: Game,
        replayed: _Replayed,
        e: MovedEvent,
        row: Event,
        actor: Viewer,
        renaming: Renaming,
        state: BaseModel,
    ) -> BaseModel:
        """An undo: the last action not undone, replayed without it, as the service does; by
        the staff (a referee their own actions only), or by a side's member: their own last
        action while nobody else acted since, else with the other side's consent."""
        target = replayed.active[-1] if replayed.active else None
        if target is None or target.seq != e.command.get("seq"):
            raise KeyError("an undo of what was not the last action")
        agreed = None
        if actor.is_staff:
            if not actor.is_organizer and target.actor_id not in (None, actor.person_id):
                raise NotAllowed(N_("Only referees undo actions."))
        elif not guard.kind.consent_commands or actor.person_id is None:
            raise NotAllowed(N_("Only referees undo actions."))
        elif guard.undo_consent(replayed, state, actor, target) is not None:
            command = {"type": UNDO, "seq": target.seq}
            agreed = self._agreed(guard, replayed, e, renaming, actor, command, state)
        row.command, row.undoes = {"type": "undo", "seq": target.seq}, target.seq
        target.undone_by = e.seq
        replayed.active.pop()
        replayed.held = held_after_undo(replayed.held, target.rolls)
        row.subjects = target.subjects
        summary = Msg(N_("Undone: {label}"), {"label": Msg.from_json(target.label)})
        row.summary = row.label = summary.to_json()
        if agreed is not None:
            row.result = {"agreed_by": agreed.person_id}
            row.summary = row.label = agreed_summary(summary, agreed).to_json()
        replayed.events.append(row)
        # The snapshots after the target hold what is undone.
        while replayed.snapshotted and replayed.snapshotted[-1].seq >= target.seq:
            replayed.snapshotted.pop().snapshot = None
        # From the state just before the target when it is kept (the rules never change their
        # input), else from the last snapshot before it (those after it hold what is undone):
        # a log of many undos replays in a time that follows its length, not its square.
        for seq in [k for k in replayed.snapshots if k >= target.seq]:
            del replayed.snapshots[seq]
        kind = KINDS[game.kind]
        kept_state = replayed.before.pop(target.seq, None)
        if kept_state is not None:  # only people may have come since: add them back
            later = [p for p in replayed.person_rows if p.seq > target.seq]
            state = kept_state.model_copy(deep=True) if later else kept_state
            for entry in later:
                state = self._person_entry(kind, state, entry)
            replayed.snapshot(row, state)
            return state
        start = max(replayed.snapshots, default=0)
        snapshot = replayed.snapshots.get(start)
        if snapshot is None:
            state = self.rebuild(game, replayed.events)
        else:
            held = Event(
                game_id=game.id, seq=start, type="command", actor_role="system", snapshot=snapshot
            )
            state = self.rebuild(game, replayed.events, start=held)
        replayed.snapshot(row, state)
        return state

    @staticmethod
    def _roll_again(replayed: _Replayed, rolls: list[dict[str, Any]]) -> None:
        """A die the server rolled takes the held die of its purpose, as the live service does
        (undo never re-rolls): a file whose action, done again after its undo, rolled otherwise
        was not played here."""
        for roll in rolls:
            if roll.get("manual"):
                continue
            held = take_held(replayed.held, roll["sides"], roll["purpose"])
            if held is not None and held["value"] != roll["value"]:
                raise KeyError("a die rolled again otherwise after its action was undone")

    @staticmethod
    def _person_entry(kind: GameKind[Any], state: BaseModel, event: Event) -> BaseModel:
        """A person's entry replayed as `rebuild` does (joined, or a link revoked or re-issued)."""
        c = event.command
        info = PersonInfo(c["id"], c["role"], c["name"])
        if event.type == "person":
            return kind.add_person(state, info)
        if c["type"] == "link.revoke" and not c.get("was_revoked"):
            return kind.remove_person(state, info)
        if c["type"] == "link.reissue" and c.get("was_revoked"):
            return kind.add_person(state, info)
        return state

    @staticmethod
    def _check_names(
        kind: GameKind[Any], state: BaseModel, command: Any, mine: set[int | None]
    ) -> None:
        """What a replayed command names is of its own game, as when it was first sent."""
        known = kind.references(state)
        for what, _, value in refs_of(command):
            if (what == "person" and value not in mine) or (
                what != "person" and value not in known.get(what, ())
            ):
                raise KeyError(f"{what} {value} is not of this game")


@dataclass
class _Guard:
    """The checks a live action passes, for the entries of one game brought in a file: who acts
    (a person of the game in the role they joined with, their link alive, or the clock), what
    they may send, the room each role has."""

    kind: GameKind[Any]
    mine: set[int | None]
    physical: bool
    from_file: bool
    opens: bool  # the file holds a game this one opened (its record of it is the platform's)

    def actor(self, e: MovedEvent, renaming: Renaming, replayed: _Replayed) -> Viewer:
        """Who acted: the clock, someone joining by the game's invitation, or a person of this
        game in the role they joined with, their link alive then."""
        if e.actor_id is None:
            if e.actor_role == SYSTEM.role:
                return SYSTEM
            if e.type == "person" and e.actor_role == self.kind.open_role:
                return Viewer(e.actor_role, None, e.actor_name)
            raise KeyError("an actor without a number")
        person = renaming.people.get(e.actor_id)
        if person is None or person not in self.mine:
            raise KeyError("an actor of another game")
        known = replayed.people.get(person)
        if known is None or known[0] != e.actor_role or replayed.revoked.get(person, True):
            raise KeyError("an actor who was not that person then")
        return Viewer(known[0], person, known[1])

    def may_change_people(
        self, actor: Viewer, e: MovedEvent, role: str, linked: bool, joining: int | None
    ) -> None:
        """Who brings a person in or changes a link, as the live service lets them: the game
        itself its organizer (and a linked game its people), the organizer anyone of the roles
        the organizer gives, the invitation its own role; the organizer the links."""
        if e.type == "access":
            allowed = actor.is_organizer
        elif actor is SYSTEM:
            allowed = role == "organizer" or (linked and role in self.kind.roles)
        elif actor.person_id is None:  # by the invitation
            allowed = role == self.kind.open_role == actor.role and joining is not None
        else:
            allowed = actor.is_organizer and role in self.kind.registrable_roles()
        if not allowed:
            raise NotAllowed(N_("Only the organizer registers people."))

    def admitted(self, actor: Viewer, renaming: Renaming, payload: dict[str, Any]) -> Any:
        """The command as a live one is read: typed, renamed, and sent by someone who may."""
        command = renumbered(self.kind.parse(renaming.texts_in(payload)), renaming.people)
        internal = isinstance(command, self.kind.internal)
        # The platform's own commands: the clock's, and a record of a game this one opened.
        trusted = internal and (actor is SYSTEM or self.opens)
        return parsed(self.kind, actor, dumped(command), trusted=trusted)

    def undo_consent(
        self, replayed: _Replayed, state: BaseModel, actor: Viewer, target: Event
    ) -> str | None:
        """As the live service decides (`Actions._undo_consent`): None when it is the actor's
        own last action and nobody else acted since, else the side that must agree."""
        later = [e for e in replayed.events if e.seq > target.seq and e.type in TOLD]
        if alone_undoes(target, later, actor):
            return None
        own = self.kind.side_of(state, actor)
        others = [side for side in self.kind.sides(state) if side != own]
        if own is None or not others:
            raise NotAllowed(N_("Only referees undo actions."))
        return others[0]

    def move_on(self, replayed: _Replayed, state: BaseModel, at: datetime) -> None:
        """As the live service after a change (`Actions._move_on`): the proposals it moved past,
        or that can no longer apply (an undo whose action is no longer the last, a command the
        rules would refuse now), expire."""

        def still(p: Proposal) -> bool:
            if p.is_undo:
                return bool(replayed.active) and replayed.active[-1].seq == p.command.get("seq")
            return applies(self.kind, state, p, at)

        replayed.proposals = moved_on(replayed.proposals, self.kind.moment(state), still)

    def ended(
        self,
        replayed: _Replayed,
        proposal: Proposal,
        status: Status,
        by: Viewer,
        state: BaseModel,
    ) -> None:
        """An answered proposal: its proposer's notice, as the live service keeps it (`answer`)."""
        done = proposal.ending(status, self.kind.moment(state), by.name)
        replayed.proposals = [done if p is proposal else p for p in replayed.proposals]

    def open_proposal(self, replayed: _Replayed, number: Any, state: BaseModel) -> Proposal:
        proposal = next((p for p in replayed.proposals if p.id == number), None)
        if proposal is None or proposal.status != "open":
            raise KeyError("an answer to no open proposal")
        if self.kind.moment(state) != proposal.moment:
            raise KeyError("an answer to an expired proposal")
        return proposal

    def room(self, replayed: _Replayed, role: str, change: int) -> None:
        replayed.in_play[role] += change
        if role != "organizer" and replayed.in_play[role] > self.kind.people_limit(role):
            raise InvalidInput(
                N_("This game has no room for another {role}: {count} at most."),
                field="file",
                role=Msg(self.kind.role_title(role)),
                count=self.kind.people_limit(role),
            )
