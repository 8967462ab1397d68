"""What a game kind gives the platform, and the registry of kinds.

A kind's rules are pure: `apply(state, command, ctx)` takes the state, a typed command, the dice
and the time, and returns the new state and what happened. The platform does the rest: who may
send what, the transaction, the log, idempotency, undo, replay and live updates.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from fastapi import APIRouter
from pydantic import BaseModel, TypeAdapter

from server.platform.dice import Dice
from server.platform.i18n import N_, Msg

STAFF_ROLES = ("organizer", "referee")
ROLE_TITLES = {"organizer": N_("organizer"), "referee": N_("referee"), "player": N_("player")}


@dataclass(frozen=True)
class Viewer:
    """Who is looking or acting: a role and, for a registered person, their id."""

    role: str
    person_id: int | None = None
    name: str = ""

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF_ROLES

    @property
    def is_organizer(self) -> bool:
        return self.role == "organizer"


PUBLIC = Viewer("public")
SYSTEM = Viewer("system", name="Arbitre")


@dataclass(frozen=True)
class PersonInfo:
    id: int
    role: str
    name: str


@dataclass
class Context:
    actor: Viewer
    dice: Dice
    now: datetime


S = TypeVar("S", bound=BaseModel)


@dataclass
class Outcome(Generic[S]):
    state: S
    summary: Msg
    result: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LoggedEvent:
    """An event as a kind sees it when deciding what of the log a viewer may read."""

    seq: int
    type: str
    at: datetime
    actor_role: str
    actor_name: str
    command: Mapping[str, Any]
    rolls: list[dict[str, Any]]
    result: Mapping[str, Any]
    summary: Msg
    undone: bool


class GameKind(ABC, Generic[S]):
    key: ClassVar[str]
    title: ClassVar[str]  # message id
    tagline: ClassVar[str]  # message id
    # Roles the organizer may register, referees excluded (always there).
    roles: ClassVar[tuple[str, ...]] = ("player",)
    allows_referees: ClassVar[bool] = True
    # The role people may take by themselves through the game's shared invitation link (a
    # league's coaches); None: only the organizer registers people.
    open_role: ClassVar[str | None] = None
    # How many of the latest log entries a personal page shows, read through `log_view` (a
    # self-refereed match shows each coach the story with their own private notes).
    page_log: ClassVar[int] = 0
    role_titles: ClassVar[Mapping[str, str]] = {}
    state_model: type[S]
    settings_model: type[BaseModel]
    commands: TypeAdapter[Any]

    # --- the rules (pure) ---
    @abstractmethod
    def new_state(self, settings: BaseModel) -> S:
        """The state of a game just created, from its settings."""

    def add_person(self, state: S, person: PersonInfo) -> S:
        return state

    @abstractmethod
    def apply(self, state: S, command: Any, ctx: Context) -> Outcome[S]:
        """The rules: the new state and what happened, or a RuleError and nothing changed.
        Never changes `state` itself (copy it first): the platform keeps it in its cache."""

    def status(self, state: S) -> str:
        """ "setup", "running" or "finished"."""
        return "running"

    def next_deadline(self, state: S) -> datetime | None:
        return None

    def due(self, state: S, now: datetime) -> list[Any]:
        """Commands the clock triggers by itself (a zone shrinking, a countdown ending)."""
        return []

    def followups(
        self, game_id: str, state: S, result: Mapping[str, Any]
    ) -> list[tuple[str, dict[str, Any]]]:
        """Commands this change sends to other games once committed (a finished match to its
        league): (game id, command), performed by Arbitre itself."""
        return []

    # --- access and views ---
    def may_send(self, viewer: Viewer, command: Any) -> bool:
        return viewer.is_staff

    def subjects(self, state: S, command: Any) -> list[int] | None:
        """The people a command concerns (for the stale-screen check); None: the whole game."""
        return None

    @abstractmethod
    def view(self, state: S, viewer: Viewer, now: datetime) -> dict[str, Any]:
        """What this viewer may see, and nothing more: pages and the API are built from it."""

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        """What of one event this viewer may read; by default the staff read all, others nothing."""
        if viewer.is_staff:
            return full_event(event)
        return None

    def label(self, command: Any, state: S) -> Msg:
        """A short name of the action, for the undo button ("assault of Léa on Hugo")."""
        return Msg(str(getattr(command, "type", "action")))

    # --- pages ---
    def registrable_roles(self) -> tuple[str, ...]:
        """The roles the organizer may give: referees (where the game has any), then the kind's."""
        return (("referee",) if self.allows_referees else ()) + self.roles

    def role_title(self, role: str) -> str:
        """The message id naming a role ("referee", "fighter", "coach")."""
        return self.role_titles.get(role) or ROLE_TITLES.get(role, role)

    def template(self, page: str) -> str:
        return f"{self.key}/{page}.html"

    def page_for(self, viewer: Viewer) -> str:
        """Which page a viewer's link opens: the staff console, a personal page, the board."""
        if viewer.is_staff:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    def template_globals(self) -> dict[str, Any]:
        """Helpers the kind's templates use (titles of its terms, ...)."""
        return {}

    def router(self) -> APIRouter | None:
        """Routes of the kind's own (a card catalogue, a map upload...)."""
        return None

    def parse(self, command: Mapping[str, Any]) -> Any:
        return self.commands.validate_python(command)


def full_event(event: LoggedEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "at": event.at.isoformat(),
        "actor": {"role": event.actor_role, "name": event.actor_name},
        "command": dict(event.command),
        "rolls": event.rolls,
        "result": dict(event.result),
        "summary": event.summary.render(),
        "undone": event.undone,
    }


KINDS: dict[str, GameKind[Any]] = {}


def register(kind: GameKind[Any]) -> GameKind[Any]:
    KINDS[kind.key] = kind
    return kind


def get_kind(key: str) -> GameKind[Any]:
    return KINDS[key]
