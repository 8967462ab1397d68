"""What a page route answers with: the page's context for a viewer, the page rendered (again,
with a refusal next to its field), a file to download."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import QueryParams

from server.errors import ArbitreError
from server.platform.kinds import Viewer
from server.platform.service import GameService, Loaded
from server.web.templating import Templates


def download(body: str, media_type: str, filename: str) -> Response:
    """A file to save (log exports, decks)."""
    return Response(
        body,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def page_context(
    service: GameService,
    clock: Any,
    loaded: Loaded,
    viewer: Viewer,
    page: str,
    **extra: Any,
) -> dict[str, Any]:
    now = clock.now()
    game = loaded.game
    context: dict[str, Any] = {
        "game": game,
        "kind": loaded.kind,
        "viewer": viewer,
        "page": page,
        "view": loaded.kind.view(loaded.state, viewer, now),
        "seq": game.seq,
        "now_ms": int(now.timestamp() * 1000),
        "live_url": f"/g/{game.id}/live/{page}",
        "stream_url": f"/g/{game.id}/events",
        "hx_block": "live",
        "errors": {},
        "form": {},
        "flash": None,
        "query": QueryParams(""),
    }
    if viewer.is_staff:
        context["undoable"] = service.last_undoable(game.id)
        context["recent"] = service.recent_summaries(game.id)
    elif loaded.kind.page_log and viewer.role != "public":
        context["match_log"] = service.log(
            game.id, viewer, after=max(0, game.seq - loaded.kind.page_log)
        )
    context.update(extra)
    return context


def render_page(
    request: Request,
    templates: Templates,
    context: dict[str, Any],
    status_code: int = 200,
) -> Response:
    kind = context["kind"]
    return templates.response(
        request, kind.template(context["page"]), context, status_code=status_code
    )


def refused(
    request: Request,
    templates: Templates,
    service: GameService,
    clock: Any,
    loaded: Loaded,
    viewer: Viewer,
    error: ArbitreError,
    *,
    page: str | None = None,
    template: str | None = None,
    field: str | None = None,
    **extra: Any,
) -> Response:
    """The page sent back as it was sent, with the refusal next to the field it is about (and at
    the top of the page): what every form that changes something answers when refused. A page of
    its own (`template`, a deck import) is rendered whole; a game page as its own route does."""
    where = field or error.field or "_"
    errors = {where: error.message} if template else {where: error.message, "_": error.message}
    extra.setdefault("hx_block", None if template else "live")
    page = page or loaded.kind.page_for(viewer)
    context = page_context(service, clock, loaded, viewer, page, errors=errors, **extra)
    if template is not None:
        return templates.response(request, template, context, status_code=error.status)
    return render_page(request, templates, context, status_code=error.status)
