"""Migrations go up and down on the test's database (SQLite or PostgreSQL), with no drift between
the models and the migrated schema."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect

from server.db import normalize_url
from server.migrate import alembic_config, downgrade, upgrade
from tests.conftest import ON_POSTGRES


def tables(url: str) -> set[str]:
    engine = create_engine(normalize_url(url))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade_and_no_drift(db_url: str) -> None:
    assert {"game", "person", "event"} <= tables(db_url)  # the template is migrated
    downgrade(db_url, "base")
    assert tables(db_url) <= {"alembic_version"}
    upgrade(db_url)
    assert {"game", "person", "event"} <= tables(db_url)
    command.check(alembic_config(db_url))  # raises if the models and the schema differ


@pytest.mark.skipif(not ON_POSTGRES, reason="several processes share PostgreSQL only")
def test_processes_starting_at_once_upgrade_one_at_a_time(db_url: str) -> None:
    """Several server processes on one PostgreSQL database upgrade it at start: an advisory lock
    lets one go first, and the others find the schema at head."""
    downgrade(db_url, "base")
    with ThreadPoolExecutor(3) as pool:
        for done in [pool.submit(upgrade, db_url) for _ in range(3)]:
            done.result()  # raises if two upgrades collided
    assert {"game", "person", "event"} <= tables(db_url)
    command.check(alembic_config(db_url))
