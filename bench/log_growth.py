"""Does an action cost more when the game's log is long? The service on a SQLite file, in
process: the time of an action (and of an undo) in a new game and in a game of 5,000 events.

    python -m bench.log_growth [--events 5000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import server.games  # noqa: F401  (registers the kinds)
from server.config import Settings
from server.db import Database
from server.migrate import upgrade
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.kinds import Viewer
from server.platform.live import Broker
from server.platform.service import GameService


def a_game(service: GameService, players: int = 32) -> tuple[str, Viewer, list[int]]:
    game, organizer = service.create_game("serial_battle", "Bench", "Org", idem_key=key())
    org = Viewer("organizer", organizer.person.id, "Org")
    ids = [
        service.register(game.id, org, "player", f"P{i}", idem_key=key()).person.id
        for i in range(players)
    ]
    service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return game.id, org, [i for i in ids if i is not None]


def key() -> str:
    return f"{time.monotonic_ns()}-{random.random()}"


def place(service: GameService, game_id: str, org: Viewer, ids: list[int]) -> float:
    """One action (placing two players), timed."""
    command = {"type": "place", "players": random.sample(ids, 2), "sector": "Nord"}
    start = time.perf_counter()
    service.perform(game_id, org, command, idem_key=key())
    return (time.perf_counter() - start) * 1000


def main(events: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 'log.db'}")
        upgrade(settings.database_url)
        db = Database.connect(settings)
        service = GameService(db, "bench", SystemClock(), secret_roll, Broker())
        fresh = a_game(service)
        long = a_game(service)
        warm = a_game(service)  # the first undo of a process pays for its imports: not timed
        place(service, *warm)
        service.undo(warm[0], warm[1], idem_key=key())
        for _ in range(events):
            place(service, *long)
        rows = []
        for name, game in (("new game", fresh), (f"{events:,} events", long)):
            times = [place(service, *game) for _ in range(300)]
            start = time.perf_counter()
            service.undo(game[0], game[1], idem_key=key())
            undo = (time.perf_counter() - start) * 1000
            rows.append((name, statistics.median(times), sorted(times)[284], undo))
        print(f"{'game':>14} {'action p50 ms':>14} {'action p95 ms':>14} {'undo ms':>9}")
        for name, p50, p95, undo in rows:
            print(f"{name:>14} {p50:>14.2f} {p95:>14.2f} {undo:>9.1f}")
        db.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    main(parser.parse_args().events)
