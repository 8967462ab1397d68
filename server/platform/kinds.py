"""What a game kind gives the platform, and the registry of kinds.

A kind's rules are pure: `apply(state, command, ctx)` takes the state, a typed command, the dice
and the time, and returns the new state and what happened. The platform does the rest: who may
send what, the transaction, the log, idempotency, undo, replay and live updates.
"""

from __future__ import annotations

import functools
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, Field, TypeAdapter

from server.errors import NotAllowed, RuleError
from server.i18n import N_, Msg, joined
from server.models import Event
from server.platform.dice import SERVER, Dice
from server.platform.now import Now

STAFF_ROLES = ("organizer", "referee")
# Who may send a move (`Move.by`): roles; the staff (the organizer and the referees); "system" for
# Arbitre acting for another game (a finished match telling its league). Nobody: the clock's or
# the platform's own command (`GameKind.internal`).
STAFF = frozenset(STAFF_ROLES)
ORGANIZER = frozenset({"organizer"})
PLAYERS = frozenset({"player"})
NOBODY: frozenset[str] = frozenset()
# People of one role a game holds at most, where its kind sets no number of its own.
PEOPLE_PER_ROLE = 64
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

# What a part of a view depends on, besides the state: nothing ("game": the same for everyone,
# the public board), being staff or the organizer, the viewer's side, or the viewer themself.
Scope = Literal["game", "staff", "organizer", "side", "person"]


@dataclass(frozen=True)
class Part(Generic[S]):
    """One part of what viewers see, with what it depends on declared. `build` gives the part's
    keys for this viewer, or None when the viewer has no such part (a stranger has no "me").
    Two viewers with the same `part_key` get the same part: this is what lets a change
    re-render a part once for all who share it (`tests/test_contract.py` holds kinds to it)."""

    name: str
    scope: Scope
    build: Callable[[S, Viewer, datetime], dict[str, Any] | None]


# The copies of parts already built for one state, by (part name, part key).
Built = dict[tuple[str, str], dict[str, Any] | None]


@dataclass(frozen=True)
class Projection:
    """A viewer's view, the copies of parts (name, key) it is made of, and those copies as
    built, in the same order (the view is them put together)."""

    copies: tuple[tuple[str, str], ...]
    view: dict[str, Any]
    made: tuple[dict[str, Any], ...]


@dataclass
class Outcome(Generic[S]):
    """What `GameKind.apply` gives the platform: the new state, and what the handler did."""

    state: S
    summary: Msg
    result: dict[str, Any] = field(default_factory=dict)


@dataclass
class Applied:
    """What one rule handler did to the state it was given: the sentence to read aloud (everyone
    who reads the log reads it), the facts the log keeps (the dice are in the context), and the
    private notes: sentences only one audience reads (a side, a person), by the audience's key.

    Private notes are the platform's convention: stored with the event under `result["private"]`
    and given to a viewer by `log_entry` for the audiences `GameKind.audiences` grants
    that viewer, and to nobody else; a kind's own `log_view` never hands them out."""

    summary: Msg
    result: dict[str, Any] = field(default_factory=dict)
    private: dict[str, list[Msg]] = field(default_factory=dict)

    def logged_result(self) -> dict[str, Any]:
        notes = {k: [m.to_json() for m in ms] for k, ms in self.private.items() if ms}
        return {**self.result, "private": notes} if notes else dict(self.result)


# Every game's rules have one signature: a handler changes the state it is given (a copy the
# kind made) for one command, with the actor, the dice and the time in `ctx`.
Handler = Callable[[Any, Any, Context], Applied]


@dataclass(frozen=True)
class Phase:
    """A part of a game where some moves may be made: whether a state is in it, and what a move
    made elsewhere is told (a message id)."""

    holds: Callable[[Any], bool]
    refusal: str


@dataclass(frozen=True)
class Move:
    """One thing a game lets someone do, declared once: the command it is sent as, the rule that
    applies it (a `Handler`, or a rule of the kind's `engine`), who may send it (`by`: roles,
    `STAFF`, `NOBODY`), the phases it may be made in (each must hold; checked before the rule),
    and the words naming it on an undo button and in a consent (a message id). The platform
    derives from a kind's list the command union, the handlers, `internal`, `check`, `may_send`
    and `label` (`GameKind.__init_subclass__`)."""

    command: type[BaseModel]
    rule: Callable[..., Any]
    by: frozenset[str] = STAFF
    when: tuple[Phase, ...] = ()
    label: str | None = None


@dataclass(frozen=True)
class LinkedGame:
    """A game that another one opens (a league's match), as the parent's kind plans it: the
    platform creates it with its organizer (named after the parent's, acting for the parent's
    staff) and `people`, each acting for a person of the parent (`delegate`: that person's id,
    "organizer" for the parent's organizer, or "staff" for the parent's staff), then performs
    `record(game id, the new people's ids in order)` in the parent, a command no client may send.
    `staffed`: whether the parent's staff come in as the game's staff (its organizer); not where
    they would read a side's secrets that the game keeps from its own players (a self-refereed
    match: its sides' secrets are theirs alone, and the league's owner, who registers the staff,
    may play one of them)."""

    kind: str
    name: str
    settings: dict[str, Any]
    people: Sequence[tuple[str, str, int | str]]  # role, name, delegate
    record: Callable[[str, list[int]], dict[str, Any]]
    staffed: bool = True


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
    actor_id: int | None = None


def copied(state: S) -> S:
    """A deep copy of a game's state, made by its model from its dump: pydantic's core does in
    0.2 ms what `copy.deepcopy` does in 1.3 (a 32-player game's state without its deck). A state
    goes through this round trip each time it is stored and read back: it comes out equal."""
    return type(state).model_validate(state.model_dump())


def logged(event: Event, *, over: bool = False) -> LoggedEvent:
    """An event as the kinds' journals read it; while the game lasts (`over` false), without the
    dice that are nobody's (a shuffle's, a deal's), which no journal shows to anyone."""
    return LoggedEvent(
        seq=event.seq,
        type=event.type,
        at=event.at,
        actor_role=event.actor_role,
        actor_name=event.actor_name,
        command=event.command,
        rolls=event.rolls if over else [r for r in event.rolls if not nobodys(r)],
        result=event.result,
        summary=Msg.from_json(event.summary),
        undone=event.undone_by is not None,
        actor_id=event.actor_id,
    )


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
    # False: a game only another game opens (a league's match), never created on its own.
    standalone: ClassVar[bool] = True
    # What its organizer reads once it is created: what it is, and whom they invite.
    ready_title: ClassVar[str] = N_("Your game is ready")
    invite_title: ClassVar[str] = N_("Invite referees and players")
    # How many of the latest log entries a personal page shows, read through `log_view` (a
    # self-refereed match shows each coach the story with their own private notes).
    page_log: ClassVar[int] = 0
    role_titles: ClassVar[Mapping[str, str]] = {}
    # How many people of each role a game may hold (the organizer aside): a registration, a
    # join or a game file past it is refused (`people_limit`).
    max_people: ClassVar[Mapping[str, int]] = {}
    # Texts of this kind's commands and state that hold a person's number, as regular
    # expressions with a group `id` (a card copy "12:3" held by person 12): renamed when a game moves
    # to another server. A die's "player:12" and "person:12" are the platform's.
    person_texts: ClassVar[tuple[str, ...]] = ()
    state_model: type[S]
    settings_model: type[BaseModel]
    commands: TypeAdapter[Any]
    # The commands' discriminated union itself (`Annotated[A | B, Field(discriminator="type")]`):
    # the API gives each kind its own typed route with it.
    command_union: ClassVar[Any] = None

    # The kind's moves, in the order its pages offer them (see `Move`).
    moves: ClassVar[Sequence[Move]] = ()
    # How the moves' rules run when they are not handlers themselves: an engine that makes each a
    # `Handler` (a match's `played`: the rule works through the engine, which checks and settles
    # around it); None: the rules are handlers.
    engine: ClassVar[Any] = None
    # Each command's type and its move (made from `moves`).
    declared: ClassVar[Mapping[type, Move]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "moves" in cls.__dict__:
            declare(cls)

    # --- the rules (pure) ---
    @abstractmethod
    def new_state(self, settings: BaseModel) -> S:
        """The state of a game just created, from its settings."""

    def add_person(self, state: S, person: PersonInfo) -> S:
        """A person registered, or back in through a re-issued link: someone the state still
        holds (revoked in play, see `remove_person`) keeps their place, unchanged."""
        return state

    def remove_person(self, state: S, person: PersonInfo) -> S:
        """A revoked link: the person leaves what they were in before the game began (a player
        list, a team to be dealt). Someone already in play stays in the story: a player mid-game
        is eliminated by the referee, not erased. A re-issued link calls `add_person` again."""
        return state

    def from_form(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A phone's form fields as the command they stand for (a kind whose forms send one field
        per input row gathers them here); the JSON API sends commands as they are."""
        return payload

    # Commands no client may send: the platform's or the clock's own (a match recorded as
    # opened, a zone due); left out of the API's schema.
    internal: ClassVar[tuple[type, ...]] = ()

    # The kind's rules: each command's type and the handler that applies it (see `Handler`).
    handlers: ClassVar[Mapping[type, Handler]] = {}

    def apply(self, state: S, command: Any, ctx: Context) -> Outcome[S]:
        """The rules: the new state and what happened, or a RuleError and nothing changed. Never
        changes `state`: the handler works on a copy (the platform keeps the state cached)."""
        work = self.copy(state)
        self.check(work, command)
        applied = self.handlers[type(command)](work, command, ctx)
        said = self.after(state, work, command, ctx)
        summary = joined([applied.summary, said]) if said is not None else applied.summary
        return Outcome(work, summary, applied.logged_result())

    def after(self, before: S, after: S, command: Any, ctx: Context) -> Msg | None:
        """What follows every command by itself, once its handler applied it (a turn passing,
        the end of the game): `after` may be changed; `before` is the state it was applied to,
        never changed. The sentence it returns follows the handler's in the log."""
        return None

    def copy(self, state: S) -> S:
        """The copy a handler may change; `dump`, the state as stored (its model's, by test)."""
        return copied(state)

    def dump(self, state: S) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def check(self, state: S, command: Any) -> None:
        """What every command of a phase needs (a game started, not over), before its handler:
        by default, the phases its move declares."""
        move = self.declared.get(type(command))
        for phase in move.when if move is not None else ():
            if not phase.holds(state):
                raise RuleError(phase.refusal)

    def status(self, state: S) -> str:
        """ "setup", "running" or "finished"."""
        return "running"

    def next_deadline(self, state: S) -> datetime | None:
        return None

    def due(self, state: S, now: datetime) -> list[Any]:
        """Commands the clock triggers by itself (a zone shrinking, a countdown ending)."""
        return []

    def followups(self, game_id: str, state: S, result: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Commands this change sends to the game that opened this one (a finished match to its
        league) once committed, performed there by Arbitre itself."""
        return []

    def linked_game(
        self, game_id: str, state: S, actor: Viewer, request: Mapping[str, Any]
    ) -> LinkedGame:
        """The game this actor asks this game to open (a league's match), after checking that
        they may; the platform creates it (`GameService.open_linked`)."""
        raise NotAllowed(N_("This game opens no other game."))

    # --- access and views ---
    def may_send(self, viewer: Viewer, command: Any) -> bool:
        """Whether this viewer's role may send this command: by default, its move's `by`."""
        move = self.declared.get(type(command))
        return viewer.role in move.by if move is not None else viewer.is_staff

    def people_limit(self, role: str) -> int:
        return self.max_people.get(role, PEOPLE_PER_ROLE)

    def reads_everything(self, state: S, viewer: Viewer) -> bool:
        """Whether this viewer may know everything the game's record holds: its state, every
        command and every die of its log (its file in clear: `record_readable`). Nobody by
        default (the server's runner aside): a kind says who, its staff where it hides nothing
        from them (`staff_reads_all`), or its staff while no secret of its players is in play
        (a hand, an objective, a pick not revealed). Who owns the rest is declared where it is
        shown (the views' parts and log) and on each die (`dice`: its owner, and `secret` for
        a value its owner alone may know; the server's own secret dice are nobody's)."""
        return False

    def may_enter_dice(
        self, state: S, actor: Viewer, physical: bool
    ) -> Callable[[str | None], bool]:
        """Whose dice this actor may enter by hand (a die's owner: None for the referee's, a
        side, a team), `physical` when the game's setting is physical dice: by default the staff
        enter any (the referee switches per roll), nobody else any."""
        staff = actor.is_staff
        return lambda owner: staff

    def references(self, state: S) -> Mapping[str, Collection[Any]]:
        """What the `Ref` fields of this kind's commands may name, by what they name (people
        aside: the platform knows them): a command naming anything else is refused."""
        return {}

    def subjects(self, state: S, command: Any, actor: Viewer) -> list[int] | None:
        """The people a command concerns (for the stale-screen check); None: the whole game."""
        return None

    # Adversaries consent (`server.platform.consent`): the commands that, sent by one side,
    # change another side's pieces outside the rules' own flow. An undo of another side's action
    # (or of one the other side acted after) asks for consent in every kind that declares any.
    consent_commands: ClassVar[frozenset[str]] = frozenset()

    def touches(self, state: S, command: Any) -> set[str]:
        """The sides whose pieces a command names (asked of `consent_commands` only)."""
        return set()

    def moment(self, state: S) -> Any:
        """Where the game stands, for a proposal: one made at another moment has expired. None:
        any later action makes it expire."""
        return None

    def sides(self, state: S) -> list[str]:
        """The sides that play (whose members answer proposals), for an undo's consent."""
        return []

    def describe(self, command: Any, state: S) -> Msg:
        """What a command would do, for the side asked to agree to it."""
        return self.label(command, state)

    # What viewers see, part by part, in order (a later part's keys win).
    parts: ClassVar[Sequence[Part[Any]]] = ()

    # The block of the live part (nested in it) that alone shows the parts of scope "person"
    # and who the viewer is, and holds no form; or None. Outside it, the live part of viewers
    # who share their other copies of parts is the same: a change renders it once for them
    # all, from what they share, and this block for each (`server.web.parts`; a kind with a
    # personal journal, `page_log`, has no two viewers to share it; `tests/test_fanout.py`
    # holds it, byte for byte).
    personal_block: ClassVar[str | None] = None

    # The keys of a page's address that its live part reads: a half-made action the phone keeps
    # in its address (an attacker chosen, two teams picked). A phone's
    # refresh asks its part with them, and a fresh load of that address shows the same; every
    # other key of an address is ignored, so the fingerprint covers all a part shows.
    page_query: ClassVar[tuple[str, ...]] = ()
    # The commands that end that half-made action (an assault rolled): their answer lets go of
    # the address; any other action's answer keeps it (a correction made meanwhile).
    page_query_ends: ClassVar[frozenset[str]] = frozenset()

    # The choices a form may start on, declared by the kind's spec, by command type and field:
    # the value it starts on, or "*" for one the state names (a player's usable card). Every
    # other choice that decides something starts on none (`tests/security/test_form_choices.py`),
    # and the same defaults hold on every form of the command, online or built offline.
    declared_defaults: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    def view(self, state: S, viewer: Viewer, now: datetime) -> dict[str, Any]:
        """What this viewer may see, and nothing more: pages and the API are built from it; the
        parts this viewer has, put together."""
        return assemble(self, state, viewer, now, None).view

    def side_of(self, state: S, viewer: Viewer) -> str | None:
        """The side (a team) this viewer plays, for parts of scope "side"."""
        return None

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        """What of one event this viewer may read. By default what happened and never what was
        sent (`sentences_only`: a command may hold a player's secret, a pick, a card chosen); a
        kind whose commands hide nothing from its staff shows them the event whole
        (`full_event`)."""
        return sentences_only(event, viewer)

    def audiences(self, event: LoggedEvent, viewer: Viewer) -> Collection[str]:
        """The private notes' audiences this viewer belongs to for this event (see `Applied`):
        by default, a person reads the notes addressed to them."""
        return {f"person:{viewer.person_id}"} if viewer.person_id is not None else set()

    def roll_label(self, purpose: str, state: S) -> Msg | str | None:
        """How the journal page names a die: words in the reader's language, or None for a die
        nobody at the table needs to read (a shuffle). The exports keep the purpose as stored."""
        return purpose

    def label(self, command: Any, state: S) -> Msg:
        """A short name of the action, for the undo button ("assault of Léa on Hugo"): by
        default, its move's label."""
        move = self.declared.get(type(command))
        if move is not None and move.label is not None:
            return Msg(move.label)
        return Msg(str(getattr(command, "type", "action")))

    def replay_line(self, event: LoggedEvent, state: S) -> Msg:
        """A finished game's action said as anyone may know it once the game is over, for a
        replay's step that the reader's journal says nothing of (a public board that reads no
        journal): by default the words of its move ("elimination"), never what was sent; "undo"
        for an undo. `state` is the game's at its end (its players' names)."""
        if event.type == "undo":
            return Msg(N_("An action undone"))
        try:
            move = self.declared.get(type(self.parse(dict(event.command))))
        except ValueError:  # a command of an older version of the game
            move = None
        if move is not None and move.label is not None:
            return Msg(N_("Action: {what}"), {"what": Msg(move.label)})
        return Msg(N_("An action"))

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

    @abstractmethod
    def now(self, view: Mapping[str, Any], viewer: Viewer) -> Now:
        """The line at the top of the viewer's live part: where the game stands, whose turn it
        is, and what this viewer can do now, said from their view alone (`server.platform.now`)."""

    def parse(self, command: Mapping[str, Any]) -> Any:
        return self.commands.validate_python(command)


# ---------------------------------------------------------------- the platform's, for every kind
# What the platform does with a kind's declarations (a game's author writes none of it): each
# viewer's projection made of the parts, the journal's entries with their private notes, whose
# consent a command needs.


def consent_of(kind: GameKind[Any], state: Any, command: Any, actor: Viewer) -> str | None:
    """The side whose member must agree to `command` from `actor`, or None: it is one tap
    (the staff's, one's own side's, or one the kind does not declare)."""
    if actor.is_staff or getattr(command, "type", None) not in kind.consent_commands:
        return None
    others = sorted(kind.touches(state, command) - {kind.side_of(state, actor)})
    return others[0] if others else None


@functools.cache
def command_names(command: type[BaseModel]) -> tuple[str, ...]:
    """A command's `type`s ("enter" / "leave"), cached: asked at every projection (`may_now`)."""
    return tuple(str(name) for name in get_args(command.model_fields["type"].annotation))


def may_now(kind: GameKind[Any], state: Any, viewer: Viewer) -> frozenset[str]:
    """What this viewer may do now, by the game's own declarations: the commands of the moves
    that name their role and whose phases all hold, the same moves `check` and `may_send` judge
    a command by. Every form a page offers is one of them (the walker checks it at each step,
    `tests/test_walker.py`), and the rules refuse any other; what a move's rule asks beyond its
    phase (whose turn, which piece) is the rule's and the form's own."""
    return frozenset(
        name
        for move in kind.moves
        for name in command_names(move.command)
        if viewer.role in move.by and all(phase.holds(state) for phase in move.when)
    )


def personal_parts(kind: GameKind[Any]) -> frozenset[str]:
    """The names of the parts of scope "person": what `personal_block` alone shows."""
    return frozenset(part.name for part in kind.parts if part.scope == "person")


def project(
    kind: GameKind[Any], state: Any, viewer: Viewer, now: datetime, built: Built | None = None
) -> Projection:
    """This viewer's view, with the copies of parts it is made of: two viewers with the same
    copies see the same view. `built`, kept across the viewers of one state, builds each
    copy once for all of them (a change's live parts: `server.web.fanout`).

    A kind that builds its views whole (no parts) makes each viewer a projection of their own."""
    if type(kind).view is not GameKind.view:
        whole = (("whole", f"{viewer.role}:{viewer.person_id}"),)
        view = kind.view(state, viewer, now)
        return Projection(whole, view, (view,))
    return assemble(kind, state, viewer, now, built)


def assemble(
    kind: GameKind[Any], state: Any, viewer: Viewer, now: datetime, built: Built | None
) -> Projection:
    """The parts this viewer has, put together (`project`)."""
    copies: list[tuple[str, str]] = []
    parts: list[dict[str, Any]] = []
    view: dict[str, Any] = {}
    for part in kind.parts:
        key = part_key(kind, part, state, viewer)
        if key is None:
            continue
        copy = (part.name, key)
        if built is not None and copy in built:
            made = built[copy]
        else:
            made = part.build(state, viewer, now)
            if built is not None:
                built[copy] = made
        if made is not None:
            copies.append(copy)
            parts.append(made)
            view.update(made)
    return Projection(tuple(copies), view, tuple(parts))


def part_key(kind: GameKind[Any], part: Part[Any], state: Any, viewer: Viewer) -> str | None:
    """Which copy of a part this viewer gets (viewers with the same key get the same), or
    None if the part is not theirs."""
    if part.scope == "game":
        return "game"
    if part.scope == "staff":
        return "staff" if viewer.is_staff else None
    if part.scope == "organizer":
        return "organizer" if viewer.is_organizer else None
    if part.scope == "side":
        side = kind.side_of(state, viewer)
        return f"side:{side}" if side is not None else None
    return f"person:{viewer.person_id}" if viewer.person_id is not None else None


def log_entry(kind: GameKind[Any], event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """What of one event a viewer reads, everywhere the log is shown or an action answered:
    the kind's `log_view`, with the private notes of the viewer's audiences and no other; a
    proposal and its answer (`server.platform.consent`) for everyone of the game."""
    if event.type in CONSENT_EVENTS:
        return consent_entry(event, viewer)
    if event.type == "access" and event.command.get("type") == "link.reissue":
        return reissue_entry(event, viewer)
    entry = kind.log_view(event, viewer)
    if entry is None or viewer.is_staff:
        return entry
    entry.pop("private", None)
    if isinstance(entry.get("result"), Mapping):
        entry["result"] = {k: v for k, v in entry["result"].items() if k != "private"}
    keys = set(kind.audiences(event, viewer))
    notes = [
        Msg.from_json(m).render()
        for key, ms in (event.result.get("private") or {}).items()
        if key in keys
        for m in ms
    ]
    if notes:
        entry["private"] = notes
    return entry


def declare(kind: type[GameKind[Any]]) -> None:
    """What a kind's list of moves gives it: the commands' discriminated union (the API's typed
    route and the parser), the handlers (through its engine, if any), the commands no client
    sends, and each command's move (`check`, `may_send`, `label`)."""
    moves = kind.moves
    types = [move.command for move in moves]
    assert len(set(types)) == len(types), f"{kind.__name__}: a command declared twice"
    union = functools.reduce(operator.or_, types)
    kind.command_union = Annotated[union, Field(discriminator="type")]
    kind.commands = TypeAdapter(kind.command_union)
    run = getattr(kind, "engine", None)
    kind.handlers = {move.command: run(move.rule) if run else move.rule for move in moves}
    kind.internal = tuple(move.command for move in moves if not move.by)
    kind.declared = {move.command: move for move in moves}


def staff_reads_all(state: Any, viewer: Viewer) -> bool:
    """`GameKind.reads_everything` for a kind that hides nothing from its staff."""
    return viewer.is_staff


def full_event(event: LoggedEvent) -> dict[str, Any]:
    """An event whole, for the staff: the private notes said in the reader's language, as the
    summary is (the log keeps them as message ids)."""
    result = dict(event.result)
    private = result.get("private")
    if isinstance(private, dict):
        result["private"] = {
            k: [Msg.from_json(m).render() for m in notes if isinstance(m, dict)]
            for k, notes in private.items()
            if isinstance(notes, list)
        }
    return {
        "seq": event.seq,
        "type": event.type,
        "at": event.at.isoformat(),
        "actor": {"role": event.actor_role, "name": event.actor_name},
        "command": dict(event.command),
        "rolls": event.rolls,
        "result": result,
        "summary": event.summary.render(),
        "undone": event.undone,
    }


CONSENT_EVENTS = ("proposal", "consent")


def consent_entry(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """A proposal, or its refusal: what it would do, who proposed or answered, for everyone of
    the game (the public board does not show them)."""
    if viewer.role == "public":
        return None
    return {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "type": event.type,
        "actor": {"role": event.actor_role, "name": event.actor_name},
        "summary": event.summary.render(),
        "result": {k: v for k, v in event.result.items() if k in ("proposal", "side", "accepted")},
        "rolls": [],
        "undone": False,
    }


def reissue_entry(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """A seat re-issued (a lost phone): told to every person of the game, whatever the kind's
    journal shows of the platform's own events, so that a swap of seats is never silent
    (platform.md, "Access"); the staff read it whole."""
    if viewer.is_staff:
        return full_event(event)
    if viewer.role == "public":
        return None
    return {"seq": event.seq, "at": event.at.isoformat(), "summary": event.summary.render()}


def sentences_only(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """A journal that tells what happened and never what was sent (a card chosen, a token
    found): the sentences for everyone, the dice but the secret ones, who acted for the staff;
    the platform's own events (people, links) for the staff alone."""
    if event.type not in ("command", "undo"):
        return full_event(event) if viewer.is_staff else None
    entry: dict[str, Any] = {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "summary": event.summary.render(),
        "undone": event.undone,
        "rolls": rolls_for(event.rolls, lambda roll: False),
    }
    mine = event.actor_id is not None and event.actor_id == viewer.person_id
    if viewer.is_staff and not mine:
        entry["actor"] = {"role": event.actor_role, "name": event.actor_name}
    return entry


def rolls_for(
    rolls: list[dict[str, Any]], sees: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """An event's dice as a viewer may read them: a secret die (a RAP, a card drawn) shows its
    value only to those `sees` lets in; a die entered by hand stays marked as such for everyone,
    but when secret, neither its value nor its purpose (which names who rolled it: "RAP of
    Nab3" would tell a lineup) shows; a secret draw of the server's shows nothing at all. A die
    brought in a file another server wrote says so (`from_file`), for everyone."""
    shown = []
    for roll in rolls:
        entry = {k: roll[k] for k in ("purpose", "sides", "value", "manual")}
        if roll.get("from_file"):
            entry["from_file"] = True  # brought in a file this server did not write
        if roll.get("secret") and not sees(roll):
            if not roll.get("manual"):
                continue
            entry["value"], entry["purpose"] = None, SECRET_PURPOSE
        shown.append(entry)
    return shown


SECRET_PURPOSE = "secret"  # what a hidden die entered by hand says it was for


def nobodys(roll: Mapping[str, Any]) -> bool:
    """A die whose value nobody may know while the game lasts: the server's own secret draw (a
    shuffle, a booster, a deal), which says the order of what lies face down."""
    return bool(roll.get("secret")) and roll.get("owner") == SERVER


def record_readable(
    kind: GameKind[Any], state: Any, rolls: Iterable[list[dict[str, Any]]], viewer: Viewer
) -> bool:
    """Whether a game's whole record (what replays it) is this viewer's to read: the server's
    runner (the command line) always; else the kind's declaration (`reads_everything`), and no
    die of nobody's while the game lasts (once it is over, no order is left to exploit)."""
    if viewer is SYSTEM:
        return True
    if not kind.reads_everything(state, viewer):
        return False
    if kind.status(state) == "finished":
        return True
    return not any(nobodys(roll) for event in rolls for roll in event)


KINDS: dict[str, GameKind[Any]] = {}


def register(kind: GameKind[Any]) -> GameKind[Any]:
    """A kind in the registry. Its commands' names are its own: the API's schema names each
    command model by its class name, which a client generated from it takes for a type."""
    names = {move.command.__name__: move.command for move in kind.moves}
    for other in KINDS.values():
        for move in other.moves:
            same = names.get(move.command.__name__)
            assert same in (None, move.command) or same.model_json_schema() == (
                move.command.model_json_schema()
            ), f"{kind.key}: {move.command.__name__} is also a command of {other.key}: rename it"
    KINDS[kind.key] = kind
    return kind


def get_kind(key: str) -> GameKind[Any]:
    return KINDS[key]
