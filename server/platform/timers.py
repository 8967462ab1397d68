"""Server-authoritative timers, stored in a game's state as deadlines.

A running timer has a deadline; a paused one keeps the seconds it had left. Whether a phone was
connected when it fell due does not matter: the state says when, the clock says now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import BaseModel


class Timer(BaseModel):
    deadline: datetime | None = None  # set while running
    remaining: float | None = None  # seconds left, set while paused
    duration: float = 0.0

    @classmethod
    def start(cls, now: datetime, seconds: float) -> Timer:
        return cls(deadline=now + timedelta(seconds=seconds), duration=seconds)

    @property
    def running(self) -> bool:
        return self.deadline is not None

    @property
    def paused(self) -> bool:
        return self.deadline is None and self.remaining is not None

    def left(self, now: datetime) -> float:
        if self.deadline is not None:
            return max(0.0, (self.deadline - now).total_seconds())
        return self.remaining or 0.0

    def due(self, now: datetime) -> bool:
        return self.deadline is not None and now >= self.deadline

    def pause(self, now: datetime) -> Timer:
        if self.deadline is None:
            return self
        return Timer(deadline=None, remaining=self.left(now), duration=self.duration)

    def resume(self, now: datetime) -> Timer:
        if self.deadline is not None or self.remaining is None:
            return self
        return Timer(
            deadline=now + timedelta(seconds=self.remaining), remaining=None, duration=self.duration
        )

    def stopped(self) -> Timer:
        return Timer(duration=self.duration)
