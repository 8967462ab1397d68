"""The one who acted has their answer before the game's phones set to work (issue 21).

A request that may change a game (anything but a read) holds the nudges of the changes it
commits (the service's bus, `Store.committed`, tells `HeldNudges.publish`) until its answer has
gone out; then the broker nudges the phones. Meanwhile the live parts of earlier changes give way
to it (`give_way`), so the referee waiting for their answer does not share the processor with the
phones of their own change. What is held is this request's own: a context variable follows the
request onto the worker thread its service call runs on."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar

from starlette.types import ASGIApp, Receive, Scope, Send

from server.platform.live import Broker

# The changes an action's request has committed, while it holds them.
_held: ContextVar[list[tuple[str, int, bool]] | None] = ContextVar("held_nudges", default=None)


class HeldNudges:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        # Actions being answered in this process (on the event loop), and their absence.
        self._acting = 0
        self._quiet = threading.Event()
        self._quiet.set()
        self._calm: asyncio.Event | None = None  # the same, for the event loop (`calm`)
        self._calm_loop: asyncio.AbstractEventLoop | None = None

    def publish(self, game_id: str, seq: int, *, access_changed: bool = False) -> None:
        """A committed change: held while the request that made it is answered, else nudged."""
        held = _held.get()
        if held is not None:
            held.append((game_id, seq, access_changed))
            return
        self.broker.publish(game_id, seq, access_changed=access_changed)

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Changes committed within (an action's request, on whatever thread it runs) nudge the
        phones when it ends. Entered on the event loop (`AnswerFirst`), where `calm` waits."""
        held: list[tuple[str, int, bool]] = []
        token = _held.set(held)
        self._acting += 1
        self._quiet.clear()
        if self._calm is not None:
            self._calm.clear()
        try:
            yield
        finally:
            self._acting -= 1
            if not self._acting:
                self._quiet.set()
                if self._calm is not None:
                    self._calm.set()
            _held.reset(token)
            for game_id, seq, access_changed in held:
                self.broker.publish(game_id, seq, access_changed=access_changed)

    def give_way(self, most: float) -> None:
        """On a live thread, between two pieces of work: waits (at most `most` seconds) while
        actions are being answered."""
        self._quiet.wait(most)

    async def calm(self, most: float) -> None:
        """On the event loop (where actions are counted, `holding`), before a job takes a live
        thread: waits (at most `most` seconds) while actions are being answered, holding no
        thread, so that the jobs waiting behind it are not kept waiting too."""
        if not self._acting:
            return
        if self._calm is None or self._calm_loop is not asyncio.get_running_loop():
            # Made on the loop that waits (an app served again, by another loop, in tests).
            self._calm, self._calm_loop = asyncio.Event(), asyncio.get_running_loop()
        with suppress(TimeoutError):
            await asyncio.wait_for(self._calm.wait(), most)


class AnswerFirst:
    """The middleware: outermost but for the live streams' hand-off (`HandOff`, which passes
    any other request on as it is), so that the answer has gone out when the nudges leave."""

    def __init__(self, app: ASGIApp, held: HeldNudges) -> None:
        self.app = app
        self.held = held

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        with self.held.holding():
            await self.app(scope, receive, send)
