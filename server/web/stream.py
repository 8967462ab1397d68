"""The event stream of a game: at each change, the new sequence number, and for a page's stream
the page's live part itself when it changed for this viewer (issue 21: one trip, not two).

A part is this stream's viewer's own projection, exactly as their refresh renders it, made once
for all the phones of the same projection (`server.web.fanout`) and made this phone's own on the
way out; when what they see did not change, the nudge says so with the part's fingerprint, and
nothing is fetched. The board's stream is shown the public's part, whoever watches. An API
stream (bearer token) gets nudges only. A stream checks its viewer again whenever links change,
and ends at once for a revoked link.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse

from server import i18n
from server.platform.kinds import PUBLIC, Viewer
from server.platform.live import Broker
from server.web.deps import ServiceDep, SettingsDep, api_viewer, page_viewer, session_links
from server.web.fanout import Fanout, Shown, Watcher
from server.web.templating import personal

router = APIRouter(include_in_schema=False)


async def stream_viewer(request: Request, game_id: str, service: Any) -> Viewer:
    if request.headers.get("authorization"):
        return await api_viewer(request, game_id, service)
    return await page_viewer(request, game_id, service)


@router.get("/g/{game_id}/events")
async def events(
    game_id: str,
    request: Request,
    service: ServiceDep,
    settings: SettingsDep,
    part: str | None = None,
    tag: str | None = None,
) -> EventSourceResponse:
    viewer = await stream_viewer(request, game_id, service)
    api = bool(request.headers.get("authorization"))
    fanout: Fanout = request.app.state.fanout
    watcher = None
    if part is not None and not api and part != "people":
        # The board is everyone's: whoever watches it is shown the public's part.
        shown_to = PUBLIC if part == "board" else viewer
        language = i18n.current_language.get()
        watcher = Watcher(game_id, shown_to, part[:40], language, (tag or "")[:64] or None)
    csrf = str(request.session.get("csrf", "")) if not api else ""
    current = await asyncio.to_thread(service.seq_of, game_id)
    broker: Broker = request.app.state.broker
    clock = request.app.state.clock
    subscription = broker.subscribe(game_id, current)
    if watcher is not None:
        fanout.watch(watcher)

    # The version of the link this browser was let in with (its session says it, as checked a
    # moment ago): a link re-issued in between is not taken for this one.
    held_link = session_links(request).get(game_id) if not api else None
    opened_version = (
        int(held_link[1])
        if held_link is not None and viewer.person_id is not None
        else (await asyncio.to_thread(service.person, game_id, viewer.person_id)).version
        if viewer.person_id is not None
        else 0
    )

    async def still_allowed() -> bool:
        """Revoked or re-issued since the stream opened: the old link is dead here too."""
        if viewer.person_id is None:
            return True
        person = await asyncio.to_thread(service.person, game_id, viewer.person_id)
        return not person.revoked and person.version == opened_version

    def now_ms() -> int:
        return int(clock.now().timestamp() * 1000)

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            hello = {"seq": current, "now": now_ms()}
            yield {"event": "hello", "id": str(current), "data": json.dumps(hello)}
            sent = current
            while True:
                woke = await subscription.wait(settings.sse_ping_seconds)
                if subscription.access_changed:
                    subscription.access_changed = False
                    if not await still_allowed():
                        yield {"event": "revoked", "data": "revoked"}
                        return
                if woke and subscription.latest > sent:
                    sent = subscription.latest
                    if watcher is None:
                        # The server's time rides along, so phones keep their countdowns right.
                        nudge = {"seq": sent, "now": now_ms()}
                        yield {"event": "changed", "id": str(sent), "data": json.dumps(nudge)}
                        continue
                    shown = await fanout.shown(watcher, sent)
                    event = pushed(watcher, shown, sent, now_ms(), csrf)
                    sent = max(sent, int(event["id"]))  # the part may be newer
                    yield event
        finally:
            broker.unsubscribe(subscription)
            if watcher is not None:
                fanout.forget(watcher)

    return EventSourceResponse(
        stream(),
        ping=int(settings.sse_ping_seconds),
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def pushed(watcher: Watcher, shown: Shown | None, seq: int, now: int, csrf: str) -> dict[str, str]:
    """What a page's stream says at a change: its part when it changed for its viewer, made this
    phone's own; "changed" with the part's fingerprint when it did not (nothing to fetch); a
    bare "changed" when it cannot be said here (the page refreshes, and learns why)."""
    if shown is None:
        return {"event": "changed", "id": str(seq), "data": json.dumps({"seq": seq, "now": now})}
    nudge = {"seq": shown.seq, "now": now, "tag": shown.tag, "status": shown.status}
    changed = shown.tag != watcher.tag
    watcher.tag = shown.tag
    if not changed or shown.html_json is None:
        return {"event": "changed", "id": str(shown.seq), "data": json.dumps(nudge)}
    data = json.dumps(nudge)[:-1] + ', "html": ' + personal(shown.html_json, csrf) + "}"
    return {"event": "part", "id": str(shown.seq), "data": data}
