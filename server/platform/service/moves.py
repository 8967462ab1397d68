"""A game moved between servers: exported as its reader may know it, imported as a creation plus a
replay that passes the guards of a live action (`server.platform.moving` says what the file holds
and what is renamed on the way; `server.platform.sealing` how a game in progress moves sealed).

An import takes the write lock twice, briefly: to reserve the games and the people (their
numbers), then to write what the replay made, in one batch. The replay runs between the two,
holding no lock, so a big or bad file never makes another game's action wait."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session, col, delete, select

from server.errors import InvalidInput, NotAllowed, NotFound
from server.i18n import N_, Msg
from server.migrate import revisions
from server.models import Event, Game, Person, Ticket
from server.platform.access import new_nonce
from server.platform.idempotency import AlreadyCreated
from server.platform.kinds import (
    KINDS,
    PUBLIC,
    SYSTEM,
    GameKind,
    Viewer,
    log_entry,
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
from server.platform.service.people import People, Registered
from server.platform.service.replay import Replay
from server.platform.service.replaying import Join, Replayed, Replayer, damaged, joins
from server.platform.service.store import Store, make_idem

IMPORTING = "importing"  # a reserved game's status until its replay is written
STALE_RESERVATION = timedelta(minutes=10)
WRITE_BATCH = 1000  # a moved log's rows written under one hold of the write lock  # a reservation a crash left behind, swept after


@dataclass(frozen=True)
class _Reservation:
    """The games and people an import reserved: their new numbers, by their old ones."""

    renaming: Renaming
    people: dict[str, list[Person]]


class Moves:
    """A game exported as its reader may know it, and imported through a live action's guards."""

    def __init__(self, store: Store, roster: People, replay: Replay) -> None:
        self.store, self.roster, self.replay = store, roster, replay

    # ------------------------------------------------------------------------------ export

    def export_game(
        self, game_id: str, reader: Viewer, *, ticket: str | None = None
    ) -> dict[str, Any]:
        """The game and the games it opened, as its reader may know them (`records`: their view
        and their journal), and what replays them: in clear when the reader may know all of it
        (`kinds.record_readable`), sealed to another server's import ticket when one is given,
        else not at all (the file is then a record to read). Only the organizer takes it (the
        server's runner, `SYSTEM`, on the command line); never a token."""
        here = server_key(self.store.secret)
        sealed_to = read_ticket(ticket, self.store.trusted, here) if ticket else None
        now = self.store.clock.now()
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
            self._close_moved([g for g, _, _ in family], now)
        elif readable:
            body["replay"] = replay
        if "sealed" in body or "replay" in body:
            body["witness"] = witness(self.store.secret, replay)
        return body

    def _close_moved(self, games: list[Game], now: datetime) -> None:
        """A game sealed to another server moves: it goes on there, and here it stays as its
        record, changed by nobody (`Store.lock` refuses, no clock fires), so that no two copies
        go on (issue 51: a copy's seats would all be free for its organizer, unseen by the
        players, who play on here)."""
        with self.store.db.write() as s:
            for moving in games:
                game = s.get(Game, moving.id)
                if game is None or game.settings.get("moved"):
                    continue
                game.settings = {**game.settings, "moved": now.isoformat()}
                game.next_deadline = None
                s.add(game)
        for game in games:
            self.store.committed(game.id, game.seq, access_changed=True)

    def exports_in_clear(self, game_id: str, reader: Viewer) -> bool:
        """Whether this reader's file of the game holds what replays it (else a record to read,
        unless sealed for another server)."""
        return self._readable(self._family(game_id, reader))

    def _family(self, game_id: str, reader: Viewer) -> list[tuple[Game, list[Event], Viewer]]:
        """The game and the games it opened, each with its log and its reader: the organizer of
        each (who exported the first), or the server's runner."""
        if reader is not SYSTEM and not reader.is_organizer:
            raise NotAllowed(N_("Only the organizer exports the whole game."))
        with self.store.db.read() as s:
            game = s.get(Game, game_id)
            if game is None or game.status == IMPORTING:
                raise NotFound(N_("No such game."))
            games = [game, *self._opened_by(s, game_id)]
            return [
                (
                    g,
                    list(self.store.events(s, g.id)),
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
        """Who reads a game of the file: its organizer; a game whose organizer's seat is nobody's
        (a self-refereed match: `LinkedGame.staffed`) as the public does, for its staff is no
        one the file's reader may be (the league's owner may play one of its sides)."""
        person = self.roster.organizer_of(s, game)
        if (game.settings.get("delegates") or {}).get(str(person.id)) == "nobody":
            return PUBLIC
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
        entries = (log_entry(kind, logged(event, over=over), reader) for event in events)
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
        made = new_ticket(self.store.secret)
        now = self.store.clock.now()
        with self.store.db.write() as s:
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
        with self.store.db.read() as s:
            ticket = s.get(Ticket, file.sealed.ticket)
        self._check_ticket(ticket)
        assert ticket is not None
        return read_replay(
            open_sealed(self.store.secret, ticket.private_key, file.sealed.box), limits
        )

    def _check_ticket(self, ticket: Ticket | None) -> None:
        if ticket is None:
            raise InvalidInput(
                N_("This file was sealed for another server: import it there."), field="file"
            )
        if ticket.used_at is not None:
            raise InvalidInput(
                N_("This file's import ticket was used already: make a new one."), field="file"
            )
        if self.store.clock.now() - ticket.created_at > timedelta(hours=TICKET_HOURS):
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
        from_file = signed_by != server_key(self.store.secret)
        if file.sealed is not None and not from_file:
            # Sealed here for here: a copy of a game that is on this server already, whose
            # seats would all be free for the one who brings it in (`read_ticket`).
            raise InvalidInput(
                N_(
                    "This file was sealed by this server for itself: the game is here already. "
                    "A game in progress moves sealed to another server only."
                ),
                field="file",
            )
        claimed_key = file.witness.by if file.witness else ""
        self._check_games(games)
        if signed_by not in self.store.trusted:  # before any work
            rolls = [[e.rolls for e in g.events] for g in games]
            self._check_unsigned(games, [g.state for g in games], rolls, claimed_key)
        joined_people = joins(games)
        digest = hashlib.sha256(text.encode()).hexdigest()
        idem = make_idem(caller, idem_key, "import", {"file": digest})
        texts = {p for g in games for p in KINDS[g.kind].person_texts}
        reserved = self._reserve(games, joined_people, idem, texts)
        if not isinstance(reserved, _Reservation):
            return reserved  # the first try's game
        renaming, people = reserved.renaming, reserved.people
        try:
            replayed = [
                Replayer(self.replay.rebuild).replay(g, renaming, people[g.id], from_file, games)
                for g in games
            ]
            if signed_by not in self.store.trusted:
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
            raise damaged(games[0], "-", Msg(N_("a game twice")))
        for g in games:
            parent = g.settings.get("parent")
            if not KINDS[g.kind].standalone and (parent not in ids or parent == g.id):
                raise InvalidInput(
                    N_("“{name}” is opened by another game only: bring that game's file."),
                    field="file",
                    name=g.name,
                )
            if parent is not None and parent not in ids:
                raise damaged(g, "-", Msg(N_("the game that opened it is not in the file")))

    def _reserve(
        self, games: list[MovedGame], joins: list[Join], idem: Any, texts: set[str]
    ) -> tuple[Game, Registered] | _Reservation:
        """The write lock, briefly: the games' rows (not shown until written) and their people's
        (numbered by this server, in the order of their old numbers), or the game a first try
        of the same request created."""
        now = self.store.clock.now()
        with self.store.db.write() as s:
            self._sweep(s)
            existing = self.roster.already_created(s, idem)
            if existing is not None:
                if existing.status == IMPORTING:
                    raise AlreadyCreated(N_("This game is being imported: try again in a moment."))
                return existing, Registered(
                    self.roster.organizer_of(s, existing), self.roster.organizer_link(s, existing)
                )
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
        cutoff = self.store.clock.now() - STALE_RESERVATION
        stale = [
            g.id
            for g in s.exec(select(Game).where(Game.status == IMPORTING))
            if str(g.settings.get("importing", "")) < cutoff.isoformat()
        ]
        self._delete_games(s, stale)

    def _release(self, game_ids: list[str]) -> None:
        with self.store.db.write() as s:
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
        replayed: list[Replayed],
        people: dict[str, list[Person]],
        renaming: Renaming,
        file: GameFile,
    ) -> tuple[Game, Registered]:
        """The write lock again, briefly each time: the log's rows in bounded batches (the
        games still hidden while they are importing), then the games, their people and the
        ticket used, in one batch."""
        rows = [e for r in replayed for e in r.events]
        for start in range(0, len(rows), WRITE_BATCH):
            with self.store.db.write() as s:
                s.add_all(rows[start : start + WRITE_BATCH])
        with self.store.db.write() as s:
            if file.sealed is not None:
                ticket = s.get(Ticket, file.sealed.ticket)
                self._check_ticket(ticket)
                assert ticket is not None
                ticket.used_at = self.store.clock.now()
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
                    self.roster.set_link(persons[person_id])
            s.add_all(persons.values())
            top = s.get(Game, renaming.games[games[0].id])
            assert top is not None
            organizer = next(
                (persons[p.id] for p in people[games[0].id] if p.role == "organizer"), None
            )
            if organizer is None or organizer.revoked:
                raise damaged(games[0], "-", Msg(N_("nobody organizes it")))
            return top, Registered(organizer, self.roster.link_of(organizer))

    def _free_id(self, s: Session) -> str:
        while True:
            new = secrets.token_urlsafe(9)
            if s.get(Game, new) is None:
                return new
