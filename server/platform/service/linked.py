"""Operations across games: a match opened from its league, and the coach's way into it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from server.errors import (
    LinkInvalid,
    NotFound,
)
from server.i18n import N_
from server.models import Game, Person
from server.platform.access import (
    Link,
)
from server.platform.idempotency import (
    SYSTEM_CALLER,
    caller_of,
)
from server.platform.kinds import (
    LinkedGame,
    Viewer,
    get_kind,
)
from server.platform.service.actions import (
    Actions,
)
from server.platform.service.inputs import (
    clean_name,
    invalid_from,
)
from server.platform.service.people import People
from server.platform.service.reads import Reads
from server.platform.service.store import (
    Store,
    make_idem,
)


class Linked:
    """A game opened from another (a league's match), and its result handed back."""

    def __init__(self, store: Store, reads: Reads, roster: People, actions: Actions) -> None:
        self.store, self.reads, self.roster, self.actions = store, reads, roster, actions

    def open_linked(
        self, parent_id: str, actor: Viewer, request: Mapping[str, Any], *, idem_key: str
    ) -> str:
        """Opens the game the parent's kind plans for this request; returns its id. A retry with
        the same key (and request) opens nothing more."""
        loaded = self.reads.load(parent_id)
        body = {"parent": parent_id, "request": dict(request)}
        idem = make_idem(caller_of(actor), idem_key, "open_linked", body)
        plan: LinkedGame = loaded.kind.linked_game(parent_id, loaded.state, actor, request)
        child_kind = get_kind(plan.kind)
        try:
            child_settings = child_kind.settings_model.model_validate(plan.settings)
        except ValidationError as error:
            raise invalid_from(error) from None
        creation = make_idem(SYSTEM_CALLER, f"linked:{idem.stored}", "create", body)
        with self.store.db.write() as s:
            parent = self.store.lock(s, parent_id)
            child = self.roster.already_created(s, creation)
            if child is None:
                # "organizer" as a delegate: the parent's organizer (a league owner who keeps a
                # team plays it as its coach, whoever opens the match); the child's organizer is
                # named after the parent's.
                owner = self.roster.organizer_of(s, parent)
                people = [(role, name) for role, name, _ in plan.people]
                child, _ = self.roster.new_game(
                    s,
                    child_kind,
                    clean_name(plan.name, limit=120),
                    clean_name(owner.name),
                    {"dice": loaded.game.settings.get("dice", "server"), "parent": parent_id},
                    child_settings,
                    creation,
                    people,
                )
                persons = self.reads.people_in(s, child.id)
                # The organizer's seat: the parent's staff's, or nobody's (`LinkedGame.staffed`).
                staff = "staff" if plan.staffed else "nobody"
                delegates: dict[str, int | str] = {str(persons[0].id): staff}
                for person, (_, _, delegate) in zip(persons[1:], plan.people, strict=True):
                    delegates[str(person.id)] = (
                        owner.id if delegate == "organizer" and owner.id else delegate
                    )
                child.settings = {**child.settings, "delegates": delegates}
                s.add(child)
        ids = [p.id for p in self.reads.people(child.id)]
        record = plan.record(child.id, [i for i in ids if i is not None])
        record_key = make_idem(SYSTEM_CALLER, f"linked:{idem.stored}:record", "command", record)
        self.actions.perform_keyed(parent_id, actor, record, record_key, trusted=True)
        return child.id

    def handoff(self, parent_id: str, actor: Viewer, child_id: str) -> Link | None:
        """The link of the person of a linked game whom this viewer of the parent acts as (a
        league's coach in their match, the league's staff as the match's organizer), or None (a
        spectator). Only what the platform recorded when it opened the game decides."""
        with self.store.db.read() as s:
            child = s.get(Game, child_id)
            if child is None or child.settings.get("parent") != parent_id:
                raise NotFound(N_("No such game."))
            delegates: dict[str, Any] = child.settings.get("delegates") or {}
            # Who plays in it plays as themself (a league owner coaching a team of this match is
            # that team's coach there, not its staff); the parent's staff who play none of its
            # sides come in as its staff.
            own = next((int(p) for p, d in delegates.items() if d == actor.person_id), None)
            staff = next((int(p) for p, d in delegates.items() if d == "staff"), None)
            person_id = own if own is not None else staff if actor.is_staff else None
            if person_id is None or actor.person_id is None:
                return None
            person = s.get(Person, person_id)
        if person is None or person.game_id != child_id or person.revoked:
            raise LinkInvalid(N_("This link is no longer valid."))
        return self.roster.link_of(person)
