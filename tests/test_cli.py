"""The command line: upgrade the database, make a demo game whose link opens."""

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


def test_a_demo_prints_everyone_s_link_at_the_server_s_address(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 17, item 20: the links said port 8000 whatever the server's, and no coach's."""
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv("SECRET_KEY", "cli-secret")
    monkeypatch.setenv("PORT", "8123")
    get_settings.cache_clear()
    try:
        assert main(["demo", "killpower_league"]) == 0
        by_settings = capsys.readouterr().out
        assert main(["demo", "killpower_league", "--url", "http://192.168.1.20:9000/"]) == 0
        given = capsys.readouterr().out
    finally:
        get_settings.cache_clear()
    # In the server's language (French unless said), as its pages speak (issue 35, class C).
    assert "est prête à l’adresse" in by_settings and "Tableau public" in by_settings
    links = re.findall(r"^ +(.+?) \(([^)]+)\) +(http://[^/]+)/t/[\w-]+$", by_settings, re.M)
    assert {role for _, role, _ in links} == {"responsable de la ligue", "entraîneur"}
    assert len(links) == 5 and {base for *_, base in links} == {"http://127.0.0.1:8123"}
    assert "http://192.168.1.20:9000/t/" in given and "9000//" not in given


def test_serving_every_interface_prints_the_addresses_and_a_qr_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make run HOST=0.0.0.0` on a hotspot (issue 23): the address phones open, and its QR code
    in the terminal; on one address only, that address."""
    import server.__main__ as cli

    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.168.43.10", "10.0.0.5"])
    cli.where("0.0.0.0", 8000)
    out = capsys.readouterr().out
    assert "http://192.168.43.10:8000" in out and "http://10.0.0.5:8000" in out
    assert "▄" in out or "█" in out  # the QR code, drawn with blocks
    cli.where("127.0.0.1", 8000)
    assert capsys.readouterr().out.strip() == "Arbitre: http://127.0.0.1:8000"
    assert all(not a.startswith("127.") for a in cli.lan_addresses())
