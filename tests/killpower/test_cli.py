"""The command line with a league's demo (`tests/test_cli.py`): everyone's link at the server's
address."""

from __future__ import annotations

import re

import pytest

from server.__main__ import main
from server.config import get_settings


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
