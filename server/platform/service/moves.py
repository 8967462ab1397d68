"""A game moved between servers: exported with the games it opened, imported by replaying its log
(`server.platform.moving` says what the file holds and what is renamed on the way)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session, col, select

from server.errors import ArbitreError, InvalidInput, NotAllowed, NotFound
from server.i18n import N_, Msg
from server.migrate import revisions
from server.models import Event, Game, Person
from server.platform.access import new_nonce
from server.platform.dice import ReplayDice, ReplayDiverged, held_after_undo, take_held
from server.platform.kinds import KINDS, SYSTEM, Context, GameKind, PersonInfo, Viewer
from server.platform.moving import FORMAT, MovedEvent, MovedGame, Renaming, read_game_file
from server.platform.refs import refs_of, renumbered
from server.platform.service.inputs import invalid_from
from server.platform.service.linked import Linked
from server.platform.service.people import Registered, joined, link_changed
from server.platform.service.store import dumped, make_idem

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
    on the way (every SNAPSHOT_EVERY entries) to replay an undo from."""

    game: Game
    events: list[Event] = field(default_factory=list)
    revoked: dict[int, bool] = field(default_factory=dict)
    people: dict[int, tuple[str, str]] = field(default_factory=dict)  # role and name
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    before: dict[int, BaseModel] = field(default_factory=dict)  # the state before a command
    active: list[Event] = field(default_factory=list)  # commands not undone, in order
    person_rows: list[Event] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # dice held by undo, as the game's


# An undo replays from the state before the action it undoes, kept for the latest commands, or
# from a snapshot taken every MOVED_SNAPSHOTS entries.
KEPT_BEFORE = 2048
MOVED_SNAPSHOTS = 20


Join = tuple[int, MovedGame, MovedEvent]


def _joins(games: Sequence[MovedGame]) -> list[Join]:
    """Everyone who joined any of the games, by their old number, checked: a number, a role and
    a name each, nobody twice."""
    joins: list[Join] = []
    for g in games:
        for e in g.events:
            if e.type != "person":
                continue
            old, role, name = e.command.get("id"), e.command.get("role"), e.command.get("name")
            if not isinstance(old, int) or isinstance(old, bool):
                raise _damaged(g, e.seq, Msg(N_("a person without a number")))
            if not isinstance(role, str) or not isinstance(name, str) or not 0 < len(name) <= 80:
                raise _damaged(g, e.seq, Msg(N_("a person without a role or a name")))
            joins.append((old, g, e))
    if len({old for old, _, _ in joins}) != len(joins):
        raise _damaged(games[0], "-", Msg(N_("a person who joined twice")))
    return joins


def _people(joins: list[Join], game_of: Callable[[MovedGame], str]) -> dict[str, list[Person]]:
    """A person row for each join, in each game's list, in the order of `joins`; numbered by
    the database once added (or, for a trial, by their old number)."""
    people: dict[str, list[Person]] = {}
    for old, g, e in joins:
        person = Person(
            game_id=game_of(g),
            role=e.command["role"],
            name=e.command["name"],
            nonce=new_nonce(),
            created_at=e.at,
        )
        if game_of(g) == g.id:  # a trial: the old number
            person.id = old
        people.setdefault(g.id, []).append(person)
    for g in {id(g): g for _, g, _ in joins}.values():
        people.setdefault(g.id, [])
    return people


def _flat(people: dict[str, list[Person]], joins: list[Join]) -> list[Person]:
    """The person rows in the order of `joins`."""
    taken: dict[str, int] = {}
    rows = []
    for _, g, _ in joins:
        n = taken.get(g.id, 0)
        rows.append(people[g.id][n])
        taken[g.id] = n + 1
    return rows


class Moves(Linked):
    def export_game(self, game_id: str, actor: Viewer) -> dict[str, Any]:
        """The game and the games it opened, as a file another Arbitre imports. Everything
        secret is in it (it must replay), so only the organizer takes it; never a token."""
        if actor is not SYSTEM and not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer exports the whole game."))
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None:
                raise NotFound(N_("No such game."))
            games = [game, *self._opened_by(s, game_id)]
            moved = [self._moved(s, g) for g in games]
        return {
            "arbitre": "game",
            "format": FORMAT,
            "schema": revisions()[-1],
            "exported_at": self.clock.now().isoformat(),
            "games": moved,
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

    def _moved(self, s: Session, game: Game) -> dict[str, Any]:
        events = [
            MovedEvent.model_validate(e, from_attributes=True) for e in self._events(s, game.id)
        ]
        settings = {k: v for k, v in game.settings.items() if k != "invite"}
        return MovedGame(
            id=game.id,
            kind=game.kind,
            name=game.name,
            created_at=game.created_at,
            settings=settings,
            state=game.state,
            events=events,
        ).model_dump(mode="json")

    def import_game(self, text: str, *, caller: str, idem_key: str) -> tuple[Game, Registered]:
        """Creates the games of an exported file, their people with fresh links, and their logs
        replayed on this server's rules and checked against the states they were exported with;
        nothing is created unless all of it holds. Returns the first game and its organizer,
        whose link goes to the one who imported it. A retry with the same key and file creates
        nothing more.

        The file is replayed once before the database is touched (under its own numbers), so
        that a file that does not hold never holds the write lock; then again, under the numbers
        this server gives, inside one transaction."""
        moved = read_game_file(text, revisions())
        digest = hashlib.sha256(text.encode()).hexdigest()
        idem = make_idem(caller, idem_key, "import", {"file": digest})
        for g in moved.games:
            if g.kind not in KINDS:
                raise InvalidInput(N_("Unknown game: “{kind}”."), field="file", kind=g.kind)
        if len({g.id for g in moved.games}) != len(moved.games):
            raise _damaged(moved.games[0], "-", Msg(N_("a game twice")))
        joins = _joins(moved.games)
        texts = {p for g in moved.games for p in KINDS[g.kind].person_texts}
        dry = Renaming({old: old for old, _, _ in joins}, {g.id: g.id for g in moved.games}, texts)
        trial = _people(joins, lambda g: g.id)
        for g in moved.games:
            self._replay(g, Game(id=g.id, kind=g.kind, name=g.name), dry, trial[g.id])
        with self.db.write() as s:
            existing = self._created(s, idem)
            if existing is not None:
                return existing, Registered(self._organizer(s, existing), self._link(s, existing))
            renaming = Renaming({}, {g.id: self._free_id(s) for g in moved.games}, texts)
            rows = {
                g.id: Game(
                    id=renaming.games[g.id], kind=g.kind, name=g.name, created_at=g.created_at
                )
                for g in moved.games
            }
            s.add_all(rows.values())  # each game a row first: people belong to one
            s.flush()
            people = _people(joins, lambda g: renaming.games[g.id])
            for old, person in sorted(
                ((old, p) for (old, _, _), p in zip(joins, _flat(people, joins), strict=True)),
                key=lambda pair: pair[0],
            ):
                s.add(person)
                s.flush()  # numbered in the order of the old numbers
                assert person.id is not None
                renaming.people[old] = person.id
            replayed = [self._replay(g, rows[g.id], renaming, people[g.id]) for g in moved.games]
            top = replayed[0].game
            top.creation_key, top.creation_fingerprint = idem.stored, idem.fingerprint
            s.add_all(rows.values())
            persons = {p.id: p for ps in people.values() for p in ps}
            for r in replayed:
                for person_id, revoked in r.revoked.items():
                    persons[person_id].revoked = revoked
                    self._set_link(persons[person_id])
                s.add_all(r.events)
            s.add_all(persons.values())
            organizer = next(
                (p for p in people[moved.games[0].id] if p.role == "organizer" and not p.revoked),
                None,
            )
            if organizer is None:
                raise _damaged(moved.games[0], "-", Msg(N_("nobody organizes it")))
            return top, Registered(organizer, self.link_of(organizer))

    def _free_id(self, s: Session) -> str:
        while True:
            new = secrets.token_urlsafe(9)
            if s.get(Game, new) is None:
                return new

    def _replay(
        self, g: MovedGame, game: Game, renaming: Renaming, people: list[Person]
    ) -> _Replayed:
        """The game's log applied again, entry by entry, as this server's service applied it
        then: the same summaries, results and subjects, under the new names."""
        kind = KINDS[g.kind]
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
        mine = {p.id for p in people}
        roles = {"organizer", *kind.roles, *(("referee",) if kind.allows_referees else ())}
        for p in people:
            if p.role not in roles:
                raise _damaged(
                    g, "-", Msg(N_("a role this game does not have: “{role}”"), {"role": p.role})
                )
        state: BaseModel = kind.new_state(kind_settings)
        for number, e in enumerate(g.events, start=1):
            if e.seq != number:
                raise _damaged(g, e.seq, Msg(N_("entries out of order")))
            if e.actor_id is not None and renaming.people.get(e.actor_id) not in mine:
                raise _damaged(g, e.seq, Msg(N_("an actor of another game")))
            try:
                state = self._entry(kind, game, replayed, e, renaming, mine, state)
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
        game.status, game.next_deadline = kind.status(state), kind.next_deadline(state)
        return replayed

    def _entry(
        self,
        kind: GameKind[Any],
        game: Game,
        replayed: _Replayed,
        e: MovedEvent,
        renaming: Renaming,
        mine: set[int | None],
        state: BaseModel,
    ) -> BaseModel:
        """One entry of the log: its event row added to `replayed`, the state after it returned."""
        actor_id = renaming.people[e.actor_id] if e.actor_id is not None else None
        actor = Viewer(e.actor_role, actor_id, e.actor_name)
        row = Event(
            game_id=game.id,
            seq=e.seq,
            type=e.type,
            at=e.at,
            actor_id=actor_id,
            actor_role=e.actor_role,
            actor_name=e.actor_name,
        )
        if e.type in ("person", "access"):
            c = e.command
            person = renaming.people[c["id"]]
            if person not in mine:
                raise KeyError("a person of another game")
            # Older logs said only the number in a link's entry: the person is the one who joined.
            known = replayed.people.get(person)
            role, name = c.get("role", known and known[0]), c.get("name", known and known[1])
            if not isinstance(role, str) or not isinstance(name, str):
                raise KeyError("a person without a role or a name")
            info = PersonInfo(person, role, name)
            row.command = {**c, "id": person, "role": role, "name": name}
            if e.type == "access":
                row.command["was_revoked"] = replayed.revoked.get(person, False)
            if e.type == "person":
                state = kind.add_person(state, info)
                replayed.revoked[person] = False
                replayed.people[person] = (role, name)
                row.summary = row.label = joined(kind, info.role, info.name).to_json()
            else:
                revoke = c["type"] == "link.revoke"
                if revoke and not replayed.revoked[person]:
                    state = kind.remove_person(state, info)
                elif not revoke and replayed.revoked[person]:
                    state = kind.add_person(state, info)
                replayed.revoked[person] = revoke
                row.summary = row.label = link_changed(info.name, revoke=revoke).to_json()
            row.subjects = []
            replayed.person_rows.append(row)
        elif e.type == "command":
            command = renumbered(kind.parse(renaming.texts_in(e.command)), renaming.people)
            self._check_names(kind, state, command, mine)
            dice = ReplayDice(renaming.rolls(e.rolls))
            label = kind.label(command, state)
            row.subjects = kind.subjects(state, command, actor)
            before = state
            outcome = kind.apply(state, command, Context(actor, dice, e.at))
            if dice.pending:
                raise ReplayDiverged("dice left over")
            self._roll_again(replayed, e.rolls)
            state = outcome.state
            row.command, row.rolls, row.result = dumped(command), dice.rolls, dict(outcome.result)
            row.summary, row.label = outcome.summary.to_json(), label.to_json()
            replayed.before[e.seq] = before
            replayed.active.append(row)
            if len(replayed.before) > KEPT_BEFORE:
                del replayed.before[next(iter(replayed.before))]
            if e.seq % MOVED_SNAPSHOTS == 0:
                replayed.snapshots[e.seq] = state.model_dump(mode="json")
        else:  # an undo: the last action not undone, replayed without it, as the service does
            target = replayed.active[-1] if replayed.active else None
            if target is None or target.seq != e.command.get("seq"):
                raise KeyError("an undo of what was not the last action")
            row.command, row.undoes = {"type": "undo", "seq": target.seq}, target.seq
            target.undone_by = e.seq
            replayed.active.pop()
            replayed.held = held_after_undo(replayed.held, target.rolls)
            row.subjects = target.subjects
            row.summary = row.label = Msg(
                N_("Undone: {label}"), {"label": Msg.from_json(target.label)}
            ).to_json()
            replayed.events.append(row)
            # From the state just before the target when it is kept (the rules never change their
            # input), else from the last snapshot before it (those after it hold what is undone):
            # a log of many undos replays in a time that follows its length, not its square.
            for seq in [k for k in replayed.snapshots if k >= target.seq]:
                del replayed.snapshots[seq]
            kept = replayed.before.pop(target.seq, None)
            if kept is not None:  # only people may have come since: add them back
                later = [p for p in replayed.person_rows if p.seq > target.seq]
                state = kept.model_copy(deep=True) if later else kept
                for entry in later:
                    state = self._person_entry(kind, state, entry)
                return state
            start = max(replayed.snapshots, default=0)
            snapshot = replayed.snapshots.get(start)
            if snapshot is None:
                return self.rebuild(game, replayed.events)
            held = Event(
                game_id=game.id, seq=start, type="command", actor_role="system", snapshot=snapshot
            )
            return self.rebuild(game, replayed.events, start=held)
        replayed.events.append(row)
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
