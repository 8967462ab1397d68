"""What the BattleFight engine costs: the time to execute one technique (from the choice of it to
the next question), one whole turn, and the threefold-repetition check (2.6.2) at turn 200; then
an action through the service (load, apply, store, commit) at turn 1 and at turn 200, on SQLite.

    python -m bench.battlefight [--games 200] [--turns 200]
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
from server.games.battlefight import engine
from server.games.battlefight.decks import random_deck, sample_collection
from server.games.battlefight.setup import position_key
from server.migrate import upgrade
from server.platform.clock import SystemClock
from server.platform.dice import CommandDice, secret_roll
from server.platform.kinds import Viewer
from server.platform.live import Broker
from server.platform.service import GameService


def ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(len(values) * 0.95) - 1] if len(values) > 1 else values[0]
    return f"median {statistics.median(values) * 1e3:7.3f} ms   p95 {p95 * 1e3:7.3f} ms"


def deal(rng: random.Random, players: int) -> engine.Table:
    dice = CommandDice(source=lambda sides: rng.randint(1, sides))
    collection = sample_collection()
    seats = [(n + 1, f"P{n}", random_deck(collection, dice, f"p{n}")) for n in range(players)]
    return engine.new_table(seats, dice)


def engine_figures(games: int, seed: int) -> None:
    rng = random.Random(seed)
    per_technique: list[float] = []
    per_turn: list[float] = []
    answers = 0
    for n in range(games):
        table = deal(rng, 2 + n % 3)
        turn_started, turns = time.perf_counter(), table.turns
        while not table.finished and table.unsettled is None and table.turns < 150:
            pending = table.pending
            assert pending is not None
            count = pending.count
            chosen = (
                rng.sample(pending.options, count) if count > 1 else [rng.choice(pending.options)]
            )
            dice = CommandDice(source=lambda sides: rng.randint(1, sides))
            started = time.perf_counter()
            engine.answer(table, pending.player, chosen, dice)
            took = time.perf_counter() - started
            answers += 1
            if pending.kind in ("technique", "target") and table.pending is not None:
                per_technique.append(took)
            if table.turns != turns:
                per_turn.append(time.perf_counter() - turn_started)
                turn_started, turns = time.perf_counter(), table.turns
    print(f"engine, {games} random games ({answers} answers)")
    print(f"  one answer, the technique executed to the next question   {ms(per_technique)}")
    print(f"  one whole turn (every answer of it, players' time aside)   {ms(per_turn)}")


def long_game(turns: int) -> tuple[engine.Table, dict[str, int]]:
    """A game nobody wins: each player blocks or moves, turn after turn."""
    rng = random.Random(1)
    table = deal(rng, 3)
    positions: dict[str, int] = {}
    while table.turns < turns:
        pending = table.pending
        assert pending is not None
        options = [o for o in pending.options if o in ("base-defence", "base-movement")]
        chosen = [rng.choice(options or pending.options)]
        before = table.turns
        engine.answer(
            table, pending.player, chosen, CommandDice(source=lambda s: rng.randint(1, s))
        )
        if table.turns != before:
            key = position_key(table)
            positions[key] = positions.get(key, 0) + 1
    return table, positions


def repetition_figures(turns: int) -> None:
    table, positions = long_game(turns)
    runs = []
    for _ in range(2000):
        started = time.perf_counter()
        positions.get(position_key(table), 0)
        runs.append(time.perf_counter() - started)
    print(f"repetition check (2.6.2) at turn {turns}, {len(positions)} positions kept")
    print(f"  the state hashed and looked up                             {ms(runs)}")


def service_figures(turns: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        settings = Settings(database_url=url, secret_key="bench" * 8)
        upgrade(url)
        db = Database.connect(settings)
        service = GameService(db, settings.secret_key, SystemClock(), secret_roll, Broker())
        game, owner = service.create_game("battlefight", "Bench", "Org", idem_key=key())
        org = Viewer("organizer", owner.person.id, "Org")
        players = {}
        for name in ("A", "B", "C"):
            person = service.register(game.id, org, "player", name, idem_key=key()).person
            players[person.id] = Viewer("player", person.id, name)
            service.perform(game.id, players[person.id], {"type": "boosters"}, idem_key=key())
        service.perform(game.id, org, {"type": "start"}, idem_key=key())
        timings: dict[int, list[float]] = {}
        played = 0
        while played < turns:
            state = service.load(game.id).state
            pending = state.table.pending  # type: ignore[attr-defined]
            options = [o for o in pending.options if o in ("base-defence", "base-movement")]
            value = random.choice(options or pending.options)
            started = time.perf_counter()
            service.perform(
                game.id,
                players[pending.player],
                {"type": "choose", "values": [value]},
                idem_key=key(),
            )
            took = time.perf_counter() - started
            played = service.load(game.id).state.table.turns  # type: ignore[attr-defined]
            for mark in (1, turns // 2, turns):
                if abs(played - mark) <= 3:
                    timings.setdefault(mark, []).append(took)
        size = len(service.load(game.id).state.model_dump_json())
        print(
            f"an answer through the service (SQLite file, synchronous=FULL), state {size:,} bytes at the end"
        )
        for mark, values in sorted(timings.items()):
            print(
                f"  around turn {mark:<4}                                            {ms(values)}"
            )


def key() -> str:
    return f"{time.monotonic_ns()}-{random.random()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()
    print("== BattleFight")
    engine_figures(args.games, args.seed)
    repetition_figures(args.turns)
    service_figures(args.turns)


if __name__ == "__main__":
    main()
