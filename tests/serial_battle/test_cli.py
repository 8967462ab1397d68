"""The command line with Serial Battle's demo (`tests/test_cli.py`): upgrade the database, make a
demo game whose link opens."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.__main__ import main
from server.app import create_app
from server.config import Settings, get_settings
from tests.conftest import TEST_HOSTS


def test_db_upgrade_and_a_demo_game_whose_link_opens(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv("SECRET_KEY", "cli-secret")
    get_settings.cache_clear()
    try:
        assert main(["db", "upgrade"]) == 0
        assert main(["demo", "serial_battle"]) == 0
        out = capsys.readouterr().out
        token = re.search(r"/t/([\w-]+)", out).group(1)  # type: ignore[union-attr]
        assert main(["demo", "chess"]) == 2
    finally:
        get_settings.cache_clear()
    app = create_app(
        Settings(database_url=db_url, secret_key="cli-secret", allowed_hosts=TEST_HOSTS),
        scheduler=False,
    )
    with TestClient(app, follow_redirects=True) as phone:
        console = phone.get(f"/t/{token}")
        assert console.status_code == 200 and "Léa" in console.text and "Vélodrome" in console.text
