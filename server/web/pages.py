"""Pages for people: home, links, a game's pages by role, people, log, board.

Routes stay thin: they read the request, call the service, and render what the viewer may see.
A page asked by htmx gets one block of its template; the same URL without htmx gets the page.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from typing import Annotated, Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import anyio
from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, QueryParams

from server import i18n
from server.errors import (
    ArbitreError,
    InvalidInput,
    LinkInvalid,
    NotFound,
    SeatTaken,
    TooManyAttempts,
)
from server.i18n import N_, Msg
from server.platform.dice import MissingRoll
from server.platform.kinds import KINDS, PUBLIC, GameKind, Viewer
from server.platform.limits import SharedLimiter
from server.platform.sealing import TICKET_HOURS
from server.platform.service import DICE_MODES, GameService
from server.platform.service.people import holds_a_seat
from server.web.answers import live_tag, page_context, refused, render_page
from server.web.deps import (
    TOO_MANY_GAMES,
    TOO_MANY_TRIES,
    ClockDep,
    CreationLimiterDep,
    JoinLimiterDep,
    PageViewerDep,
    ServiceDep,
    SettingsDep,
    TemplatesDep,
    browser_caller,
    import_limits,
    link_gone,
    remember,
    retrying,
    session_links,
    session_viewer,
    spend,
)
from server.web.forms import (
    form_command,
    idem_of,
    int_field,
    new_key,
)
from server.web.parts import LiveParts
from server.web.people_pages import organizer_only, people_context
from server.web.seats import held_here, navigated, take_seat
from server.web.security import language_cookie
from server.web.templating import (
    Templates,
    bundle,
    compressed,
    has_bundle,
    html_response,
    is_htmx,
)

router = APIRouter(include_in_schema=False)


def creatable() -> list[Any]:
    """The kinds a game may be created of on its own (a league's match is opened from it)."""
    return [kind for kind in KINDS.values() if kind.standalone]


def safe_next(value: str | None) -> str:
    if not value:
        return "/"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith("//"):
        return "/"
    return value


# ---------------------------------------------------------------------- home, links, language


@router.get("/")
def home(request: Request, service: ServiceDep, templates: TemplatesDep) -> Response:
    mine = []
    for game_id, entry in session_links(request).items():
        viewer = service.viewer(game_id, int(entry[0]), int(entry[1]))
        if viewer is None:
            continue
        try:
            loaded = service.load(game_id)
        except ArbitreError:
            continue
        mine.append({"game": loaded.game, "kind": loaded.kind, "viewer": viewer})
    return templates.response(
        request,
        "home.html",
        {"kinds": creatable(), "mine": mine, "idem": new_key(), "dice_modes": DICE_MODES},
    )


@router.post("/games")
async def create_game(
    request: Request, service: ServiceDep, templates: TemplatesDep, limiter: CreationLimiterDep
) -> Response:
    form = await request.form()
    return await run_in_threadpool(create_game_now, request, service, templates, limiter, form)


def create_game_now(
    request: Request,
    service: GameService,
    templates: Templates,
    limiter: SharedLimiter,
    form: FormData,
) -> Response:
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        spend(limiter, request, TOO_MANY_GAMES)
        game, registered = service.create_game(
            values.get("kind", ""),
            values.get("name", ""),
            values.get("organizer", ""),
            dice=values.get("dice", "server"),
            idem_key=idem_of(form),
            caller=browser_caller(request),
        )
    except ArbitreError as error:
        return home_refused(request, templates, error, values)
    remember(request, registered.person)
    return RedirectResponse(f"/g/{game.id}/welcome", status_code=303)


def home_refused(
    request: Request, templates: Templates, error: ArbitreError, values: dict[str, str]
) -> Response:
    response = templates.response(
        request,
        "home.html",
        {
            "kinds": creatable(),
            "mine": [],
            "idem": new_key(),
            "dice_modes": DICE_MODES,
            "form": values,
            "errors": {error.field or "_": error.message},
        },
        status_code=error.status,
    )
    return retrying(response, error)


@router.post("/games/import")
async def import_game(
    request: Request, service: ServiceDep, templates: TemplatesDep, limiter: CreationLimiterDep
) -> Response:
    """A game file saved on another Arbitre (`export_game`): the game goes on here, and the one
    who brought it is its organizer."""
    form = await request.form()
    upload = form.get("file")
    text = ""
    if upload is not None and not isinstance(upload, str):
        raw = await upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = "\ufffd"  # not text: refused below as not a game
    return await run_in_threadpool(
        import_game_now, request, service, templates, limiter, form, text
    )


def import_game_now(
    request: Request,
    service: GameService,
    templates: Templates,
    limiter: SharedLimiter,
    form: FormData,
    text: str,
) -> Response:
    try:
        spend(limiter, request, TOO_MANY_GAMES)
        game, registered = service.import_game(
            text,
            caller=browser_caller(request),
            idem_key=idem_of(form),
            limits=import_limits(request.app.state.settings),
        )
    except ArbitreError as error:
        return home_refused(request, templates, error, {})
    remember(request, registered.person)
    return RedirectResponse(f"/g/{game.id}/welcome", status_code=303)


@router.post("/tickets")
def make_ticket(
    request: Request, service: ServiceDep, templates: TemplatesDep, limiter: CreationLimiterDep
) -> Response:
    """An import ticket of this server, for a game in progress to come in sealed: shown once, to
    paste on the other server's People page of the game (`server.platform.sealing`). Counted
    as a game created (it is one to come)."""
    try:
        spend(limiter, request, TOO_MANY_GAMES)
    except ArbitreError as error:
        return home_refused(request, templates, error, {})
    made = service.new_ticket()
    return templates.response(
        request,
        "platform/ticket.html",
        {"ticket": made.text, "hours": TICKET_HOURS, "server_key": made.server},
    )


@router.get("/t/{token}")
def open_link(
    token: str, request: Request, service: ServiceDep, templates: TemplatesDep
) -> Response:
    """A personal link opened: a seat's ticket is taken by the first phone that opens it
    (`take_seat`). A browser opening it as a page takes it at once; whatever else fetches the
    address (a messenger's preview, a mail scanner: no browser's navigation) is shown the
    button that takes it, and takes nothing."""
    if navigated(request):
        return take_seat(request, service, token=token)
    try:
        person = service.ticket(token)
    except SeatTaken as taken:
        if held_here(request, service, taken):
            return RedirectResponse(f"/g/{taken.game_id}", status_code=303)
        raise
    if not holds_a_seat(person) or person.claimed_at is not None:
        return take_seat(request, service, token=token)  # no seat to take: it opens
    context = {"person": person, "game": service.load(person.game_id).game, "token": token}
    return templates.response(request, "platform/seat.html", context)


@router.post("/t/{token}")
def claim_link(token: str, request: Request, service: ServiceDep) -> Response:
    return take_seat(request, service, token=token)


@router.get("/join")
def join_page(request: Request, templates: TemplatesDep) -> Response:
    return templates.response(request, "join.html", {"code": request.query_params.get("code", "")})


@router.post("/join")
def join(
    request: Request,
    code: Annotated[str, Form(max_length=40)],
    service: ServiceDep,
    templates: TemplatesDep,
    limiter: JoinLimiterDep,
) -> Response:
    try:
        spend(limiter, request, TOO_MANY_TRIES)
        return take_seat(request, service, code=code)  # a code takes its seat as its link does
    except (LinkInvalid, TooManyAttempts) as error:
        response = templates.response(
            request,
            "join.html",
            {"code": code, "errors": {"code": error.message}},
            status_code=error.status,
        )
        return retrying(response, error)


@router.post("/lang")
def switch_language(
    request: Request,
    lang: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/",
) -> Response:
    response = RedirectResponse(safe_next(next), status_code=303)
    if lang in i18n.LANGUAGES:
        response.raw_headers.append(language_cookie(lang))
    return response


# ---------------------------------------------------------------------- a game's pages


@router.get("/g/{game_id}")
def game_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    loaded = service.load(game_id)
    if viewer.role == "public":
        if link_gone(request, game_id):  # revoked or re-issued while the page was open
            raise LinkInvalid(N_("This link is no longer valid."))
        return RedirectResponse(f"/g/{game_id}/board", status_code=303)
    flash = request.session.pop("flash", None)
    context = page_context(
        service,
        clock,
        loaded,
        viewer,
        loaded.kind.page_for(viewer),
        flash=Msg.from_json(flash) if flash else None,
        query=request.query_params,
    )
    # The page's live part says what it shows: the first nudge that changes nothing is a 204.
    context["live_tag"] = live_tag(context)
    # Its stream brings the part itself when it changes for this viewer (issue 21): it knows
    # which part the page holds, and what it showed.
    part = urlencode({"part": context["page"], "tag": context["live_tag"]})
    context["stream_url"] = f"/g/{game_id}/events?{part}"
    return render_page(request, templates, context)


@router.get("/g/{game_id}/board")
def board(
    game_id: str,
    request: Request,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    loaded = service.load(game_id)
    context = page_context(service, clock, loaded, PUBLIC, "board")
    # The board's stream brings its part when it changes, as a personal page's does.
    context["live_tag"] = live_tag(context)
    part = urlencode({"part": "board", "tag": context["live_tag"]})
    context["stream_url"] = f"/g/{game_id}/events?{part}"
    return render_page(request, templates, context)


@router.get("/g/{game_id}/live/{page}")
async def live_block(
    game_id: str,
    page: str,
    request: Request,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    """The live part of a page, as this viewer may see it (asked again at each change).

    Each change brings every phone of the game at once. They take turns on a few threads of their
    own (finding who is asking included), so the referee's next action, on the common pool, does
    not queue behind 32 phones for its share of the processor."""
    render = partial(live_part, game_id, page, request, service, templates)
    limiter: anyio.CapacityLimiter = request.app.state.live_threads
    return await anyio.to_thread.run_sync(render, limiter=limiter)


def live_part(
    game_id: str,
    page: str,
    request: Request,
    service: GameService,
    templates: Templates,
) -> Response:
    parts: LiveParts = request.app.state.parts
    language = i18n.current_language.get()
    held = request.headers.get("x-live-tag")
    if page == "board":  # the public's: whoever asks is shown it
        part = parts.board(game_id, language)
        if part.tag == held:
            part = replace(part, html=None)
    else:
        viewer = session_viewer(request, game_id, service)
        if page == "people":
            organizer_only(viewer)
            context = people_context(request, service, game_id, viewer)
            return templates.response(request, "platform/people.html", context, block="live")
        # The page's address as far as its part reads it (a half-made action the phone keeps):
        # the same part as a fresh load of that address.
        query = request.query_params
        part = parts.make(service.load(game_id), viewer, page, language, held=held, query=query)
    stats = request.app.state.live_stats
    headers = {"X-Live-Tag": part.tag, "X-Game-Status": part.status}
    if part.html is None:
        # Nothing this viewer sees has changed since the part they hold (another player's
        # assault, a fight between others): no render, no body (issue 21). Their forms take
        # the new sequence number from the header, as their screen is the game's at it.
        stats["unchanged"] += 1
        return Response(status_code=204, headers={**headers, "X-Game-Seq": str(part.seq)})
    csrf = (request.scope.get("session") or {}).get("csrf", "")
    body = part.filled(csrf)
    stats["bytes"] += len(body)
    return html_response(body, part.seq, headers=headers)


@router.post("/g/{game_id}/act")
async def act(
    game_id: str,
    request: Request,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    form = await request.form()
    # Who acts, the rules, the commit and the render: one trip to a worker thread, while every
    # phone's request goes on being served (issue 21).
    return await run_in_threadpool(act_now, game_id, request, service, templates, clock, form)


def act_now(
    game_id: str,
    request: Request,
    service: GameService,
    templates: Templates,
    clock: Any,
    form: FormData,
) -> Response:
    viewer = session_viewer(request, game_id, service)
    loaded = service.load(game_id)
    page = loaded.kind.page_for(viewer)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        payload, rolls = form_command(form)
        performed = service.perform(
            game_id,
            viewer,
            loaded.kind.from_form(payload),
            idem_key=idem_of(form),
            seen_seq=int_field(form, "seq"),
            rolls=rolls,
        )
    except ArbitreError as error:
        # The page comes back as it was sent: same choices (as `query`), typed values, and the
        # message next to the field.
        return refused(
            request,
            templates,
            service,
            clock,
            service.load(game_id),
            viewer,
            error,
            page=page,
            form=values,
            query=QueryParams(
                [(k.removesuffix("[]"), v) for k, v in form.multi_items() if isinstance(v, str)]
            ),
            dice_prompt=dice_prompt(error, form),
        )
    request.state.committed = True
    ends = payload.get("type") in loaded.kind.page_query_ends
    return after_action(
        request, templates, service, clock, game_id, viewer, page, performed.summary, ends=ends
    )


def dice_prompt(error: ArbitreError, form: FormData) -> dict[str, Any] | None:
    """A die the action needs from physical dice: the form that sends the same action again with
    it (and with the dice already typed)."""
    if not isinstance(error, MissingRoll) or not error.field:
        return None
    resend = [
        (k, v)
        for k, v in form.multi_items()
        if isinstance(v, str) and k not in ("csrf_token", "idem") and k != error.field
    ]
    return {
        "field": error.field,
        "sides": error.msg.params.get("sides", 10),
        "message": error.message,
        "resend": resend,
    }


@router.post("/g/{game_id}/undo")
async def undo(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    form = await request.form()
    return await run_in_threadpool(
        undo_now, game_id, request, viewer, service, templates, clock, form
    )


def undo_now(
    game_id: str,
    request: Request,
    viewer: Viewer,
    service: GameService,
    templates: Templates,
    clock: Any,
    form: FormData,
) -> Response:
    loaded = service.load(game_id)
    page = loaded.kind.page_for(viewer)
    try:
        performed = service.undo(
            game_id, viewer, idem_key=idem_of(form), target_seq=int_field(form, "target_seq")
        )
    except ArbitreError as error:
        return refused(
            request, templates, service, clock, loaded, viewer, error, page=page, field="_"
        )
    request.state.committed = True
    return after_action(
        request, templates, service, clock, game_id, viewer, page, performed.summary
    )


@router.post("/g/{game_id}/proposals/{proposal_id}")
async def answer_proposal(
    game_id: str,
    proposal_id: int,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """The other side's answer to a proposal (`answer`: accept or refuse; the proposer's
    refuse withdraws it)."""
    form = await request.form()
    return await run_in_threadpool(
        answer_now, game_id, proposal_id, request, viewer, service, templates, clock, form
    )


def answer_now(
    game_id: str,
    proposal_id: int,
    request: Request,
    viewer: Viewer,
    service: GameService,
    templates: Templates,
    clock: Any,
    form: FormData,
) -> Response:
    loaded = service.load(game_id)
    page = loaded.kind.page_for(viewer)
    try:
        answer = form.get("answer")
        if answer not in ("accept", "refuse"):
            raise InvalidInput(N_("Accept or refuse the proposal."), field="answer")
        performed = service.answer(
            game_id, viewer, proposal_id, accept=answer == "accept", idem_key=idem_of(form)
        )
    except ArbitreError as error:
        return refused(
            request, templates, service, clock, loaded, viewer, error, page=page, field="_"
        )
    request.state.committed = True
    return after_action(
        request, templates, service, clock, game_id, viewer, page, performed.summary
    )


def after_action(
    request: Request,
    templates: Templates,
    service: GameService,
    clock: Any,
    game_id: str,
    viewer: Viewer,
    page: str,
    summary: Msg,
    *,
    ends: bool = False,
) -> Response:
    if not is_htmx(request):
        request.session["flash"] = summary.to_json()
        return RedirectResponse(f"/g/{game_id}", status_code=303)
    # The sender's live part is the one the fan-out then pushes to the phones of the same
    # projection: made once (`LiveParts.answer`), filled with this phone's token. A half-made
    # action the sender's page keeps in its address (an assault's players) stays, unless this
    # action `ends` it (the assault rolled): then the address lets go of it too.
    parts: LiveParts = request.app.state.parts
    language = i18n.current_language.get()
    loaded = service.load(game_id)
    query = address_query(request, loaded.kind, game_id)
    kept = query if query and not ends else None
    part, context = parts.answer(loaded, viewer, page, language, kept, flash=summary)
    csrf = (request.scope.get("session") or {}).get("csrf", "")
    headers = {"HX-Replace-Url": f"/g/{game_id}"} if query and ends else {}
    return templates.response(
        request, context["kind"].template(page), context, live=part.filled(csrf), headers=headers
    )


def address_query(request: Request, kind: GameKind[Any], game_id: str) -> QueryParams | None:
    """The keys of the sender's page's address its live part reads (`GameKind.page_query`)."""
    current = urlsplit(request.headers.get("hx-current-url", ""))
    if current.path != f"/g/{game_id}":
        return None
    kept = [(k, v) for k, v in parse_qsl(current.query) if k in kind.page_query]
    return QueryParams(kept) if kept else None


# ---------------------------------------------------------------------- people and links


@router.get("/assets/{name}.{ext}")
def asset(request: Request, name: str, ext: str) -> Response:
    """The script (`.js`) or styles (`.css`) of a game's pages (its kind's key), or of the
    pages of no game (`app`): compressed once, as the phone takes it."""
    if not has_bundle(name, ext):
        raise NotFound(N_("This page does not exist."))
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"}
    takes = {  # each coding the phone takes, but those it refuses ("br;q=0")
        coding.strip()
        for coding, _, weight in (
            e.partition(";") for e in request.headers.get("accept-encoding", "").split(",")
        )
        if not re.fullmatch(r"\s*q\s*=\s*0(\.0*)?\s*", weight)
    }
    encoding = next((e for e in ("br", "gzip") if e in takes), None)
    if encoding is None:
        body = bundle(name, ext)[0]
    else:
        body, headers["Content-Encoding"] = compressed(name, ext, encoding), encoding
    return Response(
        body, media_type="text/javascript" if ext == "js" else "text/css", headers=headers
    )


@router.get("/sw.js")
def service_worker(templates: TemplatesDep) -> Response:
    body = templates.render("sw.js", {})
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline")
def offline(request: Request, templates: TemplatesDep) -> Response:
    return templates.response(request, "offline.html", {})


@router.get("/healthz")
def health(request: Request, settings: SettingsDep) -> dict[str, Any]:
    """Alive; how many live parts were rendered or found unchanged, the full garbage
    collections since the process began serving, and the phones' streams it holds (counts, no
    game content: a proxy or a bench sees how the phones spread over the processes)."""
    state = request.app.state
    return {
        "status": "ok",
        "live": dict(state.live_stats),
        "collector": state.full_collections.figures(),
        "streams": state.broker.streams(),
    }
