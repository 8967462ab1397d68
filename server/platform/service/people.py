"""Games and people: creating a game, registering people, their links and the invitation."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy import func
from sqlmodel import Session, col, select

from server.errors import (
    InvalidInput,
    LinkInvalid,
    NotAllowed,
    NotFound,
    SeatTaken,
)
from server.i18n import N_, Msg
from server.models import Event, Game, Person
from server.platform.access import (
    Link,
    code_hash,
    derive_invitation,
    derive_link,
    new_nonce,
    same_token,
    token_hash,
)
from server.platform.idempotency import (
    ANONYMOUS,
    AlreadyCreated,
    IdemKey,
    caller_of,
)
from server.platform.kinds import (
    KINDS,
    SYSTEM,
    GameKind,
    PersonInfo,
    Viewer,
    get_kind,
)
from server.platform.service.inputs import (
    clean_name,
    invalid_from,
)
from server.platform.service.store import (
    DICE_MODES,
    Store,
    make_idem,
)

JOINED = 1  # the version of a seat as its person made it by the invitation (never re-issued)


@dataclass(frozen=True)
class Registered:
    person: Person
    link: Link


def holds_a_seat(person: Person) -> bool:
    """Whether a person's link is a ticket to claim a seat, once (platform.md, "Access"): every
    person's but the organizer's, whose link opens the game on each of their own devices."""
    return person.role != "organizer"


def handed(person: Person, settings: Mapping[str, Any]) -> bool:
    """Whether another game hands this seat to its person (a league's match: each coach's seat
    goes to them through the league, `handoff`), so that its ticket is never the organizer's."""
    return (settings.get("delegates") or {}).get(str(person.id)) not in (None, "staff")


def shown_link(person: Person, settings: Mapping[str, Any]) -> bool:
    """Whether the organizer may be shown this person's link (a page, a slip, a QR code, the
    API's list, the answer to a re-issue), `settings` being their game's: the organizer's own,
    and a seat not yet taken that no other game hands; never a taken seat's key."""
    if person.revoked or handed(person, settings):
        return False
    return not holds_a_seat(person) or person.claimed_at is None


def joined(kind: GameKind[Any], role: str, name: str) -> Msg:
    return Msg(N_("{name} joins as {role}."), {"name": name, "role": Msg(kind.role_title(role))})


def seat_taken(person: Person) -> SeatTaken:
    """The answer to a ticket whose seat another phone took: the seat is named (whoever holds
    the ticket knows whose it is), its holder never."""
    error = SeatTaken(
        N_(
            "The seat of {name} is already taken: its link was opened on another phone, and "
            "opens nothing for anyone else."
        ),
        name=person.name,
    )
    error.game_id, error.person_id = person.game_id, person.id
    return error


def link_changed(name: str, *, revoke: bool, by: Msg | str = "") -> Msg:
    """What the journal says, to every person of the game, of a link revoked or a seat
    re-issued: a swap of seats is never silent."""
    if revoke:
        return Msg(N_("Link of {name} revoked."), {"name": name})
    if by:
        return Msg(N_("The seat of {name} was re-issued by {by}."), {"name": name, "by": by})
    return Msg(N_("Link of {name} re-issued."), {"name": name})


class People:
    """Games and their people: creation, joining, invitations, links."""

    def __init__(self, store: Store) -> None:
        self.store = store

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
        idem = make_idem(caller, idem_key, "create", body)
        try:
            kind_settings = kind.settings_model.model_validate(settings or {})
        except ValidationError as error:
            raise invalid_from(error) from None
        with self.store.db.write() as s:
            existing = self.already_created(s, idem)
            if existing is not None:
                if caller == ANONYMOUS:
                    raise AlreadyCreated(
                        N_(
                            "A game was already created with this idempotency key: its "
                            "organizer link was in the first answer."
                        )
                    )
                return existing, Registered(
                    self.organizer_of(s, existing), self.organizer_link(s, existing)
                )
            return self.new_game(
                s, kind, name, organizer_name, {"dice": dice}, kind_settings, idem, []
            )

    def already_created(self, s: Session, idem: IdemKey) -> Game | None:
        existing = s.exec(select(Game).where(Game.creation_key == idem.stored)).first()
        if existing is not None:
            idem.check(existing.creation_fingerprint)
        return existing

    def organizer_of(self, s: Session, game: Game) -> Person:
        return s.exec(
            select(Person)
            .where(Person.game_id == game.id, Person.role == "organizer")
            .order_by(col(Person.id))
            .limit(1)
        ).one()

    def organizer_link(self, s: Session, game: Game) -> Link:
        return self.link_of(self.organizer_of(s, game))

    def new_game(
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
        now = self.store.clock.now()
        state = kind.new_state(kind_settings)
        game = Game(
            id=new_game_id(),
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

    def register(
        self, game_id: str, actor: Viewer, role: str, name: str, *, idem_key: str
    ) -> Registered:
        if not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer registers people."))
        name = clean_name(name)
        idem = make_idem(caller_of(actor), idem_key, "register", {"role": role, "name": name})
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            prior = self.store.by_idem(s, game_id, idem)
            if prior is not None:
                return self._registered(s, prior)
            kind = get_kind(game.kind)
            if role not in kind.registrable_roles():
                raise InvalidInput(N_("Unknown role: “{role}”."), field="role", role=role)
            self._check_name_free(s, game_id, name)
            registered = self._add_person(s, game, kind, actor, role, name, idem)
        self.store.committed(game_id, game.seq)
        return registered

    def _registered(self, s: Session, prior: Event) -> Registered:
        person = s.get(Person, prior.command["id"])
        assert person is not None  # the fingerprint matched: a "person.add" event
        return Registered(person, self.link_of(person))

    def _check_room(self, s: Session, game_id: str, kind: GameKind[Any], role: str) -> None:
        """A game holds at most the people of a role its kind allows (`people_limit`)."""
        limit = kind.people_limit(role)
        count = s.exec(
            select(func.count()).where(
                Person.game_id == game_id,
                Person.role == role,
                Person.revoked == False,  # noqa: E712 (SQL)
            )
        ).one()
        if count >= limit:
            raise InvalidInput(
                N_("This game has no room for another {role}: {count} at most."),
                field="role",
                role=Msg(kind.role_title(role)),
                count=limit,
            )

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

    def invitation(self, game: Game) -> str | None:
        """The invitation token (192 bits from the server secret and a nonce kept with the game),
        or None when the invitation is closed."""
        nonce = game.settings.get("invite")
        if not nonce or get_kind(game.kind).open_role is None:
            return None
        return derive_invitation(self.store.secret, game.id, str(nonce))

    def set_invitation(self, game_id: str, actor: Viewer, *, open_it: bool) -> Game:
        if not actor.is_organizer:
            raise NotAllowed(N_("Only the organizer registers people."))
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            if get_kind(game.kind).open_role is None:
                raise InvalidInput(N_("This game has no invitation link."))
            game.settings = {**game.settings, "invite": new_nonce() if open_it else None}
            s.add(game)
            return game

    def game_by_invitation(self, game_id: str, token: str) -> Game:
        with self.store.db.read() as s:
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
        idem = make_idem(caller, idem_key, "join", {"name": name})
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            if not self._invited(game, token):
                raise LinkInvalid(N_("This invitation is closed or was renewed."))
            prior = self.store.by_idem(s, game_id, idem)
            if prior is not None:
                if caller == ANONYMOUS:
                    raise AlreadyCreated(
                        N_("You already joined with this key: your link was in the first answer.")
                    )
                registered = self._registered(s, prior)
                if registered.person.version != JOINED or registered.person.revoked:
                    # Re-issued since (a lost phone) or revoked: the seat is no longer the one
                    # this browser made, and its retry must not take it back.
                    raise LinkInvalid(
                        N_("Your seat was re-issued or revoked since: ask the organizer.")
                    )
                return registered
            kind = get_kind(game.kind)
            role = kind.open_role
            assert role is not None
            self._check_name_free(s, game_id, name)
            registered = self._add_person(s, game, kind, Viewer(role, None, name), role, name, idem)
            # Who joins takes the seat they make: nobody else ever had its link.
            person = registered.person
            person.claimed_at = self.store.clock.now()
            self.set_link(person)
            s.add(person)
        self.store.committed(game_id, game.seq)
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
        if role != "organizer":
            self._check_room(s, game.id, kind, role)
        now = self.store.clock.now()
        person = Person(game_id=game.id, role=role, name=name, nonce=new_nonce(), created_at=now)
        s.add(person)
        s.flush()
        assert person.id is not None
        link = self.set_link(person)
        state = kind.state_model.model_validate(game.state)
        state = kind.add_person(state, PersonInfo(person.id, role, name))
        summary = joined(kind, role, name)
        self.store.append(
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
        self.store.save_state(s, game, kind, state)
        return Registered(person, link)

    def ticket(self, token: str) -> Person:
        """The person whose link (a seat's ticket, the organizer's link, a seat's own key) this
        token is, read only: `SeatTaken` for a ticket whose seat another phone took."""
        with self.store.db.read() as s:
            return self._ticket(s, token, None)

    def _ticket(self, s: Session, token: str | None, code: str | None) -> Person:
        if token is not None:
            found = select(Person).where(Person.token_hash == token_hash(token))
        else:
            found = select(Person).where(Person.code_hash == code_hash(code or ""))
        person = s.exec(found).first()
        if person is not None and not person.revoked:
            return person
        if token is not None:
            taken = s.exec(select(Person).where(Person.ticket_hash == token_hash(token))).first()
            if taken is not None and not taken.revoked:
                raise seat_taken(taken)
            raise LinkInvalid(N_("This link is no longer valid."))
        raise LinkInvalid(N_("This code is not valid, or its seat is already taken."), field="code")

    def claim(self, token: str | None = None, code: str | None = None) -> Registered:
        """The seat a ticket (a link's token, or its join code) opens, taken by whoever opens it
        first: the seat gets a key of its own (a new version of its link), which only they are
        handed, and the ticket then opens nothing (`SeatTaken`). The organizer's link, and a
        taken seat's own key, open as they are."""
        with self.store.db.write() as s:
            person = self._ticket(s, token, code)
            if not holds_a_seat(person) or person.claimed_at is not None:
                return Registered(person, self.link_of(person))
            self.store.lock(s, person.game_id)  # two phones opening one ticket: one seat
            s.refresh(person)
            if person.claimed_at is not None or person.revoked:
                raise seat_taken(person)
            # Read before the lock: a re-issue in between made this ticket an old one.
            current = (
                person.token_hash == token_hash(token)
                if token is not None
                else person.code_hash == code_hash(code or "")
            )
            if not current:
                raise LinkInvalid(N_("This link is no longer valid."))
            person.ticket_hash = person.token_hash
            person.claimed_at = self.store.clock.now()
            person.version += 1
            person.nonce = new_nonce()
            link = self.set_link(person)
            s.add(person)
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
        idem = make_idem(caller_of(actor), idem_key, operation, {"person": person_id})
        handed_on: list[Game] = []
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            person = s.get(Person, person_id)
            if person is None or person.game_id != game_id:
                raise NotFound(N_("No such person in this game."))
            prior = self.store.by_idem(s, game_id, idem)
            if prior is None:
                if revoke and person.id == actor.person_id:
                    raise InvalidInput(N_("You cannot revoke your own organizer link."))
                self._change_seat(s, game, person, actor, idem, revoke=revoke)
                # The seats other games hand this person (a league coach's seat in each of
                # their matches) let go of their phones too: whoever holds this seat next
                # takes those from it, and the phone that held it keeps none of them.
                for child, seat in self._handed_to(s, game_id, person):
                    organizer = self.organizer_of(s, child)
                    assert organizer.id is not None
                    by = Viewer(organizer.role, organizer.id, organizer.name)
                    self._change_seat(s, child, seat, by, None, revoke=False)
                    handed_on.append(child)
            s.add(person)
        self.store.committed(game_id, game.seq, access_changed=True)
        for child in handed_on:
            self.store.committed(child.id, child.seq, access_changed=True)
        return Registered(person, self.link_of(person))

    def _handed_to(self, s: Session, game_id: str, person: Person) -> list[tuple[Game, Person]]:
        """The games this game opened, each with the seat it hands this person (`handed`), and
        for one of its staff the staff's seat (a match's organizer, which each of the league's
        staff comes in by): all of them to be taken from the league again."""
        found = []
        staff = Viewer(person.role).is_staff
        children = select(Game).where(Game.settings["parent"].as_string() == game_id)
        for child in s.exec(children.order_by(col(Game.created_at))):
            delegates = child.settings.get("delegates") or {}
            for seat_id, delegate in delegates.items():
                if delegate == person.id or (staff and delegate == "staff"):
                    self.store.lock(s, child.id)
                    seat = s.get(Person, int(seat_id))
                    if seat is not None and seat.game_id == child.id and not seat.revoked:
                        found.append((child, seat))
        return found

    def _change_seat(
        self,
        s: Session,
        game: Game,
        person: Person,
        actor: Viewer,
        idem: IdemKey | None,
        *,
        revoke: bool,
    ) -> None:
        """A seat revoked or re-issued, told in its game's journal, in the caller's write."""
        assert person.id is not None  # a stored person
        kind = get_kind(game.kind)
        state = kind.state_model.model_validate(game.state)
        info = PersonInfo(person.id, person.role, person.name)
        if revoke and not person.revoked:
            state = kind.remove_person(state, info)
        elif not revoke and person.revoked:  # back in: the name must still be free
            self._check_name_free(s, game.id, person.name)
            state = kind.add_person(state, info)
        was_revoked = person.revoked
        person.version += 1
        person.nonce = new_nonce()
        person.revoked = revoke
        # A new ticket: the phone that held the seat lets go, and the seat is free to be taken
        # again (the kind's secrets of the seat come with it: a lost phone).
        person.claimed_at = person.ticket_hash = None
        self.set_link(person)
        summary = link_changed(person.name, revoke=revoke, by=Msg(N_("the organizer")))
        self.store.append(
            s,
            game,
            "access",
            actor,
            {
                "type": f"link.{'revoke' if revoke else 'reissue'}",
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
        self.store.save_state(s, game, kind, state)
        s.add(person)

    def set_link(self, person: Person) -> Link:
        assert person.id is not None
        link = derive_link(self.store.secret, person.id, person.version, person.nonce)
        if person.revoked:
            person.token_hash = person.code_hash = None
        else:
            person.token_hash = token_hash(link.token)
            # A join code claims a seat: a taken seat's own key has none.
            taken = holds_a_seat(person) and person.claimed_at is not None
            person.code_hash = None if taken else code_hash(link.code)
        return link

    def link_of(self, person: Person) -> Link:
        assert person.id is not None
        return derive_link(self.store.secret, person.id, person.version, person.nonce)


def new_game_id() -> str:
    """A game's id: 72 random bits, never starting with "-" (a command line would read
    `python -m server move -m0wo…` as an option: a flake of the command-line tests, 1 in 64)."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id
