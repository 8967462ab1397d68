"""What a page route answers with: the page's context for a viewer, the page rendered (again,
with a refusal next to its field), a file to download."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import QueryParams

from server import i18n
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


BOOT = secrets.token_hex(4)  # a part rendered by another start of the server is rendered anew


def live_tag(context: dict[str, Any]) -> str:
    """What a live part shows, as a fingerprint: the viewer's projection and what the page adds
    (the staff's latest actions, a personal page's journal), in the reader's language; never the
    sequence number nor the time, which change without changing what this viewer sees."""
    game = context["game"]
    shown = {
        "view": context["view"],
        "page": context["page"],
        "viewer": [context["viewer"].role, context["viewer"].person_id, context["viewer"].name],
        "game": [game.name, game.status],
        "undoable": context.get("undoable"),
        "recent": context.get("recent"),
        "log": context.get("match_log"),
        "language": i18n.current_language.get(),
        "boot": BOOT,
    }
    text = json.dumps(shown, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


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
