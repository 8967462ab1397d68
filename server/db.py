"""Engines and sessions.

SQLite: WAL, foreign keys, a busy timeout, and write transactions begun IMMEDIATE so that two
referees writing at once queue up instead of failing with "database is locked" (and, within the
process, queue on a lock first). Reads use a
second engine whose transactions stay DEFERRED, so a phone reading its page never waits for a
writer. PostgreSQL: one engine; writers serialize on the game row (`SELECT ... FOR UPDATE`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from threading import Lock
from typing import Any

import pydantic_core
from sqlalchemy import Connection, Engine, create_engine, event, func
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlmodel import Session, select

from server.config import Settings
from server.errors import StorageFull
from server.i18n import N_
from server.models import Event


def ensure_sqlite_folder(url: str) -> None:
    """A SQLite file's folder (./data on a fresh clone) is made on first use."""
    if not url.startswith("sqlite"):
        return
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


# JSON columns (a game's state, an event's command and result) written and read by pydantic's
# Rust encoder rather than the standard library's: a Serial Battle state of 32 players is
# written in 0.07 ms instead of 0.19, at every action.
JSON_CODEC: dict[str, Any] = {
    "json_serializer": lambda value: pydantic_core.to_json(value).decode(),
    "json_deserializer": pydantic_core.from_json,
}


def _sqlite_engine(url: str, *, immediate: bool, synchronous: str = "FULL") -> Engine:
    ensure_sqlite_folder(url)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 10},
        pool_size=20,
        **JSON_CODEC,
    )

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (see on_begin), instead of pysqlite's implicit one.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged action survives a power cut of the laptop serving a field (WAL
        # with NORMAL may lose the last transactions); its cost is measured by `make bench`.
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def disk_full(error: OperationalError) -> bool:
    """SQLite's SQLITE_FULL ("database or disk is full"), or PostgreSQL's disk_full (53100)."""
    cause = error.orig
    return (
        getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
        or getattr(cause, "sqlstate", None) == "53100"
    )


def unreachable(error: DBAPIError) -> bool:
    """The database out of reach for a moment: a connection lost or refused (PostgreSQL
    restarting, its database closed to connections), or SQLite still locked after its wait.
    An error the database itself gave about a statement (a constraint, a deadlock: a SQLSTATE)
    is not one."""
    if error.connection_invalidated:
        return True
    cause = error.orig
    if getattr(cause, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    return isinstance(error, OperationalError | InterfaceError) and (
        hasattr(cause, "sqlstate") and getattr(cause, "sqlstate", "") is None
    )


def normalize_url(url: str) -> str:
    """`postgresql://` means psycopg 3 here, the driver Arbitre installs."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


@dataclass
class Database:
    """The write and read engines of one database."""

    url: str
    writer: Engine
    reader: Engine
    # SQLite has one writer at a time: the threads of this process queue here, in Python,
    # instead of in SQLite's busy handler, which sleeps in steps of up to 100 ms.
    _write_turn: Lock = field(default_factory=Lock, repr=False)

    @classmethod
    def connect(cls, settings: Settings) -> Database:
        url = normalize_url(settings.database_url)
        if url.startswith("sqlite"):
            sync = settings.sqlite_synchronous
            return cls(
                url,
                _sqlite_engine(url, immediate=True, synchronous=sync),
                _sqlite_engine(url, immediate=False, synchronous=sync),
            )
        engine = create_engine(
            url,
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_pool_overflow,
            pool_pre_ping=True,
            **JSON_CODEC,
        )
        return cls(url, engine, engine)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session for one write transaction: commits on success, rolls back on any error."""
        if not self.is_sqlite:
            yield from self._transaction()
            return
        with self._write_turn:
            yield from self._transaction()

    def _transaction(self) -> Iterator[Session]:
        with Session(self.writer, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except OperationalError as error:
                session.rollback()
                if disk_full(error):  # nothing was written: said, not a 500 (issue 55)
                    raise StorageFull(
                        N_(
                            "The server’s disk is full: this action was not recorded. "
                            "Free some space on the server, then send it again."
                        )
                    ) from error
                raise
            except BaseException:
                session.rollback()
                raise

    @contextmanager
    def read(self) -> Iterator[Session]:
        with Session(self.reader, expire_on_commit=False) as session:
            yield session

    def latest_time(self) -> datetime | None:
        """The latest time the database holds (its newest event): the games' clock never
        starts before it (`SteadyClock`)."""
        try:
            with self.read() as session:
                latest = session.exec(select(func.max(Event.at))).one()
        except DBAPIError:  # a database not made yet (a schema being written): no floor
            return None
        return (
            latest.replace(tzinfo=UTC) if latest is not None and latest.tzinfo is None else latest
        )

    @contextmanager
    def read_rows(self) -> Iterator[Connection]:
        """A connection for a read at every change or request, in SQLAlchemy Core with a
        statement built once: a third of the ORM's time (0.12 ms instead of 0.3 here)."""
        with self.reader.connect() as connection:
            yield connection

    def dispose(self) -> None:
        self.writer.dispose()
        if self.reader is not self.writer:
            self.reader.dispose()
