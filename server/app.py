"""create_app(): routers, static files, templates, middleware and error pages."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.staticfiles import StaticFiles
from starlette_compress import CompressMiddleware, remove_compress_type

import server.games
from server.collector import FullCollections
from server.config import Settings, get_settings
from server.db import Database, unreachable
from server.errors import ArbitreError, DatabaseUnreachable, LinkInvalid, validation_problem
from server.i18n import N_, Msg
from server.migrate import upgrade
from server.platform.clock import Clock, SteadyClock
from server.platform.dice import DiceSource, secret_roll
from server.platform.kinds import KINDS
from server.platform.limits import SharedLimiter, StreamBudget
from server.platform.live import Broker
from server.platform.service import GameService
from server.web import api, invitation, journal, pages, people_pages, queue, replays, stream
from server.web.answer_first import AnswerFirst, HeldNudges
from server.web.deps import retrying
from server.web.fanout import Fanout
from server.web.parts import LiveParts
from server.web.security import (
    FORM_OVERHEAD,
    AllowedHosts,
    BodyLimits,
    RequestLocale,
    SecurityHeaders,
    csrf_protected,
    redact,
    redact_logs,
)
from server.web.streaming import HandOff, ended_on_stop
from server.web.templating import STATIC_DIR, Templates, every_bundle, make_environment

log = logging.getLogger("arbitre")


class CachedStatic(StaticFiles):
    """Static files are versioned by URL (?v=hash), so phones may keep them a long time."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


DESCRIPTION = (
    "The referee's assistant for live games. JSON API: `/api/v1/`. Live updates: "
    "`GET /g/{game_id}/events` (Server-Sent Events, the same bearer token): `hello`, then "
    '`changed` with `{"seq": n, "now": ms}` at each change, `revoked` when the link dies.'
)


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    dice: DiceSource | None = None,
    template_dirs: Iterable[Path] = (),
    migrate: bool = True,
    scheduler: bool = True,
) -> FastAPI:
    settings = settings or get_settings()
    if migrate:
        upgrade(settings.database_url)
    db = Database.connect(settings)
    broker = Broker()
    relay = None
    if not db.is_sqlite:  # psycopg is there: it is PostgreSQL's driver
        from server.platform.relay import PostgresRelay

        relay = PostgresRelay(db.url, broker, resync_seconds=settings.live_resync_seconds)
        broker.relay = relay
    clock = clock or SteadyClock(floor=db.latest_time())
    held = HeldNudges(broker)  # an action's answer before its phones' nudges
    service = GameService(
        db,
        settings.resolved_secret_key(),
        clock,
        dice or secret_roll,
        broker,
        trusted_servers=settings.trusted_servers,
        publish=held.publish,
    )

    lifespan = running(settings, db, service, broker, relay, scheduler=scheduler)

    app = FastAPI(
        title="Arbitre",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        # Swagger UI would load from a CDN, which a field without internet cannot reach: the
        # schema itself is served, for any OpenAPI tool.
        docs_url=None,
        swagger_ui_oauth2_redirect_url=None,
        redoc_url=None,
        openapi_url="/api/v1/openapi.json",
    )
    app.state.settings = settings
    app.state.db = db
    app.state.broker = broker
    app.state.held = held
    app.state.relay = relay
    app.state.clock = clock
    app.state.service = service
    environment = make_environment(template_dirs)
    for kind in KINDS.values():
        environment.globals.update(kind.template_globals())
    app.state.templates = Templates(environment)
    # Budgets (`server.platform.limits`): tries counted in the database, streams in this process.
    app.state.join_limiter = SharedLimiter(db, clock, "join", settings.join_attempts_per_minute)
    app.state.creation_limiter = SharedLimiter(db, clock, "create", settings.games_per_minute)
    app.state.streams = StreamBudget(settings.streams_per_address, settings.streams_per_game)
    # Phones' live parts render on threads of their own (see `server.web.pages.live_block`).
    app.state.live_threads = anyio.CapacityLimiter(settings.live_threads)
    # Live parts rendered, and those found unchanged for their viewer (a 204): `/healthz` says
    # them, `make bench` reads them.
    app.state.live_stats = Counter({"rendered": 0, "unchanged": 0, "bytes": 0})
    # Full garbage collections, counted once the app serves (`for_serving`): `/healthz` says them.
    app.state.full_collections = FullCollections()
    # A change's live parts, made once for all the phones that watch the game (issue 21).
    app.state.parts = LiveParts(service, app.state.templates, clock, app.state.live_stats)
    app.state.fanout = Fanout(
        service, app.state.parts, held, app.state.live_threads, app.state.live_stats
    )

    add_middleware(app, settings)
    add_routes(app)
    install_error_handlers(app)

    return app


def running(
    settings: Settings,
    db: Database,
    service: GameService,
    broker: Broker,
    relay: Any,
    *,
    scheduler: bool,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What runs beside the requests while the app lives: the clock's scheduler, the relay of
    live events between processes; all stopped, and the database closed, at shutdown. A stop
    signal ends the live streams first (`ended_on_stop`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_logs()  # uvicorn has set its loggers up by now
        broker.bind(asyncio.get_running_loop())
        tasks = [asyncio.create_task(run_scheduler(service, settings.scheduler_interval))]
        if not scheduler:
            tasks[0].cancel()
        if relay is not None:  # live events between the processes that share this database
            tasks.append(asyncio.create_task(relay.run()))
        if settings.is_sqlite and settings.backup_minutes > 0 and scheduler:
            from server.backup import snapshots

            tasks.append(
                asyncio.create_task(
                    snapshots(settings.database_url, settings.backup_minutes, settings.backup_keep)
                )
            )
        try:
            with ended_on_stop(broker):  # a stop signal ends the streams, or uvicorn waits
                yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if relay is not None:
                relay.close()
            db.dispose()

    return lifespan


def add_middleware(app: FastAPI, settings: Settings) -> None:
    """Outermost last: live streams written outside the rest once started, an action's answer
    before its nudges, compression, security headers, the session, the language, body limits."""
    app.add_middleware(BodyLimits, big={"/games/import": settings.import_max_bytes + FORM_OVERHEAD})
    app.add_middleware(AllowedHosts, hosts=settings.hosts())
    app.add_middleware(RequestLocale, default_language=settings.language)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.resolved_secret_key(),
        session_cookie="arbitre",
        max_age=60 * 60 * 24 * 30,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    app.add_middleware(SecurityHeaders)
    # Brotli where the phone takes it (Chromium does, over http too: a page 13% smaller than in
    # gzip, made ten times faster), else gzip. A live stream compresses its own frames, once for
    # all its phones (`web.frames`): left alone.
    remove_compress_type("text/event-stream")
    app.add_middleware(
        CompressMiddleware, minimum_size=600, zstd=False, brotli_quality=8, gzip_level=9
    )
    app.add_middleware(AnswerFirst, held=app.state.held)
    app.add_middleware(HandOff)  # a live stream, once it has started, written from here


def add_routes(app: FastAPI) -> None:
    app.mount("/static", CachedStatic(directory=STATIC_DIR), name="static")
    api.add_kind_routes()
    app.include_router(api.router)  # bearer tokens, no cookie: no cross-site form to fear
    # Every page router checks the cross-site token of any request that may change something.
    guarded = [Depends(csrf_protected)]
    app.include_router(stream.router, dependencies=guarded)
    app.include_router(pages.router, dependencies=guarded)
    app.include_router(people_pages.router, dependencies=guarded)
    app.include_router(journal.router, dependencies=guarded)
    app.include_router(replays.router, dependencies=guarded)
    app.include_router(queue.router, dependencies=guarded)
    app.include_router(invitation.router, dependencies=guarded)
    for router in server.games.routers():
        app.include_router(router, dependencies=guarded)


def worker_app() -> FastAPI:
    """One of `serve --workers N`: the parent process has already upgraded the schema."""
    return for_serving(create_app(get_settings(), migrate=False))


# The cyclic garbage collector, for a process that serves: a young generation of 10,000 objects
# instead of 700. A phone's open stream holds some 80 objects for as long as it is open (300
# while its whole call chain stayed alive: `server.web.streaming`), and
# every change, answer and page makes short-lived ones; with Python's defaults, the objects alive
# at each of the frequent young collections pile up in the old generation, whose full collection
# then stops the whole process (3,200 phones: 0.1 to 0.45 s, every few seconds; `make bench`).
# And a full collection considered after 100 collections of the middle generation, not 10: with
# 6,400 phones it walked two million objects and stopped the process 1.1 to 1.3 s, which at 10
# came three times a minute and put every change of the next seconds behind it (G = 200 in `make
# bench`); it now walks 0.6 million, 0.43 s. At 100 it is considered after some 1,000 young
# collections (about four minutes at that load, four a second), and made only if the old
# generation grew by a quarter since the last: it still stops the process when it comes, and
# cycles that die old wait for it.
GC_THRESHOLDS = (10_000, 10, 100)
# Python's own switch interval (5 ms), read before any process changes it.
PYTHON_SWITCH_INTERVAL = sys.getswitchinterval()


def for_serving(app: FastAPI) -> FastAPI:
    """An app about to serve: its templates compiled, its scripts and styles made, and what was
    made at start-up (modules, templates, translations) set aside from garbage collection for
    good (`gc.freeze`), so that a full collection only walks what the phones and games made."""
    templates: Templates = app.state.templates
    for name in templates.env.list_templates(extensions=("html",)):
        templates.env.get_template(name)
    every_bundle(KINDS)  # the scripts and styles too: the first crowd never waits for them
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    app.state.full_collections.install()
    sys.setswitchinterval(switch_interval(app.state.settings, app.state.db.is_sqlite))
    return app


def switch_interval(settings: Settings, sqlite: bool) -> float:
    """The interpreter's switch interval a serving process sets, in seconds (`SWITCH_INTERVAL_MS`):
    PostgreSQL's round trips wait less behind a render at 0.5 ms; SQLite's one writer at a
    time keeps Python's 5 ms (docs/performance.md, issue 55)."""
    if settings.switch_interval_ms is not None:
        return settings.switch_interval_ms / 1000
    return PYTHON_SWITCH_INTERVAL if sqlite else 0.0005


async def run_scheduler(service: GameService, interval: float) -> None:
    """Applies what timers triggered (zone shrinks, countdowns), even with no phone connected."""
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(service.run_due)
        except Exception:  # keep the clock running; the failure is in the log
            log.exception("scheduler")


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or (
        "application/json" in request.headers.get("accept", "")
        and "text/html" not in request.headers.get("accept", "")
    )


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if field:
        body["field"] = field
    return body


def install_error_handlers(app: FastAPI) -> None:
    def render(request: Request, status: int, code: str, message: Msg | str) -> Response:
        text = message.render() if isinstance(message, Msg) else message
        if wants_json(request):
            return JSONResponse(error_body(code, text), status_code=status)
        templates: Templates = request.app.state.templates
        pages = {"link_invalid": "link_invalid.html", "seat_taken": "seat_taken.html"}
        name = pages.get(code, "error.html")
        return templates.response(
            request, name, {"status": status, "message": text}, status_code=status
        )

    @app.exception_handler(ArbitreError)
    async def arbitre_error(request: Request, error: ArbitreError) -> Response:
        if wants_json(request):
            response: Response = JSONResponse(
                error_body(error.code, error.message, error.field), status_code=error.status
            )
        elif isinstance(error, LinkInvalid):
            response = render(request, 404, "link_invalid", error.msg)
        else:
            response = render(request, error.status, error.code, error.msg)
        return retrying(response, error)

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, error: DBAPIError) -> Response:
        if not unreachable(error):
            return await unexpected(request, error)
        log.warning("database out of reach on %s: %s", redact(request.url.path), error.orig)
        said = N_(
            "The database cannot be reached for a moment (it may be restarting): try again "
            "shortly. An action sent again is applied once."
        )
        return await arbitre_error(request, DatabaseUnreachable(said))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> Response:
        first = dict(error.errors()[0]) if error.errors() else {}
        where, message = validation_problem(first)
        if wants_json(request):
            return JSONResponse(error_body("invalid", message.render(), where), status_code=422)
        return render(request, 422, "invalid", message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        messages = {
            404: N_("This page does not exist."),
            405: N_("This action is not possible here."),
        }
        message = Msg(messages.get(error.status_code, N_("The request could not be served.")))
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return render(request, error.status_code, code, message)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s", redact(request.url.path))
        if getattr(request.state, "committed", False):
            # The action is in the log; only showing the page after it failed.
            message = N_("Your action was recorded, but this page could not be shown: reload it.")
        else:
            message = N_("Something went wrong on the server. Nothing was changed.")
        return render(request, 500, "internal", Msg(message))
