"""Tables. A game's state is a JSON document rebuilt from its events; the event log is the truth."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Index, TypeDecorator, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlmodel import Field, SQLModel


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every database (SQLite keeps no time zone)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None else None


def _utc_column(nullable: bool = False, index: bool = False) -> Any:
    return Field(default=None, sa_column=Column(UTCDateTime(), nullable=nullable, index=index))


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=24)
    kind: str = Field(max_length=40)
    name: str = Field(max_length=120)
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seq: int = 0
    status: str = Field(default="setup", max_length=20)
    created_at: datetime = _utc_column()
    # The idempotency key of the request that created the game, hashed with its caller (a retry
    # gets the same game), and the fingerprint of that request.
    creation_key: str | None = Field(default=None, unique=True, max_length=64)
    creation_fingerprint: str | None = Field(default=None, max_length=64)
    # The nearest timer deadline of the game, for the scheduler to find games that fell due.
    next_deadline: datetime | None = _utc_column(nullable=True, index=True)
    # The dice of undone actions, rolled again by the next action that asks for the same purpose
    # and faces (`server.platform.dice.CommandDice`): undo never re-rolls a shuffle or a draw.
    held_dice: list[dict[str, Any]] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )
    # Commands one side sent on another side's pieces, waiting for that side's consent
    # (`server.platform.consent`).
    proposals: list[dict[str, Any]] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )


class Person(SQLModel, table=True):
    """Someone with a link to a game: organizer, referee, player, team, coach..."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=24)
    role: str = Field(max_length=20)
    name: str = Field(max_length=80)
    # SHA-256 of the secret link token and of the short join code; null once revoked.
    token_hash: str | None = Field(default=None, unique=True, max_length=64)
    code_hash: str | None = Field(default=None, unique=True, max_length=64)
    # Raised at every re-issue: a session cookie made with an older version no longer opens.
    # Random; with the server secret it derives the person's link and join code.
    nonce: str = Field(max_length=32)
    version: int = 1
    revoked: bool = False
    created_at: datetime = _utc_column()
    # A seat is its person's (issue 51): the first phone that opens its link (the ticket) takes
    # it, the seat gets a key of its own (a new version) that only that phone holds, and the
    # ticket then opens nothing (it says the seat is taken: `ticket_hash`). The organizer's own
    # link is no seat: it opens the game on each of the organizer's devices.
    claimed_at: datetime | None = _utc_column(nullable=True)
    ticket_hash: str | None = Field(default=None, index=True, max_length=64)


class Event(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),
        UniqueConstraint("game_id", "idem_key", name="uq_event_game_idem"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=24)
    seq: int
    # "person" (someone registered), "command" (a game action), "undo", "access" (a link
    # re-issued or revoked: logged, but no change to the game's state)
    type: str = Field(max_length=12)
    at: datetime = _utc_column()
    actor_id: int | None = Field(default=None, foreign_key="person.id")
    actor_role: str = Field(max_length=20)
    actor_name: str = Field(default="", max_length=80)
    command: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # Every die: {"purpose", "sides", "value", "manual"}
    rolls: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    result: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The sentence to read aloud, as a message id and its parameters (translated when shown).
    summary: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # A short name of the action, for the undo button ("assault of Léa on Hugo").
    label: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The people this event touched (for stale-screen checks); null means the whole game.
    subjects: list[int] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # The caller's idempotency key, hashed with the caller (`server.platform.idempotency`), and
    # the fingerprint of the operation and body it was sent with.
    idem_key: str | None = Field(default=None, max_length=64)
    idem_fingerprint: str | None = Field(default=None, max_length=64)
    undoes: int | None = None
    undone_by: int | None = None
    # Every SNAPSHOT_EVERY events, the game's state after this one: an undo replays the log from
    # the last snapshot before its target instead of from the game's creation. Cleared when an
    # undo reaches back before it.
    snapshot: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )


class Attempt(SQLModel, table=True):
    """One try at something a budget limits (a join code, a game created or imported), by the
    address it came from: counted here so that every server process counts the same tries."""

    __table_args__ = (Index("ix_attempt_bucket_address_at", "bucket", "address", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    bucket: str = Field(max_length=20)
    address: str = Field(max_length=64)
    at: datetime = _utc_column()


class Ticket(SQLModel, table=True):
    """An import ticket: a key pair of this server's for one game to come in (a sealed box from
    another server: X25519, `server.platform.sealing`). The private key is kept sealed with a key
    derived from `SECRET_KEY`, so the database alone opens nothing; a ticket opens one file."""

    id: str = Field(primary_key=True, max_length=32)
    public_key: str = Field(max_length=64)
    private_key: str = Field(max_length=200)
    created_at: datetime = _utc_column()
    used_at: datetime | None = _utc_column(nullable=True)
