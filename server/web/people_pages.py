"""The organizer's people pages: links issued, revoked and re-issued, QR codes and slips, the
welcome page a new person lands on."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from server.errors import ArbitreError, InvalidInput, LinkInvalid, NotAllowed
from server.i18n import N_, Msg
from server.platform.kinds import Viewer
from server.platform.service import GameService
from server.platform.service.people import handed, shown_link
from server.web.deps import (
    PageViewerDep,
    PersonId,
    ServiceDep,
    TemplatesDep,
    public_base,
    remember,
)
from server.web.forms import (
    idem_of,
)
from server.web.templating import Templates, is_htmx

router = APIRouter(include_in_schema=False)


def organizer_only(viewer: Viewer) -> None:
    if not viewer.is_organizer:
        raise NotAllowed(N_("Only the organizer can open this page."))


def people_context(
    request: Request, service: GameService, game_id: str, viewer: Viewer, **extra: Any
) -> dict[str, Any]:
    loaded = service.load(game_id)
    base = public_base(request)
    settings = loaded.game.settings
    people = []
    for person in service.people(game_id):
        # A taken seat's key is its holder's alone (issue 51): the organizer is told it is
        # taken, and when; a seat not yet taken shows its ticket, to print or to show. A game
        # another one opened (a league's match) hands its seats through it, never its organizer.
        url: str | None = None
        code: str | None = None
        if shown_link(person, settings):
            link = service.link_of(person)
            url, code = f"{base}/t/{link.token}", link.code
        people.append(
            {"person": person, "url": url, "code": code, "handed": handed(person, settings)}
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
    link = service.link_of(person)  # their own: the organizer's link, or their seat's key
    base = public_base(request)
    code = (
        link.code if shown_link(person, loaded.game.settings) else None
    )  # a seat's key has no join code
    me = {"person": person, "url": f"{base}/t/{link.token}", "code": code}
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
    if viewer.person_id != person_id and not shown_link(
        person, service.load(game_id).game.settings
    ):
        raise NotAllowed(N_("This seat is taken: its link is its holder's alone."))
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
