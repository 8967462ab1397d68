"""What `synchronous=FULL` costs: the same actions on a SQLite file with FULL (an acknowledged
action survives a power cut) and with NORMAL (faster; may lose the last actions on a power cut).
The service in process, one referee placing players, then six referees at once on threads.

    python -m bench.durability [--actions 400]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import server.games  # noqa: F401  (registers the kinds)
from bench.log_growth import a_game, place
from server.config import Settings
from server.db import Database
from server.migrate import upgrade
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.live import Broker
from server.platform.service import GameService


def measure(mode: str, actions: int, folder: Path) -> tuple[float, float, float]:
    """(p50 ms, p95 ms) of one referee's actions, and actions/s with six referees at once."""
    url = f"sqlite:///{folder / f'{mode}.db'}"
    upgrade(url)
    db = Database.connect(Settings(database_url=url, secret_key="bench", sqlite_synchronous=mode))  # type: ignore[arg-type]
    service = GameService(db, "bench", SystemClock(), secret_roll, Broker())
    try:
        game, org, ids = a_game(service)
        for _ in range(20):  # warm up
            place(service, game, org, ids)
        times = sorted(place(service, game, org, ids) for _ in range(actions))
        games = [a_game(service) for _ in range(6)]
        start = time.perf_counter()
        with ThreadPoolExecutor(6) as pool:
            list(
                pool.map(
                    lambda g: [place(service, g[0], g[1], g[2]) for _ in range(actions // 6)],
                    games,
                )
            )
        rate = 6 * (actions // 6) / (time.perf_counter() - start)
    finally:
        db.dispose()
    return statistics.median(times), times[int(len(times) * 0.95)], rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=400)
    args = parser.parse_args()
    print(f"\nSQLite durability, {args.actions} actions (a placing of two players) per mode")
    print(f"{'synchronous':<12} {'p50 ms':>8} {'p95 ms':>8} {'6 referees, act/s':>18}")
    with tempfile.TemporaryDirectory() as folder:
        for mode in ("NORMAL", "FULL"):
            p50, p95, rate = measure(mode, args.actions, Path(folder))
            print(f"{mode:<12} {p50:>8.2f} {p95:>8.2f} {rate:>18.0f}")


if __name__ == "__main__":
    main()
