"""A server restart with every phone connected (issue 38): how long until each phone is live
again, and whether anything acknowledged was lost.

A real server on loopback (`python -m server serve`), G games of the `bench.run` mix (32 phones
each, G = 50 by default: 1,600 phones). Every phone opens its page and stream, and the actors
play on. Then the server is stopped (SIGTERM; SIGKILL if it is not gone within 10 s) and started
again on the same port and database, as a laptop's server is after an update. Every phone's
stream opens again as a browser's does (after half a second, then again until it answers);
printed: the time from the stop until the last phone's stream said hello again, each phone's
time (p50, p95), the phones not back within the target, the errors (a phone that gave up, an
answer 500), and the actions acknowledged before the stop that the log no longer has (none).

    python -m bench.restart [--games 50] [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from contextlib import AsyncExitStack

import httpx

from bench.run import (
    LIMITS,
    Figures,
    actor,
    bench_database,
    commit_times,
    no_cookie_jar,
    pct,
    phone,
    set_up,
)
from tests.server_process import Server

TARGET_S = 10.0  # every phone live again within 10 s of the restart
DOWN = ("ConnectError", "RemoteProtocolError", "ReadError")


async def main(count: int, db_url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder, bench_database(db_url, folder) as url:
        games = set_up(url, count)
        env = {
            "JOIN_ATTEMPTS_PER_MINUTE": "100000",
            "GAMES_PER_MINUTE": "100000",
            "STREAMS_PER_ADDRESS": "100000",
        }
        server = Server(url, extra_env=env)
        server.start()
        loop = asyncio.get_running_loop()
        figures, acted = Figures(), Figures()
        try:
            async with AsyncExitStack() as stack:
                clients = []
                for _ in games:
                    made = httpx.AsyncClient(base_url=server.url, limits=LIMITS, timeout=60)
                    no_cookie_jar(made)
                    clients.append(await stack.enter_async_context(made))
                until = time.monotonic() + 3600
                phones, label = [], 0
                for client, game in zip(clients, games, strict=True):
                    for token in game.phones:
                        label += 1
                        work = phone(client, game, token, 0, figures, until, label)
                        phones.append(asyncio.create_task(work))
                    await asyncio.sleep(0.05)
                started = time.monotonic()
                while figures.connected + figures.errors < len(phones):
                    if time.monotonic() - started > 300:
                        break
                    await asyncio.sleep(0.2)
                print(
                    f"{len(phones):,} phones of {len(games)} games live in"
                    f" {time.monotonic() - started:.1f} s ({figures.errors} errors)"
                )
                actors = [
                    asyncio.create_task(
                        actor(clients[i], g, a, 0, random.Random(a), acted, until, 5.0)
                    )
                    for i, g in enumerate(games)
                    for a in range(len(g.actors))
                ]
                await asyncio.sleep(10)  # the steady state, then the restart
                acknowledged = {g.id: set(g.answered) for g in games}
                stop = time.monotonic()
                await loop.run_in_executor(None, restart, server)
                back = time.monotonic()
                deadline = back + 60
                while any(figures.hellos.get(n, 0) < back for n in range(1, label + 1)):
                    if time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.1)
                times = [figures.hellos.get(n, float("inf")) - stop for n in range(1, label + 1)]
                for task in actors + phones:
                    task.cancel()
                await asyncio.gather(*actors, *phones, return_exceptions=True)
                lost = 0
                for client, game in zip(clients, games, strict=True):
                    logged = await commit_times(client, game)
                    lost += len(acknowledged[game.id] - set(logged))
        finally:
            server.stop()
    late = sum(t > TARGET_S for t in times)
    # An action sent while the server is down finds no one (a page keeps that tap and sends it
    # again: issue 36); an error is anything else: an answer 500, a phone that gave up.
    failures = figures.failures + acted.failures
    down = sum(v for k, v in failures.items() if k.endswith(DOWN))
    errors = sum(failures.values()) - down
    print(
        f"restart: the server down and up again in {back - stop:.1f} s; every phone live again"
        f" {max(times):.1f} s after the stop (p50 {pct(times, 50):.1f} s,"
        f" p95 {pct(times, 95):.1f} s); {late} phones later than {TARGET_S:g} s;"
        f" errors {errors}; requests that found the server down {down};"
        f" acknowledged actions lost: {lost}"
    )
    met = late == 0 and not errors and lost == 0
    print(
        f"target (every phone live again within {TARGET_S:g} s, nothing lost, no error):"
        f" {'met' if met else 'NOT met'}"
    )
    if errors:
        print(f"errors: {dict(failures)}")


def restart(server: Server) -> None:
    try:
        server.stop()
    except Exception:  # not gone within 10 s: as a crash
        server.kill()
    server.start()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.database_url))
