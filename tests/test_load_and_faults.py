"""Many referees at once against a real server process on loopback, then the same with the server
killed (SIGKILL) in the middle and restarted. Every acknowledged action is in the log exactly once,
every log replays to its stored state, no request got a 500, and retries of the requests the kill
cut off complete once. Bounded in count and time; loopback only."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlmodel import select

from server.config import Settings
from server.db import Database
from server.models import Event
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.idempotency import idem_key
from server.platform.live import Broker
from server.platform.service import GameService
from tests.conftest import run_async
from tests.scene import Load, declared
from tests.server_process import SECRET, Server

GAMES, REFEREES, PLAYERS = 3, 6, 12
# The games' loads, each game's own commands (`LOADS` in tests/<game>/scenes.py).
LOADS: dict[str, Load] = declared("LOADS")


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    running = Server(db_url)
    running.start()
    yield running
    running.stop()


@dataclass
class Game:
    id: str
    kind: str
    admin: str
    referees: list[str]
    players: list[int]


@dataclass
class Tally:
    acknowledged: dict[str, int] = field(default_factory=dict)  # idem key -> seq
    refused: int = 0
    server_errors: list[str] = field(default_factory=list)
    cut_off: list[tuple[str, str, dict[str, Any], dict[str, str]]] = field(default_factory=list)


async def setup_game(client: httpx.AsyncClient, kind: str, number: int) -> Game:
    def h(token: str | None = None) -> dict[str, str]:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    created = (
        await client.post(
            "/api/v1/games",
            headers=h(),
            json={"kind": kind, "name": f"Charge {number}", "organizer": "Org"},
        )
    ).json()
    game_id, admin = created["game"]["id"], created["organizer"]["token"]
    refs = []
    for i in range(REFEREES):  # each referee's client takes their seat: its key is their bearer
        ticket = (
            await client.post(
                f"/api/v1/games/{game_id}/people",
                headers=h(admin),
                json={"role": "referee", "name": f"R{i}"},
            )
        ).json()["token"]
        refs.append((await client.post("/api/v1/claim", json={"token": ticket})).json()["token"])
    players = [
        (
            await client.post(
                f"/api/v1/games/{game_id}/people",
                headers=h(admin),
                json={"role": "player", "name": f"P{i}"},
            )
        ).json()["person_id"]
        for i in range(PLAYERS)
    ]
    for command in LOADS[kind].start:
        answer = await client.post(
            f"/api/v1/games/{game_id}/commands", headers=h(admin), json={"command": command}
        )
        assert answer.status_code == 200, answer.text
    return Game(game_id, kind, admin, refs, players)


async def referee(
    client: httpx.AsyncClient,
    game: Game,
    token: str,
    rng: random.Random,
    tally: Tally,
    actions: int,
    stop: asyncio.Event,
) -> None:
    for _ in range(actions):
        if stop.is_set():
            return
        if rng.random() < 0.08:
            path, body = f"/api/v1/games/{game.id}/undo", {}
        else:
            command, dice = LOADS[game.kind].command(rng, game.players)
            path, body = f"/api/v1/games/{game.id}/commands", {"command": command, "rolls": dice}
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
        sends = 2 if rng.random() < 0.15 else 1  # a phone that lost the answer sends again
        for _ in range(sends):
            try:
                answer = await client.post(path, json=body, headers=headers)
            except httpx.HTTPError:
                tally.cut_off.append((game.id, path, body, headers))
                return
            if answer.status_code >= 500:
                tally.server_errors.append(answer.text)
            elif answer.status_code == 200:
                seq = answer.json()["seq"]
                key = headers["Idempotency-Key"]
                assert tally.acknowledged.setdefault(key, seq) == seq  # a retry answers the same
            else:
                assert {"code", "message"} <= set(answer.json())
                tally.refused += 1


async def load(
    server: Server, kind: str, tally: Tally, actions: int, kill_after: float | None = None
) -> list[Game]:
    rng = random.Random(7)
    limits = httpx.Limits(max_connections=GAMES * REFEREES)
    async with httpx.AsyncClient(base_url=server.url, timeout=20, limits=limits) as client:
        games = [await setup_game(client, kind, n) for n in range(GAMES)]
        stop = asyncio.Event()
        tasks = [
            referee(client, game, token, random.Random(rng.random()), tally, actions, stop)
            for game in games
            for token in game.referees
        ]
        if kill_after is not None:

            async def killer() -> None:
                await asyncio.sleep(kill_after)
                await asyncio.to_thread(server.kill)

            tasks.append(killer())
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
    return games


def check_the_log(db_url: str, games: list[Game], tally: Tally) -> None:
    settings = Settings(database_url=db_url, secret_key=SECRET)
    db = Database.connect(settings)
    try:
        service = GameService(db, SECRET, SystemClock(), secret_roll, Broker())
        with db.read() as s:
            events = list(s.exec(select(Event).where(Event.game_id.in_([g.id for g in games]))))  # type: ignore[attr-defined]
        by_key = {e.idem_key: e for e in events if e.idem_key}
        # Keys are kept hashed with their caller (a referee): the one who sent it finds it.
        callers = {f"person:{e.actor_id}" for e in events if e.actor_id is not None}
        for key, seq in tally.acknowledged.items():
            found = [
                by_key[stored]
                for caller in callers
                if (stored := idem_key(caller, key, "", {}).stored) in by_key
            ]
            assert [e.seq for e in found] == [seq]  # acknowledged: there, exactly once
        for game in games:
            seqs = sorted(e.seq for e in events if e.game_id == game.id)
            assert seqs == list(range(1, len(seqs) + 1))  # no gap, no double
            assert service.verify(game.id)  # the log replays to the stored state
    finally:
        db.dispose()


@pytest.mark.parametrize("kind", sorted(LOADS))
def test_many_referees_at_once_lose_nothing(server: Server, db_url: str, kind: str) -> None:
    tally = Tally()
    games = run_async(load(server, kind, tally, actions=25))
    assert tally.server_errors == []
    assert len(tally.acknowledged) > GAMES * REFEREES * 5 and tally.refused > 0
    check_the_log(db_url, games, tally)
    print(
        f"\nload: {len(tally.acknowledged)} actions acknowledged, {tally.refused} refused, "
        f"{GAMES} games x {REFEREES} referees, no 500"
    )


@pytest.mark.parametrize("kind", sorted(LOADS))
def test_a_killed_server_loses_no_acknowledged_action(
    server: Server, db_url: str, kind: str
) -> None:
    tally = Tally()
    games = run_async(load(server, kind, tally, actions=400, kill_after=2.5))
    assert tally.server_errors == []
    assert tally.cut_off, "the kill happened after the load ended"
    server.start()  # the same database, a new process
    check_the_log(db_url, games, tally)

    async def retry() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
            for _game, path, body, headers in tally.cut_off:
                first = await client.post(path, json=body, headers=headers)
                again = await client.post(path, json=body, headers=headers)
                assert first.status_code < 500 and again.status_code == first.status_code
                if first.status_code == 200:
                    assert again.json()["seq"] == first.json()["seq"]  # applied once
                    tally.acknowledged[headers["Idempotency-Key"]] = first.json()["seq"]

    run_async(retry())
    check_the_log(db_url, games, tally)
    print(
        f"\nfault: killed mid-load with {len(tally.cut_off)} requests cut off; "
        f"{len(tally.acknowledged)} acknowledged actions all present after restart"
    )
