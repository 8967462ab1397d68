"""Live updates: who is watching which game, and a nudge to each when the game changes.

The event stream carries sequence numbers only, never game content: each page then asks for its
own view with its own credentials. Nothing secret can ride on the stream, and a phone that missed
ten changes needs one refresh, not ten. Nudges coalesce: a slow phone sees the latest number.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass(eq=False)
class Subscription:
    game_id: str
    latest: int = 0
    access_changed: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            return False
        self.wake.clear()
        return True


class Broker:
    """In-process fan-out. Publishing is safe from any thread (services run in a thread pool)."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None

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

    def publish(self, game_id: str, seq: int, *, access_changed: bool = False) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(game_id, seq, access_changed)
        else:
            loop.call_soon_threadsafe(self._deliver, game_id, seq, access_changed)

    def _deliver(self, game_id: str, seq: int, access_changed: bool) -> None:
        for sub in self._subs.get(game_id, ()):
            sub.latest = max(sub.latest, seq)
            sub.access_changed = sub.access_changed or access_changed
            sub.wake.set()
