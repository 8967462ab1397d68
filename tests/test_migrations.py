"""Migrations go up and down on the test's database (SQLite or PostgreSQL), with no drift between
the models and the migrated schema."""

from __future__ import annotations

from alembic import command
from sqlalchemy import create_engine, inspect

from server.db import normalize_url
from server.migrate import alembic_config, downgrade, upgrade


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
