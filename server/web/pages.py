"""Pages for people: home, links, a game's pages by role, people, log, board.

Routes stay thin: they read the request, call the service, and render what the viewer may see.
A page asked by htmx gets one block of its template; the same URL without htmx gets the page.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

import anyio
import segno
from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, QueryParams

from server import i18n
from server.errors import ArbitreError, InvalidInput, LinkInvalid, NotAllowed, TooManyAttempts
from server.i18n import N_, Msg
from server.models import Person
from server.platform.data_import import csv_cell
from server.platform.dice import MissingRoll
from server.platform.idempotency import session_caller
from server.platform.kinds import KINDS, PUBLIC, SECRET_PURPOSE, Viewer
from server.platform.limits import SharedLimiter
from server.platform.sealing import TICKET_HOURS
from server.platform.service import DICE_MODES, GameService
from server.web.answers import download, live_tag, page_context, refused, render_page
from server.web.deps import (
    TOO_MANY_GAMES,
    TOO_MANY_TRIES,
    ClockDep,
    CreationLimiterDep,
    JoinLimiterDep,
    PageViewerDep,
    PersonId,
    ServiceDep,
    SettingsDep,
    TemplatesDep,
    import_limits,
    public_base,
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
from server.web.security import language_cookie
from server.web.templating import Kept, Templates, bundle, html_response, is_htmx

router = APIRouter(include_in_schema=False)


def remember(request: Request, person: Person) -> None:
    links = dict(session_links(request))
    links[person.game_id] = [person.id, person.version]
    request.session["a"] = links


def browser_caller(request: Request) -> str:
    """A browser with no link yet, for idempotency: its session (its own retry of a tap gets
    the same game or seat; nobody else's request does)."""
    return session_caller(str(request.session.get("csrf") or new_key()))


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
def open_link(token: str, request: Request, service: ServiceDep) -> Response:
    person = service.person_by_token(token)
    remember(request, person)
    return RedirectResponse(f"/g/{person.game_id}", status_code=303)


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
        person = service.person_by_code(code)
    except (LinkInvalid, TooManyAttempts) as error:
        response = templates.response(
            request,
            "join.html",
            {"code": code, "errors": {"code": error.message}},
            status_code=error.status,
        )
        return retrying(response, error)
    remember(request, person)
    return RedirectResponse(f"/g/{person.game_id}", status_code=303)


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
    clock: ClockDep,
) -> Response:
    """The live part of a page, as this viewer may see it (asked again at each change).

    Each change brings every phone of the game at once. They take turns on a few threads of their
    own (finding who is asking included), so the referee's next action, on the common pool, does
    not queue behind 32 phones for its share of the processor."""
    render = partial(live_part, game_id, page, request, service, templates, clock)
    limiter: anyio.CapacityLimiter = request.app.state.live_threads
    return await anyio.to_thread.run_sync(render, limiter=limiter)


def live_part(
    game_id: str,
    page: str,
    request: Request,
    service: GameService,
    templates: Templates,
    clock: Any,
) -> Response:
    viewer = session_viewer(request, game_id, service)
    if page == "people":
        organizer_only(viewer)
        context = people_context(request, service, game_id, viewer)
        return templates.response(request, "platform/people.html", context, block="live")
    if page == "board":
        return board_live(game_id, request, service, templates, clock)
    part = render_part(
        game_id, page, request, viewer, service, templates, clock, request.headers.get("x-live-tag")
    )
    if part.body is None:
        # Nothing this viewer sees has changed since the part they hold (another player's
        # assault, a fight between others): no render, no body (issue 21). Their forms take
        # the new sequence number from the header, as their screen is the game's at it.
        headers = {"X-Live-Tag": part.tag, "X-Game-Seq": str(part.seq)}
        return Response(status_code=204, headers=headers)
    response = html_response(part.body, part.seq)
    response.headers["X-Live-Tag"] = part.tag
    response.headers["X-Game-Status"] = part.status
    return response


@dataclass(frozen=True)
class Part:
    """A viewer's live part at a sequence number: its fingerprint, and its HTML unless the one
    the viewer holds shows the same."""

    seq: int
    tag: str
    status: str
    body: bytes | None


def render_part(
    game_id: str,
    page: str,
    request: Request,
    viewer: Viewer,
    service: GameService,
    templates: Templates,
    clock: Any,
    held: str | None,
) -> Part:
    """The live part `page` as `viewer` may see it, rendered only when it differs from the one
    they hold (`held`, its fingerprint): for a refresh, and for a push on the viewer's stream."""
    loaded = service.load(game_id)
    if page != loaded.kind.page_for(viewer):
        raise NotAllowed(N_("This page is not yours."))
    context = page_context(service, clock, loaded, viewer, page)
    stats = request.app.state.live_stats
    tag = live_tag(context)
    status = loaded.game.status
    if held == tag:
        stats["unchanged"] += 1
        return Part(loaded.game.seq, tag, status, None)
    response = templates.response(request, loaded.kind.template(page), context, block="live")
    stats["rendered"] += 1
    stats["bytes"] += len(response.body)
    return Part(loaded.game.seq, tag, status, bytes(response.body))


def board_live(
    game_id: str, request: Request, service: GameService, templates: Templates, clock: Any
) -> Response:
    """A public board's live part shows the game's state alone, the same for every phone that
    watches it: rendered once a change and language, then served to them all for the price of
    reading the game's sequence number (a match watched by a crowd costs one render a move);
    a phone that holds it already gets a 204."""
    language = i18n.current_language.get()
    seq = service.seq_of(game_id)
    kept = templates.boards.get(game_id, language, seq)
    if kept is None:
        loaded = service.load(game_id)
        context = page_context(service, clock, loaded, PUBLIC, "board")
        tag = live_tag(context)
        response = templates.response(request, loaded.kind.template("board"), context, block="live")
        seq, kept = loaded.game.seq, Kept(bytes(response.body), tag, loaded.game.status)
        templates.boards.keep(game_id, language, seq, kept)
    headers = {"X-Live-Tag": kept.tag, "X-Game-Status": kept.status}
    if request.headers.get("x-live-tag") == kept.tag:
        return Response(status_code=204, headers={**headers, "X-Game-Seq": str(seq)})
    return html_response(kept.body, seq, headers=headers)


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
    return after_action(
        request, templates, service, clock, game_id, viewer, page, performed.summary
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
) -> Response:
    if not is_htmx(request):
        request.session["flash"] = summary.to_json()
        return RedirectResponse(f"/g/{game_id}", status_code=303)
    context = page_context(service, clock, service.load(game_id), viewer, page, flash=summary)
    return render_page(request, templates, context)


# ---------------------------------------------------------------------- people and links


def organizer_only(viewer: Viewer) -> None:
    if not viewer.is_organizer:
        raise NotAllowed(N_("Only the organizer can open this page."))


def people_context(
    request: Request, service: GameService, game_id: str, viewer: Viewer, **extra: Any
) -> dict[str, Any]:
    loaded = service.load(game_id)
    base = public_base(request)
    people = []
    for person in service.people(game_id):
        link = service.link_of(person)
        people.append(
            {
                "person": person,
                "url": f"{base}/t/{link.token}",
                "code": link.code,
            }
        )
    roles = loaded.kind.registrable_roles()
    # The role the form offers first: the one last used on this phone, else the kind's common
    # case (a fighter, a player, a coach), never the rarest.
    last = request.session.get(f"role:{game_id}")
    return {
        "game": loaded.game,
        "kind": loaded.kind,
        "viewer": viewer,
        "people": people,
        "page": "people",
        "roles": roles,
        "default_role": last if last in roles else loaded.kind.roles[0],
        "join_url": f"{base}/join",
        "in_clear": service.exports_in_clear(game_id, viewer) if viewer.is_organizer else False,
        "open_role": loaded.kind.open_role,
        "invite_url": (
            f"{base}/g/{game_id}/join/{token}"
            if (token := service.invitation(loaded.game))
            else None
        ),
        # The QR code's address changes with the invitation, without carrying any of its secret.
        "invite_tag": hashlib.sha256(token.encode()).hexdigest()[:8] if token else None,
        "errors": {},
        "form": {},
        "seq": loaded.game.seq,
        "hx_block": "live",
        "live_url": f"/g/{game_id}/live/people",
        "stream_url": f"/g/{game_id}/events",
        **extra,
    }


@router.get("/g/{game_id}/welcome")
def welcome(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    """A person's own link, QR code and code, right after they got it (the organizer's game just
    created, a coach who joined by invitation): keep it to come back."""
    if viewer.person_id is None:
        raise NotAllowed(N_("This page is not yours."))
    loaded = service.load(game_id)
    person = service.person(game_id, viewer.person_id)
    link = service.link_of(person)
    base = public_base(request)
    me = {"person": person, "url": f"{base}/t/{link.token}", "code": link.code}
    context = {"game": loaded.game, "kind": loaded.kind, "viewer": viewer, "me": me}
    return templates.response(request, "platform/welcome.html", context)


@router.get("/g/{game_id}/people")
def people_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    organizer_only(viewer)
    context = people_context(request, service, game_id, viewer)
    return templates.response(request, "platform/people.html", context)


@router.post("/g/{game_id}/people")
async def register_person(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    organizer_only(viewer)
    form = await request.form()
    return await run_in_threadpool(register_now, game_id, request, viewer, service, templates, form)


def register_now(
    game_id: str,
    request: Request,
    viewer: Viewer,
    service: GameService,
    templates: Templates,
    form: FormData,
) -> Response:
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        registered = service.register(
            game_id,
            viewer,
            values.get("role", ""),
            values.get("name", ""),
            idem_key=idem_of(form),
        )
    except ArbitreError as error:
        return people_answer(request, templates, service, game_id, viewer, error=error, form=values)
    flash = Msg(N_("{name} is registered."), {"name": registered.person.name})
    # The role stays chosen: people are often registered one role after another.
    form_kept = {"role": values.get("role", "")}
    request.session[f"role:{game_id}"] = registered.person.role
    return people_answer(request, templates, service, game_id, viewer, flash=flash, form=form_kept)


@router.post("/g/{game_id}/people/{person_id}/{action}")
async def change_link(
    game_id: str,
    person_id: PersonId,
    action: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    organizer_only(viewer)
    if action not in ("reissue", "revoke"):
        raise InvalidInput(N_("Unknown action."))
    form = await request.form()
    return await run_in_threadpool(
        change_link_now, game_id, person_id, action, request, viewer, service, templates, form
    )


def change_link_now(
    game_id: str,
    person_id: int,
    action: str,
    request: Request,
    viewer: Viewer,
    service: GameService,
    templates: Templates,
    form: FormData,
) -> Response:
    try:
        if action == "revoke":
            registered = service.revoke(game_id, viewer, person_id, idem_key=idem_of(form))
            flash = Msg(N_("The link of {name} is revoked."), {"name": registered.person.name})
        else:
            registered = service.reissue(game_id, viewer, person_id, idem_key=idem_of(form))
            flash = Msg(N_("{name} has a new link."), {"name": registered.person.name})
            if registered.person.id == viewer.person_id:
                remember(request, registered.person)
    except ArbitreError as error:
        return people_answer(request, templates, service, game_id, viewer, error=error)
    return people_answer(request, templates, service, game_id, viewer, flash=flash)


def people_answer(
    request: Request,
    templates: Templates,
    service: GameService,
    game_id: str,
    viewer: Viewer,
    *,
    error: ArbitreError | None = None,
    flash: Msg | None = None,
    form: dict[str, str] | None = None,
) -> Response:
    """The people page after a change: its live block for htmx, a redirect without JavaScript,
    the page with the message next to the field when refused."""
    if error is None and not is_htmx(request):
        return RedirectResponse(f"/g/{game_id}/people", status_code=303)
    errors = {error.field or "_": error.message} if error else {}
    context = people_context(
        request, service, game_id, viewer, errors=errors, form=form or {}, flash=flash
    )
    status = error.status if error else 200
    return templates.response(request, "platform/people.html", context, status_code=status)


@router.get("/join/qr.svg")
def join_qr(request: Request) -> Response:
    """The QR code of this server's join page, at the address the organizer's phone used (a
    laptop's on a hotspot): nothing of any game in it."""
    return svg_qr(f"{public_base(request)}/join")


def svg_qr(url: str) -> Response:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(
        buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


@router.get("/g/{game_id}/people/{person_id}/qr.svg")
def qr_code(
    game_id: str,
    person_id: PersonId,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
) -> Response:
    if not viewer.is_organizer and viewer.person_id != person_id:
        raise NotAllowed(N_("This link is not yours."))
    person = service.person(game_id, person_id)
    if person.revoked:
        raise LinkInvalid(N_("This link is no longer valid."))
    link = service.link_of(person)
    return svg_qr(f"{public_base(request)}/t/{link.token}")


@router.get("/g/{game_id}/slips")
def qr_slips(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    """Printable slips: one QR code, name and join code per person."""
    organizer_only(viewer)
    context = people_context(request, service, game_id, viewer)
    return templates.response(request, "platform/slips.html", context)


# ---------------------------------------------------------------------- the log

# The journal and its exports from after an action's number (`?after=N`), as the API's log: what a
# phone that has read up to N is missing.
After = Annotated[int, Query(ge=0, le=2_147_483_647)]


@router.get("/g/{game_id}/log")
def log_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    after: After = 0,
) -> Response:
    loaded = service.load(game_id)
    events = service.log(game_id, viewer, after=after)
    for e in events:  # the page says each die in words; the exports keep the purposes
        for r in e.get("rolls", []):
            r["label"] = (
                Msg(N_("a secret die, entered by hand"))
                if r["purpose"] == SECRET_PURPOSE
                else loaded.kind.roll_label(r["purpose"], loaded.state)
            )
    return templates.response(
        request,
        "platform/log.html",
        {
            "game": loaded.game,
            "kind": loaded.kind,
            "viewer": viewer,
            "events": events,
            "after": after,
        },
    )


@router.get("/g/{game_id}/log.json")
def log_json(
    game_id: str, viewer: PageViewerDep, service: ServiceDep, after: After = 0
) -> Response:
    loaded = service.load(game_id)
    body = {
        "game": {"id": game_id, "kind": loaded.game.kind, "name": loaded.game.name},
        "events": service.log(game_id, viewer, after=after),
    }
    return download(
        json.dumps(body, ensure_ascii=False, indent=1),
        "application/json",
        f"arbitre-{game_id}.json",
    )


@router.get("/g/{game_id}/game.json")
def game_file(
    game_id: str,
    viewer: PageViewerDep,
    service: ServiceDep,
    ticket: Annotated[str | None, Query(max_length=400)] = None,
) -> Response:
    """The game's file, the organizer's alone, never a token: what they may read of it, and
    what replays it, in clear when they may read all of it, else sealed to the import ticket
    of the server it goes to (`ticket`), else left out (`GameService.export_game`)."""
    body = service.export_game(game_id, viewer, ticket=ticket or None)
    return download(
        json.dumps(body, ensure_ascii=False, indent=1),
        "application/json",
        f"arbitre-game-{game_id}.json",
    )


@router.get("/g/{game_id}/log.csv")
def log_csv(game_id: str, viewer: PageViewerDep, service: ServiceDep, after: After = 0) -> Response:
    events = service.log(game_id, viewer, after=after)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["seq", "at", "type", "actor", "role", "summary", "rolls", "undone", "command", "from_file"]
    )
    for e in events:
        actor = e.get("actor", {})
        rolls = " ".join(
            f"{r['purpose']}={'?' if r['value'] is None else r['value']}"
            f"{'*' if r.get('manual') else ''}"
            for r in e.get("rolls", [])
        )
        row = [
            e.get("seq"),
            e.get("at", ""),
            e.get("type", ""),
            actor.get("name", ""),
            actor.get("role", ""),
            e.get("summary", ""),
            rolls,
            "yes" if e.get("undone") else "",
            json.dumps(e.get("command", {}), ensure_ascii=False),
            "yes" if any(r.get("from_file") for r in e.get("rolls", [])) else "",
        ]
        writer.writerow([csv_cell(cell) for cell in row])
    return download(out.getvalue(), "text/csv; charset=utf-8", f"arbitre-{game_id}.csv")


# ---------------------------------------------------------------------- app shell


@router.get("/assets/app.js")
def app_script() -> Response:
    body, _version = bundle()
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "public, max-age=31536000, immutable"},
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
    """Alive; and how many live parts were rendered or found unchanged (no game content)."""
    return {"status": "ok", "live": dict(request.app.state.live_stats)}
