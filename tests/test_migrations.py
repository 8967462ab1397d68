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


def test_killpower_games_keep_their_kind_across_the_rename(db_url: str) -> None:
    """0004: a league and a match stored as `kpb_*` are `killpower_*` after the upgrade, and back
    after a downgrade."""
    from sqlalchemy import text

    downgrade(db_url, "0003")
    engine = create_engine(normalize_url(db_url))
    try:
        with engine.begin() as db:
            for game_id, kind in (
                ("L1", "kpb_league"),
                ("M1", "kpb_match"),
                ("S1", "serial_battle"),
            ):
                db.execute(
                    text(
                        "INSERT INTO game (id, kind, name, settings, state, seq, status, created_at)"
                        " VALUES (:id, :kind, 'x', '{}', '{}', 0, 'running', CURRENT_TIMESTAMP)"
                    ),
                    {"id": game_id, "kind": kind},
                )
        upgrade(db_url)
        with engine.connect() as db:
            kinds = dict(db.execute(text("SELECT id, kind FROM game ORDER BY id")).all())
        assert kinds == {"L1": "killpower_league", "M1": "killpower_match", "S1": "serial_battle"}
        downgrade(db_url, "0003")
        with engine.connect() as db:
            kinds = dict(db.execute(text("SELECT id, kind FROM game ORDER BY id")).all())
        assert kinds == {"L1": "kpb_league", "M1": "kpb_match", "S1": "serial_battle"}
    finally:
        engine.dispose()
