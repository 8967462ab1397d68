"""The edges of the server: addresses it believes, what it writes in its logs and exports, what
it parses. A client cannot choose the address the join-code limit counts; no link token reaches
the server's output; a CSV export never holds a formula; a deep or huge body is a 4xx with a
message (a game's deck on its own page too); names refuse control characters (a game's own
texts: in its folder)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from server.config import Settings
from server.platform.kinds import KINDS
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key, tally_game
from tests.scene import declared
from tests.server_process import Server

# The kinds whose shared invitation seats people who join by themselves.
OPEN_KINDS = sorted(k for k, kind in KINDS.items() if kind.open_role is not None)
# Each kind's own page that takes a deck as a file or a text, its address in the game.
DECK_PAGES: dict[str, str] = declared("DECK_PAGES")


def guesses(server: Server, count: int, forwarded: bool) -> list[int]:
    """`count` wrong join codes from one client, each claiming another address."""
    with httpx.Client(base_url=server.url) as client:
        csrf = csrf_of(client.get("/join").text)
        return [
            client.post(
                "/join",
                data={"code": "ZZZZ-ZZZZ", "csrf_token": csrf},
                headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"} if forwarded else {},
            ).status_code
            for n in range(count)
        ]


@pytest.fixture
def plain_server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(db_url, log=tmp_path / "server.log")
    running.start()
    yield running
    running.stop()


def test_forwarded_headers_are_ignored_unless_a_proxy_is_named(
    plain_server: Server, db_url: str
) -> None:
    limit = Settings().join_attempts_per_minute
    # By default a new X-Forwarded-For per request changes nothing: the 11th guess waits.
    said = guesses(plain_server, limit + 1, forwarded=True)
    assert said[:limit] == [404] * limit and said[limit] == 429
    # Behind a named proxy, each forwarded address is counted on its own (as documented).
    trusting = Server(db_url, {"FORWARDED_ALLOW_IPS": "127.0.0.1"})
    trusting.start()
    try:
        assert 429 not in guesses(trusting, limit + 1, forwarded=True)
    finally:
        trusting.stop()


@pytest.mark.parametrize("kind", OPEN_KINDS)
def test_no_link_token_reaches_the_servers_output(plain_server: Server, kind: str) -> None:
    with httpx.Client(base_url=plain_server.url) as client:
        created = client.post(
            "/api/v1/games",
            json={"kind": kind, "name": "Ligue", "organizer": "Camille"},
            headers={"Idempotency-Key": key()},
        ).json()
        token = created["organizer"]["token"]
        game = created["game"]["id"]
        assert client.get(f"/t/{token}").status_code == 303
        client.get(f"/t/{token}X")  # a wrong one, too
        csrf = csrf_of(client.get(f"/g/{game}/people").text)
        client.post(f"/g/{game}/invitation/open", data={"csrf_token": csrf})
        people = client.get(f"/g/{game}/people").text
        invitation = re.search(r"/join/([A-Za-z0-9_\-]{20,})", people)
        assert invitation is not None
        assert client.get(f"/g/{game}/join/{invitation.group(1)}").status_code == 200
    plain_server.stop()
    output = plain_server.log.read_text()  # type: ignore[union-attr]
    assert "GET /t/" in output, "the access log is on"
    for secret in (token, invitation.group(1)):
        assert secret not in output


def test_csv_exports_hold_no_formula(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, org, _ref, _ = tally_game(service, ('=HYPERLINK("http://x")', "+Hugo", "@Zoé", "-1"))
    token = service.link_of(service.person(game.id, org.person_id)).token  # type: ignore[arg-type]
    phone = Phone(client, follow_redirects=False)
    phone.get(f"/t/{token}")
    text = phone.get(f"/g/{game.id}/log.csv").text
    for line in text.splitlines()[1:]:
        for cell in re.findall(r'(?:^|,)("(?:[^"]|"")*"|[^,]*)', line):
            cell = cell.strip('"')
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), line
    assert "'=HYPERLINK" in text


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a":' * 50_000])
def test_deep_json_is_refused_with_a_message(client: TestClient, body: str) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, _org, ref, _ = tally_game(service)
    token = service.link_of(service.person(game.id, ref.person_id)).token  # type: ignore[arg-type]
    answer = client.post(
        f"/api/v1/games/{game.id}/commands",
        content=body,
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token}",
            "Idempotency-Key": key(),
        },
    )
    assert answer.status_code == 422 and answer.json()["code"] == "invalid"


@pytest.mark.parametrize("kind", sorted(DECK_PAGES))
def test_a_deep_deck_upload_is_refused_on_its_page(client: TestClient, kind: str) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game(kind, "Partie", "Camille", idem_key=key())
    page = f"/g/{game.id}/{DECK_PAGES[kind]}"
    phone = Phone(client, follow_redirects=False)
    phone.get(f"/t/{owner.link.token}")
    csrf = csrf_of(phone.get(page).text)
    answer = phone.post(page, data={"text": "[" * 100_000, "csrf_token": csrf, "idem": key()})
    assert answer.status_code == 422 and "JSON" in answer.text


def test_a_huge_body_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/v1/games",
        content=b'{"kind": "' + b"x" * 3_000_000 + b'"}',
        headers={"Content-Type": "application/json", "Idempotency-Key": key()},
    )
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


@pytest.mark.parametrize("name", ["Zo\x00é", "Hugo\x1b[31m", "Ana\u202egnp.exe", "\x7fDEL"])
def test_names_and_texts_refuse_control_characters(client: TestClient, name: str) -> None:
    created = client.post(
        "/api/v1/games",
        json={"kind": "tally", "name": "Forêt", "organizer": name},
        headers={"Idempotency-Key": key()},
    )
    assert created.status_code == 422 and created.json()["field"] == "organizer"
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, org, _ref, _ = tally_game(service)
    token = service.link_of(service.person(game.id, org.person_id)).token  # type: ignore[arg-type]
    registered = client.post(
        f"/api/v1/games/{game.id}/people",
        json={"role": "player", "name": name},
        headers={"Idempotency-Key": key(), "Authorization": f"Bearer {token}"},
    )
    assert registered.status_code == 422  # (a game's own texts: in its folder)
