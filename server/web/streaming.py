"""A live stream's response, written outside the middleware stack once it has started (issue 38).

An event stream stays open as long as its page: 6,400 phones hold 6,400 of them. Served as any
response, a stream kept its whole call chain alive all that time: every middleware's coroutine
and the wrappers each puts around `send`, and beside them the four tasks of sse-starlette's
response. That was some 300 objects a stream, which every full garbage collection walks: two
million at 6,400 phones, a stop of the whole process for 1.1 to 1.3 s.

So a stream goes through the stack once, to open: the route checks who watches, the middlewares
put their headers (security, session, `Vary`) on the answer's head, and its first event goes
down the same way. Then the stack returns, and `HandOff`, the outermost of our middlewares (only
Starlette's and FastAPI's own error layers are outside it), writes the rest itself, with one
task that listens for the phone leaving: some 80 objects a stream. The rest needs nothing of the
middlewares: an event's bytes are ready (`server.web.frames`), and no middleware changes the
body of a `text/event-stream` (GZip's leaves that type alone).

A stream never ends by itself, and uvicorn stops only once every connection has closed: at
SIGINT or SIGTERM, every stream of the process ends, and none opens again (`ended_on_stop`).
One that cannot end (blocked writing to a phone that stopped reading) is cut by uvicorn's
graceful timeout (`server.__main__.STOP_GRACE_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from types import FrameType
from typing import Any

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from server.platform.live import Broker

HANDOFF = "arbitre.handoff"  # the scope's key: where a started stream waits for `HandOff`
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class LiveStream(Response):
    """An endless stream of events (bytes, ready to write), whose `finally` gives back what the
    stream holds. `left` is called once the phone has gone, so that the events end; the head and
    the first event are written before the stack returns. No background task: a stream has no
    after."""

    media_type = "text/event-stream"

    def __init__(
        self,
        events: AsyncGenerator[bytes, None],
        *,
        left: Callable[[], None],
        headers: Mapping[str, str],
    ) -> None:
        self.events = events
        self.left = left
        self.status_code = 200
        self.background = None
        self.init_headers(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The first event before the head: events that have started end by their `finally` when
        # closed, whatever fails next (events never started would not).
        first = await anext(self.events, b"")
        try:
            head = {"type": "http.response.start", "status": self.status_code}
            await send({**head, "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": first, "more_body": True})
        except BaseException:
            await self.events.aclose()
            raise
        later: list[LiveStream] | None = scope.get(HANDOFF)
        if later is None:  # an app without `HandOff`: written here, through the stack
            await self.pour(receive, send)
        else:
            later.append(self)

    async def pour(self, receive: Receive, send: Send) -> None:
        """The rest of the events, until they end (the phone left, its link died, the server
        stops), then the end of the answer."""
        listening = asyncio.create_task(self._listen(receive))
        try:
            async for chunk in self.events:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            listening.cancel()
            await self.events.aclose()

    async def _listen(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.left()


class HandOff:
    """The outermost of our middlewares: a `LiveStream` that has started is written from here,
    once the stack beneath has returned. Any other request passes through as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        later: list[LiveStream] = []
        scope[HANDOFF] = later
        entered = set(scope)
        try:
            await self.app(scope, receive, send)
        except BaseException:
            for stream in later:
                await stream.events.aclose()
            raise
        if later:
            # What the stack left in the scope (its exit stacks, the session, the route) is
            # not kept for the stream's whole life.
            for key in scope.keys() - entered:
                del scope[key]
        for stream in later:
            await stream.pour(receive, send)


@contextlib.contextmanager
def ended_on_stop(broker: Broker) -> Iterator[None]:
    """While within: at SIGINT or SIGTERM, every stream of this process ends and no new one
    opens (`Broker.stop`), then the handler that was there runs (uvicorn's: it stops once every
    connection has closed). A signal that was ignored stays ignored. Only the main thread hears
    signals: a server run on another thread (the tests') ends its streams by uvicorn's graceful
    timeout, or by `broker.stop()`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # A handler set outside Python reads as None: taken as the default.
    before: dict[int, Any] = {
        number: signal.getsignal(number) or signal.SIG_DFL for number in STOP_SIGNALS
    }

    def stop(number: int, frame: FrameType | None) -> None:
        handler = before[number]
        if handler == signal.SIG_IGN:
            return
        broker.stop()
        if callable(handler):
            handler(number, frame)
        else:  # the default: SIGTERM ends the process, as it would have
            signal.signal(number, handler)
            signal.raise_signal(number)

    for number in before:
        signal.signal(number, stop)
    try:
        yield
    finally:
        for number in before:
            if signal.getsignal(number) is stop:
                signal.signal(number, before[number])
