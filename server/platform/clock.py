"""Time comes from outside, so that tests move a fake clock by hand."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class SteadyClock:
    """The games' own clock (issue 55): the wall clock read once, when the server starts, then
    moved by the machine's monotonic clock alone. The machine's clock set an hour forward or
    back while games run (a field laptop's clock corrected by hand, a time zone mishandled, a
    time server stepping it) moves no deadline: a zone shrinks after its minutes, a countdown
    ends after its seconds, never early nor late, and every phone's countdown follows the server's
    time as it already does. Never before `floor`, the latest time the database holds: a
    restart on a clock set back does not run the games backwards."""

    def __init__(
        self,
        floor: datetime | None = None,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        steady: Callable[[], float] = time.monotonic,
    ) -> None:
        start = wall()
        self.anchor = max(start, floor) if floor is not None else start
        self.steady, self.since = steady, steady()

    def now(self) -> datetime:
        return self.anchor + timedelta(seconds=self.steady() - self.since)


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 6, 1, 14, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> datetime:
        self.current += timedelta(seconds=seconds)
        return self.current
