"""Schema upgrades with Alembic, from the server and from the command line."""

from __future__ import annotations

from functools import cache

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, pool, text

from server.config import ROOT
from server.db import ensure_sqlite_folder, normalize_url


def alembic_config(database_url: str) -> Config:
    config = Config(toml_file=str(ROOT / "pyproject.toml"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalize_url(database_url).replace("%", "%%"))
    return config


# PostgreSQL: the key of the advisory lock that lets one process at a time upgrade the schema, when
# several server processes start at once on the same database.
UPGRADE_LOCK = 0x41524249  # "ARBI"


def upgrade(database_url: str, revision: str = "head") -> None:
    ensure_sqlite_folder(database_url)
    if database_url.startswith("sqlite"):
        command.upgrade(alembic_config(database_url), revision)
        return
    engine = create_engine(normalize_url(database_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": UPGRADE_LOCK})
            try:
                command.upgrade(alembic_config(database_url), revision)
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": UPGRADE_LOCK})
                connection.commit()
    finally:
        engine.dispose()


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)


@cache
def revisions() -> tuple[str, ...]:
    """This code's schema revisions, oldest first: the last is the head."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return tuple(reversed([r.revision for r in script.walk_revisions()]))
