"""A live stream once it has started: written outside the middleware stack, given back when the
phone leaves, ended when the server stops (issue 38: what thousands of open streams hold)."""

from __future__ import annotations

import asyncio
import gc
import signal
import time
import types
import zlib
from collections import Counter
from collections.abc import AsyncGenerator, Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from starlette.types import Message

import server.app as serving
from server.__main__ import STOP_GRACE_SECONDS, run_server
from server.config import Settings, get_settings
from server.db import Database
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.live import Broker
from server.platform.service import GameService
from server.web import stream as stream_route
from server.web.fanout import Watcher
from server.web.streaming import LiveStream, ended_on_stop
from tests.conftest import serve, tally_game
from tests.server_process import SECRET, Server

# The layers a request goes through on its way in: none of them stays for a stream's life.
STACK = {
    "AnswerFirst.__call__",
    "GZipMiddleware.__call__",
    "SecurityHeaders.__call__",
    "SessionMiddleware.__call__",
    "RequestLocale.__call__",
    "AllowedHosts.__call__",
    "BodyLimits.__call__",
    "ExceptionMiddleware.__call__",
    "Router.__call__",
    "APIRoute.handle",
}


def until(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Waits for a state of the server (on its own thread), never for a fixed time."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.01)


def live_coroutines() -> Counter[str]:
    """The coroutines alive in this process (the server's thread included), garbage left out."""
    gc.collect()
    objects = gc.get_objects()
    return Counter(o.cr_code.co_qualname for o in objects if isinstance(o, types.CoroutineType))


def hello(lines: Iterator[str]) -> None:
    for line in lines:
        if line == "event: hello":
            return
    raise AssertionError("the stream ended before its hello")


def test_an_open_stream_holds_none_of_the_stack(client: TestClient) -> None:
    """Once its first event is out, a stream is written by the outermost layer: the coroutines
    of the middlewares and the route have returned (a full collection walked them all, for
    every open stream). The app's own life (its lifespan) goes through the same layers: what
    counts is what the stream adds."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, *_ = tally_game(service)
    with serve(client.app) as base:
        before = live_coroutines()
        url = f"{base}/g/{game.id}/events"
        with httpx.stream("GET", url, params={"part": "board"}, timeout=10) as sse:
            lines = sse.iter_lines()  # kept: a line reader let go closes the stream
            hello(lines)
            until(lambda: live_coroutines()["LiveStream.pour"] == 1)
            added = live_coroutines() - before
        assert set(added) & STACK == set(), added
        assert added["HandOff.__call__"] == 1  # the stream is written from the outermost layer


def test_a_phone_that_leaves_gives_its_stream_back(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    broker: Broker = client.app.state.broker  # type: ignore[attr-defined]
    streams = client.app.state.streams  # type: ignore[attr-defined]
    game, *_ = tally_game(service)
    with serve(client.app) as base:
        url = f"{base}/g/{game.id}/events"
        with httpx.stream("GET", url, params={"part": "board"}, timeout=10) as sse:
            lines = sse.iter_lines()  # kept: a line reader let go closes the stream
            hello(lines)
            until(lambda: broker.watchers(game.id) == 1 and streams.held("127.0.0.1") == 1)
            assert httpx.get(f"{base}/healthz").json()["streams"] == 1  # a count for a proxy
        # Nothing is written to it meanwhile (no change, no ping): it is heard leaving.
        until(lambda: broker.watchers(game.id) == 0 and streams.held("127.0.0.1") == 0)
        assert httpx.get(f"{base}/healthz").json()["streams"] == 0
        assert "LiveStream.pour" not in live_coroutines()


def test_a_stream_whose_head_cannot_be_written_gives_back_what_it_holds() -> None:
    given_back: list[bool] = []

    async def events() -> AsyncGenerator[bytes, None]:
        try:
            yield b"event: hello\n\n"
        finally:
            given_back.append(True)  # the route's: subscription, budget, watcher

    async def refused(message: Message) -> None:
        raise OSError("the connection is gone")

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    stream = LiveStream(events(), left=lambda: None, headers={})
    with pytest.raises(OSError):
        asyncio.run(stream({"type": "http"}, nothing, refused))
    assert given_back == [True]


def test_a_stream_that_fails_before_its_events_start_gives_back_what_it_holds(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events never started never run their `finally`: whatever fails between the budget taken
    and the stream's answer gives back the subscription, the budget and the part's watcher."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    broker: Broker = client.app.state.broker  # type: ignore[attr-defined]
    streams = client.app.state.streams  # type: ignore[attr-defined]
    fanout = client.app.state.fanout  # type: ignore[attr-defined]
    game, *_ = tally_game(service)
    forgotten: list[str] = []
    forget = fanout.forget

    def forgetting(watcher: Watcher) -> None:
        forgotten.append(watcher.game_id)
        forget(watcher)

    def broken(accept_encoding: str) -> bool:
        raise RuntimeError("after the budget was taken")

    monkeypatch.setattr(fanout, "forget", forgetting)
    monkeypatch.setattr(stream_route, "takes_gzip", broken)
    with pytest.raises(RuntimeError, match="after the budget"):
        client.get(f"/g/{game.id}/events", params={"part": "board"})
    assert broker.watchers(game.id) == 0
    assert streams.held("testclient") == 0
    assert forgotten == [game.id]


def test_a_stopping_server_ends_its_streams_whole_and_opens_none(client: TestClient) -> None:
    """The stream ends as a gzip member ends (its trailer written), and a page that asks again
    meanwhile is told why, in its language."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    broker: Broker = client.app.state.broker  # type: ignore[attr-defined]
    game, *_ = tally_game(service)
    with serve(client.app) as base:
        url = f"{base}/g/{game.id}/events"
        sent = {"Accept-Encoding": "gzip"}
        with httpx.stream("GET", url, params={"part": "board"}, headers=sent, timeout=10) as sse:
            raw, text = b"", b""
            unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
            chunks = sse.iter_raw()
            while b"event: hello" not in text:
                chunk = next(chunks)
                raw, text = raw + chunk, text + unpack.decompress(chunk)
            broker.stop()
            raw += b"".join(chunks)  # the server ends it
        assert zlib.decompress(raw, 16 + zlib.MAX_WBITS).startswith(b"id: ")  # whole, trailer too
        refused = httpx.get(url, headers={"Accept-Language": "fr", "Accept": "application/json"})
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
        assert "Le serveur s’arrête" in refused.json()["message"]


def test_a_stop_signal_ends_the_streams_then_runs_the_handler_that_was_there() -> None:
    heard: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda number, frame: heard.append(number))
    try:
        broker = Broker()
        with ended_on_stop(broker):
            signal.raise_signal(signal.SIGTERM)
            assert broker.stopping and heard == [signal.SIGTERM]
        signal.raise_signal(signal.SIGTERM)  # the handler before is back
        assert heard == [signal.SIGTERM] * 2
    finally:
        signal.signal(signal.SIGTERM, before)


def test_an_ignored_stop_signal_stays_ignored() -> None:
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        broker = Broker()
        with ended_on_stop(broker):
            signal.raise_signal(signal.SIGTERM)
        assert not broker.stopping  # the streams go on, as the process does
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_stopping_server_cuts_what_did_not_end(
    monkeypatch: pytest.MonkeyPatch, db_url: str
) -> None:
    """A stream blocked writing to a phone that stopped reading cannot see the stop: uvicorn's
    graceful timeout cuts it, rather than waiting until TCP gives up."""
    told: dict[str, Any] = {}

    def run(app: Any, **options: Any) -> None:
        told.update(options)
        app.state.db.dispose()

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(serving, "for_serving", lambda app: app)
    monkeypatch.setenv("DATABASE_URL", db_url)
    get_settings.cache_clear()
    try:
        assert run_server("127.0.0.1", 8000, 1) == 0
    finally:
        get_settings.cache_clear()
    assert told["timeout_graceful_shutdown"] == STOP_GRACE_SECONDS


def test_a_server_told_to_stop_with_streams_open_stops(db_url: str) -> None:
    """uvicorn stops once every connection has closed, and a stream never closes by itself:
    SIGTERM ends the open streams, and the process is gone in moments, not never."""
    database = Database.connect(Settings(database_url=db_url, secret_key=SECRET))
    try:
        service = GameService(database, SECRET, SystemClock(), secret_roll, Broker())
        game, *_ = tally_game(service)
    finally:
        database.dispose()
    server = Server(db_url)
    server.start()
    try:
        url = f"{server.url}/g/{game.id}/events"
        with httpx.stream("GET", url, params={"part": "board"}, timeout=10) as sse:
            lines = sse.iter_lines()
            hello(lines)
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            list(lines)  # the server ends the stream (a read that waited 10 s would fail)
        server.process.wait(timeout=10)
    finally:
        server.stop()
