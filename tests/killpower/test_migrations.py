"""Migrations (`tests/test_migrations.py`): the rename of Killpower Ball's stored kinds."""

from __future__ import annotations

from sqlalchemy import create_engine

from server.db import normalize_url
from server.migrate import downgrade, upgrade


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
