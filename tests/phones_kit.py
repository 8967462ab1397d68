"""Phones as the tests hold them: an API call with its key, a referee's phone with its token, a
queued tap, a page's part as its stream brings it (the shared tests and the games' own read them)."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any
from urllib.parse import urlencode

from fastapi.testclient import TestClient

from server.platform.service import GameService
from server.web.answers import live_tag, page_context
from server.web.fanout import Shown, Watcher
from tests.conftest import Phone, csrf_of, form_fields, key, seat_key, tally_game
from tests.conftest import opened as link_opened


def referee_phone(client: TestClient, service: GameService, game: str, person: int) -> Any:
    phone = Phone(client, follow_redirects=False)
    token = service.link_of(service.person(game, person)).token
    assert phone.get(f"/t/{token}").status_code == 303
    phone.headers["X-CSRF-Token"] = csrf_of(phone.get(f"/g/{game}").text)
    return phone


def tap(seq: int, **fields: Any) -> dict[str, str]:
    """A queued tap: the form's fields, its own key, the screen's sequence number."""
    return {"body": urlencode({**fields, "seq": seq, "idem": key()}, doseq=True)}


HX = {"HX-Request": "true"}


CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def opened(client: TestClient, service: GameService, game: str, person: int | None) -> Any:
    """A phone that opened this person's link (None: nobody's), and its cross-site token."""
    phone = Phone(client, follow_redirects=False)
    if person is not None:
        token = service.link_of(service.person(game, person)).token
        assert phone.get(f"/t/{token}").status_code == 303
    page = phone.get(f"/g/{game}/board" if person is None else f"/g/{game}")
    found = CSRF.search(page.text)
    assert found, page.text[:300]
    return phone, found.group(1)


def part_of(shown: Shown) -> dict[str, Any]:
    """What a "part" event brings: the HTML and its marks."""
    assert shown.part is not None
    data = json.loads(shown.part.raw.decode().split("data: ", 1)[1])
    assert data["tag"] == shown.tag and isinstance(data["html"], str)
    return dict(data)


def filled(part: dict[str, Any], csrf: str, keys: str | None = None) -> str:
    """What a page does with a part that arrives on its stream (`arbitre.js`): its own token
    and a base of its own for its forms' keys where the marks are."""
    html = str(part["html"]).replace(part["marks"]["csrf"], csrf)
    return html.replace(part["marks"]["keys"], keys or secrets.token_hex(16))


KEY_BASE = re.compile(r'name="idem" value="([0-9a-f]+)-1"')


def key_base(html: str) -> str | None:
    """The base of a render's form keys (`templating.key_factory`), when it has forms."""
    found = KEY_BASE.search(html)
    return found.group(1) if found else None


def alone(service: GameService, client: TestClient, watcher: Watcher) -> tuple[str, Any]:
    """A phone's part taken alone, as its refresh takes it: its fingerprint and projection."""
    clock = client.app.state.clock  # type: ignore[attr-defined]
    loaded = service.load(watcher.game_id)
    context = page_context(service, clock, loaded, watcher.viewer, watcher.page)
    return live_tag(context), context["projection"]


def post(
    client: TestClient,
    path: str,
    body: dict[str, Any],
    token: str | None = None,
    idem: str | None = None,
) -> Any:
    headers = {"Idempotency-Key": idem or key()}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(path, json=body, headers=headers)


def api(client: TestClient, token: str, game: str, command: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/games/{game}/commands",
        json={"command": command},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key()},
    )


def roll_console(client: TestClient, service: GameService) -> tuple[str, Any, dict[str, str]]:
    """A tally game, its referee's phone on the console, and the fields of the form rolling for
    Léa (the faults' tests send it while the database is out of reach, then again): the game's
    id, the phone, the fields."""
    game, _org, referee, (lea, _hugo) = tally_game(service)
    phone = link_opened(client, seat_key(service, game.id, referee.person_id))
    console = phone.get(f"/g/{game.id}").text
    return (
        game.id,
        phone,
        form_fields(console, f"/g/{game.id}/act") | {"player": str(lea.person_id)},
    )
