"""The load generator kept out of what it measures (issue 38).

A latency is taken by the process that receives the answer or the nudge: while that process is
stopped, every event waiting in its sockets is timed late, and the server is blamed for it.

- Its garbage collector. At G = 200 the phones' process holds some 1.2 million objects (6,400
  connections with their httpx and h11 state); Python's collector walked them all about every
  five seconds, 0.3 s to 1.1 s at a time. So while it measures, the load generator does not
  collect at all (`Quiet`): the phones' process grew by some 60 MiB in a measured minute at
  G = 100 (445 to 505 MiB), collected after.
- What remains of its own delays is measured and printed with the figures: how late its event
  loop woke for a timer (`Lag`), the longest and the 99th percentile. A run whose generator lagged
  as long as the latencies it reports measured the generator.
"""

from __future__ import annotations

import asyncio
import gc
import time
from types import TracebackType

TICK = 0.01  # how often the event loop is asked to wake, in seconds


class Quiet:
    """Within: no automatic garbage collection in this process; a full one on the way out.
    Not nested: the inner one's exit would collect again before the outer one is done."""

    def __enter__(self) -> Quiet:
        gc.collect()
        gc.disable()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        gc.enable()
        gc.collect()


class Lag:
    """How late this process's event loop wakes for a timer, while it runs (`async with`)."""

    def __init__(self) -> None:
        self.late_ms: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Lag:
        self._task = asyncio.create_task(self._tick())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _tick(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            self.late_ms.append((time.perf_counter() - asked - TICK) * 1000)
