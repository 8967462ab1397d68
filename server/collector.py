"""The serving process's full garbage collections, counted (issue 38).

With thousands of phones' streams open, a full collection walks every object they hold and
stops the whole process for as long (6,400 phones: 0.43 s for 0.6 million objects; 1.1 to 1.3 s
for 2 million before a stream let go of its call chain, `server.web.streaming`).
`GC_THRESHOLDS` (`server.app`) makes them rare; `/healthz` says how many came and the longest,
so that `make bench` shows whether one fell inside what it measured, and an operator whether
they still come.
"""

from __future__ import annotations

import gc
import time
from typing import Any

FULL = 2  # the oldest generation: a full collection


class FullCollections:
    """How many full collections this process made since it started serving, and the longest
    (ms). Counting starts with `install`; an app that does not serve counts none."""

    def __init__(self) -> None:
        self.count = 0
        self.longest_ms = 0.0
        self._started: float | None = None

    def install(self) -> FullCollections:
        gc.callbacks.append(self.seen)
        return self

    def seen(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != FULL:
            return
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            self.count += 1
            self.longest_ms = max(self.longest_ms, (time.perf_counter() - self._started) * 1000)
            self._started = None

    def figures(self) -> dict[str, float]:
        return {"full": self.count, "longest_ms": round(self.longest_ms, 1)}
