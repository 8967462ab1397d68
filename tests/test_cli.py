"""The command line: where the server is served (the demos, each game's own, in the games'
folders)."""

from __future__ import annotations

import pytest


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
