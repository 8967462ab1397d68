"""Budgets: how many tries of a kind one address may make in a window, counted in the database so
that every server process counts the same tries (join codes, games created or imported); and how
many live streams one address and one game may hold open in this process.

A budget said no with the seconds to wait, which the caller turns into a 429 that says them."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, ClassVar

from sqlmodel import col, delete, func, select

from server.db import Database
from server.models import Attempt
from server.platform.clock import Clock

# A client address as stored: IPv6 addresses are at most 45 characters; anything odd is cut.
ADDRESS_LENGTH = 64


class SharedLimiter:
    """A sliding window of tries per address, in the database: `check` counts a try and answers
    0 when it is allowed, else the seconds until the oldest try of the window leaves it."""

    def __init__(
        self, db: Database, clock: Clock, bucket: str, limit: int, window: float = 60.0
    ) -> None:
        self.db, self.clock = db, clock
        self.bucket, self.limit, self.window = bucket, limit, window

    def check(self, address: str) -> float:
        now = self.clock.now()
        since = now - timedelta(seconds=self.window)
        address = address[:ADDRESS_LENGTH]
        with self.db.write() as s:
            # The window's tries of every address are all that is kept.
            s.exec(
                delete(Attempt).where(col(Attempt.bucket) == self.bucket, col(Attempt.at) <= since)
            )
            count, oldest = s.exec(
                select(func.count(), func.min(Attempt.at)).where(
                    Attempt.bucket == self.bucket, Attempt.address == address
                )
            ).one()
            if count >= self.limit:
                return max(0.0, (oldest - since).total_seconds())
            s.add(Attempt(bucket=self.bucket, address=address, at=now))
        return 0.0


@dataclass
class StreamBudget:
    """Live streams held open in this process. The public's (no link) and a game's people's are
    counted apart, so a crowd of anonymous streams never shuts a game's people out: the public's
    by address (`per_address`) and by game (`per_game`); the people's by person (`PER_PERSON`: a
    few tabs and phones of theirs) and by address (`PEOPLE_PER_ADDRESS` times the public's: a
    club's phones behind one address). A new one past its budget is refused (a phone's
    reconnecting stream is let in once its old one has closed)."""

    per_address: int
    per_game: int  # the public's streams of one game
    by_address: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (address, person?)
    by_game: Counter[str] = field(default_factory=Counter)
    by_person: Counter[tuple[str, int]] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    PER_PERSON: ClassVar[int] = 8
    PEOPLE_PER_ADDRESS: ClassVar[int] = 4

    def open(self, address: str, game_id: str, person: int | None = None) -> bool:
        known = person is not None
        room = self.per_address * (self.PEOPLE_PER_ADDRESS if known else 1)
        with self._lock:
            if self.by_address[address, known] >= room:
                return False
            if person is None and self.by_game[game_id] >= self.per_game:
                return False
            if person is not None and self.by_person[game_id, person] >= self.PER_PERSON:
                return False
            self.by_address[address, known] += 1
            if person is None:
                self.by_game[game_id] += 1
            else:
                self.by_person[game_id, person] += 1
            return True

    def held(self, address: str) -> int:
        """The streams this address holds open, the public's and the people's."""
        with self._lock:
            return self.by_address[address, False] + self.by_address[address, True]

    def close(self, address: str, game_id: str, person: int | None = None) -> None:
        with self._lock:
            held: list[tuple[Counter[Any], Any]] = [
                (self.by_address, (address, person is not None))
            ]
            held.append(
                (self.by_game, game_id) if person is None else (self.by_person, (game_id, person))
            )
            for counter, key in held:
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]
