"""Every route of the app, walked by every role: each gets exactly what it may.

Roles: the organizer, a referee and two players of game A, a referee of game B, a stranger.
A route the matrix does not list fails the last test, so a new route cannot slip through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, Viewer
from server.platform.service import GameService
from tests.conftest import Phone, all_routes, csrf_of, key, seat_key, tally_game
from tests.scene import declared

ROLES = ("org", "ref", "lea", "hugo", "ref_b", "stranger")
ALL = set(ROLES)
STAFF = {"org", "ref"}


@dataclass
class World:
    game: str
    other: str
    ids: dict[str, int]
    tokens: dict[str, str]
    pages: dict[str, TestClient]


@pytest.fixture
def world(client: TestClient, service: GameService, rolls: ScriptedRolls) -> World:
    rolls.endless = True
    app_service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, org, ref, (lea, hugo, zed) = tally_game(app_service, ("Léa", "Hugo", "Zed"))
    other, _org_b, ref_b, _ = tally_game(app_service, ("Max",))
    for person in (lea, hugo):
        app_service.perform(
            game.id, ref, {"type": "score", "player": person.person_id, "points": 1}, idem_key=key()
        )
    viewers = {"org": org, "ref": ref, "lea": lea, "hugo": hugo, "ref_b": ref_b}
    tokens, pages = {}, {}
    for role in ROLES:
        phone = Phone(client, follow_redirects=False)
        if role in viewers:
            person = app_service.person(
                game.id if role != "ref_b" else other.id,
                viewers[role].person_id,  # type: ignore[arg-type]
            )
            assert phone.get(f"/t/{app_service.link_of(person).token}").status_code == 303
            tokens[role] = seat_key(app_service, person.game_id, person.id)  # the seat's key
        phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
        pages[role] = phone
    ids = {"lea": lea.person_id, "hugo": hugo.person_id, "zed": zed.person_id}  # type: ignore[dict-item]
    return World(game.id, other.id, ids, tokens, pages)  # type: ignore[arg-type]


def ok(status: int) -> bool:
    return 200 <= status < 400


# (method, route path, concrete path, body, who may) -- {g} game A, {lea}/{zed} person ids.
PAGE_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/", "/", None, ALL),
    ("GET", "/join", "/join", None, ALL),
    ("GET", "/join/qr.svg", "/join/qr.svg", None, ALL),
    ("GET", "/offline", "/offline", None, ALL),
    ("GET", "/healthz", "/healthz", None, ALL),
    ("GET", "/sw.js", "/sw.js", None, ALL),
    ("GET", "/assets/{name}.{ext}", "/assets/app.js", None, ALL),
    ("POST", "/lang", "/lang", {"lang": "fr", "next": "/"}, ALL),
    ("POST", "/games", "/games", {"kind": "tally", "name": "N", "organizer": "O"}, ALL),
    ("GET", "/g/{game_id}/board", "/g/{g}/board", None, ALL),
    ("GET", "/g/{game_id}/log", "/g/{g}/log", None, ALL),  # filtered: see below
    ("GET", "/g/{game_id}/log.json", "/g/{g}/log.json", None, ALL),
    ("GET", "/g/{game_id}/log.csv", "/g/{g}/log.csv", None, ALL),
    ("GET", "/g/{game_id}/game.json", "/g/{g}/game.json", None, {"org"}),
    ("GET", "/g/{game_id}", "/g/{g}", None, STAFF | {"lea", "hugo"}),
    ("GET", "/g/{game_id}/live/{page}", "/g/{g}/live/staff", None, STAFF),
    ("GET", "/g/{game_id}/live/{page}", "/g/{g}/live/player", None, {"lea", "hugo"}),
    ("GET", "/g/{game_id}/live/{page}", "/g/{g}/live/board", None, ALL),
    ("GET", "/g/{game_id}/live/{page}", "/g/{g}/live/people", None, {"org"}),
    ("GET", "/g/{game_id}/welcome", "/g/{g}/welcome", None, STAFF | {"lea", "hugo"}),
    ("GET", "/g/{game_id}/people", "/g/{g}/people", None, {"org"}),
    ("GET", "/g/{game_id}/slips", "/g/{g}/slips", None, {"org"}),
    # Léa's phone took her seat: its QR code is hers alone (issue 51); Zed's, not yet taken, is
    # the organizer's to print.
    (
        "GET",
        "/g/{game_id}/people/{person_id}/qr.svg",
        "/g/{g}/people/{lea}/qr.svg",
        None,
        {"lea"},
    ),
    ("GET", "/g/{game_id}/people/{person_id}/qr.svg", "/g/{g}/people/{zed}/qr.svg", None, {"org"}),
    (
        "POST",
        "/g/{game_id}/people",
        "/g/{g}/people",
        {"role": "player", "name": "New {role}"},
        {"org"},
    ),
    (
        "POST",
        "/g/{game_id}/people/{person_id}/{action}",
        "/g/{g}/people/{zed}/reissue",
        {},
        {"org"},
    ),
    (
        "POST",
        "/g/{game_id}/act",
        "/g/{g}/act",
        {"type": "roll", "player": "{lea}"},
        STAFF | {"lea"},
    ),
    ("POST", "/g/{game_id}/undo", "/g/{g}/undo", {}, STAFF),
]

API_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/api/v1/kinds", "/api/v1/kinds", None, ALL),
    ("POST", "/api/v1/claim", "/api/v1/claim", {"token": "not-a-link"}, set()),
    ("GET", "/api/v1/openapi.json", "/api/v1/openapi.json", None, ALL),
    (
        "POST",
        "/api/v1/games",
        "/api/v1/games",
        {"kind": "tally", "name": "N", "organizer": "O"},
        ALL,
    ),
    ("POST", "/api/v1/tally/games", "/api/v1/tally/games", {"name": "N", "organizer": "O"}, ALL),
    ("GET", "/api/v1/games/{game_id}", "/api/v1/games/{g}", None, ALL),  # the public view at least
    ("GET", "/api/v1/games/{game_id}/state", "/api/v1/games/{g}/state", None, ALL),
    ("GET", "/api/v1/games/{game_id}/log", "/api/v1/games/{g}/log", None, ALL),
    ("GET", "/api/v1/games/{game_id}/people", "/api/v1/games/{g}/people", None, {"org"}),
    (
        "POST",
        "/api/v1/games/{game_id}/people",
        "/api/v1/games/{g}/people",
        {"role": "player", "name": "Api {role}"},
        {"org"},
    ),
    (
        "POST",
        "/api/v1/games/{game_id}/people/{person_id}/link",
        "/api/v1/games/{g}/people/{zed}/link",
        {},
        {"org"},
    ),
    (
        "DELETE",
        "/api/v1/games/{game_id}/people/{person_id}/link",
        "/api/v1/games/{g}/people/{zed}/link",
        None,
        {"org"},
    ),
    (
        "POST",
        "/api/v1/games/{game_id}/commands",
        "/api/v1/games/{g}/commands",
        {"command": {"type": "roll", "player": "{lea}"}},
        STAFF | {"lea"},
    ),
    ("POST", "/api/v1/games/{game_id}/undo", "/api/v1/games/{g}/undo", {}, STAFF),
]

# Routes checked elsewhere, and why (a game's own: `ROUTES_EXEMPT` in its tests' scenes).
EXEMPT = {
    **{
        ("POST", f"/api/v1/{kind}/games/{{game_id}}/commands"): "each kind's own route, refused "
        "unsigned and to another kind's game: a game's tests/<game>/test_api.py; then the same "
        "service checks"
        for kind in sorted(KINDS)
        if KINDS[kind].command_union is not None
    },
    **{
        ("POST", f"/api/v1/{kind}/games"): "anyone creates a game, as through /api/v1/games, "
        "from the same budget: tests/test_generated_client.py, a game's tests/<game>/test_api.py"
        for kind in sorted(KINDS)
        if KINDS[kind].standalone
    },
    ("POST", "/g/{game_id}/queue"): "a phone's offline taps, each through the checks of a live "
    "tap as its sender: tests/test_queue.py",
    ("GET", "/g/{game_id}/replay"): "anyone replays a finished game, each reader through their "
    "own projection: tests/test_replay.py",
    ("GET", "/t/{token}"): "the token is the credential: tests/test_pages.py",
    ("POST", "/t/{token}"): "the token is the credential (a seat taken): tests/test_seats.py",
    ("POST", "/join"): "the code is the credential, rate limited: tests/test_pages.py",
    ("GET", "/g/{game_id}/events"): "an endless stream: tests/test_pages.py and test_stream_ends_*",
    ("POST", "/games/import"): "anyone brings a game file in, as anyone creates a game: "
    "tests/test_moving.py",
    ("POST", "/g/{game_id}/game.json"): "the organizer's file sealed to a ticket, the game "
    "moved: tests/test_moving.py, tests/security/test_game_file.py",
    ("POST", "/tickets"): "anyone makes an import ticket, counted as a game created: "
    "tests/security/test_game_file.py",
}


def fill(text: str, world: World, role: str) -> str:
    return (
        text.replace("{g}", world.game)
        .replace("{lea}", str(world.ids["lea"]))
        .replace("{zed}", str(world.ids["zed"]))
        .replace("{role}", role)
    )


def fill_body(body: dict[str, Any] | None, world: World, role: str) -> dict[str, Any] | None:
    if body is None:
        return None
    out: dict[str, Any] = {}
    for k, v in body.items():
        if isinstance(v, dict):
            out[k] = fill_body(v, world, role)
        elif isinstance(v, str):
            filled = fill(v, world, role)
            out[k] = int(filled) if filled.isdigit() and k == "player" else filled
        else:
            out[k] = v
    return out


@pytest.mark.parametrize("entry", PAGE_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_pages_give_each_role_exactly_what_it_may(world: World, entry: Any) -> None:
    method, _route, path, body, allowed = entry
    for role in ROLES:
        phone = world.pages[role]
        url = fill(path, world, role)
        if method == "GET":
            response = phone.get(url)
        else:
            data = {**(fill_body(body, world, role) or {}), "idem": key()}
            if path.endswith("/undo"):
                world_service = phone.app.state.service  # type: ignore[attr-defined]
                world_service.perform(
                    world.game,
                    viewer_of_role(world, "ref"),
                    {"type": "score", "player": world.ids["lea"], "points": 1},
                    idem_key=key(),
                )
            response = phone.request(method, url, data=data)
        if path == "/g/{g}" and role in ("ref_b", "stranger"):
            # No link to this game: the public board, never the console.
            assert response.status_code == 303
            assert response.headers["location"] == f"/g/{world.game}/board"
            continue
        assert ok(response.status_code) == (role in allowed), (role, url, response.status_code)


def viewer_of_role(world: World, role: str) -> Any:
    """A referee acting directly through the service, to leave something to undo."""
    return Viewer("referee", None, "Matrix")


@pytest.mark.parametrize("entry", API_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_the_api_gives_each_role_exactly_what_it_may(world: World, entry: Any) -> None:
    method, _route, path, body, allowed = entry
    client = world.pages["stranger"]
    for role in ROLES:
        headers = {"Idempotency-Key": key()}
        if role in world.tokens:
            headers["Authorization"] = f"Bearer {world.tokens[role]}"
        if path.endswith("/undo"):
            service = client.app.state.service  # type: ignore[attr-defined]
            service.perform(
                world.game,
                viewer_of_role(world, "ref"),
                {"type": "score", "player": world.ids["lea"], "points": 1},
                idem_key=key(),
            )
        response = client.request(
            method, fill(path, world, role), json=fill_body(body, world, role), headers=headers
        )
        assert ok(response.status_code) == (role in allowed), (role, path, response.text[:200])
        if not ok(response.status_code):
            assert set(response.json()) >= {"code", "message"}


def test_players_read_only_their_own_part_of_the_state_and_log(world: World) -> None:
    lea_id, hugo_id = str(world.ids["lea"]), str(world.ids["hugo"])
    hugo = world.pages["hugo"]
    state = hugo.get(
        f"/api/v1/games/{world.game}/state",
        headers={"Authorization": f"Bearer {world.tokens['hugo']}"},
    ).json()["state"]
    assert "players" not in state and state["me"]["name"] == "Hugo"
    log = hugo.get(f"/g/{world.game}/log.json").json()["events"]
    assert log and all("Léa" not in e["summary"] for e in log)
    assert hugo.get(f"/g/{world.game}/live/player").text.count("my-points") == 1
    stranger_log = world.pages["stranger"].get(f"/g/{world.game}/log.json").json()["events"]
    assert stranger_log == []
    staff_log = world.pages["ref"].get(f"/g/{world.game}/log.json").json()["events"]
    assert {lea_id, hugo_id} <= {str(e["command"].get("player")) for e in staff_log}


def test_a_referee_of_another_game_cannot_touch_this_one(world: World, client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    before = service.load(world.game).game.seq
    ref_b = world.pages["ref_b"]
    assert (
        ref_b.post(
            f"/g/{world.game}/act",
            data={"type": "score", "player": world.ids["lea"], "points": 5, "idem": key()},
        ).status_code
        == 403
    )
    assert ref_b.post(f"/g/{world.game}/undo", data={"idem": key()}).status_code == 403
    assert service.load(world.game).game.seq == before


def test_every_route_is_in_the_matrix(client: TestClient) -> None:
    """The platform's matrices here, each game's own (`ROUTE_MATRIX` in its tests' scenes, walked
    in its folder), and the routes checked elsewhere."""
    games = [entry for matrix in declared("ROUTE_MATRIX").values() for entry in matrix]
    matrices = PAGE_MATRIX + API_MATRIX + games
    covered = {(m, r) for m, r, *_ in matrices} | set(EXEMPT) | set(declared("ROUTES_EXEMPT"))
    routes = all_routes(client.app.routes)  # type: ignore[attr-defined]
    assert ("POST", "/g/{game_id}/act") in routes  # the walk does see included routers
    missing = routes - covered
    assert not missing, f"routes missing from the authorization matrix: {sorted(missing)}"
