"""Budgets and names (platform.md, "One door in, one door out"): what one address may open or try,
and the names the server answers to, as an attacker would test them.

- A Host the server does not answer to is refused on every route, so no page, link, QR code or
  API `url` is ever made with a name the request chose; with `PUBLIC_URL`, every printed link
  names it whatever the request's (allowed) name.
- Live streams: past the budget per address or per game, a 429 that says when to try again; a
  stream that ends gives its place back.
- Join codes and games created or imported are counted per address in the database: two server
  processes on one database let one address try the documented number, not twice it.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import segno
from fastapi.testclient import TestClient

from server.app import create_app
from server.config import Settings
from server.games.demo import DEMOS
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import (
    TEST_TEMPLATES,
    Phone,
    all_routes,
    csrf_of,
    key,
    serve,
    tally_game,
)
from tests.scene import declared
from tests.security.conftest import SCENES, addresses
from tests.server_process import Server

EVIL = "evil.example"
KIND = sorted(DEMOS)[0]  # a game of the registry, created through its kind's own route too


def app_with(settings: Settings, **changes: Any) -> Any:
    return create_app(
        settings.model_copy(update=changes),
        clock=FakeClock(),
        dice=ScriptedRolls.cycle(),
        template_dirs=TEST_TEMPLATES,
        migrate=False,
        scheduler=False,
    )


# ------------------------------------------------------------------------------------ names


@pytest.mark.parametrize("label", sorted(declared("HOST_WALKED")))
def test_a_host_the_server_does_not_answer_to_is_refused_on_every_route(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    organizer = Phone(client, follow_redirects=False)
    person = next(p for p in service.people(scene.game) if p.role == "organizer")
    assert organizer.get(f"/t/{service.link_of(person).token}").status_code == 303
    urls = ["/", "/join", "/join/qr.svg", *addresses(all_routes(client.app.routes), scene, service)]  # type: ignore[attr-defined]
    for url in urls:
        for headers in (
            {"Host": EVIL},
            {"Host": f"{EVIL}:8000"},
            {"Host": "127.0.0.1.evil.example"},
        ):
            answer = organizer.get(url, headers=headers)
            assert answer.status_code == 400, (url, headers, answer.status_code)
            assert EVIL not in answer.text
    created = organizer.post(
        "/api/v1/games",
        json={"kind": "tally", "name": "N", "organizer": "O"},
        headers={"Host": EVIL, "Idempotency-Key": key()},
    )
    assert created.status_code == 400 and created.json()["code"] == "host_not_allowed"


def test_printed_links_name_public_url_whatever_the_request_s_name(settings: Settings) -> None:
    public = "https://arbitre.example.org"
    app = app_with(settings, public_url=public)
    with TestClient(app, follow_redirects=False) as client:
        service: GameService = app.state.service
        game, org, _referee, (lea, _hugo) = tally_game(service)
        token = service.link_of(service.person(game.id, org.person_id)).token  # type: ignore[arg-type]
        assert client.get(f"/t/{token}").status_code == 303
        people = client.get(f"/g/{game.id}/people").text
        printed = set(re.findall(r"(https?://[^/\"'<\s]+)/(?:t|join)/", people))
        assert printed == {public}, printed
        assert client.get(f"/g/{game.id}/slips").status_code == 200
        api = client.post(
            "/api/v1/games",
            json={"kind": "tally", "name": "N", "organizer": "O"},
            headers={"Idempotency-Key": key()},
        ).json()
        assert api["organizer"]["url"].startswith(f"{public}/t/")
        listed = client.get(
            f"/api/v1/games/{game.id}/people", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert all(p["url"] is None or p["url"].startswith(f"{public}/t/") for p in listed)
        # The join address in words, and the QR codes: the join page's and a person's.
        assert f"{public}/join" in people
        assert client.get("/join/qr.svg").content == qr(f"{public}/join")
        lea_token = service.link_of(service.person(game.id, lea.person_id)).token  # type: ignore[arg-type]
        assert client.get(f"/g/{game.id}/people/{lea.person_id}/qr.svg").content == qr(
            f"{public}/t/{lea_token}"
        )


def qr(url: str) -> bytes:
    """The QR code the server draws for an address (`people_pages.svg_qr`)."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return buffer.getvalue()


def test_without_public_url_links_name_the_allowed_address_the_phone_used(
    client: TestClient, service: GameService
) -> None:
    game, org, _referee, _players = tally_game(service)
    token = service.link_of(service.person(game.id, org.person_id)).token  # type: ignore[arg-type]
    phone = Phone(client, follow_redirects=False)
    assert phone.get(f"/t/{token}").status_code == 303
    lan = {"Host": "192.168.43.10:8000"}  # a laptop on a hotspot, an allowed name
    printed = set(
        re.findall(
            r"(https?://[^/\"'<\s]+)/t/", phone.get(f"/g/{game.id}/people", headers=lan).text
        )
    )
    assert printed == {"http://192.168.43.10:8000"}


# ---------------------------------------------------------------------------------- streams


def open_streams(
    base: str, paths: list[str], cookies: dict[str, str]
) -> tuple[list[Any], list[httpx.Response]]:
    """Opens each stream and keeps it open; returns them and the answers refused."""
    held, refused = [], []
    for path in paths:
        client = httpx.Client(base_url=base, cookies=cookies, timeout=10)
        response = client.send(client.build_request("GET", path), stream=True)
        if response.status_code == 200:
            held.append((client, response))
        else:
            response.read()
            refused.append(response)
            client.close()
    return held, refused


def close_all(held: list[Any]) -> None:
    for client, response in held:
        response.close()
        client.close()


def test_streams_past_the_budget_per_address_and_per_game_are_refused(
    settings: Settings,
) -> None:
    app = app_with(settings, streams_per_address=3, streams_per_game=4)
    with TestClient(app):
        service: GameService = app.state.service
        game, _org, _referee, _players = tally_game(service)
        other, _o, _r, _p = tally_game(service)
        with serve(app) as base:
            held, refused = open_streams(base, [f"/g/{game.id}/events"] * 4, {})
            try:
                assert len(held) == 3 and len(refused) == 1
                assert refused[0].status_code == 429
                assert int(refused[0].headers["Retry-After"]) >= 1
                assert "s." in refused[0].text or "Trop" in refused[0].text
                # Another game from the same address: the address's budget is spent too.
                _more, refused_other = open_streams(base, [f"/g/{other.id}/events"], {})
                assert [r.status_code for r in refused_other] == [429]
                # But not for the people of a game behind the same address (the second outside
                # review's 64 anonymous streams locked a player out of their own game).
                token = service.link_of(service.person(other.id, _o.person_id)).token
                with httpx.Client(base_url=base) as phone:
                    assert phone.get(f"/t/{token}").status_code == 303
                    cookies = dict(phone.cookies)
                theirs, refused_theirs = open_streams(base, [f"/g/{other.id}/events"], cookies)
                held += theirs
                assert len(theirs) == 1 and not refused_theirs
                # One closes: its place is given back (a phone reconnecting).
                client, response = held.pop(0)
                response.close()
                client.close()
                wait_for(lambda: app.state.streams.held("127.0.0.1") == 3)
                again, refused_again = open_streams(base, [f"/g/{game.id}/events"], {})
                assert len(again) == 1 and not refused_again
                held += again
            finally:
                close_all(held)
            wait_for(lambda: not app.state.streams.by_address)
    per_game = app_with(settings, streams_per_address=100, streams_per_game=2)
    with TestClient(per_game):
        service = per_game.state.service
        game, org, *_ = tally_game(service)
        with serve(per_game) as base:
            held, refused = open_streams(base, [f"/g/{game.id}/events"] * 3, {})
            try:
                assert len(held) == 2 and [r.status_code for r in refused] == [429]
                # The public filled the game's budget (the outside review's 256 anonymous
                # streams): its people still watch it, a few streams each.
                token = service.link_of(service.person(game.id, org.person_id)).token
                with httpx.Client(base_url=base) as phone:
                    assert phone.get(f"/t/{token}").status_code == 303
                    cookies = dict(phone.cookies)
                mine, refused_mine = open_streams(base, [f"/g/{game.id}/events"] * 9, cookies)
                held += mine
                assert len(mine) == 8 and [r.status_code for r in refused_mine] == [429]
            finally:
                close_all(held)


def wait_for(condition: Any, seconds: float = 10) -> None:
    done = threading.Event()
    for _ in range(int(seconds * 50)):
        if condition():
            return
        done.wait(0.02)
    raise AssertionError("the server did not get there")


# ------------------------------------------------------------ tries counted in the database


@pytest.fixture
def two_processes(db_url: str) -> Iterator[tuple[Server, Server]]:
    servers = (Server(db_url), Server(db_url))
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


def test_join_tries_are_counted_across_server_processes(
    two_processes: tuple[Server, Server],
) -> None:
    """The documented 10 tries a minute per address, not 10 per process."""
    limit = Settings().join_attempts_per_minute
    said = []
    for n in range(limit + 2):
        server = two_processes[n % 2]
        with httpx.Client(base_url=server.url) as phone:
            csrf = csrf_of(phone.get("/join").text)
            said.append(
                phone.post("/join", data={"code": "ZZZZ-ZZZZ", "csrf_token": csrf}).status_code
            )
    assert said[:limit] == [404] * limit and said[limit:] == [429, 429]


def test_games_created_or_imported_past_the_budget_are_refused(
    two_processes: tuple[Server, Server],
) -> None:
    limit = Settings().games_per_minute
    answers = []
    for n in range(limit + 1):
        # Both ways of creating one (any kind's route, the kind's own) spend the one budget.
        body = {"name": f"Partie {n}", "organizer": "O"}
        route, body = (
            (f"/api/v1/{KIND}/games", body)
            if n % 3 == 1
            else ("/api/v1/games", {**body, "kind": KIND})
        )
        with httpx.Client(base_url=two_processes[n % 2].url) as client:
            answers.append(client.post(route, json=body, headers={"Idempotency-Key": key()}))
    assert [a.status_code for a in answers[:limit]] == [201] * limit
    assert answers[limit].status_code == 429 and answers[limit].json()["code"] == "rate_limited"
    assert int(answers[limit].headers["Retry-After"]) >= 1
    # An import from the same address spends the same budget: refused before it is read.
    with httpx.Client(base_url=two_processes[0].url) as phone:
        csrf = csrf_of(phone.get("/").text)
        answer = phone.post(
            "/games/import",
            data={"csrf_token": csrf, "idem": key()},
            files={"file": ("partie.json", b"{}", "application/json")},
        )
    assert answer.status_code == 429 and answer.headers["Retry-After"]
    # So does an import ticket (a game to come).
    with httpx.Client(base_url=two_processes[1].url) as phone:
        csrf = csrf_of(phone.get("/").text)
        answer = phone.post("/tickets", data={"csrf_token": csrf})
    assert answer.status_code == 429 and "arbitre-ticket:" not in answer.text
