"""Schema upgrades with Alembic, from the server and from the command line."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from server.config import ROOT
from server.db import ensure_sqlite_folder, normalize_url


def alembic_config(database_url: str) -> Config:
    config = Config(toml_file=str(ROOT / "pyproject.toml"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalize_url(database_url).replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    ensure_sqlite_folder(database_url)
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)
