"""The event stream of a game: at each change, the new sequence number, and for a page's stream
the page's live part itself when it changed for this viewer (issue 21: one trip, not two).

A part is rendered for this stream's viewer through their own projection, exactly as their
refresh would be (`pages.render_part`), and only when what they see changed; otherwise the nudge
says so with the part's fingerprint, and nothing is fetched. An API stream (bearer token) gets
nudges only. A stream checks its viewer again whenever links change, and ends at once for a
revoked link.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse

from server.errors import ArbitreError
from server.platform.kinds import Viewer
from server.platform.live import Broker
from server.web.deps import ServiceDep, SettingsDep, api_viewer, page_viewer, session_links

router = APIRouter(include_in_schema=False)
log = logging.getLogger("arbitre.stream")


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
    pushes = part is not None and not request.headers.get("authorization") and part != "people"
    held = {"tag": tag}
    current = await asyncio.to_thread(service.seq_of, game_id)
    broker: Broker = request.app.state.broker
    clock = request.app.state.clock
    subscription = broker.subscribe(game_id, current)

    # The version of the link this browser was let in with (its session says it, as checked a
    # moment ago): a link re-issued in between is not taken for this one.
    held_link = (
        session_links(request).get(game_id) if not request.headers.get("authorization") else None
    )
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

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            hello = {"seq": current, "now": int(clock.now().timestamp() * 1000)}
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
                    # The server's time rides along, so phones keep their countdowns right.
                    nudge: dict[str, Any] = {
                        "seq": sent,
                        "now": int(clock.now().timestamp() * 1000),
                    }
                    pushed = await push(nudge) if pushes else None
                    if pushed is not None:
                        sent = max(sent, int(pushed["id"]))  # the part may be newer
                        yield pushed
                    else:
                        yield {"event": "changed", "id": str(sent), "data": json.dumps(nudge)}
        finally:
            broker.unsubscribe(subscription)

    async def push(nudge: dict[str, Any]) -> dict[str, str] | None:
        """The viewer's part if it changed for them, or the nudge with its fingerprint if not;
        None when it cannot be said here (the viewer's page changed: their refresh will say)."""
        from server.web.pages import render_part

        assert part is not None
        render = partial(
            render_part,
            game_id,
            part,
            request,
            viewer,
            service,
            request.app.state.templates,
            clock,
            held["tag"],
        )
        try:
            done = await anyio.to_thread.run_sync(render, limiter=request.app.state.live_threads)
        except ArbitreError:
            return None
        except Exception:  # a push that fails falls back on the refresh, never ends the stream
            log.exception("pushing the live part of %s failed", game_id)
            return None
        held["tag"] = done.tag
        nudge = {**nudge, "seq": done.seq, "tag": done.tag, "status": done.status}
        if done.body is None:
            return {"event": "changed", "id": str(done.seq), "data": json.dumps(nudge)}
        nudge["html"] = done.body.decode()
        return {"event": "part", "id": str(done.seq), "data": json.dumps(nudge)}

    return EventSourceResponse(
        stream(),
        ping=int(settings.sse_ping_seconds),
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
