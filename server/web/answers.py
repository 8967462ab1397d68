"""What a page route answers with: the page's context for a viewer, the page rendered (again,
with a refusal next to its field), a file to download."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Hashable
from collections.abc import Set as AbstractSet
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import QueryParams

from server import i18n
from server.errors import ArbitreError
from server.i18n import N_, Msg
from server.platform.kinds import (
    Built,
    GameKind,
    Projection,
    Viewer,
    may_now,
    personal_parts,
    project,
)
from server.platform.now import Now
from server.platform.service import GameService, Loaded
from server.platform.service.store import may_undo
from server.web.deps import retrying
from server.web.templating import Templates


def download(body: str, media_type: str, filename: str) -> Response:
    """A file to save (log exports, decks)."""
    return Response(
        body,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


NO_QUERY = QueryParams("")  # immutable: one for every page made without its address's query


def page_context(
    service: GameService,
    clock: Any,
    loaded: Loaded,
    viewer: Viewer,
    page: str,
    *,
    built: Built | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What a game page shows `viewer`. `built`: the copies of parts already built for this
    state (one change's live parts, built once for all the phones: `server.web.fanout`)."""
    now = clock.now()
    game = loaded.game
    shown = project(loaded.kind, loaded.state, viewer, now, built)
    context: dict[str, Any] = {
        "game": game,
        "kind": loaded.kind,
        "viewer": viewer,
        "page": page,
        "view": shown.view,
        "shown": shown,
        "projection": projection(
            loaded.kind,
            viewer,
            page,
            shown.copies,
            service.undo_actor(game.id) if viewer.is_staff else None,
        ),
        "seq": game.seq,
        "now_ms": int(now.timestamp() * 1000),
        "live_url": f"/g/{game.id}/live/{page}",
        "stream_url": f"/g/{game.id}/events",
        "hx_block": "live",
        "errors": {},
        "form": {},
        "flash": None,
        "query": NO_QUERY,
        "now_line": loaded.kind.now(shown.view, viewer),
        # What this viewer may do now, by the game's moves: the forms offer nothing else.
        "may": may_now(loaded.kind, loaded.state, viewer),
    }
    context["proposals"] = service.proposals(game, viewer, loaded.kind, loaded.state)
    asked = [p for p in context["proposals"] if p.get("status") == "open" and p.get("to_me")]
    if asked:  # the game waits for this side's answer before anything else
        said = Msg(N_("Your turn: {name} proposes something, answer it."), {"name": asked[0]["by"]})
        context["now_line"] = Now(context["now_line"].where, said, yours=True)
    if viewer.is_staff:
        context["undoable"] = service.last_undoable(game.id, viewer)
        context["recent"] = service.recent_summaries(game.id)
    elif loaded.kind.consent_commands and loaded.kind.side_of(loaded.state, viewer):
        # Sides playing without a referee undo too (their own last action alone, else with
        # the other side's consent).
        context["undoable"] = service.last_undoable(game.id)
        context["undo_asks"] = service.undo_asks(game.id, viewer)
    if not viewer.is_staff and loaded.kind.page_log and viewer.role != "public":
        context["match_log"] = service.log(
            game.id, viewer, after=max(0, game.seq - loaded.kind.page_log)
        )
    context.update(extra)
    context["query"] = page_query(loaded.kind, context["query"])
    return context


def page_query(kind: GameKind[Any], query: QueryParams) -> QueryParams:
    """The keys of a page's address its live part reads (`GameKind.page_query`), the others
    left out: a part's fingerprint covers all it shows."""
    if not query or not kind.page_query:
        return NO_QUERY
    kept = [(k, v) for k, v in query.multi_items() if k in kind.page_query]
    return QueryParams(kept) if kept else NO_QUERY


def projection(
    kind: GameKind[Any],
    viewer: Viewer,
    page: str,
    copies: tuple[tuple[str, str], ...],
    undo_actor: int | None = None,
) -> Hashable:
    """Who a page's live part is for, as far as it shows: its page, the viewer's role (templates
    ask whether they are staff, the organizer), the copies of parts their view is made of (the
    kind's declared scopes), for the staff whether the last action is theirs to undo (made by
    `undo_actor`: a referee's undo button is their own actions'), and, on a personal page that
    shows the viewer's own journal, the viewer themself. Viewers with the same projection see
    the same live part, rendered once for them all (`tests/test_fanout.py` renders every
    scene's viewers to hold it)."""
    own_log = bool(kind.page_log) and not viewer.is_staff and viewer.role != "public"
    undoes = viewer.is_staff and may_undo(viewer, undo_actor)
    return (page, viewer.role, copies, viewer.person_id if own_log else None, undoes)


BOOT = secrets.token_hex(4)  # a part rendered by another start of the server is rendered anew


def live_tag(context: dict[str, Any], digests: Digests | None = None) -> str:
    """What a live part shows, as a fingerprint: the viewer's projection, each copy of a part it
    is made of, and what the page adds (the staff's latest actions, a personal page's journal),
    in the reader's language; never the sequence number nor the time, which change without
    changing what this viewer sees. Viewers of one projection hold the same fingerprint.
    `digests`, kept across the viewers of one state, fingerprints each copy once for all."""
    return digest(described(context, digests))[:32]


def shared_tag(
    kind: GameKind[Any], context: dict[str, Any], digests: Digests | None = None
) -> str | None:
    """What a live part shows outside its kind's personal block (`GameKind.personal_block`), as
    a fingerprint: its copies of parts of scope "person" and whose they are left out, the rest
    as `live_tag` takes it, with the page's line of what to do now. Viewers with the same shared
    fingerprint see the same live part outside that block. None: the kind has no such block,
    or this viewer no part of scope "person"."""
    if kind.personal_block is None:
        return None
    personal = personal_parts(kind)
    shown: Projection = context["shown"]
    if not any(name in personal for name, _ in shown.copies):
        return None
    apart = described(context, digests, personal)
    apart["now_line"] = repr(context["now_line"])
    return digest(apart)


def described(
    context: dict[str, Any],
    digests: Digests | None,
    personal: AbstractSet[str] = frozenset(),
) -> dict[str, Any]:
    """What `live_tag` fingerprints; the copies of the parts named in `personal` by their name
    alone (not whose, nor what they hold)."""
    game = context["game"]
    shown: Projection = context["shown"]
    page, role, copies, own, undoes = context["projection"]
    return {
        "parts": [
            name if name in personal else copy_digest((name, key), made, digests)
            for (name, key), made in zip(shown.copies, shown.made, strict=True)
        ],
        "page": context["page"],
        "projection": [
            page,
            role,
            [name if name in personal else (name, key) for name, key in copies],
            own,
            undoes,
        ],
        "game": [game.name, game.status],
        "may": sorted(context.get("may", ())),
        "undoable": context.get("undoable"),
        "undo_asks": context.get("undo_asks"),
        "proposals": context.get("proposals"),
        "recent": context.get("recent"),
        "query": list(context["query"].multi_items()) if context.get("query") else None,
        "log": context.get("match_log"),
        "language": i18n.current_language.get(),
        "boot": BOOT,
    }


# The fingerprints of copies of parts already taken for one state, by (part name, part key).
Digests = dict[tuple[str, str], str]


def copy_digest(copy: tuple[str, str], made: dict[str, Any], digests: Digests | None) -> str:
    if digests is not None and copy in digests:
        return digests[copy]
    found = digest(made)
    if digests is not None:
        digests[copy] = found
    return found


# Keys sorted, so that equal values give equal bytes; keys that are not text (a player's id)
# written as text, as the standard library's `json` does.
DIGESTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def digest(value: Any) -> str:
    """A fingerprint of `value` (JSON, else its `repr`): at every change, for every projection
    of every phone watching, hence orjson (a tenth of the standard library's time here); what
    orjson does not write (an integer beyond 64 bits) the standard library does."""
    try:
        text = orjson.dumps(value, default=repr, option=DIGESTED)
    except TypeError:
        text = json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False).encode()
    return hashlib.sha256(text).hexdigest()


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
        answer = templates.response(request, template, context, status_code=error.status)
        return retrying(answer, error)
    response = retrying(render_page(request, templates, context, status_code=error.status), error)
    if context["query"]:
        # The half-made action sent back with its refusal (an assault's players) is the page's
        # again: its address says so, and a refresh keeps it.
        response.headers["HX-Replace-Url"] = f"/g/{loaded.game.id}?{context['query']}"
    return response
