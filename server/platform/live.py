"""Live updates: who is watching which game, and a nudge to each when the game changes.

The broker carries sequence numbers only, never game content. A page's stream then renders that
viewer's own live part with that viewer's credentials (`server.web.stream`), or the page asks for
it; nothing of another viewer can ride on it, and a phone that missed ten changes gets one part,
not ten. Nudges coalesce: a slow phone sees the latest number.

One broker serves the phones connected to its own process. With several server processes, a relay
(`server.platform.relay`, PostgreSQL's LISTEN/NOTIFY) carries each nudge to the other brokers.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(eq=False)
class Subscription:
    game_id: str
    latest: int = 0
    access_changed: bool = False
    ended: bool = False  # the phone left, or the server stops: the stream ends
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    _nudged: bool = False

    def nudge(self) -> None:
        self._nudged = True
        self.wake.set()

    def end(self) -> None:
        self.ended = True
        self.wake.set()

    async def wait(self, timeout: float) -> bool:
        """Until a nudge (True) or `timeout` seconds (False). A timer rather than `wait_for`,
        whose task and timeout exception, at every change and ping of thousands of phones,
        were most of a stream's garbage."""
        if not self._nudged:
            timer = asyncio.get_running_loop().call_later(timeout, self.wake.set)
            try:
                await self.wake.wait()
            finally:
                timer.cancel()
        self.wake.clear()
        nudged, self._nudged = self._nudged, False
        return nudged


class Relay(Protocol):
    """Carries a nudge to the other server processes."""

    def send(self, game_id: str, seq: int, access_changed: bool) -> None: ...


class Broker:
    """In-process fan-out. Publishing is safe from any thread (services run in a thread pool)."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.relay: Relay | None = None
        self.stopping = False  # the server stops: no stream opens any more

    def stop(self) -> None:
        """The server stops: every stream of this process ends, and none opens again. From any
        thread, a signal handler included."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self.stopping = True
        else:
            loop.call_soon_threadsafe(self._stop)

    def _stop(self) -> None:
        self.stopping = True
        for subs in self._subs.values():
            for sub in subs:
                sub.end()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self, game_id: str, seen: int) -> Subscription:
        sub = Subscription(game_id, latest=seen)
        self._subs[game_id].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.game_id]

    def watchers(self, game_id: str) -> int:
        return len(self._subs.get(game_id, ()))

    def streams(self) -> int:
        """How many phones' streams this process holds (a count, nothing of the games)."""
        return sum(len(subs) for subs in self._subs.values())

    def watched(self) -> list[str]:
        """The games that phones of this process are watching."""
        return list(self._subs)

    def publish(self, game_id: str, seq: int, *, access_changed: bool = False) -> None:
        """A committed change: nudges this process's phones, and the others' through the relay."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                self.deliver(game_id, seq, access_changed=access_changed)
            else:
                loop.call_soon_threadsafe(self._deliver, game_id, seq, access_changed)
        if self.relay is not None:
            self.relay.send(game_id, seq, access_changed)

    def deliver(self, game_id: str, seq: int, *, access_changed: bool = False) -> int:
        """Nudges this process's phones only (from the event loop); returns how many woke.
        A number a phone already has wakes nobody, so a relay may repeat itself freely."""
        return self._deliver(game_id, seq, access_changed)

    def catch_up(self, game_id: str, seq: int) -> int:
        """A number read from the database, to phones behind it: a note was lost on the way, and
        it may have been a revocation, so their streams check their links again too."""
        woken = 0
        for sub in self._subs.get(game_id, ()):
            if seq > sub.latest:
                sub.latest, sub.access_changed = seq, True
                sub.nudge()
                woken += 1
        return woken

    def _deliver(self, game_id: str, seq: int, access_changed: bool) -> int:
        woken = 0
        for sub in self._subs.get(game_id, ()):
            if seq <= sub.latest and not access_changed:
                continue
            sub.latest = max(sub.latest, seq)
            sub.access_changed = sub.access_changed or access_changed
            sub.nudge()
            woken += 1
        return woken
