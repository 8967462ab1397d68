"""The one place that changes games: load, check, apply the pure rules, append the event, commit.

Every write runs in one transaction that locks the game (BEGIN IMMEDIATE on SQLite, SELECT ...
FOR UPDATE on PostgreSQL), so actions on a game are serialized and the log and the stored state
can never disagree. Live phones are nudged only after the commit.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy import func
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from server.db import Database
from server.errors import (
    ArbitreError,
    InvalidInput,
    LinkInvalid,
    NotAllowed,
    NotFound,
    RuleError,
    StaleScreen,
    validation_problem,
)
from server.models import Event, Game, Person
from server.platform import idempotency
from server.platform.access import (
    Link,
    code_hash,
    derive_invitation,
    derive_link,
    new_nonce,
    same_token,
    token_hash,
)
from server.platform.clock import Clock
from server.platform.dice import CommandDice, DiceSource, ReplayDice, ReplayDiverged
from server.platform.i18n import N_, Msg
from server.platform.idempotency import (
    ANONYMOUS,
    SYSTEM_CALLER,
    AlreadyCreated,
    IdemKey,
    caller_of,
)
from server.platform.kinds import (
    KINDS,
    SYSTEM,
    Context,
    GameKind,
    LinkedGame,
    PersonInfo,
    Viewer,
    get_kind,
    logged,
)
from server.platform.live import Broker
from server.platform.refs import refs_of

DICE_MODES = ("server", "physical")


@dataclass(frozen=True)
class Performed:
    """The answer to an action, as the one who sent it may read it: the same projection as their
    log (a coach's answer holds their own side's private notes, never the other's). A retried
    request with the same key gets the same answer."""

    seq: int
    summary: Msg
    result: Mapping[str, Any]
    replayed: bool = False

    @classmethod
    def of(
        cls, event: Event, kind: GameKind[Any], viewer: Viewer, replayed: bool = False
    ) -> Performed:
        view = kind.log_view(logged(event), viewer)
        if view is None or "summary" not in view:
            return cls(event.seq, Msg(N_("Done.")), {}, replayed)
        result = dict(view.get("result") or {})
        if "private" in view:
            result["private"] = view["private"]
        return cls(event.seq, Msg.from_json(event.summary), result, replayed)


@dataclass(frozen=True)
class Loaded:
    """A game read by `GameService.load`: `game.state` (the stored JSON) is not read, `state`
    is the parsed one."""

    game: Game
    kind: GameKind[Any]
    state: BaseModel


@dataclass(frozen=True)
class Registered:
    person: Person
    link: Link


def invalid_from(error: ValidationError) -> InvalidInput:
    """The first problem pydantic found, said plainly with the field it concerns."""
    where, message = validation_problem(dict(error.errors()[0]))
    invalid = InvalidInput(message.text, field=where, **message.params)
    return invalid


# Characters no name or text may hold: controls (NUL, escapes), invisible ones (zero-width space,
# word joiner, byte-order mark) and those that turn text around (bidi overrides), which would make
# a name read aloud or shown differ from itself, or pass for another.
HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]"
)


def check_text(value: Any, where: str = "") -> None:
    """Refuses a command whose text holds a control character (line breaks and tabs are text),
    wherever it is in the command."""
    if isinstance(value, str):
        if HIDDEN.search(value):
            raise InvalidInput(
                N_("“{where}” holds a control character: type it again."),
                field=where or None,
                where=where or "?",
            )
    elif isinstance(value, Mapping):
        for k, v in value.items():
            check_text(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            check_text(v, where)


def clean_name(name: str, *, limit: int = 80, what: str = "name") -> str:
    check_text(name, what)
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput(N_("A name is needed."), field=what)
    if len(name) > limit:
        raise InvalidInput(
            N_("“{name}” is too long ({limit} characters at most)."),
            field=what,
            name=name[:20] + "…",
            limit=limit,
        )
    return name


log = logging.getLogger("arbitre.service")
SNAPSHOT_EVERY = 100  # events between two snapshots of a game's state


class GameService:
    def __init__(
        self, db: Database, secret: str, clock: Clock, dice: DiceSource, broker: Broker
    ) -> None:
        self.db = db
        self.secret = secret
        self.clock = clock
        self.dice = dice
        self.broker = broker
        self._cache: dict[str, tuple[int, BaseModel]] = {}
        self._cache_lock = Lock()

    # ------------------------------------------------------------------ games and people

    def create_game(
        self,
        kind_key: str,
        name: str,
        organizer_name: str,
        *,
        dice: str = "server",
        idem_key: str,
        settings: Mapping[str, Any] | None = None,
        caller: str = ANONYMOUS,
    ) -> tuple[Game, Registered]:
        """A new game and its organizer. `caller` scopes the key: a browser's session (its retry
        gets the same game and link), or ANONYMOUS for an API call with no token, whose retry is
        refused rather than answered with an organizer's link."""
        kind = KINDS.get(kind_key)
        if kind is None or not kind.standalone:
            # A game another one opens (a league's match) is created by the platform only.
            raise InvalidInput(N_("Unknown game: “{kind}”."), field="kind", kind=kind_key)
        if dice not in DICE_MODES:
            raise InvalidInput(N_("Unknown dice mode: “{mode}”."), field="dice", mode=dice)
        name = clean_name(name, limit=120, what="name")
        organizer_name = clean_name(organizer_name, what="organizer")
        body = {
            "kind": kind_key,
            "name": name,
            "organizer": organizer_name,
            "dice": dice,
            "settings": dict(settings or {}),
        }
        idem = _idem(caller, idem_key, "create", body)
        try:
            kind_settings = kind.settings_model.model_validate(settings or {})
        except ValidationError as error:
            raise invalid_from(error) from None
        with self.db.write() as s:
            existing = self._created(s, idem)
            if existing is not None:
                if caller == ANONYMOUS:
                    raise AlreadyCreated(
                        N_(
                            "A game was already created with this idempotency key: its "
                            "organizer link was in the first answer."
                        )
                    )
                return existing, Registered(self._organizer(s, existing), self._link(s, existing))
            return self._new_game(
                s, kind, name, organizer_name, {"dice": dice}, kind_settings, idem, []
            )

    def _created(self, s: Session, idem: IdemKey) -> Game | None:
        existing = s.exec(select(Game).where(Game.creation_key == idem.stored)).first()
        if existing is not None:
            idem.check(existing.creation_fingerprint)
        return existing

    def _organizer(self, s: Session, game: Game) -> Person:
        return s.exec(
            select(Person)
            .where(Person.game_id == game.id, Person.role == "organizer")
            .order_by(col(Person.id))
        ).one()

    def _link(self, s: Session, game: Game) -> Link:
        return self.link_of(self._organizer(s, game))

    def _new_game(
        self,
        s: Session,
        kind: GameKind[Any],
        name: str,
        organizer_name: str,
        platform_settings: dict[str, Any],
        kind_settings: BaseModel,
        idem: IdemKey,
        people: Sequence[tuple[str, str]],
    ) -> tuple[Game, Registered]:
        """A game, its organizer and `people` (role, name), in the caller's transaction."""
        now = self.clock.now()
        state = kind.new_state(kind_settings)
        game = Game(
            id=secrets.token_urlsafe(9),
            kind=kind.key,
            name=name,
            settings={**platform_settings, "kind": kind_settings.model_dump(mode="json")},
            state=state.model_dump(mode="json"),
            status=kind.status(state),
            created_at=now,
            creation_key=idem.stored,
            creation_fingerprint=idem.fingerprint,
        )
        s.add(game)
        s.flush()
        registered = self._add_person(s, game, kind, SYSTEM, "organizer", organizer_name, None)
        for role, person_name in people:
            self._add_person(s, game, kind, SYSTEM, role, person_name, None)
        return game, registered

    # -- a game opened from another (a league's match): the platform checks the actor's authority
    # in the parent (through the parent's kind), creates the game and the people it needs, records
    # in the parent what it created, and alone decides later who of the parent acts as whom.

    def open_linked(
        self, parent_id: str, actor: Viewer, request: Mapping[str, Any], *, idem_key: str
    ) -> str:
        """Opens the game the parent's kind plans for this request; returns its id. A retry with
        the same key (and request) opens nothing more."""
        loaded = self.load(parent_id)
        body = {"parent": parent_id, "request": dict(request)}
        idem = _idem(caller_of(actor), idem_key, "open_linked", body)
        plan: LinkedGame = loaded.kind.linked_game(parent_id, loaded.state, actor, request)
        child_kind = get_kind(plan.kind)
        try:
            child_settings = child_kind.settings_model.model_validate(plan.settings)
        except ValidationError as error:
            raise invalid_from(error) from None
        creation = _idem(SYSTEM_CALLER, f"linked:{idem.stored}", "create", body)
        with self.db.write() as s:
            self._lock(s, parent_id)
            child = self._created(s, creation)
            if child is None:
                people = [(role, name) for role, name, _ in plan.people]
                child, _ = self._new_game(
                    s,
                    child_kind,
                    clean_name(plan.name, limit=120),
                    clean_name(plan.organizer),
                    {"dice": loaded.game.settings.get("dice", "server"), "parent": parent_id},
                    child_settings,
                    creation,
                    people,
                )
                persons = self._people(s, child.id)
                delegates: dict[str, int | str] = {str(persons[0].id): "staff"}  # the staff
                for person, (_, _, delegate) in zip(persons[1:], plan.people, strict=True):
                    delegates[str(person.id)] = delegate
                child.settings = {**child.settings, "delegates": delegates}
                s.add(child)
        ids = [p.id for p in self.people(child.id)]
        record = plan.record(child.id, [i for i in ids if i is not None])
        record_key = _idem(SYSTEM_CALLER, f"linked:{idem.stored}:record", "command", record)
        self._perform(parent_id, actor, record, record_key, trusted=True)
        return child.id

    def handoff(self, parent_id: str, actor: Viewer, child_id: str) -> Link | None:
        """The link of the person of a linked game whom this viewer of the parent acts as (a
        league's coach in their match, the league's staff as the match's organizer), or None (a
        spectator). Only what the platform recorded when it opened the game decides."""
        with self.db.read() as s:
            child = s.get(Game, child_id)
            if child is None or child.settings.get("parent") != parent_id:
                raise NotFound(N_("No such game."))
            delegates: dict[str, Any] = child.settings.get("delegates") or {}
            wanted: Any = "staff" if actor.is_staff else actor.person_id
            person_id = next((int(p) for p, d in delegates.items() if d == wanted), None)
            if person_id is None or actor.person_id is None:
                return None
            person = s.get(Person, person_id)
        if person is None or person.game_id != child_id or person.revoked:
            raise LinkInvalid(N_("This link is no longer valid."))
        return self.link_of(person)

    def _people(self, s: Session, game_id: str) -> list[Person]:
        return list(
            s.exec(select(Person).where(Person.game_id == game_id).order_by(col(Person.id)))
        )

    def register(
        self, game_id: str, actor: Viewer, role: str, name: str, *, idem_key: str
    ) -> Registered:
        if not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer registers people."))
        name = clean_name(name)
        idem = _idem(caller_of(actor), idem_key, "register", {"role": role, "name": name})
        with self.db.write() as s:
            game = self._lock(s, game_id)
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                return self._registered(s, prior)
            kind = get_kind(game.kind)
            if role not in kind.registrable_roles():
                raise InvalidInput(N_("Unknown role: “{role}”."), field="role", role=role)
            self._check_name_free(s, game_id, name)
            registered = self._add_person(s, game, kind, actor, role, name, idem)
        self.broker.publish(game_id, game.seq)
        return registered

    def _registered(self, s: Session, prior: Event) -> Registered:
        person = s.get(Person, prior.command["id"])
        assert person is not None  # the fingerprint matched: a "person.add" event
        return Registered(person, self.link_of(person))

    def _check_name_free(self, s: Session, game_id: str, name: str) -> None:
        """One name, one person in play: a revoked person's name is free again."""
        taken = s.exec(
            select(Person.id).where(
                Person.game_id == game_id,
                func.lower(Person.name) == name.lower(),
                Person.revoked == False,  # noqa: E712 (SQL)
            )
        ).first()
        if taken is not None:
            raise InvalidInput(
                N_("Someone named “{name}” is already registered."), field="name", name=name
            )

    # -- an open invitation: one shared link by which people register themselves (a league's
    # coaches), in the role the kind opens; the organizer opens, renews or closes it.

    def invitation(self, game: Game) -> str | None:
        """The invitation token (192 bits from the server secret and a nonce kept with the game),
        or None when the invitation is closed."""
        nonce = game.settings.get("invite")
        if not nonce or get_kind(game.kind).open_role is None:
            return None
        return derive_invitation(self.secret, game.id, str(nonce))

    def set_invitation(self, game_id: str, actor: Viewer, *, open_it: bool) -> Game:
        if not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer registers people."))
        with self.db.write() as s:
            game = self._lock(s, game_id)
            if get_kind(game.kind).open_role is None:
                raise InvalidInput(N_("This game has no invitation link."))
            game.settings = {**game.settings, "invite": new_nonce() if open_it else None}
            s.add(game)
            return game

    def game_by_invitation(self, game_id: str, token: str) -> Game:
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None or not self._invited(game, token):
                raise LinkInvalid(N_("This invitation is closed or was renewed."))
            return game

    def _invited(self, game: Game, token: str) -> bool:
        expected = self.invitation(game)
        return expected is not None and same_token(expected, token)

    def join_by_invitation(
        self, game_id: str, token: str, name: str, *, idem_key: str, caller: str = ANONYMOUS
    ) -> Registered:
        """Someone registers themselves by the game's invitation. `caller` is the browser's
        session: only its own retry gets the seat (and its link) again."""
        name = clean_name(name)
        idem = _idem(caller, idem_key, "join", {"name": name})
        with self.db.write() as s:
            game = self._lock(s, game_id)
            if not self._invited(game, token):
                raise LinkInvalid(N_("This invitation is closed or was renewed."))
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                if caller == ANONYMOUS:
                    raise AlreadyCreated(
                        N_("You already joined with this key: your link was in the first answer.")
                    )
                return self._registered(s, prior)
            kind = get_kind(game.kind)
            role = kind.open_role
            assert role is not None
            self._check_name_free(s, game_id, name)
            registered = self._add_person(s, game, kind, Viewer(role, None, name), role, name, idem)
        self.broker.publish(game_id, game.seq)
        return registered

    def _add_person(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        actor: Viewer,
        role: str,
        name: str,
        idem: IdemKey | None,
    ) -> Registered:
        now = self.clock.now()
        person = Person(game_id=game.id, role=role, name=name, nonce=new_nonce(), created_at=now)
        s.add(person)
        s.flush()
        assert person.id is not None
        link = self._set_link(person)
        state = kind.state_model.model_validate(game.state)
        state = kind.add_person(state, PersonInfo(person.id, role, name))
        summary = Msg(
            N_("{name} joins as {role}."), {"name": name, "role": Msg(kind.role_title(role))}
        )
        self._append(
            s,
            game,
            "person",
            actor,
            {"type": "person.add", "id": person.id, "role": role, "name": name},
            summary=summary,
            label=summary,
            subjects=[],
            idem=idem,
            at=now,
        )
        self._store(s, game, kind, state)
        return Registered(person, link)

    def reissue(self, game_id: str, actor: Viewer, person_id: int, *, idem_key: str) -> Registered:
        return self._change_link(game_id, actor, person_id, idem_key, revoke=False)

    def revoke(self, game_id: str, actor: Viewer, person_id: int, *, idem_key: str) -> Registered:
        return self._change_link(game_id, actor, person_id, idem_key, revoke=True)

    def _change_link(
        self, game_id: str, actor: Viewer, person_id: int, idem_key: str, *, revoke: bool
    ) -> Registered:
        if not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer manages links."))
        operation = "revoke" if revoke else "reissue"
        idem = _idem(caller_of(actor), idem_key, operation, {"person": person_id})
        with self.db.write() as s:
            game = self._lock(s, game_id)
            person = s.get(Person, person_id)
            if person is None or person.game_id != game_id:
                raise NotFound(N_("No such person in this game."))
            prior = self._by_idem(s, game_id, idem)
            if prior is None:
                if revoke and person.id == actor.person_id:
                    raise InvalidInput(N_("You cannot revoke your own organizer link."))
                assert person.id is not None  # a stored person
                kind = get_kind(game.kind)
                state = kind.state_model.model_validate(game.state)
                info = PersonInfo(person.id, person.role, person.name)
                if revoke and not person.revoked:
                    state = kind.remove_person(state, info)
                elif not revoke and person.revoked:  # back in: the name must still be free
                    self._check_name_free(s, game_id, person.name)
                    state = kind.add_person(state, info)
                was_revoked = person.revoked
                person.version += 1
                person.nonce = new_nonce()
                person.revoked = revoke
                self._set_link(person)
                summary = Msg(
                    N_("Link of {name} revoked.") if revoke else N_("Link of {name} re-issued."),
                    {"name": person.name},
                )
                self._append(
                    s,
                    game,
                    "access",
                    actor,
                    {
                        "type": f"link.{operation}",
                        "id": person.id,
                        "role": person.role,
                        "name": person.name,
                        "was_revoked": was_revoked,
                    },
                    summary=summary,
                    label=summary,
                    subjects=[],
                    idem=idem,
                )
                self._store(s, game, kind, state)
            s.add(person)
        self.broker.publish(game_id, game.seq, access_changed=True)
        return Registered(person, self.link_of(person))

    def _set_link(self, person: Person) -> Link:
        assert person.id is not None
        link = derive_link(self.secret, person.id, person.version, person.nonce)
        if person.revoked:
            person.token_hash = person.code_hash = None
        else:
            person.token_hash = token_hash(link.token)
            person.code_hash = code_hash(link.code)
        return link

    def link_of(self, person: Person) -> Link:
        assert person.id is not None
        return derive_link(self.secret, person.id, person.version, person.nonce)

    # ------------------------------------------------------------------ actions

    def perform(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        *,
        idem_key: str,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
    ) -> Performed:
        """A command sent by `actor` (a person of this game; SYSTEM for follow-ups and timers)."""
        body = {"command": dict(payload), "rolls": dict(rolls or {}), "seen": seen_seq}
        idem = _idem(caller_of(actor), idem_key, "command", body)
        return self._perform(game_id, actor, payload, idem, seen_seq=seen_seq, rolls=rolls)

    def _perform(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        idem: IdemKey,
        *,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
        trusted: bool = False,
    ) -> Performed:
        """`trusted`: a command the platform itself sends on the actor's behalf (recording a
        linked game in its parent), which no client may send."""
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            check_text(payload)
            try:
                command = kind.parse(payload)
            except ValidationError as error:
                raise invalid_from(error) from None
            if not trusted and not kind.may_send(actor, command):
                raise NotAllowed(N_("You may not do that in this game."))
            state = self._state(game, kind, copy=False)  # apply copies before it changes
            self._check_references(s, game_id, kind, state, command)
            if seen_seq is not None:
                self._check_fresh(s, game, seen_seq, kind.subjects(state, command))
            now = self.clock.now()
            physical = game.settings.get("dice") == "physical"
            dice = CommandDice(
                self.dice,
                rolls or {},
                physical_only=physical,
                may_enter=kind.may_enter_dice(state, actor, physical),
            )
            label = kind.label(command, state)
            outcome = kind.apply(state, command, Context(actor, dice, now))
            dice.check_all_used()
            event = self._append(
                s,
                game,
                "command",
                actor,
                _dump(command),
                rolls=dice.rolls,
                result=outcome.result,
                summary=outcome.summary,
                label=label,
                subjects=kind.subjects(state, command),
                idem=idem,
                at=now,
            )
            self._store(s, game, kind, outcome.state)
            parent = game.settings.get("parent")
        # Committed: the next action on this game starts from this state without parsing it.
        self._remember(game_id, event.seq, outcome.state)
        self.broker.publish(game_id, event.seq)
        self._follow(
            game_id, parent, event.seq, kind.followups(game_id, outcome.state, outcome.result)
        )
        return Performed.of(event, kind, actor)

    def _check_references(
        self, s: Session, game_id: str, kind: GameKind[Any], state: BaseModel, command: Any
    ) -> None:
        """Everything a command names is of this game (its `Ref` fields): a person of another
        game, or a team, gladiator, card... the kind does not list, is refused before the rules
        see it, with the field it came in."""
        named = refs_of(command)
        if not named:
            return
        people = [v for what, _, v in named if what == "person"]
        found = set()
        if people:
            found = set(
                s.exec(
                    select(Person.id).where(Person.game_id == game_id, col(Person.id).in_(people))
                ).all()
            )
        known = kind.references(state)
        for what, field_name, value in named:
            if what == "person":
                if value not in found:
                    raise InvalidInput(
                        N_("Nobody with the number {id} takes part in this game."),
                        field=field_name,
                        id=value,
                    )
            elif value not in known.get(what, ()):
                raise InvalidInput(
                    N_("“{value}” is not part of this game."), field=field_name, value=value
                )

    def _follow(
        self,
        game_id: str,
        parent: str | None,
        seq: int,
        followups: list[dict[str, Any]],
    ) -> None:
        """Each follow-up goes to the game that opened this one (a match's league), as Arbitre,
        in its own transaction, keyed by the event that caused it in a namespace no client can
        write: sent again (`resend_followups`), it is applied once. A refusal, or a fault, is
        logged and left for a resend: the action that caused it is committed and answered."""
        for index, payload in enumerate(followups):
            if parent is None:
                log.warning("follow-up of %s/%s dropped: the game has no parent", game_id, seq)
                return
            key = _idem(SYSTEM_CALLER, f"follow:{game_id}:{seq}:{index}", "command", payload)
            try:
                self._perform(parent, SYSTEM, payload, key)
            except ArbitreError as error:
                log.warning("follow-up of %s/%s refused by %s: %s", game_id, seq, parent, error)
            except Exception:
                log.exception("follow-up of %s/%s to %s failed", game_id, seq, parent)

    def resend_followups(self, game_id: str, actor: Viewer) -> int:
        """Sends again what the game's last change sent to its parent (a league that refused a
        match result, then was corrected)."""
        if not actor.is_staff:
            raise NotAllowed(N_("You may not do that in this game."))
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None:
                raise NotFound(N_("No such game."))
            event = s.exec(
                select(Event)
                .where(Event.game_id == game_id, Event.type == "command")
                .order_by(col(Event.seq).desc())
                .limit(1)
            ).first()
        if event is None:
            return 0
        kind = get_kind(game.kind)
        state = self._state(game, kind)
        followups = kind.followups(game_id, state, event.result)
        self._follow(game_id, game.settings.get("parent"), event.seq, followups)
        return len(followups)

    def undo(
        self,
        game_id: str,
        actor: Viewer,
        *,
        idem_key: str,
        target_seq: int | None = None,
    ) -> Performed:
        """Undoes the last action not yet undone. `target_seq` is the action the screen named:
        if another came since, the screen is stale and nothing is undone."""
        if not actor.is_staff:
            raise NotAllowed(N_("Only referees undo actions."))
        idem = _idem(caller_of(actor), idem_key, "undo", {"target": target_seq})
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            target = self._undo_target(s, game_id)
            if target is None:
                raise RuleError(N_("There is nothing to undo."))
            if target_seq is not None and target.seq != target_seq:
                raise StaleScreen(
                    N_("The last action changed since your screen showed it: check and retry.")
                )
            if not actor.is_organizer and target.actor_id not in (None, actor.person_id):
                # A referee undoes their own actions; the organizer may undo anyone's.
                raise NotAllowed(
                    N_("Only {name} or the organizer can undo “{label}”."),
                    name=target.actor_name,
                    label=Msg.from_json(target.label),
                )
            # From the last snapshot before the target; the snapshots at or after it no longer
            # hold (they include what is being undone).
            start = s.exec(
                select(Event)
                .where(
                    Event.game_id == game_id,
                    Event.seq < target.seq,
                    col(Event.snapshot).is_not(None),
                )
                .order_by(col(Event.seq).desc())
                .limit(1)
            ).first()
            events = self._events(s, game_id, after=start.seq if start else 0)
            try:
                state = self.rebuild(game, events, skip={target.seq}, start=start)
            except (RuleError, ReplayDiverged):
                raise RuleError(
                    N_("“{label}” cannot be undone: later actions depend on it."),
                    label=Msg.from_json(target.label),
                ) from None
            label = Msg.from_json(target.label)
            summary = Msg(N_("Undone: {label}"), {"label": label})
            event = self._append(
                s,
                game,
                "undo",
                actor,
                {"type": "undo", "seq": target.seq},
                summary=summary,
                label=summary,
                subjects=target.subjects,
                idem=idem,
                undoes=target.seq,
            )
            target.undone_by = event.seq
            s.add(target)
            for stale in s.exec(
                select(Event).where(
                    Event.game_id == game_id,
                    Event.seq >= target.seq,
                    col(Event.snapshot).is_not(None),
                )
            ):
                stale.snapshot = None
                s.add(stale)
            self._store(s, game, kind, state)
        self.broker.publish(game_id, event.seq)
        return Performed.of(event, kind, actor)

    def run_due(self) -> int:
        """Applies what the clock triggered in every game that fell due; returns how many."""
        now = self.clock.now()
        with self.db.read() as s:
            ids = s.exec(select(Game.id).where(col(Game.next_deadline) <= now)).all()
        applied = 0
        for game_id in ids:
            applied += self._run_due_game(game_id)
        return applied

    def _run_due_game(self, game_id: str) -> int:
        now = self.clock.now()
        applied = 0
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            state = self._state(game, kind)
            for command in kind.due(state, now):
                dice = CommandDice(self.dice)
                label = kind.label(command, state)
                outcome = kind.apply(state, command, Context(SYSTEM, dice, now))
                self._append(
                    s,
                    game,
                    "command",
                    SYSTEM,
                    _dump(command),
                    rolls=dice.rolls,
                    result=outcome.result,
                    summary=outcome.summary,
                    label=label,
                    subjects=None,
                    at=now,
                )
                state = outcome.state
                applied += 1
            self._store(s, game, kind, state)
        if applied:
            self.broker.publish(game_id, game.seq)
        return applied

    # ------------------------------------------------------------------ reading

    def load(self, game_id: str) -> Loaded:
        """A game and its state, for reading: the state is the one this process keeps for the
        game's sequence number, shared by every reader, so views must not change it (the tests
        render every page and check). The stored state is read and parsed only when the game
        moved since this process last saw it."""
        with self.db.read() as s:
            game = s.get(Game, game_id, options=[defer(Game.state)])  # type: ignore[arg-type]
            if game is None:
                raise NotFound(N_("No such game."))
            kind = get_kind(game.kind)
            return Loaded(game, kind, self._state(game, kind, copy=False))

    def seq_of(self, game_id: str) -> int:
        """A game's sequence number alone, without reading its state (a stream opening)."""
        with self.db.read() as s:
            seq = s.exec(select(Game.seq).where(Game.id == game_id)).first()
        if seq is None:
            raise NotFound(N_("No such game."))
        return seq

    def person_by_token(self, token: str) -> Person:
        with self.db.read() as s:
            person = s.exec(select(Person).where(Person.token_hash == token_hash(token))).first()
        if person is None or person.revoked:
            raise LinkInvalid(N_("This link is no longer valid."))
        return person

    def person_by_code(self, code: str) -> Person:
        with self.db.read() as s:
            person = s.exec(select(Person).where(Person.code_hash == code_hash(code))).first()
        if person is None or person.revoked:
            raise LinkInvalid(N_("This code is not valid."), field="code")
        return person

    def viewer(self, game_id: str, person_id: int, version: int) -> Viewer | None:
        """The viewer a session names, if the person still holds that version of their link."""
        with self.db.read() as s:
            person = s.get(Person, person_id)
        if person is None or person.game_id != game_id or person.revoked:
            return None
        if person.version != version:
            return None
        return Viewer(person.role, person.id, person.name)

    def people(self, game_id: str) -> list[Person]:
        with self.db.read() as s:
            return list(
                s.exec(select(Person).where(Person.game_id == game_id).order_by(col(Person.id)))
            )

    def person(self, game_id: str, person_id: int) -> Person:
        with self.db.read() as s:
            person = s.get(Person, person_id)
        if person is None or person.game_id != game_id:
            raise NotFound(N_("No such person in this game."))
        return person

    def last_undoable(self, game_id: str) -> tuple[int, Msg] | None:
        with self.db.read() as s:
            target = self._undo_target(s, game_id)
        return (target.seq, Msg.from_json(target.label)) if target else None

    def log(self, game_id: str, viewer: Viewer, after: int = 0) -> list[dict[str, Any]]:
        loaded = self.load(game_id)
        with self.db.read() as s:
            events = self._events(s, game_id, after=after)
        shown = []
        for event in events:
            view = loaded.kind.log_view(logged(event), viewer)
            if view is not None:
                shown.append(view)
        return shown

    def recent_summaries(self, game_id: str, limit: int = 5) -> list[tuple[int, Msg, bool]]:
        """The latest actions' sentences, for staff screens."""
        with self.db.read() as s:
            events = s.exec(
                select(Event)
                .where(Event.game_id == game_id, col(Event.type).in_(("command", "undo")))
                .order_by(col(Event.seq).desc())
                .limit(limit)
            ).all()
        return [(e.seq, Msg.from_json(e.summary), e.undone_by is not None) for e in events]

    # ------------------------------------------------------------------ replay

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

    def verify(self, game_id: str) -> bool:
        """Does replaying the log give exactly the stored state?"""
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None:
                raise NotFound(N_("No such game."))
            events = self._events(s, game_id)
        rebuilt = self.rebuild(game, events).model_dump(mode="json")
        return bool(rebuilt == game.state)

    # ------------------------------------------------------------------ internals

    def _lock(self, s: Session, game_id: str) -> Game:
        statement = select(Game).where(Game.id == game_id)
        if not self.db.is_sqlite:
            statement = statement.with_for_update()
        game = s.exec(statement).first()
        if game is None:
            raise NotFound(N_("No such game."))
        return game

    def _by_idem(self, s: Session, game_id: str, idem: IdemKey) -> Event | None:
        """The event this caller's key already made in this game, if the same request did."""
        prior = s.exec(
            select(Event).where(Event.game_id == game_id, Event.idem_key == idem.stored)
        ).first()
        if prior is not None:
            idem.check(prior.idem_fingerprint)
        return prior

    def _events(self, s: Session, game_id: str, after: int = 0) -> list[Event]:
        return list(
            s.exec(
                select(Event)
                .where(Event.game_id == game_id, Event.seq > after)
                .order_by(col(Event.seq))
            )
        )

    def _undo_target(self, s: Session, game_id: str) -> Event | None:
        return s.exec(
            select(Event)
            .where(
                Event.game_id == game_id,
                Event.type == "command",
                col(Event.undone_by).is_(None),
            )
            .order_by(col(Event.seq).desc())
            .limit(1)
        ).first()

    def _check_fresh(
        self, s: Session, game: Game, seen_seq: int, subjects: list[int] | None
    ) -> None:
        """Refuses an action computed on a screen that missed a change touching the same people."""
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
            if touched is None or event.subjects is None or touched & set(event.subjects):
                raise StaleScreen(
                    N_(
                        "The game changed since your screen was shown ({summary}): check and retry."
                    ),
                    summary=Msg.from_json(event.summary),
                )

    def _append(
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

    def _state(self, game: Game, kind: GameKind[Any], *, copy: bool = True) -> BaseModel:
        """The game's state as its kind's model, parsed once per sequence number. Without
        `copy`, the cached object itself: for the rules, which never change their input."""
        with self._cache_lock:
            cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.seq:
            return cached[1].model_copy(deep=True) if copy else cached[1]
        state = kind.state_model.model_validate(game.state)
        self._remember(game.id, game.seq, state)
        return state.model_copy(deep=True) if copy else state

    def _remember(self, game_id: str, seq: int, state: BaseModel) -> None:
        """Only ever called with a committed sequence number: a rolled-back one could come
        again with another state."""
        with self._cache_lock:
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[game_id] = (seq, state)

    def _store(self, s: Session, game: Game, kind: GameKind[Any], state: BaseModel) -> None:
        game.state = state.model_dump(mode="json")
        appended: Event | None = s.info.get("appended")
        if appended is not None and appended.seq == game.seq and game.seq % SNAPSHOT_EVERY == 0:
            appended.snapshot = game.state
        game.status = kind.status(state)
        game.next_deadline = kind.next_deadline(state)


def _idem(caller: str, key: str, operation: str, body: Mapping[str, Any]) -> IdemKey:
    return idempotency.idem_key(caller, key, operation, body)


def _dump(command: Any) -> dict[str, Any]:
    if isinstance(command, BaseModel):
        return command.model_dump(mode="json")
    return dict(command)
