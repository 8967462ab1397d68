"""Live events between server processes: PostgreSQL's LISTEN/NOTIFY carries each nudge from the
process that committed a change to the phones connected to another process. The broker's own rules
(repeated numbers wake nobody, a caught-up number makes streams check their links) run everywhere;
the processes themselves need PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import psycopg
import pytest

from server.__main__ import main
from server.config import get_settings
from server.games.demo import DEMOS
from server.platform.kinds import KINDS
from server.platform.live import Broker
from server.platform.relay import PostgresRelay, libpq_url
from server.platform.service import GameService
from tests.conftest import ON_POSTGRES, key, run_async, tally_game
from tests.server_process import Server

needs_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="LISTEN/NOTIFY is PostgreSQL's")


# ---------------------------------------------------------------- the broker and the notes


def test_a_number_a_phone_already_has_wakes_nobody() -> None:
    async def scenario() -> None:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        behind, ahead = broker.subscribe("g", 3), broker.subscribe("g", 7)
        assert broker.deliver("g", 5) == 1
        assert behind.latest == 5 and behind.wake.is_set() and not ahead.wake.is_set()
        assert broker.deliver("g", 5) == 0  # the same note again (a resync, a second relay)
        assert broker.deliver("g", 5, access_changed=True) == 2  # links changed: all check
        assert ahead.access_changed and ahead.latest == 7
        assert broker.watched() == ["g"]

    run_async(scenario())


def test_a_caught_up_number_makes_the_streams_behind_it_check_their_links() -> None:
    async def scenario() -> None:
        broker = Broker()
        behind, current = broker.subscribe("g", 3), broker.subscribe("g", 9)
        assert broker.catch_up("g", 9) == 1
        assert behind.latest == 9 and behind.access_changed  # the lost note may have revoked it
        assert not current.access_changed and not current.wake.is_set()

    run_async(scenario())


def test_a_relay_skips_its_own_notes_and_unreadable_ones() -> None:
    async def scenario() -> None:
        broker = Broker()
        relay = PostgresRelay("postgresql://nowhere/none", broker)
        sub = broker.subscribe("abc-_9", 1)
        relay.receive(f"{relay.origin} abc-_9 4 0")  # this process nudged its phones itself
        assert sub.latest == 1 and relay.received == 0
        relay.receive("garbage")
        relay.receive("other abc-_9 four 0")
        assert sub.latest == 1
        relay.receive("other abc-_9 4 1")
        assert sub.latest == 4 and sub.access_changed and relay.received == 1

    run_async(scenario())


def test_several_workers_need_postgresql(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'one.db'}")
    get_settings.cache_clear()
    try:
        assert main(["serve", "--workers", "2"]) == 2
    finally:
        get_settings.cache_clear()
    assert "PostgreSQL" in capsys.readouterr().err


# ---------------------------------------------------------------- two processes, one database


@pytest.fixture
def two_servers(db_url: str) -> Iterator[tuple[Server, Server]]:
    if not ON_POSTGRES:
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    # No resync within a test's time: what reaches the other process came by NOTIFY.
    quiet = {"LIVE_RESYNC_SECONDS": "600"}
    first, second = Server(db_url, extra_env=quiet), Server(db_url, extra_env=quiet)
    first.start()
    second.start()
    yield first, second
    first.stop()
    second.stop()


# A kind of the registry and the first role it seats: the relay carries any game's news.
KIND = sorted(DEMOS)[0]
ROLE = KINDS[KIND].roles[0]


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}


async def a_game(client: httpx.AsyncClient) -> tuple[str, str, dict[str, Any]]:
    created = await client.post(
        "/api/v1/games",
        headers={"Idempotency-Key": uuid.uuid4().hex},
        json={"kind": KIND, "name": "Deux serveurs", "organizer": "Org"},
    )
    created.raise_for_status()
    game_id, admin = created.json()["game"]["id"], created.json()["organizer"]["token"]
    player = await client.post(
        f"/api/v1/games/{game_id}/people",
        headers=headers(admin),
        json={"role": ROLE, "name": "Léa"},
    )
    player.raise_for_status()
    # Léa's phone takes her seat: her ticket becomes her seat's own key.
    claimed = await client.post("/api/v1/claim", json={"token": player.json()["token"]})
    claimed.raise_for_status()
    return game_id, admin, {**player.json(), "token": claimed.json()["token"]}


async def stream_events(
    client: httpx.AsyncClient, game_id: str, token: str
) -> AsyncIterator[tuple[str, str]]:
    async with client.stream(
        "GET", f"/g/{game_id}/events", headers={"Authorization": f"Bearer {token}"}
    ) as stream:
        event = ""
        async for line in stream.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                yield event, line[5:].strip()


@needs_postgres
def test_a_change_made_on_one_process_reaches_a_phone_on_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    first, second = two_servers

    async def scenario() -> None:
        async with (
            httpx.AsyncClient(base_url=first.url, timeout=10) as on_first,
            httpx.AsyncClient(base_url=second.url, timeout=10) as on_second,
        ):
            game_id, admin, lea = await a_game(on_first)
            events = stream_events(on_second, game_id, lea["token"])
            kind, data = await anext(events)
            assert kind == "hello"
            seen = json.loads(data)["seq"]

            # A person registered on the first process: the phone on the second hears of it.
            added = await on_first.post(
                f"/api/v1/games/{game_id}/people",
                headers=headers(admin),
                json={"role": ROLE, "name": "Tom"},
            )
            added.raise_for_status()
            kind, data = await asyncio.wait_for(anext(events), 10)
            assert kind == "changed" and json.loads(data)["seq"] > seen

            # Léa's link revoked on the first process: her stream on the second ends at once.
            revoked = await on_first.delete(
                f"/api/v1/games/{game_id}/people/{lea['person_id']}/link", headers=headers(admin)
            )
            revoked.raise_for_status()
            kinds = []
            while "revoked" not in kinds:
                kind, _ = await asyncio.wait_for(anext(events), 10)
                kinds.append(kind)
            assert kinds[-1] == "revoked"
            await events.aclose()

    run_async(scenario())


@needs_postgres
def test_a_lost_note_is_caught_up_and_a_dropped_listener_listens_again(
    service: GameService, db_url: str
) -> None:
    game, _org, referee, (lea, _hugo) = tally_game(service)

    async def scenario() -> None:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        relay = PostgresRelay(db_url, broker, resync_seconds=0.2)
        watcher = broker.subscribe(game.id, service.seq_of(game.id))
        listening = asyncio.create_task(relay.run())
        try:
            await asyncio.wait_for(relay.listening.wait(), 10)
            # The test's service has a broker with no relay: its change sends no note at all.
            command = {"type": "score", "player": lea.person_id, "points": 2}
            await asyncio.to_thread(service.perform, game.id, referee, command, idem_key=key())
            await asyncio.wait_for(watcher.wait(10), 10)
            assert watcher.latest == service.seq_of(game.id) and watcher.access_changed
            assert relay.received == 0

            # PostgreSQL drops the listener's connection; the relay listens again, and a note sent
            # by another process after that reaches this one.
            with psycopg.connect(libpq_url(db_url), autocommit=True) as admin:
                killed = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'arbitre-listener' AND datname = current_database()"
                ).fetchall()
            assert killed == [(True,)]
            other = PostgresRelay(db_url, Broker())
            for _ in range(100):
                other.send(game.id, watcher.latest + 1, False)
                if relay.received:
                    break
                await asyncio.sleep(0.1)
            other.close()
            assert relay.received >= 1 and watcher.latest >= service.seq_of(game.id)
        finally:
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
            relay.close()

    run_async(scenario())
