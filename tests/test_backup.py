"""Backups a referee can make (issue 23): a copy of a live SQLite database taken while actions
are being written holds every action acknowledged before it began, and restores to a database
that serves them; a path that cannot be written, a missing backup: a clear message, exit code 2."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from server.__main__ import main
from server.backup import BackupError, backup, restore, rotate
from server.config import Settings
from server.db import Database
from server.migrate import upgrade
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.live import Broker
from server.platform.service import GameService
from tests.conftest import key, tally_game

SECRET = "s" * 48


def service_on(url: str) -> GameService:
    upgrade(url)
    db = Database.connect(Settings(database_url=url, secret_key=SECRET))
    return GameService(db, SECRET, FakeClock(), ScriptedRolls.cycle(), Broker())


def test_a_backup_under_writes_holds_every_acknowledged_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    service = service_on(url)
    game, _org, referee, (lea, _hugo) = tally_game(service)
    for _ in range(20):
        service.perform(game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key=key())
    acknowledged = service.seq_of(game.id)
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:  # a referee goes on tapping while the copy is made
        while not stop.is_set():
            service.perform(
                game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key=key()
            )
            written.append(service.seq_of(game.id))

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        while len(written) < 5:
            pass
        copy = backup(url, tmp_path / "copy.db")
    finally:
        stop.set()
        thread.join(10)
    assert written, "the writer never wrote"
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # Restored into a fresh file, the game loads with every action acknowledged before the copy.
    restored_url = f"sqlite:///{tmp_path / 'restored.db'}"
    restore(restored_url, copy)
    again = service_on(restored_url)
    seq = again.seq_of(game.id)
    assert seq >= acknowledged + 5
    assert again.load(game.id).game.seq == seq
    assert len(again.log(game.id, referee)) >= 20


def test_bad_paths_are_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    service_on(url)
    blocked = tmp_path / "a-file"  # a folder that cannot be made: a file is in the way
    blocked.write_text("")
    with pytest.raises(BackupError, match="Cannot write"):
        backup(url, blocked / "copy.db")
    made = backup(url, tmp_path / "one.db")
    with pytest.raises(BackupError, match="exists already"):
        backup(url, made)
    with pytest.raises(BackupError, match="No backup"):
        restore(url, tmp_path / "nothing.db")
    (tmp_path / "junk.db").write_text("not a database")
    with pytest.raises(BackupError, match=r"not an Arbitre backup|damaged"):
        restore(f"sqlite:///{tmp_path / 'other.db'}", tmp_path / "junk.db")
    # The command line: a clear line on stderr and exit code 2, never a traceback.
    monkeypatch.setenv("DATABASE_URL", url)
    from server.config import get_settings

    get_settings.cache_clear()
    try:
        assert main(["db", "restore", str(tmp_path / "nothing.db")]) == 2
        assert "No backup" in capsys.readouterr().err
        assert main(["db", "backup", str(tmp_path / "two.db")]) == 0
        assert (tmp_path / "two.db").exists()
    finally:
        get_settings.cache_clear()


def test_snapshots_keep_the_newest(tmp_path: Path) -> None:
    for stamp in ("20261125-080000", "20261125-081000", "20261125-082000", "20261125-083000"):
        (tmp_path / f"arbitre-{stamp}.db").write_text("")
    rotate(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "arbitre-20261125-082000.db",
        "arbitre-20261125-083000.db",
    ]
