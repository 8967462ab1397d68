"""Small helpers shared by the tests."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered


def run_async(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: Playwright's sync API may hold this thread's loop
    (the browser tests run first in the same process)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def key() -> str:
    return uuid.uuid4().hex


def viewer_of(registered: Registered) -> Viewer:
    person = registered.person
    return Viewer(person.role, person.id, person.name)


@dataclass
class Table:
    """A game and the people at its table: its organizer and everyone registered, by name, each
    with their viewer and their link (`phone` opens a test client as that person)."""

    game: Game
    organizer: Registered
    people: dict[str, Registered] = field(default_factory=dict)

    @property
    def org(self) -> Viewer:
        return viewer_of(self.organizer)

    def viewer(self, name: str) -> Viewer:
        return viewer_of(self.people[name])

    def token(self, name: str | None = None) -> str:
        return (self.people[name] if name else self.organizer).link.token


def table(
    service: GameService,
    kind: str,
    people: Sequence[tuple[str, str]] = (),
    *,
    settings: Mapping[str, Any] | None = None,
    dice: str = "server",
    name: str = "Partie test",
) -> Table:
    """Any kind's game, its organizer ("Orga") and `people` as (role, name), registered in order."""
    game, organizer = service.create_game(
        kind, name, "Orga", settings=dict(settings or {}), dice=dice, idem_key=key()
    )
    seated = Table(game, organizer)
    for role, person in people:
        seated.people[person] = service.register(game.id, seated.org, role, person, idem_key=key())
    return seated


def phone(client: Any, token: str) -> Any:
    """A test client signed in by a person's link, as their phone would be after the QR code."""
    client.cookies.clear()
    answer = client.get(f"/t/{token}", follow_redirects=True)
    assert answer.status_code == 200, answer.text[:300]
    return client


def tally_game(
    service: GameService, players: tuple[str, ...] = ("Léa", "Hugo")
) -> tuple[Game, Viewer, Viewer, list[Viewer]]:
    """A tally game with its organizer, a referee and players."""
    seated = table(service, "tally", [("referee", "Arbitre 1")] + [("player", p) for p in players])
    return (
        seated.game,
        seated.org,
        seated.viewer("Arbitre 1"),
        [seated.viewer(p) for p in players],
    )


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """The app on a real server on loopback, for what a test client cannot do (streams)."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]*)"', html) or re.search(
        r'name="csrf_token" value="([^"]+)"', html
    )
    assert match, "no CSRF token on the page"
    return match.group(1)


def form_fields(html: str, action: str) -> dict[str, Any]:
    """The hidden fields of the first form posting to `action`."""
    start = html.index(f'action="{action}"')
    end = html.index("</form>", start)
    return dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html[start:end]))
