"""Dependency aliases: routes ask for what they need, tests override it.

The dependencies that only read the app's state are coroutines: FastAPI runs a plain function
in its thread pool, a hop that costs more than what they do; those that read the database
hand that part alone to the pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from server.config import Settings
from server.errors import ArbitreError, LinkInvalid, NotSignedIn, TooManyAttempts
from server.i18n import N_
from server.models import Person
from server.platform.clock import Clock
from server.platform.idempotency import session_caller
from server.platform.kinds import PUBLIC, Viewer
from server.platform.limits import SharedLimiter
from server.platform.moving import ImportLimits
from server.platform.service import GameService
from server.web.forms import new_key
from server.web.templating import Templates


async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def get_templates(request: Request) -> Templates:
    templates: Templates = request.app.state.templates
    return templates


async def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_clock(request: Request) -> Clock:
    clock: Clock = request.app.state.clock
    return clock


async def get_join_limiter(request: Request) -> SharedLimiter:
    limiter: SharedLimiter = request.app.state.join_limiter
    return limiter


async def get_creation_limiter(request: Request) -> SharedLimiter:
    limiter: SharedLimiter = request.app.state.creation_limiter
    return limiter


# Ids in addresses fit a database integer; anything larger is simply not found.
PersonId = Annotated[int, Path(ge=1, le=2_147_483_647)]
GameId = Annotated[str, Path(min_length=1, max_length=24)]

ServiceDep = Annotated[GameService, Depends(get_service)]
TemplatesDep = Annotated[Templates, Depends(get_templates)]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
ClockDep = Annotated[Clock, Depends(get_clock)]
JoinLimiterDep = Annotated[SharedLimiter, Depends(get_join_limiter)]
CreationLimiterDep = Annotated[SharedLimiter, Depends(get_creation_limiter)]


def session_links(request: Request) -> dict[str, Any]:
    links: dict[str, Any] = request.session.get("a") or {}
    return links


async def page_viewer(request: Request, game_id: str, service: ServiceDep) -> Viewer:
    """Who opens a game page: the person whose link this browser opened, else the public.

    A browser that held a link since revoked or re-issued gets "link no longer valid"."""
    if not session_links(request).get(game_id):
        return PUBLIC
    return await run_in_threadpool(session_viewer, request, game_id, service)


def session_viewer(request: Request, game_id: str, service: GameService) -> Viewer:
    """`page_viewer` on a worker thread (it reads the database)."""
    entry = session_links(request).get(game_id)
    if not entry:
        return PUBLIC
    viewer = service.viewer(game_id, int(entry[0]), int(entry[1]))
    if viewer is None:
        links = dict(session_links(request))
        links.pop(game_id, None)
        request.session["a"] = links
        # Whichever request learns it first (a live part's refresh, often), the page this
        # browser opens next for the game says why it no longer opens as theirs (`game_page`).
        request.session["gone"] = [*request.session.get("gone", [])[-4:], game_id]
        raise LinkInvalid(N_("This link is no longer valid."))
    return viewer


def link_gone(request: Request, game_id: str) -> bool:
    """Whether this browser's link to the game died since it last opened it (said once)."""
    gone = list(request.session.get("gone", []))
    if game_id not in gone:
        return False
    gone.remove(game_id)
    request.session["gone"] = gone
    return True


@dataclass(frozen=True)
class ApiCaller:
    """Who calls the API, before the look-up: the game asked and the bearer token sent, if any.
    A route looks the token up on the worker thread it runs on anyway (`viewer`): one trip to
    the thread pool for an action, not two."""

    game_id: str
    token: str | None

    def viewer(self, service: GameService) -> Viewer:
        """A bearer token of this game, else the public (reads the database)."""
        if self.token is None:
            return PUBLIC
        game_id, viewer = service.token_viewer(self.token)
        return viewer if game_id == self.game_id else PUBLIC


async def api_caller(request: Request, game_id: str) -> ApiCaller:
    header = request.headers.get("authorization", "")
    if not header:
        return ApiCaller(game_id, None)
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotSignedIn(N_("Send your link's token as “Authorization: Bearer <token>”."))
    return ApiCaller(game_id, token.strip())


TOO_MANY_TRIES = N_("Too many tries. Wait {seconds} s and try again.")
TOO_MANY_GAMES = N_("Too many games created from your network. Wait {seconds} s and try again.")


def spend(limiter: SharedLimiter, request: Request, message: str) -> None:
    """One try of a budget from this request's address; past it, a 429 saying when to try
    again (`message` has the {seconds})."""
    wait = limiter.check(request.client.host if request.client else "?")
    if wait:
        raise TooManyAttempts(message, seconds=wait)


def retrying(response: Response, error: Exception) -> Response:
    """A page that says when to try again (a budget spent, the server stopping) also says it as
    a header."""
    if isinstance(error, ArbitreError) and error.retry_after is not None:
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def import_limits(settings: Settings) -> ImportLimits:
    """What a game file brought in may hold (`IMPORT_MAX_*`)."""
    return ImportLimits(
        bytes=settings.import_max_bytes,
        events=settings.import_max_events,
        games=settings.import_max_games,
    )


def public_base(request: Request) -> str:
    """Where printed links, QR codes and the API's `url` fields point: `PUBLIC_URL`, else the
    address the request came to (a name `ALLOWED_HOSTS` lets in: `security.AllowedHosts`)."""
    settings: Settings = request.app.state.settings
    return (settings.public_url or str(request.base_url)).rstrip("/")


PageViewerDep = Annotated[Viewer, Depends(page_viewer)]
ApiCallerDep = Annotated[ApiCaller, Depends(api_caller)]


def remember(request: Request, person: Person) -> None:
    links = dict(session_links(request))
    links[person.game_id] = [person.id, person.version]
    request.session["a"] = links


def browser_caller(request: Request) -> str:
    """A browser with no link yet, for idempotency: its session (its own retry of a tap gets
    the same game or seat; nobody else's request does)."""
    return session_caller(str(request.session.get("csrf") or new_key()))
