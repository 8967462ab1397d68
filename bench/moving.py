"""What moving a game costs: exporting a league game of N actions, and importing it (replayed
twice: once before the write lock, once under the new numbers), with and without a run of undos,
and the peak memory of an import; on SQLite.

    python -m bench.moving [--actions 250 1000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

import server.games  # noqa: F401  (registers the kinds)
from server.config import Settings
from server.db import Database
from server.migrate import upgrade
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.kinds import SYSTEM, Viewer
from server.platform.live import Broker
from server.platform.service import GameService


def service_on(folder: Path, name: str) -> GameService:
    url = f"sqlite:///{folder / name}"
    upgrade(url)
    db = Database.connect(Settings(database_url=url, secret_key="bench"))
    return GameService(db, "bench", SystemClock(), secret_roll, Broker())


def league(service: GameService, actions: int, undos: bool) -> str:
    game, owner = service.create_game(
        "killpower_league", "Ligue", "Camille", idem_key=uuid.uuid4().hex
    )
    org = Viewer("organizer", owner.person.id, "Camille")
    for n in range(actions):
        command = {"type": "points", "draw_points": n % 5, "surrender_points": -1}
        service.perform(game.id, org, command, idem_key=uuid.uuid4().hex)
    for _ in range(actions if undos else 0):
        service.undo(game.id, org, idem_key=uuid.uuid4().hex)
    return game.id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, nargs="+", default=[250, 1000])
    args = parser.parse_args()
    print("| actions | undos | file | export | import | import peak memory |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        source = service_on(Path(folder), "a.db")
        target = service_on(Path(folder), "b.db")
        for actions in args.actions:
            for undos in (False, True):
                game = league(source, actions, undos)
                started = time.perf_counter()
                text = json.dumps(source.export_game(game, SYSTEM))
                exported = time.perf_counter() - started
                started = time.perf_counter()
                target.import_game(text, caller="bench", idem_key=uuid.uuid4().hex)
                imported = time.perf_counter() - started
                tracemalloc.start()  # a second import, traced (tracing slows it down)
                target.import_game(text, caller="bench", idem_key=uuid.uuid4().hex)
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                print(
                    f"| {actions} | {actions if undos else 0} | {len(text) // 1024} KiB "
                    f"| {exported * 1000:.0f} ms | {imported * 1000:.0f} ms "
                    f"| {peak / 2**20:.0f} MiB |"
                )


if __name__ == "__main__":
    main()
