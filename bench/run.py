"""`make bench`: Arbitre against the floor, on loopback, with G games at once.

Each game is a Serial Battle game with 32 players whose phones keep the live event stream open
and 6 referees who send a realistic mix of actions (assaults with their dice, placings,
corrections), each after a think time. The same run measures the floor: a trivial HTML page of
the same app (`/offline`), asked for all along. Printed for each G: actions per second, action
latency p50/p95/p99 and as a ratio to the floor, live-update latency p50/p95 (from the commit,
by the log's clock, to the moment the last phone of the game has the news),
errors, and the server's memory. Bounded in count and time; loopback only.

    python -m bench.run [--games 1,10,50,100] [--seconds 15] [--think 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from tests.server_process import Server

PLAYERS, REFEREES = 32, 6


@dataclass
class BenchGame:
    id: str
    admin: str
    referees: list[str]
    players: list[int]
    tokens: list[str]
    answered: dict[int, float] = field(default_factory=dict)  # seq -> when its answer arrived
    seen: dict[int, float] = field(default_factory=dict)  # seq -> last phone to get the news
    phones_seen: dict[int, int] = field(default_factory=dict)


@dataclass
class Figures:
    action_ms: list[float] = field(default_factory=list)
    floor_ms: list[float] = field(default_factory=list)
    answers: int = 0
    refused: int = 0
    errors: int = 0
    streams_lost: int = 0
    connected: int = 0


def headers(token: str | None = None) -> dict[str, str]:
    out = {"Idempotency-Key": uuid.uuid4().hex}
    if token:
        out["Authorization"] = f"Bearer {token}"
    return out


async def setup_game(client: httpx.AsyncClient, number: int) -> BenchGame:
    created = (
        await client.post(
            "/api/v1/games",
            headers=headers(),
            json={"kind": "serial_battle", "name": f"Bench {number}", "organizer": "Org"},
        )
    ).json()
    game_id, admin = created["game"]["id"], created["organizer"]["token"]

    async def person(role: str, name: str) -> dict[str, Any]:
        answer = await client.post(
            f"/api/v1/games/{game_id}/people",
            headers=headers(admin),
            json={"role": role, "name": name},
        )
        answer.raise_for_status()
        return dict(answer.json())

    referees = [(await person("referee", f"R{i}"))["token"] for i in range(REFEREES)]
    players = [await person("player", f"P{i}") for i in range(PLAYERS)]
    for command in ({"type": "sectors", "names": "Nord, Sud, Est, Ouest"}, {"type": "start"}):
        answer = await client.post(
            f"/api/v1/games/{game_id}/commands", headers=headers(admin), json={"command": command}
        )
        answer.raise_for_status()
    return BenchGame(
        game_id,
        admin,
        referees,
        [p["person_id"] for p in players],
        [p["token"] for p in players],
    )


def an_action(rng: random.Random, game: BenchGame) -> dict[str, Any]:
    """What referees do most: assaults (bare hands, dice rolled on the field), then placings and
    corrections."""
    a, b = rng.sample(game.players, 2)
    roll = rng.random()
    if roll < 0.7:
        dice = {"damage": rng.randint(1, 6), "location": rng.randint(1, 6)}
        dice |= {"answer_damage": rng.randint(1, 6), "answer_location": rng.randint(1, 6)}
        command = {"type": "assault", "attacker": a, "defenders": [b], "card": "bare"}
        return {"command": command, "rolls": dice}
    if roll < 0.85:
        sector = rng.choice(["Nord", "Sud", "Est"])
        return {"command": {"type": "place", "players": [a, b], "sector": sector}}
    return {"command": {"type": "correct", "player": a, "pv": rng.randint(20, 36), "reason": "b"}}


async def referee(
    client: httpx.AsyncClient,
    game: BenchGame,
    token: str,
    rng: random.Random,
    figures: Figures,
    until: float,
    think: float,
) -> None:
    await asyncio.sleep(rng.uniform(0, think))
    while time.monotonic() < until:
        body = an_action(rng, game)
        start = time.monotonic()
        try:
            answer = await client.post(
                f"/api/v1/games/{game.id}/commands", json=body, headers=headers(token)
            )
        except httpx.HTTPError:
            figures.errors += 1
            continue
        now = time.time()
        figures.action_ms.append((time.monotonic() - start) * 1000)
        figures.answers += 1
        if answer.status_code == 200:
            game.answered[answer.json()["seq"]] = now
        elif answer.status_code >= 500:
            figures.errors += 1
        else:
            figures.refused += 1
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))


async def phone(
    client: httpx.AsyncClient, game: BenchGame, token: str, figures: Figures, until: float
) -> None:
    """A player's page: the event stream open, each change noted with when it arrived."""
    try:
        async with client.stream(
            "GET",
            f"/g/{game.id}/events",
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(None, connect=30),
        ) as stream:
            event = ""
            async for line in stream.aiter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                    if event == "hello":
                        figures.connected += 1
                elif line.startswith("data:") and event == "changed":
                    seq = json.loads(line[5:])["seq"]
                    arrived = time.time()
                    game.seen[seq] = max(game.seen.get(seq, 0.0), arrived)
                    game.phones_seen[seq] = game.phones_seen.get(seq, 0) + 1
                if time.monotonic() > until:
                    return
    except asyncio.CancelledError:
        raise  # the run is over
    except httpx.HTTPError:
        figures.streams_lost += 1


async def floor(client: httpx.AsyncClient, figures: Figures, until: float) -> None:
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            answer = await client.get("/offline")
            answer.raise_for_status()
            figures.floor_ms.append((time.monotonic() - start) * 1000)
        except httpx.HTTPError:
            figures.errors += 1
        await asyncio.sleep(0.05)


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


async def run_one(
    server: Server, games: list[BenchGame], seconds: float, think: float, seed: int
) -> dict[str, Any]:
    figures = Figures()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    for game in games:
        game.answered.clear()
        game.seen.clear()
        game.phones_seen.clear()
    # One client a game for its phones and one for its referees: httpx scans its whole pool on
    # every request, and a single pool of 3,200 connections made the load generator the bottleneck.
    async with AsyncExitStack() as stack:

        async def client() -> httpx.AsyncClient:
            made = httpx.AsyncClient(base_url=server.url, limits=limits, timeout=30)
            return await stack.enter_async_context(made)

        phone_clients = {g.id: await client() for g in games}
        referee_clients = {g.id: await client() for g in games}
        floor_client = await client()
        until = time.monotonic() + seconds + 130
        phones = [
            asyncio.create_task(phone(phone_clients[g.id], g, t, figures, until))
            for g in games
            for t in g.tokens
        ]
        deadline = time.monotonic() + 120
        while figures.connected < len(phones) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)  # every phone connected before the clock starts
        connect_s = time.monotonic() - deadline + 120
        started = time.monotonic()
        until = started + seconds
        work = [
            referee(referee_clients[g.id], g, t, random.Random(rng.random()), figures, until, think)
            for g in games
            for t in g.referees
        ]
        await asyncio.gather(floor(floor_client, figures, until), *work)
        elapsed = time.monotonic() - started
        await asyncio.sleep(2)  # the last news reach the phones
        for task in phones:
            task.cancel()
        await asyncio.gather(*phones, return_exceptions=True)
        committed = {g.id: await commit_times(floor_client, g) for g in games}
    live_ms = []
    missed = 0
    for g in games:
        for seq in g.answered:
            answered = committed[g.id][seq]
            seen = g.seen.get(seq)
            if seen is None:
                # Coalesced: a later number carried this change (the phone fetches the page).
                later = [s for s in g.seen if s > seq]
                seen = g.seen[min(later)] if later else None
            if seen is None:
                missed += 1
                continue
            live_ms.append(max(0.0, (seen - answered) * 1000))
    floor_p50 = pct(figures.floor_ms, 50)
    return {
        "games": len(games),
        "phones": len(games) * PLAYERS,
        "actions_s": figures.answers / elapsed,
        "p50": pct(figures.action_ms, 50),
        "p95": pct(figures.action_ms, 95),
        "p99": pct(figures.action_ms, 99),
        "floor_p50": floor_p50,
        "floor_p95": pct(figures.floor_ms, 95),
        "ratio_p95": pct(figures.action_ms, 95) / max(pct(figures.floor_ms, 95), 0.001),
        "live_p50": pct(live_ms, 50),
        "live_p95": pct(live_ms, 95),
        "errors": figures.errors + figures.streams_lost + missed,
        "refused": figures.refused,
        "rss_mib": server.rss_mib(),
        "connect_s": connect_s,
    }


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        f"{'G':>4} {'phones':>6} {'act/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'floor p50/p95':>14} {'p95/floor':>9} {'live p50':>9} {'live p95':>9} "
        f"{'errors':>6} {'RSS MiB':>8} {'connect s':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['games']:>4} {r['phones']:>6} {r['actions_s']:>7.1f} {r['p50']:>7.1f} "
            f"{r['p95']:>7.1f} {r['p99']:>7.1f} "
            f"{r['floor_p50']:>6.1f}/{r['floor_p95']:<7.1f} {r['ratio_p95']:>9.1f} "
            f"{r['live_p50']:>9.1f} {r['live_p95']:>9.1f} {r['errors']:>6} {r['rss_mib']:>8.0f} {r['connect_s']:>9.1f}"
        )
    return "\n".join(lines)


async def main(counts: list[int], seconds: float, think: float, db_url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = db_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        server = Server(url, extra_env={"JOIN_ATTEMPTS_PER_MINUTE": "100000"})
        server.start()
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
                started = time.monotonic()
                games = []
                for batch in range(0, max(counts), 10):
                    numbers = range(batch, min(batch + 10, max(counts)))
                    games += await asyncio.gather(*(setup_game(client, n) for n in numbers))
                print(
                    f"{len(games)} games set up in {time.monotonic() - started:.0f} s", flush=True
                )
            rows = []
            for count in counts:
                rows.append(await run_one(server, games[:count], seconds, think, seed=count))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
            print()
            print(f"Serial Battle, {PLAYERS} phones and {REFEREES} referees a game, a think time")
            print(f"of {think} s, {seconds} s a run, load generator on the same 2-core machine:")
            print(table(rows))
            print(f"mean floor p50: {statistics.mean(r['floor_p50'] for r in rows):.1f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,50,100")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",")]
    asyncio.run(main(counts, args.seconds, args.think, args.database_url))
