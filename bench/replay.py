"""A finished game's replay: how long a jump to any step takes in a game of 5,000 events (issue
37: under 100 ms). The app on a SQLite file, in process: a Serial Battle of 32 players, 5,000
actions, then ended; 60 jumps to steps drawn at random, each the replay page as the public asks
for it, and the state alone (`GameService.state_at`).

    python -m bench.replay [--events 5000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from bench.log_growth import a_game, key, place
from server.app import create_app
from server.config import Settings

TARGET_MS = 100


def main(events: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'replay.db'}",
            secret_key="bench",
            allowed_hosts="testserver",
        )
        app = create_app(settings)
        with TestClient(app) as client:
            service = app.state.service
            game, org, ids = a_game(service)
            for _ in range(events):
                place(service, game, org, ids)
            service.perform(game, org, {"type": "end"}, idem_key=key())
            last = len(service.steps(game))
            draws = random.Random(37).sample(range(last + 1), 60)
            client.get(f"/g/{game}/replay?step={draws[0]}")  # the first pays for the imports
            pages, states = [], []
            for step in draws:
                start = time.perf_counter()
                answer = client.get(f"/g/{game}/replay?step={step}")
                pages.append((time.perf_counter() - start) * 1000)
                assert answer.status_code == 200, answer.text[:200]
                seq = service.steps(game)[max(step - 1, 0)][0]
                start = time.perf_counter()
                service.state_at(game, seq)
                states.append((time.perf_counter() - start) * 1000)
        print(f"replay of a game of {last:,} steps, 60 jumps at random:")
        print(f"{'':>16} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        for name, times in (("the page", pages), ("the state alone", states)):
            ordered = sorted(times)
            p95 = ordered[int(len(ordered) * 0.95) - 1]
            print(f"{name:>16} {statistics.median(times):>8.1f} {p95:>8.1f} {ordered[-1]:>8.1f}")
        met = sorted(pages)[int(len(pages) * 0.95) - 1] < TARGET_MS
        print(f"target: a jump answers within {TARGET_MS} ms (p95): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    main(parser.parse_args().events)
