"""Issue 55, faults beyond SIGKILL: PostgreSQL restarted under play. While its database is out
of reach, an action and a page answer a clear 503 in the user's language with when to try
again (never a 500), and nothing half-written; once it is back, the process reconnects by
itself and the same action sent again (its same key) is applied, once.

The restart is made as the server sees one: every connection of the app's database cut
(`pg_terminate_backend`) and new ones refused (`ALLOW_CONNECTIONS false`), then allowed again.
On SQLite there is no server to restart: PostgreSQL's run of `make test` (CI) holds it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from server.config import Settings
from server.db import normalize_url
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import ON_POSTGRES, PG_URL
from tests.phones_kit import roll_console

pytestmark = pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL's own restart")


class Postgres:
    """The app's database on its PostgreSQL server, taken out of reach and given back."""

    def __init__(self, settings: Settings) -> None:
        self.name = settings.database_url.rpartition("/")[2]
        self.admin = normalize_url(PG_URL).replace("postgresql+psycopg://", "postgresql://")

    def _run(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(sql)

    def down(self) -> None:
        self._run(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false')
        self._run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()"
        )

    def up(self) -> None:
        self._run(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')


@pytest.fixture
def postgres(settings: Settings) -> Iterator[Postgres]:
    server = Postgres(settings)
    yield server
    server.up()


def test_an_action_during_a_restart_is_refused_clearly_then_applied_once(
    client: TestClient, rolls: ScriptedRolls, postgres: Postgres
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game_id, phone, fields = roll_console(client, service)
    before = service.seq_of(game_id)

    postgres.down()
    rolls.push(4)
    refused = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert refused.status_code == 503, refused.text[:300]
    assert "La base de données est injoignable" in refused.text
    assert refused.headers["Retry-After"] == "5"
    page = phone.get(f"/g/{game_id}")
    assert page.status_code == 503 and "injoignable" in page.text
    api = client.get(f"/api/v1/games/{game_id}")
    assert api.status_code == 503 and api.json()["code"] == "database_unreachable"

    postgres.up()  # back: the process reconnects by itself
    rolls.push(4)
    again = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert again.status_code == 200, again.text[:300]
    assert service.seq_of(game_id) == before + 1
    replayed = phone.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert replayed.status_code == 200 and service.seq_of(game_id) == before + 1
    assert service.verify(game_id)
