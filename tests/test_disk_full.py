"""Issue 55, faults beyond SIGKILL: the disk of a field laptop fills up under SQLite. An action
then gets a clear refusal in the user's language (503, with when to try again), never a 500;
nothing of it is written, the database stays intact; once space is back, the same action sent
again (its same key) is applied, once.

The disk is filled as SQLite sees it: `PRAGMA max_page_count` caps the file at its size, and
SQLite answers SQLITE_FULL ("database or disk is full") exactly as on a full disk."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from server.db import Database
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import form_fields
from tests.phones_kit import roll_console


class Disk:
    """The database's disk, filled to the brim and emptied again, as its writer sees it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.cap: int | None = None

        @event.listens_for(db.writer, "connect")
        def cap(dbapi_connection: Any, _record: Any) -> None:
            if self.cap is not None:
                dbapi_connection.execute(f"PRAGMA max_page_count = {self.cap}")

    def fill(self) -> None:
        with self.db.reader.connect() as c:
            self.cap = int(c.exec_driver_sql("PRAGMA page_count").scalar_one())
        self.db.writer.dispose()  # every writer's connection opened anew, capped

    def free(self) -> None:
        self.cap = None
        self.db.writer.dispose()

    def intact(self) -> bool:
        with self.db.reader.connect() as c:
            return c.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"


@pytest.fixture
def disk(client: TestClient) -> Iterator[Disk]:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    if not service.store.db.is_sqlite:
        pytest.skip("SQLite's own disk: PostgreSQL's runs on its server")
    yield Disk(service.store.db)


def test_a_full_disk_refuses_an_action_clearly_and_keeps_the_game(
    client: TestClient, rolls: ScriptedRolls, disk: Disk
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game_id, phone, fields = roll_console(client, service)
    before = service.seq_of(game_id)

    # Enough actions that the journal needs a new page of the file: the disk is full before.
    disk.fill()
    refused = None
    for _ in range(60):
        rolls.push(4)
        answer = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
        if answer.status_code != 200:
            refused = answer
            break
        fields = form_fields(answer.text, f"/g/{game_id}/act") | {"player": fields["player"]}
    assert refused is not None, "the capped file never filled"
    assert refused.status_code == 503, refused.text[:300]
    assert "Le disque du serveur est plein" in refused.text
    assert refused.headers["Retry-After"] == "30"
    applied = service.seq_of(game_id)
    assert disk.intact()
    assert service.verify(game_id)  # the log rebuilds the stored state

    # Space is back: the same action (its same key) is applied, once; the game goes on.
    disk.free()
    rolls.push(4)
    again = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert again.status_code == 200, again.text[:300]
    assert service.seq_of(game_id) == applied + 1 > before
    replayed = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert replayed.status_code == 200 and service.seq_of(game_id) == applied + 1
    assert disk.intact()
