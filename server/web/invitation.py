"""A game's shared invitation link: the organizer opens, renews or closes it; whoever has it
registers themselves in the role the game's kind opens (a league's coaches) and gets their own
personal link at once. Guessing is pointless (192 bits) and rate limited anyway."""

from __future__ import annotations

import io
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from server.errors import ArbitreError, InvalidInput, LinkInvalid, TooManyAttempts
from server.i18n import N_, Msg
from server.models import Game
from server.platform.idempotency import AlreadyCreated
from server.platform.kinds import get_kind
from server.platform.service import GameService
from server.web.deps import (
    TOO_MANY_TRIES,
    JoinLimiterDep,
    PageViewerDep,
    ServiceDep,
    TemplatesDep,
    browser_caller,
    public_base,
    remember,
    retrying,
    spend,
)
from server.web.people_pages import organizer_only, people_answer

router = APIRouter(include_in_schema=False)


def invitation_url(request: Request, service: GameService, game_id: str) -> str | None:
    token = service.invitation(service.load(game_id).game)
    if token is None:
        return None
    return f"{public_base(request)}/g/{game_id}/join/{token}"


@router.post("/g/{game_id}/invitation/{action}")
async def change_invitation(
    game_id: str,
    action: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
) -> Response:
    organizer_only(viewer)
    if action not in ("open", "close"):
        raise InvalidInput(N_("Unknown action."))
    try:
        service.set_invitation(game_id, viewer, open_it=action == "open")
    except ArbitreError as error:
        return people_answer(request, templates, service, game_id, viewer, error=error)
    flash = Msg(
        N_("The invitation link is open: anyone who has it may join.")
        if action == "open"
        else N_("The invitation link is closed.")
    )
    return people_answer(request, templates, service, game_id, viewer, flash=flash)


@router.get("/g/{game_id}/invitation/qr.svg")
def invitation_qr(
    game_id: str, request: Request, viewer: PageViewerDep, service: ServiceDep
) -> Response:
    organizer_only(viewer)
    url = invitation_url(request, service, game_id)
    if url is None:
        raise LinkInvalid(N_("This invitation is closed or was renewed."))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(
        buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


@router.get("/g/{game_id}/join/{token}")
def invitation_page(
    game_id: str, token: str, request: Request, service: ServiceDep, templates: TemplatesDep
) -> Response:
    game = service.game_by_invitation(game_id, token)
    return templates.response(
        request, "platform/invitation.html", invitation_context(service, game, token)
    )


@router.post("/g/{game_id}/join/{token}")
def join_by_invitation(
    game_id: str,
    token: str,
    request: Request,
    name: Annotated[str, Form(max_length=200)],
    idem: Annotated[str, Form(max_length=64)],
    service: ServiceDep,
    templates: TemplatesDep,
    limiter: JoinLimiterDep,
) -> Response:
    game = service.game_by_invitation(game_id, token)
    try:
        spend(limiter, request, TOO_MANY_TRIES)
        registered = service.join_by_invitation(
            game_id, token, name, idem_key=idem, caller=browser_caller(request)
        )
    except (InvalidInput, TooManyAttempts, AlreadyCreated) as error:
        context = invitation_context(service, game, token)
        context |= {"errors": {"name": error.message}, "form": {"name": name}}
        return retrying(
            templates.response(
                request, "platform/invitation.html", context, status_code=error.status
            ),
            error,
        )
    remember(request, registered.person)
    return RedirectResponse(f"/g/{game_id}/welcome", status_code=303)


def invitation_context(service: GameService, game: Game, token: str) -> dict[str, Any]:
    kind = get_kind(game.kind)
    return {
        "game": game,
        "kind": kind,
        "role_title": kind.role_title(kind.open_role or ""),
        "token": token,
        "errors": {},
        "form": {},
    }
