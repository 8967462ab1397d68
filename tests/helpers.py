"""Small helpers shared by the tests."""

from __future__ import annotations

import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from server.models import Game
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered


def key() -> str:
    return uuid.uuid4().hex


def viewer_of(registered: Registered) -> Viewer:
    person = registered.person
    return Viewer(person.role, person.id, person.name)


def tally_game(
    service: GameService, players: tuple[str, ...] = ("Léa", "Hugo")
) -> tuple[Game, Viewer, Viewer, list[Viewer]]:
    """A tally game with its organizer, a referee and players."""
    game, organizer = service.create_game("tally", "Partie test", "Orga", idem_key=key())
    org = viewer_of(organizer)
    referee = viewer_of(service.register(game.id, org, "referee", "Arbitre 1", idem_key=key()))
    people = [
        viewer_of(service.register(game.id, org, "player", name, idem_key=key()))
        for name in players
    ]
    return game, org, referee, people


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
