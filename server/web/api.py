"""The JSON API under /api/v1: everything the pages can do, with bearer tokens.

Every state-changing call carries an `Idempotency-Key` header: a retry answers the first result
and changes nothing more. Errors are `{"code": ..., "message": ...}` in the caller's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal, Union, cast, get_args

from fastapi import APIRouter, Header, Query, Request, Response
from pydantic import BaseModel, Field, StrictBool, StrictInt, create_model
from starlette.concurrency import run_in_threadpool

from server.errors import InvalidInput, NotAllowed, NotFound, NotSignedIn
from server.i18n import N_
from server.platform.kinds import KINDS, GameKind, Viewer
from server.platform.limits import SharedLimiter
from server.platform.service import GameService, Performed, Registered
from server.platform.service.people import holds_a_seat, shown_link
from server.web.deps import (
    TOO_MANY_GAMES,
    TOO_MANY_TRIES,
    ApiCallerDep,
    ClockDep,
    PersonId,
    ServiceDep,
    public_base,
    spend,
)


class ErrorOut(BaseModel):
    code: str = Field(examples=["rule"])
    message: str = Field(examples=["Le dé doit être entre 1 et 6, pas 7."])
    field: str | None = None


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (400, 401, 403, 404, 409, 422, 429)
}

router = APIRouter(prefix="/api/v1", tags=["api"], responses=ERRORS)

IdemKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        min_length=8,
        max_length=64,
        description="A random key per action; a retry with the same key is applied once.",
    ),
]


class KindOut(BaseModel):
    key: str
    title: str
    roles: list[str]


DiceMode = Literal["server", "physical"]


class GameIn(BaseModel):
    kind: str = Field(max_length=40)
    name: str = Field(max_length=200)
    organizer: str = Field(max_length=200, description="The organizer's name.")
    dice: DiceMode = "server"
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="The kind's settings: `POST /api/v1/{kind}/games` gives their type.",
    )


class GameOut(BaseModel):
    id: str
    kind: str
    name: str
    seq: int
    status: str


class LinkOut(BaseModel):
    person_id: int
    role: str
    name: str
    seat: Literal["organizer", "free", "taken", "revoked"] = Field(
        description="A person's link is a ticket to a seat, taken by the first phone or client "
        "that opens or claims it (`POST /api/v1/claim`); the organizer's is no seat."
    )
    taken_at: datetime | None = Field(default=None, description="When the seat was taken.")
    token: str | None = Field(
        description="The link's secret: the organizer's own, or a seat's ticket until the seat "
        "is taken (then null: only its holder has its key); null once revoked."
    )
    url: str | None
    join_code: str | None


class ClaimIn(BaseModel):
    token: str | None = Field(default=None, max_length=200, description="A personal link's token.")
    code: str | None = Field(default=None, max_length=40, description="Or its join code.")


class CreatedOut(BaseModel):
    game: GameOut
    organizer: LinkOut


class PersonIn(BaseModel):
    role: str = Field(max_length=20)
    name: str = Field(max_length=200)


class CommandOptions(BaseModel):
    """What goes with any command: dice entered by hand, the screen's sequence number."""

    rolls: dict[str, StrictInt] = Field(
        default_factory=dict, description="Dice rolled by hand, by purpose."
    )
    expected_seq: int | None = Field(
        default=None,
        ge=0,
        le=2**31 - 1,
        description="The sequence number your screen showed (stale check).",
    )


class CommandIn(CommandOptions):
    command: dict[str, Any] = Field(
        description="The game kind's command, with its `type`: see `/api/v1/{kind}/...`."
    )


class UndoIn(BaseModel):
    target_seq: int | None = None


class PerformedOut(BaseModel):
    seq: int
    summary: str
    result: dict[str, Any]
    replayed: bool
    proposal: int | None = Field(
        default=None,
        description="Sent on the other side's pieces where its consent is needed, the command "
        "is a proposal (answered 202): nothing changed until that side accepts it "
        "(`POST /games/{id}/proposals/{proposal}`).",
    )


class AnswerIn(BaseModel):
    accept: StrictBool = Field(description="True accepts the proposal, false refuses it.")


class ViewerOut(BaseModel):
    """Who the game is shown to: the public has no number and no name."""

    role: str
    person_id: int | None
    name: str


class StateOut(BaseModel):
    game: GameOut
    viewer: ViewerOut
    state: dict[str, Any] = Field(description="The game kind's state, as the viewer may see it.")


class LogOut(BaseModel):
    events: list[dict[str, Any]]


def link_out(
    request: Request,
    service: GameService,
    registered: Registered,
    *,
    holder: bool = False,
    settings: Mapping[str, Any] | None = None,
) -> LinkOut:
    """A person's link as the organizer may be shown it (`shown_link`: never a taken seat's
    key, nor a seat another game hands to its person), or as its `holder` is handed it.
    `settings` are the person's game's (read when not given)."""
    person = registered.person
    assert person.id is not None
    if settings is None:
        settings = service.load(person.game_id).game.settings
    shown = (holder and not person.revoked) or shown_link(person, settings)
    base = public_base(request)
    seat: Literal["organizer", "free", "taken", "revoked"] = (
        "revoked"
        if person.revoked
        else "organizer"
        if not holds_a_seat(person)
        else "taken"
        if person.claimed_at is not None
        else "free"
    )
    code = registered.link.code if shown and (seat != "taken") else None
    return LinkOut(
        person_id=person.id,
        role=person.role,
        name=person.name,
        seat=seat,
        taken_at=person.claimed_at,
        token=registered.link.token if shown else None,
        url=f"{base}/t/{registered.link.token}" if shown else None,
        join_code=code,
    )


def performed_out(performed: Performed) -> PerformedOut:
    return PerformedOut(
        seq=performed.seq,
        summary=performed.summary.render(),
        result=dict(performed.result),
        replayed=performed.replayed,
        proposal=performed.proposal,
    )


def signed_in(viewer: Viewer) -> Viewer:
    if viewer.role == "public":
        raise NotSignedIn(N_("This needs a token of this game."))
    return viewer


@router.get("/kinds", response_model=list[KindOut])
def kinds() -> list[KindOut]:
    return [
        KindOut(key=k.key, title=str(k.title), roles=list(k.registrable_roles()))
        for k in KINDS.values()
        if k.standalone
    ]


@router.post("/games", response_model=CreatedOut, status_code=201)
def create_game(body: GameIn, idem: IdemKey, request: Request, service: ServiceDep) -> CreatedOut:
    """A game of any kind; `POST /api/v1/{kind}/games` types its settings."""
    return created(body, idem, request, service)


def created(body: GameIn, idem: str, request: Request, service: GameService) -> CreatedOut:
    limiter: SharedLimiter = request.app.state.creation_limiter
    spend(limiter, request, TOO_MANY_GAMES)
    game, registered = service.create_game(
        body.kind,
        body.name,
        body.organizer,
        dice=body.dice,
        idem_key=idem,
        settings=body.settings,
    )
    return CreatedOut(
        game=GameOut(id=game.id, kind=game.kind, name=game.name, seq=game.seq, status=game.status),
        organizer=link_out(request, service, registered),
    )


@router.post("/claim", response_model=LinkOut)
def claim_seat(body: ClaimIn, request: Request, service: ServiceDep) -> LinkOut:
    """Takes the seat a personal link's token (or its join code) opens, as the first phone to
    open it does: the answer holds the seat's own key (`token`), the bearer of every call made
    as that person, which nobody else is ever shown; the ticket then opens nothing. Claiming
    a seat this caller took already is refused as taken: its key was in the first answer."""
    if (body.token is None) == (body.code is None):
        raise InvalidInput(N_("Send a link's token or its join code."), field="token")
    if body.code is not None:
        spend(request.app.state.join_limiter, request, TOO_MANY_TRIES)
    return link_out(request, service, service.claim(body.token, body.code), holder=True)


@router.get("/games/{game_id}", response_model=StateOut)
@router.get("/games/{game_id}/state", response_model=StateOut)
def read_state(
    game_id: str, caller: ApiCallerDep, service: ServiceDep, clock: ClockDep
) -> StateOut:
    """The game as the caller may see it; without a token, the public board."""
    viewer = caller.viewer(service)
    loaded = service.load(game_id)
    game = loaded.game
    return StateOut(
        game=GameOut(id=game.id, kind=game.kind, name=game.name, seq=game.seq, status=game.status),
        viewer=ViewerOut(role=viewer.role, person_id=viewer.person_id, name=viewer.name),
        state=loaded.kind.view(loaded.state, viewer, clock.now()),
    )


@router.get("/games/{game_id}/people", response_model=list[LinkOut])
def list_people(
    game_id: str, request: Request, caller: ApiCallerDep, service: ServiceDep
) -> list[LinkOut]:
    viewer = caller.viewer(service)
    if not signed_in(viewer).is_organizer:
        raise NotAllowed(N_("Only the organizer manages links."))
    settings = service.load(game_id).game.settings
    return [
        link_out(request, service, Registered(p, service.link_of(p)), settings=settings)
        for p in service.people(game_id)
    ]


@router.post("/games/{game_id}/people", response_model=LinkOut, status_code=201)
def register_person(
    game_id: str,
    body: PersonIn,
    idem: IdemKey,
    request: Request,
    caller: ApiCallerDep,
    service: ServiceDep,
) -> LinkOut:
    viewer = caller.viewer(service)
    registered = service.register(game_id, signed_in(viewer), body.role, body.name, idem_key=idem)
    return link_out(request, service, registered)


@router.post("/games/{game_id}/people/{person_id}/link", response_model=LinkOut)
def reissue_link(
    game_id: str,
    person_id: PersonId,
    idem: IdemKey,
    request: Request,
    caller: ApiCallerDep,
    service: ServiceDep,
) -> LinkOut:
    viewer = caller.viewer(service)
    registered = service.reissue(game_id, signed_in(viewer), person_id, idem_key=idem)
    return link_out(request, service, registered)


@router.delete("/games/{game_id}/people/{person_id}/link", response_model=LinkOut)
def revoke_link(
    game_id: str,
    person_id: PersonId,
    idem: IdemKey,
    request: Request,
    caller: ApiCallerDep,
    service: ServiceDep,
) -> LinkOut:
    viewer = caller.viewer(service)
    registered = service.revoke(game_id, signed_in(viewer), person_id, idem_key=idem)
    return link_out(request, service, registered)


@router.post("/games/{game_id}/commands", response_model=PerformedOut, deprecated=True)
def send_command(
    game_id: str,
    body: CommandIn,
    idem: IdemKey,
    caller: ApiCallerDep,
    service: ServiceDep,
    response: Response,
) -> PerformedOut:
    viewer = caller.viewer(service)
    performed = service.perform(
        game_id,
        signed_in(viewer),
        body.command,
        idem_key=idem,
        seen_seq=body.expected_seq,
        rolls=body.rolls,
    )
    return proposed_or_done(performed, response)


def public_commands(kind: GameKind[Any]) -> Any:
    """A kind's command union, by `type`, without the commands no client may send."""
    members = get_args(get_args(kind.command_union)[0])
    sent = tuple(m for m in members if m not in kind.internal)
    return Annotated[Union[sent], Field(discriminator="type")]  # noqa: UP007 (built at run time)


def add_kind_routes() -> None:
    """Each registered kind's routes, once (every app shares this router): its creation (a kind
    a client may create) and its commands, each typed with the kind's own models."""
    named = {getattr(r, "name", "") for r in router.routes}
    for key in sorted(KINDS):
        kind = KINDS[key]
        if f"{key}_create_game" not in named and kind.standalone:
            kind_creation(key)
        if f"{key}_send_command" not in named and kind.command_union is not None:
            kind_commands(key)


def kind_title(key: str) -> str:
    return "".join(part.title() for part in key.split("_"))


def kind_creation(key: str) -> None:
    """`POST /api/v1/{kind}/games`: `POST /api/v1/games` for one kind, whose body's settings
    are that kind's own (`{Kind}Settings` in the schema)."""
    kind = KINDS[key]
    title = kind_title(key)
    settings_model = create_model(f"{title}Settings", __base__=kind.settings_model)
    body_model = create_model(
        f"{title}GameIn",
        name=(str, Field(max_length=200)),
        organizer=(str, Field(max_length=200, description="The organizer's name.")),
        dice=(DiceMode, "server"),
        settings=(settings_model, Field(default_factory=settings_model)),
    )

    async def create(
        body: BaseModel, idem: IdemKey, request: Request, service: ServiceDep
    ) -> CreatedOut:
        # Checked on the way in for the schema; the service takes the settings as they were
        # sent, as through `POST /api/v1/games`.
        raw = await request.json()
        game_in = GameIn(kind=key, **{**body.model_dump(), "settings": raw.get("settings", {})})
        return await run_in_threadpool(created, game_in, idem, request, service)

    create.__annotations__ = {**create.__annotations__, "body": body_model}
    router.add_api_route(
        f"/{key}/games",
        create,
        methods=["POST"],
        response_model=CreatedOut,
        status_code=201,
        operation_id=f"{key}_create_game",
        name=f"{key}_create_game",
        summary=f"Create a {key} game",
    )


def kind_commands(key: str) -> None:
    """`POST /api/v1/{kind}/games/{game_id}/commands`: one route per kind, whose body is that
    kind's own command union, so that a client generated from the schema tells every kind's
    commands apart (Roi / Chevalier / Bourreau's `deal` is not Trust Me's)."""
    kind = KINDS[key]
    body_model = create_model(
        f"{kind_title(key)}CommandIn",
        __base__=CommandOptions,
        command=(public_commands(kind), Field(description=f"A {key} command, by its `type`.")),
    )

    async def send(
        game_id: str,
        body: BaseModel,
        idem: IdemKey,
        request: Request,
        caller: ApiCallerDep,
        service: ServiceDep,
        response: Response,
    ) -> PerformedOut:
        # The body is typed for the schema and checked on the way in; the service then takes
        # the command as it was sent, as through the older route: the same checks of its text
        # (a hidden character), the same fingerprint for its idempotency key.
        raw = await request.json()
        sent = cast(CommandOptions, body)

        def perform() -> Performed:
            viewer = caller.viewer(service)
            if service.load(game_id).game.kind != key:
                raise NotFound(N_("No such game."))
            return service.perform(
                game_id,
                signed_in(viewer),
                raw["command"],
                idem_key=idem,
                seen_seq=sent.expected_seq,
                rolls=sent.rolls,
            )

        return proposed_or_done(await run_in_threadpool(perform), response)

    send.__annotations__ = {**send.__annotations__, "body": body_model}
    router.add_api_route(
        f"/{key}/games/{{game_id}}/commands",
        send,
        methods=["POST"],
        response_model=PerformedOut,
        operation_id=f"{key}_send_command",
        name=f"{key}_send_command",
        summary=f"Send a {kind.key} command",
    )


@router.post("/games/{game_id}/undo", response_model=PerformedOut)
def undo(
    game_id: str,
    body: UndoIn,
    idem: IdemKey,
    caller: ApiCallerDep,
    service: ServiceDep,
    response: Response,
) -> PerformedOut:
    viewer = caller.viewer(service)
    performed = service.undo(game_id, signed_in(viewer), idem_key=idem, target_seq=body.target_seq)
    return proposed_or_done(performed, response)


@router.post("/games/{game_id}/proposals/{proposal_id}", response_model=PerformedOut)
def answer_proposal(
    game_id: str,
    proposal_id: int,
    body: AnswerIn,
    idem: IdemKey,
    caller: ApiCallerDep,
    service: ServiceDep,
) -> PerformedOut:
    """The other side's answer to a proposal: accepted, it is applied as its proposer sent it;
    refused (or withdrawn by its proposer), nothing changes. Both are logged."""
    viewer = caller.viewer(service)
    performed = service.answer(
        game_id, signed_in(viewer), proposal_id, accept=body.accept, idem_key=idem
    )
    return performed_out(performed)


def proposed_or_done(performed: Performed, response: Response) -> PerformedOut:
    if performed.proposal is not None:
        response.status_code = 202  # accepted for the other side to answer: nothing changed
    return performed_out(performed)


@router.get("/games/{game_id}/log", response_model=LogOut)
def read_log(
    game_id: str,
    caller: ApiCallerDep,
    service: ServiceDep,
    after: Annotated[int, Query(ge=0, le=2_147_483_647)] = 0,
) -> LogOut:
    """The log as the caller may read it (all of it for referees)."""
    viewer = caller.viewer(service)
    return LogOut(events=service.log(game_id, viewer, after=after))
