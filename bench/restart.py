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
import tempfile
import time

from bench.crowd import ROOMY, crowd
from bench.run import bench_database, pct, set_up
from tests.server_process import Server

TARGET_S = 10.0  # every phone live again within 10 s of the restart


async def main(count: int, db_url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder, bench_database(db_url, folder) as url:
        games = set_up(url, count)
        server = Server(url, extra_env=ROOMY)
        server.start()
        loop = asyncio.get_running_loop()
        try:
            async with crowd(server.url, games) as people:
                took = await people.live()
                print(
                    f"{people.count:,} phones of {len(games)} games live in {took:.1f} s"
                    f" ({people.phones.errors} errors)"
                )
                people.play()
                await asyncio.sleep(10)  # the steady state, then the restart
                people.mark()
                stop = time.monotonic()
                await loop.run_in_executor(None, restart, server)
                back = time.monotonic()
                deadline = back + 60
                hellos = people.phones.hellos
                while any(hellos.get(n, 0) < back for n in range(1, people.count + 1)):
                    if time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.1)
                times = [hellos.get(n, float("inf")) - stop for n in range(1, people.count + 1)]
                lost = await people.lost()
                errors, down, failures = people.failures()
        finally:
            server.stop()
    late = sum(t > TARGET_S for t in times)
    # An action sent while the server is down finds no one (a page keeps that tap and sends it
    # again: issue 36); an error is anything else: an answer 500, a phone that gave up.
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
