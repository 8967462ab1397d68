"""The event stream of a game: a nudge with the new sequence number at each change.

It never carries game content (see `server.platform.live`). A stream checks its viewer again
whenever links change, and ends at once for a revoked link.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse

from server.platform.kinds import Viewer
from server.platform.live import Broker
from server.web.deps import ServiceDep, SettingsDep, api_viewer, page_viewer

router = APIRouter(include_in_schema=False)


async def stream_viewer(request: Request, game_id: str, service: Any) -> Viewer:
    if request.headers.get("authorization"):
        return await api_viewer(request, game_id, service)
    return await page_viewer(request, game_id, service)


@router.get("/g/{game_id}/events")
async def events(
    game_id: str, request: Request, service: ServiceDep, settings: SettingsDep
) -> EventSourceResponse:
    viewer = await stream_viewer(request, game_id, service)
    current = await asyncio.to_thread(service.seq_of, game_id)
    broker: Broker = request.app.state.broker
    clock = request.app.state.clock
    subscription = broker.subscribe(game_id, current)

    opened_version = (
        (await asyncio.to_thread(service.person, game_id, viewer.person_id)).version
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
                    nudge = {"seq": sent, "now": int(clock.now().timestamp() * 1000)}
                    yield {"event": "changed", "id": str(sent), "data": json.dumps(nudge)}
        finally:
            broker.unsubscribe(subscription)

    return EventSourceResponse(
        stream(),
        ping=int(settings.sse_ping_seconds),
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
