"""Live nudges between server processes, through PostgreSQL's LISTEN/NOTIFY (no other service).

Each process has its own broker for the phones connected to it. A process that commits a change
nudges its own phones, then sends a NOTIFY on one channel; every process LISTENs on that channel
and nudges its phones in turn, skipping its own notes. A note carries what a nudge carries and
nothing more: the process it came from, the game, the sequence number and whether links changed.

NOTIFY goes out after the commit, on a connection of its own. A nudge lost on the way (the
listener reconnecting after PostgreSQL restarted, a process killed between its commit and its
NOTIFY) is caught up by a resync: at each (re)connection and then every few seconds, the listener
reads in one query the sequence number of every game its phones watch, and nudges those that moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid

import psycopg

from server.db import normalize_url
from server.platform.live import Broker

CHANNEL = "arbitre_live"
LISTENER = "arbitre-listener"  # the listening connection's name in pg_stat_activity
log = logging.getLogger("arbitre.relay")


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL of the database, as psycopg itself takes it."""
    return normalize_url(url).replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresRelay:
    def __init__(self, database_url: str, broker: Broker, *, resync_seconds: float = 5.0) -> None:
        self.url = libpq_url(database_url)
        self.broker = broker
        self.resync_seconds = resync_seconds
        self.origin = uuid.uuid4().hex[:12]
        self.listening = asyncio.Event()  # set while LISTEN is in force (tests wait on it)
        self.received = 0  # notes from other processes
        self._sender: psycopg.Connection | None = None
        self._send_lock = threading.Lock()

    # ------------------------------------------------------------------ sending (any thread)

    def send(self, game_id: str, seq: int, access_changed: bool) -> None:
        note = f"{self.origin} {game_id} {seq} {int(access_changed)}"
        with self._send_lock:
            for attempt in (1, 2):  # a connection PostgreSQL closed gets one fresh try
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, note))
                    return
                except psycopg.Error as error:
                    self._close_sender()
                    if attempt == 2:
                        # The change is committed; the other processes catch up at their resync.
                        log.warning("live relay: NOTIFY failed (%s)", error)

    def _close_sender(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(psycopg.Error):
                self._sender.close()
            self._sender = None

    def close(self) -> None:
        with self._send_lock:
            self._close_sender()

    # ------------------------------------------------------------------ listening (event loop)

    async def run(self) -> None:
        """Listens until cancelled, reconnecting with a growing delay when PostgreSQL goes away."""
        delay = 0.25
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=5, application_name=LISTENER
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.25
                    while True:
                        await self.resync(conn)
                        async for note in conn.notifies(timeout=self.resync_seconds):
                            self.receive(note.payload)
            except (psycopg.Error, OSError) as error:
                self.listening.clear()
                log.warning("live relay: %s; listening again in %.2f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 8.0)
            finally:
                self.listening.clear()

    def receive(self, payload: str) -> None:
        try:
            origin, game_id, seq, access = payload.split(" ")
            number = int(seq)
        except ValueError:
            log.warning("live relay: unreadable note %r", payload)
            return
        if origin == self.origin:
            return  # this process nudged its phones itself, before sending
        self.received += 1
        self.broker.deliver(game_id, number, access_changed=access == "1")

    async def resync(self, conn: psycopg.AsyncConnection) -> int:
        """Nudges the watched games whose number moved without a note; returns how many phones."""
        watched = self.broker.watched()
        if not watched:
            return 0
        cursor = await conn.execute("SELECT id, seq FROM game WHERE id = ANY(%s)", (watched,))
        woken = 0
        for game_id, seq in await cursor.fetchall():
            woken += self.broker.catch_up(game_id, seq)
        return woken
