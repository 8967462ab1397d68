"""Backups a referee can make (issue 23): a consistent copy of the live database, and its restore.

SQLite: SQLite's own online backup API copies the database page by page while the server keeps
writing (WAL mode: a reader sees one committed state), so every action acknowledged before the
copy began is in it. PostgreSQL: `pg_dump` (and `psql` to restore), which must be installed.
While `make run` serves a SQLite file, `every` minutes a snapshot goes to `data/backups/`, the
newest `keep` kept.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from server.config import DATA_DIR

log = logging.getLogger("arbitre.backup")
BACKUPS = DATA_DIR / "backups"


class BackupError(Exception):
    """A backup or a restore that could not be made: the message says why, plainly."""


def sqlite_path(url: str) -> Path:
    """The file of a `sqlite:///...` URL."""
    path = url.split("///", 1)[1] if "///" in url else ""
    if not path or path == ":memory:":
        raise BackupError("This SQLite database lives in memory: there is no file to copy.")
    return Path(path)


def backups_folder(url: str) -> Path:
    """`backups/` beside a SQLite file (`data/backups/` for `make run`); `data/backups/` else."""
    return sqlite_path(url).parent / "backups" if url.startswith("sqlite") else BACKUPS


def default_path(url: str, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return backups_folder(url) / f"arbitre-{stamp}.{'db' if url.startswith('sqlite') else 'sql'}"


def backup(url: str, target: Path | None = None) -> Path:
    """A consistent copy of the database at `url` in `target` (a new file); its path."""
    target = target or default_path(url)
    if target.exists():
        raise BackupError(f"{target} exists already: choose a new file.")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BackupError(f"Cannot write in {target.parent}: {error.strerror}.") from None
    if url.startswith("sqlite"):
        source = sqlite_path(url)
        if not source.exists():
            raise BackupError(f"No database at {source}.")
        partial = target.with_name(target.name + ".part")
        try:
            with (
                sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src,
                sqlite3.connect(partial) as dst,
            ):
                src.backup(dst)  # page by page, one committed state
            partial.replace(target)  # the backup appears whole, or not at all
        except (sqlite3.Error, OSError) as error:
            partial.unlink(missing_ok=True)
            raise BackupError(f"The copy to {target} failed: {error}.") from None
        return target
    return pg_tool(["pg_dump", "--no-owner", "--file", str(target), pg_url(url)], target)


def restore(url: str, source: Path) -> None:
    """The database at `url` made again from a backup (the server stopped: a running one keeps
    its games in memory)."""
    if not source.exists():
        raise BackupError(f"No backup at {source}.")
    if url.startswith("sqlite"):
        target = sqlite_path(url)
        try:
            with sqlite3.connect(source) as check:
                if check.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    raise BackupError(f"{source} is damaged: it is not restored.")
            target.parent.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
                src.backup(dst)
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{source} is not an Arbitre backup: {error}.") from None
        return
    pg_tool(
        ["psql", "--quiet", "--set", "ON_ERROR_STOP=1", "--file", str(source), pg_url(url)], source
    )


def pg_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def pg_tool(command: list[str], path: Path) -> Path:
    if shutil.which(command[0]) is None:
        raise BackupError(f"{command[0]} is not installed: PostgreSQL's client tools are needed.")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[:300]}")
    return path


def rotate(folder: Path, keep: int) -> None:
    """The newest `keep` snapshots kept, the older ones deleted."""
    snapshots = sorted(folder.glob("arbitre-*.db"))
    for old in snapshots[: max(0, len(snapshots) - keep)]:
        old.unlink(missing_ok=True)


async def snapshots(url: str, every_minutes: float, keep: int) -> None:
    """While the server runs on SQLite: a snapshot every `every_minutes`, the newest `keep` kept.
    A snapshot that cannot be written is said in the log, and the server goes on."""
    while True:
        await asyncio.sleep(every_minutes * 60)
        try:
            made = await asyncio.to_thread(backup, url)
            await asyncio.to_thread(rotate, made.parent, keep)
            log.info("snapshot %s", made)
        except BackupError as error:
            log.warning("no snapshot: %s", error)
