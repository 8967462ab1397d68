"""`make bench`: Arbitre against the floor, on loopback, with G games at once.

The games are the mix of `bench.games`: Serial Battle (6 referees), Roi / Chevalier / Bourreau
(the game master) and Killpower Ball matches (two coaches), each with 32 phones that keep a page
live as a browser does: the page is loaded once, the event stream held open (gzip, as a browser
takes it); a part that arrives on the stream is shown, a nudge that says it is unchanged leaves
the page as it is, and any other nudge has the page fetch its live part again (one fetch at a
time per phone; nudges that come meanwhile coalesce into the next fetch). Actors read their own
view and act after a think time. The same
run measures the floor: a trivial HTML page of the same app (`/offline`), asked for all along.
The actors and the floor run in a process of their own, as the referees' phones are not the
players': a latency is the server's and the network's, not the phones' process being busy.

Printed for each G: actions per second, action latency p50/p95/p99 and as a ratio to the floor,
live-update latency p50/p95 from the commit (by the log's clock) to the moment the last phone of
the game has the nudge, and to the moment it has its refreshed page; errors (answers 500, requests
that failed twice, streams that never opened); streams that broke and opened again, and reads sent
again on a fresh connection, as a browser does both; late changes (some phone had not refreshed
for them when the run ended, 3 s after the last action); server memory; per change, the live
parts rendered again, the phones the server found unchanged (told so on their stream, or a 204),
the kilobytes the phones received on the wire (compressed, pings and nudges included) and the
servers' processor time; the servers' full garbage collections in the minute (`fullgc`, each
one stops its process); and how late the load generator's own event loops woke (p99 and
longest, `lag99` and `lagmax`): it does not collect its garbage while it measures
(`bench.collector`), so that its pauses are not timed as the server's. Every run plays games of
its own, set up fresh for it; the storm's changes are not counted in the steady state's.

With PostgreSQL (`--database-url`, an account that may create databases) and `--processes 2`,
two server processes serve the same games: each game's phones and actors are spread over both,
and the nudge latency is also given for the phones on the other process than the action's
(LISTEN/NOTIFY); with `--by-game`, each game's on one process, as a proxy routing by game sends
them. Bounded in count and time; loopback only.

    python -m bench.run [--games 10,50,100] [--seconds 60] [--think 10] [--runs 3]
                        [--database-url postgresql://...] [--processes 1|2] [--by-game]
    python -m bench.run --ceiling 200 [--step 50] ...   # the largest G met on every run

Each run prints the machine's speed first and last (`bench.calibrate`).
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import math
import multiprocessing
import random
import re
import statistics
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bench.calibrate import calibration, line
from bench.collector import Lag, Quiet
from bench.cores import Cores
from bench.figures import ceiling_line, kib_per_phone, missed, summary
from bench.games import MIX, SETUP, STEPS, BenchGame, key
from server.config import Settings
from server.db import Database, normalize_url
from server.migrate import upgrade
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.live import Broker
from server.platform.service import GameService
from tests.server_process import SECRET, Server

STREAM = re.compile(r'data-stream="([^"]+)"[^>]*data-seq="(\d+)"')
LIVE_PART = re.compile(r'id="live" hx-get="([^"]+)"')


@dataclass
class Figures:
    action_ms: list[float] = field(default_factory=list)
    floor_ms: list[float] = field(default_factory=list)
    page_ms: list[float] = field(default_factory=list)
    answers: int = 0
    reads: int = 0
    refused: int = 0
    errors: int = 0
    connected: int = 0
    retried: int = 0  # page reads sent again on a fresh connection
    live_bytes: int = 0  # what the phones received on the wire: streams and refreshes
    reconnects: int = 0  # event streams that broke and opened again
    failures: Counter[str] = field(default_factory=Counter)  # what failed, and how
    hellos: dict[int, float] = field(default_factory=dict)  # phone -> its stream's last hello
    broken: dict[int, float] = field(default_factory=dict)  # phone -> when its stream last broke
    # game -> server -> seq -> when the last phone of that server had the nudge / the fresh page
    nudged: dict[str, dict[int, dict[int, float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(dict))
    )
    paged: dict[str, dict[int, dict[int, float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(dict))
    )

    def fail(self, where: str, error: BaseException | int) -> None:
        self.errors += 1
        how = f"HTTP {error}" if isinstance(error, int) else type(error).__name__
        self.failures[f"{where}: {how}"] += 1


def no_cookie_jar(client: httpx.AsyncClient) -> None:
    """The phones of a game share a client: each sends its own session cookie by hand."""
    client.cookies.jar.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))


def note(times: dict[int, float], seq: int, at: float) -> None:
    times[seq] = max(times.get(seq, 0.0), at)


async def get(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], figures: Figures
) -> httpx.Response:
    """A page read as a browser makes it: a connection the server closed while idle (uvicorn's
    keep-alive) gets the request again once, on a fresh connection."""
    try:
        answer = await client.get(url, headers=headers)
    except httpx.TransportError:
        figures.retried += 1
        answer = await client.get(url, headers=headers)
    answer.raise_for_status()
    return answer


async def open_page(
    client: httpx.AsyncClient, game: BenchGame, token: str | None, figures: Figures
) -> tuple[dict[str, str], str, str, int]:
    """A phone opens its link (a session cookie) and its page; returns its headers, the URL
    of the page's live part, that of its stream (which brings the part when it changes) and the
    sequence number the page shows."""
    headers: dict[str, str] = {}
    path = f"/g/{game.id}/board"
    if token is not None:
        opened = await client.get(f"/t/{token}")
        cookie = next(c for c in opened.headers.get_list("set-cookie") if c.startswith("arbitre="))
        headers["Cookie"] = cookie.split(";", 1)[0]
        path = f"/g/{game.id}"
    page = await get(client, path, headers, figures)
    found = LIVE_PART.search(page.text)
    assert found, f"no live part on {path}"
    stream = STREAM.search(page.text)
    assert stream, f"no stream on {path}"
    live, events = found.group(1).replace("&amp;", "&"), stream.group(1).replace("&amp;", "&")
    return headers, live, events, int(stream.group(2))


async def phone(
    client: httpx.AsyncClient,
    game: BenchGame,
    token: str | None,
    server: int,
    figures: Figures,
    until: float,
    label: int = 0,
) -> None:
    """A phone's page: the stream open, its part taken from it or fetched again after a nudge
    that does not bring it. A stream that breaks opens again, as a browser's EventSource does,
    after half a second. `label`: the phone's number, for when its stream said hello."""
    try:
        headers, live_url, stream_url, wanted = await open_page(client, game, token, figures)
    except (httpx.HTTPError, StopIteration, AssertionError) as error:
        figures.fail("page load", error)
        return
    fetching: asyncio.Task[None] | None = None
    # What the part this phone holds shows, from its page: unchanged, the stream says so.
    held = re.search(r"[?&]tag=([0-9a-f]+)", stream_url)
    tag = held.group(1) if held else ""

    async def refresh() -> None:
        nonlocal tag
        have = 0
        while have < wanted:
            target = wanted
            start = time.monotonic()
            try:
                sent = {**headers, "X-Live-Tag": tag} if tag else headers
                answer = await get(client, live_url, sent, figures)
            except httpx.HTTPError as error:
                figures.fail("page refresh", error)
                return
            tag = answer.headers.get("X-Live-Tag", "")
            figures.live_bytes += answer.num_bytes_downloaded
            figures.page_ms.append((time.monotonic() - start) * 1000)
            note(figures.paged[game.id][server], target, time.time())
            have = target

    def news(seq: int) -> None:
        nonlocal wanted, fetching
        note(figures.nudged[game.id][server], seq, time.time())
        wanted = max(wanted, seq)
        if fetching is None or fetching.done():
            fetching = asyncio.create_task(refresh())

    first, attempts = True, 0
    try:
        while time.monotonic() < until:
            try:
                async with client.stream(
                    "GET",
                    stream_url,
                    headers=headers,
                    timeout=httpx.Timeout(None, connect=60),
                ) as stream:
                    event, counted = "", 0
                    async for line in stream.aiter_lines():
                        # Bytes as they came (compressed), pings and nudges included.
                        figures.live_bytes += stream.num_bytes_downloaded - counted
                        counted = stream.num_bytes_downloaded
                        if line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("data:") and event == "hello":
                            figures.hellos[label] = time.monotonic()
                            if first:
                                figures.connected += 1
                                first = False
                            elif json.loads(line[5:])["seq"] > wanted:
                                news(json.loads(line[5:])["seq"])
                        elif line.startswith("data:") and event == "changed":
                            said = json.loads(line[5:])
                            if said.get("tag") and said["tag"] == tag:
                                # Unchanged for this phone: shown as it is, nothing fetched.
                                note(figures.nudged[game.id][server], said["seq"], time.time())
                                note(figures.paged[game.id][server], said["seq"], time.time())
                            else:
                                news(said["seq"])
                        elif line.startswith("data:") and event == "part":
                            # The part itself, on the stream: shown on arrival (issue 21).
                            said = json.loads(line[5:])
                            tag = said["tag"]
                            note(figures.nudged[game.id][server], said["seq"], time.time())
                            note(figures.paged[game.id][server], said["seq"], time.time())
                            wanted = max(wanted, said["seq"])
                        if time.monotonic() > until:
                            return
                # The stream ended without an error (a proxy in front closes it cleanly when
                # the process behind dies, as Caddy does): cut all the same; open it again as a
                # page does, half a second later.
                if not first:
                    figures.broken[label] = time.monotonic()
                    figures.reconnects += 1
                    await asyncio.sleep(0.5)
            except httpx.HTTPError as error:
                if first and attempts:
                    figures.fail("event stream", error)
                    return
                attempts += 1
                figures.broken[label] = time.monotonic()
                if first:
                    figures.retried += 1  # a keep-alive connection the server had closed
                else:
                    figures.reconnects += 1
                    await asyncio.sleep(0.5)
    finally:
        if fetching is not None:
            fetching.cancel()


async def actor(
    client: httpx.AsyncClient,
    game: BenchGame,
    number: int,
    server: int,
    rng: random.Random,
    figures: Figures,
    until: float,
    think: float,
) -> None:
    token = game.actors[number]
    auth = {"Authorization": f"Bearer {token}"}
    step = STEPS[game.kind]

    async def read() -> dict[str, Any]:
        answer = await get(client, f"/api/v1/games/{game.id}", auth, figures)
        figures.reads += 1
        return dict(answer.json()["state"])

    async def send(body: dict[str, Any]) -> httpx.Response:
        start = time.monotonic()
        url, sent = f"/api/v1/games/{game.id}/commands", auth | {"Idempotency-Key": key()}
        try:
            answer = await client.post(url, json=body, headers=sent)
        except httpx.TransportError:
            # As the pages do: the same request again, with the same key, so applied once.
            figures.retried += 1
            answer = await client.post(url, json=body, headers=sent)
        figures.action_ms.append((time.monotonic() - start) * 1000)
        figures.answers += 1
        if answer.status_code == 200:
            game.answered[answer.json()["seq"]] = (time.time(), server)
        elif answer.status_code >= 500:
            figures.fail("action", answer.status_code)
        else:
            figures.refused += 1
        return answer

    await asyncio.sleep(first_wait(rng, think))
    while time.monotonic() < until:
        try:
            await step(rng, game, number, read, send)
        except httpx.HTTPError as error:
            figures.fail("action or read", error)
        await asyncio.sleep(pause(rng, think))


def pause(rng: random.Random, think: float) -> float:
    """An actor's think time between two steps: uniform around `think`, ±50%."""
    return rng.uniform(0.5 * think, 1.5 * think)


def first_wait(rng: random.Random, think: float) -> float:
    """How long an actor waits before its first step, as if it had been playing all along: the
    rest of a pause caught at a random moment, a longer pause being the likelier to be caught
    (a length-biased pause, then a uniform share of it). Waits drawn uniformly within one
    think time instead made every actor's first step fall in the first 10 s while the early
    ones' second steps came on top: some 1.4 times the steady rate of actions at 8 to 10 s
    into the measured minute, the server overloaded there, and at G = 200 most of the
    minute's late nudges (`tests/test_bench_figures.py`)."""
    low, high = 0.5 * think, 1.5 * think
    biased = math.sqrt(low**2 + rng.random() * (high**2 - low**2))  # density ∝ its length
    return rng.random() * biased


async def floor(client: httpx.AsyncClient, figures: Figures, until: float) -> None:
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            answer = await client.get("/offline")
            answer.raise_for_status()
            figures.floor_ms.append((time.monotonic() - start) * 1000)
        except httpx.HTTPError as error:
            figures.fail("floor", error)
        await asyncio.sleep(0.05)


async def health(client: httpx.AsyncClient, servers: list[Server]) -> tuple[Counter[str], int]:
    """What the servers' `/healthz` say, summed: live parts rendered and found unchanged, and
    full garbage collections since they began serving."""
    live, full = Counter[str](), 0
    for server in servers:
        answer = (await client.get(f"{server.url}/healthz")).json()
        live.update(answer["live"])
        full += answer["collector"]["full"]
    return live, full


async def commit_times(client: httpx.AsyncClient, game: BenchGame) -> dict[int, float]:
    """When each event was committed, by the server's clock (the same machine's), from the log."""
    answer = await client.get(
        f"/api/v1/games/{game.id}/log", headers={"Authorization": f"Bearer {game.admin}"}
    )
    answer.raise_for_status()
    return {e["seq"]: datetime.fromisoformat(e["at"]).timestamp() for e in answer.json()["events"]}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def arrival(times: dict[int, float], seq: int) -> float | None:
    """When phones had this change: its own nudge, or the first later one that carried it."""
    if seq in times:
        return times[seq]
    later = [s for s in times if s > seq]
    return times[min(later)] if later else None


LIMITS = httpx.Limits(max_connections=None, max_keepalive_connections=None)
IDLE_S = 3.0  # the idle floor's measure, before each run's phones


async def referees(
    urls: list[str],
    games: list[BenchGame],
    seconds: float,
    think: float,
    seed: int,
    by_game: bool = False,
) -> dict[str, Any]:
    """The actors and the floor, for `seconds`; what they measured, as plain data. `by_game`:
    each game's actors on one process (`home`), else spread over them all."""
    figures = Figures()
    rng = random.Random(seed)
    n = len(urls)
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=url, limits=LIMITS, timeout=60)
            )
            for url in urls
        ]
        for made in clients:
            no_cookie_jar(made)
        stack.enter_context(Quiet())
        lag = await stack.enter_async_context(Lag())
        started = time.monotonic()
        until = started + seconds
        work = [
            actor(
                clients[home(i, a, n, by_game)],
                g,
                a,
                home(i, a, n, by_game),
                random.Random(rng.random()),
                figures,
                until,
                think,
            )
            for i, g in enumerate(games)
            for a in range(len(g.actors))
        ]
        await asyncio.gather(floor(clients[0], figures, until), *work)
        elapsed = time.monotonic() - started
    return {
        "elapsed": elapsed,
        "action_ms": figures.action_ms,
        "floor_ms": figures.floor_ms,
        "answers": figures.answers,
        "reads": figures.reads,
        "refused": figures.refused,
        "errors": figures.errors,
        "retried": figures.retried,
        "failures": dict(figures.failures),
        "answered": {g.id: g.answered for g in games},
        "lag_ms": lag.late_ms,
    }


def referees_process(*args: Any) -> dict[str, Any]:
    """`referees` on the process pool's own event loop (its arguments as they are)."""
    return asyncio.run(referees(*args))


def home(game: int, member: int, processes: int, by_game: bool) -> int:
    """The process a game's `member` (a phone, an actor) talks to: its game's own with
    `by_game` (as a proxy routing by the game's address would send them), else spread."""
    return game % processes if by_game else (game + member) % processes


async def run_one(
    servers: list[Server],
    games: list[BenchGame],
    seconds: float,
    think: float,
    seed: int,
    pool: ProcessPoolExecutor,
    settle: float = 5.0,
    by_game: bool = False,
) -> dict[str, Any]:
    figures = Figures()
    for game in games:
        game.answered.clear()
    idle = Figures()  # the machine's own floor, before any phone: what the run is measured on
    # One client per game and server for the phones: httpx scans its whole pool on every
    # request, and a single pool of 3,200 connections made the load generator the bottleneck.
    async with AsyncExitStack() as stack:

        async def client(server: Server) -> httpx.AsyncClient:
            made = httpx.AsyncClient(base_url=server.url, limits=LIMITS, timeout=60)
            no_cookie_jar(made)
            return await stack.enter_async_context(made)

        n = len(servers)
        phone_clients = {(g.id, s): await client(servers[s]) for g in games for s in range(n)}
        log_client = await client(servers[0])
        await floor(log_client, idle, time.monotonic() + IDLE_S)
        until = time.monotonic() + seconds + 600
        # The storm: every phone opening its page and stream at once, while the first game's
        # actors play on (their latency during it is the storm's, not the steady state's).
        storm = Figures()
        probes = [
            asyncio.create_task(
                actor(log_client, games[0], a, 0, random.Random(a), storm, until, think / 5)
            )
            for a in range(len(games[0].actors))
        ]
        phones = []
        opened = time.monotonic()  # the storm's clock starts with the first phone, not the last
        homes: dict[str, set[int]] = defaultdict(set)  # the processes each game's phones are on
        for gi, g in enumerate(games):
            for i, token in enumerate(g.phones):
                s = home(gi, i, n, by_game)
                homes[g.id].add(s)
                phones.append(
                    asyncio.create_task(phone(phone_clients[g.id, s], g, token, s, figures, until))
                )
                if len(phones) % 50 == 0:
                    await asyncio.sleep(0.05)  # phones arrive over a moment, not all at once
        deadline = time.monotonic() + 300
        while figures.connected + figures.errors < len(phones):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)  # every phone connected before the clock starts
        connect_s = time.monotonic() - opened
        for probe in probes:
            probe.cancel()
        await asyncio.gather(*probes, return_exceptions=True)
        # The storm's changes are the storm's: their nudges, slow while thousands of phones
        # connect, were counted in the steady state's (some 190 of its 2,600 changes at G = 200).
        games[0].answered.clear()
        await asyncio.sleep(settle)  # the storm's last first fetches served: then the clock
        before, full_before = await health(log_client, servers)
        rendered_before, unchanged_before = before["rendered"], before["unchanged"]
        cpu_before = sum(server.cpu_seconds() for server in servers)
        meter = Cores(s.process.pid for s in servers if s.process is not None)
        figures.live_bytes = 0
        # The referees' phones are not the players': they act from a process of their own, so
        # an answer is not timed late because this process was busy refreshing 32 pages.
        urls = [server.url for server in servers]
        with Quiet():
            async with Lag() as lag:
                measured = await asyncio.get_running_loop().run_in_executor(
                    pool, referees_process, urls, games, seconds, think, seed, by_game
                )
                await asyncio.sleep(3)  # the last news reach the phones, and their pages
        elapsed = measured["elapsed"]
        figures.action_ms, figures.floor_ms = measured["action_ms"], measured["floor_ms"]
        figures.answers, figures.reads = measured["answers"], measured["reads"]
        figures.refused, figures.errors = measured["refused"], figures.errors + measured["errors"]
        figures.retried += measured["retried"]
        figures.failures.update(measured["failures"])
        for g in games:
            g.answered = measured["answered"][g.id]
        cores = meter.used()
        cpu = sum(server.cpu_seconds() for server in servers) - cpu_before
        full_during = (await health(log_client, servers))[1] - full_before
        for task in phones:
            task.cancel()
        await asyncio.gather(*phones, return_exceptions=True)
        committed = {g.id: await commit_times(log_client, g) for g in games}
        live, _ = await health(log_client, servers)
    changes = max(1, sum(len(g.answered) for g in games))
    nudge_ms, remote_ms, page_ms = [], [], []
    late = 0  # changes some phone had not refreshed for when the run ended
    for g in games:
        for seq, (_, sender) in g.answered.items():
            at = committed[g.id][seq]
            by_server = {s: arrival(figures.nudged[g.id][s], seq) for s in homes[g.id]}
            pages = [arrival(figures.paged[g.id][s], seq) for s in homes[g.id]]
            if None in by_server.values() or None in pages:
                late += 1
                continue
            nudge_ms.append(max(0.0, (max(by_server.values()) - at) * 1000))  # type: ignore[type-var]
            page_ms.append(max(0.0, (max(pages) - at) * 1000))  # type: ignore[type-var, arg-type]
            others = [t for s, t in by_server.items() if s != sender]
            if others:
                remote_ms.append(max(0.0, (max(others) - at) * 1000))  # type: ignore[type-var]
    row: dict[str, Any] = {
        "games": len(games),
        "processes": len(servers),
        "phones": sum(len(g.phones) for g in games),
        "actions_s": figures.answers / elapsed,
        "reads_s": figures.reads / elapsed,
        "pages_s": len(figures.page_ms) / elapsed,
        "p50": pct(figures.action_ms, 50),
        "p95": pct(figures.action_ms, 95),
        "p99": pct(figures.action_ms, 99),
        "floor_p50": pct(figures.floor_ms, 50),
        "floor_p95": pct(figures.floor_ms, 95),
        "ratio_p95": pct(figures.action_ms, 95) / max(pct(figures.floor_ms, 95), 0.001),
        "nudge_p50": pct(nudge_ms, 50),
        "nudge_p95": pct(nudge_ms, 95),
        "remote_p95": pct(remote_ms, 95),
        "page_p50": pct(page_ms, 50),
        "page_p95": pct(page_ms, 95),
        "errors": figures.errors,
        "failures": dict(figures.failures),
        "late": late,
        "reconnects": figures.reconnects,
        "retried": figures.retried,
        "refused": figures.refused,
        "rss_mib": sum(s.rss_mib() for s in servers),
        # Renders of live parts per change (the phones' first loads aside), and bytes sent.
        "renders": (live["rendered"] - rendered_before) / changes,
        "unchanged": (live["unchanged"] - unchanged_before) / changes,
        "kib": figures.live_bytes / changes / 1024,
        # The servers' processor time per change: the actions, their answers, the floor and
        # the actors' reads included, and everything the phones cost.
        "cpu_ms": cpu * 1000 / changes,
        # The machine's cores over the measured seconds: the servers', the load generator's (on
        # the same machine here), PostgreSQL's, the rest and what stayed idle (`bench.cores`).
        **{f"cores_{group}": value for group, value in cores.items()},
        "connect_s": connect_s,
        "storm_p95": pct(storm.action_ms, 95),
        "storm_errors": storm.errors,
        "idle_p50": pct(idle.floor_ms, 50),
        "idle_p95": pct(idle.floor_ms, 95),
        # How late the load generator's own processes woke (p99, phones' or actors', the worse):
        # a latency is only the server's if the one timing it was not busy meanwhile.
        "lag_p99": max(pct(lag.late_ms, 99), pct(measured["lag_ms"], 99)),
        "lag_max": max(lag.late_ms + measured["lag_ms"], default=float("nan")),
        # The servers' full garbage collections in the measured minute (each stops its process:
        # 0.43 s at 6,400 phones; `server.collector`).
        "full_gc": full_during,
    }
    row["kib_per_phone"] = kib_per_phone(row)
    return row


COLUMNS = [
    ("G", "games", "{:>4}"),
    ("proc", "processes", "{:>4}"),
    ("phones", "phones", "{:>6}"),
    ("act/s", "actions_s", "{:>6.1f}"),
    ("pages/s", "pages_s", "{:>7.0f}"),
    ("p50", "p50", "{:>6.1f}"),
    ("p95", "p95", "{:>7.1f}"),
    ("p99", "p99", "{:>7.1f}"),
    ("floor50", "floor_p50", "{:>7.1f}"),
    ("floor95", "floor_p95", "{:>7.1f}"),
    ("x floor", "ratio_p95", "{:>7.1f}"),
    ("nudge50", "nudge_p50", "{:>7.1f}"),
    ("nudge95", "nudge_p95", "{:>7.1f}"),
    ("other95", "remote_p95", "{:>7.1f}"),
    ("page50", "page_p50", "{:>7.1f}"),
    ("page95", "page_p95", "{:>7.1f}"),
    ("err", "errors", "{:>4}"),
    ("late", "late", "{:>4}"),
    ("reconn", "reconnects", "{:>6}"),
    ("retried", "retried", "{:>7}"),
    ("refused", "refused", "{:>7}"),
    ("RSS MiB", "rss_mib", "{:>7.0f}"),
    ("KiB/ph", "kib_per_phone", "{:>6.0f}"),
    ("rend/ch", "renders", "{:>7.1f}"),
    ("204/ch", "unchanged", "{:>6.1f}"),
    ("KiB/ch", "kib", "{:>6.1f}"),
    ("CPU ms/ch", "cpu_ms", "{:>9.1f}"),
    ("srv", "cores_servers", "{:>4.2f}"),
    ("gen", "cores_generator", "{:>4.2f}"),
    ("db", "cores_database", "{:>4.2f}"),
    ("idle", "cores_idle", "{:>4.2f}"),
    ("conn s", "connect_s", "{:>6.1f}"),
    ("storm95", "storm_p95", "{:>7.0f}"),
    ("idle95", "idle_p95", "{:>6.1f}"),
    ("lag99", "lag_p99", "{:>6.0f}"),
    ("lagmax", "lag_max", "{:>6.0f}"),
    ("fullgc", "full_gc", "{:>6}"),
]


def table(rows: list[dict[str, Any]]) -> str:
    widths = [len(fmt.format(0 if "d" in fmt else 0.0)) for _, _, fmt in COLUMNS]
    head = " ".join(title.rjust(w) for (title, _, _), w in zip(COLUMNS, widths, strict=True))
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(" ".join(fmt.format(r[k]) for _, k, fmt in COLUMNS))
    return "\n".join(lines)


@contextmanager
def bench_database(admin_url: str | None, folder: str) -> Iterator[str]:
    """A SQLite file in a temporary folder, or a PostgreSQL database made for the run and
    dropped after it."""
    if admin_url is None:
        yield f"sqlite:///{Path(folder) / 'bench.db'}"
        return
    import psycopg

    admin = normalize_url(admin_url).replace("postgresql+psycopg://", "postgresql://")
    name = f"arbitre_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{admin.rpartition('/')[0]}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_slices(counts: list[int], runs: int) -> list[tuple[int, int, slice]]:
    """Each run (its G, its number) and its games, none played twice; each slice starts on a
    whole turn of the mix, so every run of a G plays the same kinds in the same numbers."""
    made, start = [], 0
    for count in counts:
        for n in range(runs):
            made.append((count, n, slice(start, start + count)))
            start += -(-count // len(MIX)) * len(MIX)
    return made


def set_up(url: str, count: int, first: int = 0) -> list[BenchGame]:
    """Games `first` to `first + count` of the mix (`first` on a whole turn of it)."""
    upgrade(url)
    db = Database.connect(Settings(database_url=url, secret_key=SECRET))
    service = GameService(db, SECRET, SystemClock(), secret_roll, Broker())
    try:
        return [SETUP[MIX[n % len(MIX)]](service, n) for n in range(first, first + count)]
    finally:
        db.dispose()


async def main(
    counts: list[int],
    seconds: float,
    think: float,
    db_url: str | None,
    processes: int,
    runs: int = 3,
    settle: float = 5.0,
    ceiling: int | None = None,
    step: int = 50,
    top: int = 1000,
    by_game: bool = False,
) -> None:
    """Each G of `counts` run `runs` times; or, with `ceiling`, G = ceiling, ceiling + step, ...
    until a G misses its targets on a run: the largest G met on every run is the ceiling."""
    if processes > 1 and db_url is None:
        raise SystemExit("several processes need PostgreSQL: --database-url postgresql://...")
    print(line(calibration()), flush=True)
    with tempfile.TemporaryDirectory() as folder, bench_database(db_url, folder) as url:
        started = time.monotonic()
        # Every run plays games of its own, fresh: the runs of one G replaying the same games
        # found more players out each time, refused more actions and had a lighter minute.
        # Looking for the ceiling, each G's games are set up when it comes.
        planned = fresh_slices([ceiling] if ceiling else counts, runs)
        games = set_up(url, planned[-1][2].stop if planned else 0)
        made = len(games)
        kinds = {k: sum(g.kind == k for g in games) for k in MIX}
        print(f"{len(games)} games set up in {time.monotonic() - started:.0f} s: {kinds}")
        # Thousands of phones from one address: the budgets meant for the field are lifted.
        env = {
            "JOIN_ATTEMPTS_PER_MINUTE": "100000",
            "GAMES_PER_MINUTE": "100000",
            "STREAMS_PER_ADDRESS": "100000",
        }
        servers = [Server(url, extra_env=env) for _ in range(processes)]
        for server in servers:
            server.start()
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            rows: list[dict[str, Any]] = []
            by_count: dict[int, list[dict[str, Any]]] = defaultdict(list)
            print(table([]), flush=True)
            count = ceiling
            while True:
                for count, n, played in planned:
                    row = await run_one(
                        servers,
                        games[played],
                        seconds,
                        think,
                        seed=count * 100 + n,
                        pool=pool,
                        settle=settle,
                        by_game=by_game,
                    )
                    rows.append(row)
                    by_count[count].append(row)
                    print(table(rows[-1:]).splitlines()[-1], flush=True)
                if not ceiling or any(missed(r) for r in by_count[count]) or count >= top:
                    break
                # Met on every run: the next G, on games of its own set up now (numbered
                # after all the others, from a whole turn of the mix).
                first = -(-made // len(MIX)) * len(MIX)
                count += step
                planned = fresh_slices([count], runs)
                games = set_up(url, planned[-1][2].stop, first)
                made = first + len(games)
            print()
            database = "SQLite" if url.startswith("sqlite") else "PostgreSQL"
            print(
                f"{database}, {processes} server process(es); the mix of bench.games, 32 phones "
                f"a game; think time {think} s, {seconds} s a run; load generator on the same "
                "machine. Latencies in ms."
            )
            print(table(rows))
            print(f"mean floor p50: {statistics.mean(r['floor_p50'] for r in rows):.1f} ms")
            for r in rows:
                if r["failures"]:
                    print(f"errors at G = {r['games']}: {r['failures']}")
            print()
            print(summary(by_count))
            if ceiling:
                print(ceiling_line(by_count, database, processes))
                if not any(missed(r) for r in by_count[count]):
                    print(f"(no G up to --max {top} missed: the ceiling is higher)")
            print(line(calibration()))
        finally:
            pool.shutdown()
            for server in servers:
                server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10,50,100")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--runs", type=int, default=3, help="runs of each G (their median)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the storm")
    parser.add_argument("--think", type=float, default=10.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--ceiling", type=int, default=None, help="from this G up by --step until one misses"
    )
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--max", type=int, default=1000, help="the largest G --ceiling tries")
    parser.add_argument(
        "--by-game",
        action="store_true",
        help="each game's phones and actors on one process (a proxy routing by game)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",")]
    asyncio.run(
        main(
            counts,
            args.seconds,
            args.think,
            args.database_url,
            args.processes,
            args.runs,
            args.settle,
            args.ceiling,
            args.step,
            args.max,
            args.by_game,
        )
    )
