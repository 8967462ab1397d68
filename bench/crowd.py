"""A crowd on a server's games for the faults' benches (bench/restart.py, bench/failover.py):
every phone of each game on its page and stream, the actors playing on; then, after the fault,
what it did: the errors apart from the requests the fault itself cut, and the actions
acknowledged before it that the log no longer has."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field

import httpx

from bench.games import BenchGame
from bench.run import LIMITS, Figures, actor, commit_times, no_cookie_jar, phone

# A crowd's phones all come from one address: the per-address limits of a festival's server
# would refuse them (each phone is one person of its own on the field).
ROOMY = {
    "JOIN_ATTEMPTS_PER_MINUTE": "100000",
    "GAMES_PER_MINUTE": "100000",
    "STREAMS_PER_ADDRESS": "100000",
}
# What a request meets while its server is down or killed: not an error of the server's. A
# proxy in front answers 502 (or 504) for a tap in flight to a process that died: a page keeps
# such a tap and sends it again with its key, as it does one cut (arbitre.js).
DOWN = ("ConnectError", "RemoteProtocolError", "ReadError", "HTTP 502", "HTTP 504")


@dataclass
class Crowd:
    games: list[BenchGame]
    clients: list[httpx.AsyncClient]
    phones: Figures = field(default_factory=Figures)
    actors: Figures = field(default_factory=Figures)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    count: int = 0  # phones, labelled 1 to count (`Figures.hellos`, `Figures.broken`)
    acknowledged: dict[str, set[int]] = field(default_factory=dict)

    async def live(self) -> float:
        """Every phone on its page and stream; the seconds until all are live (or 300)."""
        until = time.monotonic() + 3600
        for client, game in zip(self.clients, self.games, strict=True):
            for token in game.phones:
                self.count += 1
                work = phone(client, game, token, 0, self.phones, until, self.count)
                self.tasks.append(asyncio.create_task(work))
            await asyncio.sleep(0.05)
        started = time.monotonic()
        while self.phones.connected + self.phones.errors < self.count:
            if time.monotonic() - started > 300:
                break
            await asyncio.sleep(0.2)
        return time.monotonic() - started

    def play(self) -> None:
        """Each game's actors, as `bench.run` plays them (one referee's pace: 5 s)."""
        until = time.monotonic() + 3600
        for client, game in zip(self.clients, self.games, strict=True):
            for a in range(len(game.actors)):
                rng = random.Random(a)
                work = actor(client, game, a, 0, rng, self.actors, until, 5.0)
                self.tasks.append(asyncio.create_task(work))

    def mark(self) -> None:
        """What each game's actors had acknowledged: the fault comes next."""
        self.acknowledged = {g.id: set(g.answered) for g in self.games}

    async def lost(self, via: str | None = None) -> int:
        """Everyone stopped; the acknowledged actions (`mark`) the logs no longer have, read
        through the phones' way in, or straight from a process (`via`: a proxy may have set
        every process aside for a while once the phones' requests were cut, as Caddy 2.6 does)."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []
        lost = 0
        async with AsyncExitStack() as stack:
            clients = self.clients
            if via is not None:
                direct = await stack.enter_async_context(httpx.AsyncClient(base_url=via))
                clients = [direct] * len(self.games)
            for client, game in zip(clients, self.games, strict=True):
                logged = await commit_times(client, game)
                lost += len(self.acknowledged[game.id] - set(logged))
        return lost

    def failures(self) -> tuple[int, int, Counter[str]]:
        """The errors, the requests the fault cut (a page keeps such a tap and sends it again:
        issue 36), and every failure by kind."""
        failures = self.phones.failures + self.actors.failures
        down = sum(v for k, v in failures.items() if k.endswith(DOWN))
        return sum(failures.values()) - down, down, failures


@asynccontextmanager
async def crowd(base_url: str, games: list[BenchGame]) -> AsyncIterator[Crowd]:
    """A crowd on the games behind `base_url`, one client a game; everyone stopped after."""
    async with AsyncExitStack() as stack:
        clients = []
        for _ in games:
            made = httpx.AsyncClient(base_url=base_url, limits=LIMITS, timeout=60)
            no_cookie_jar(made)
            clients.append(await stack.enter_async_context(made))
        gathered = Crowd(games, clients)
        try:
            yield gathered
        finally:
            for task in gathered.tasks:
                task.cancel()
            await asyncio.gather(*gathered.tasks, return_exceptions=True)
