"""Every state-changing route of the pages refuses a request without the session's cross-site
token (issue 18: it was a line each route had to remember). The walk finds routes added later."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from server.platform.service import GameService
from tests.conftest import Phone, all_routes, tally_game

# A command the game takes (a timer started), were the token not asked for.
COMMAND = {"type": "timer.start", "seconds": "60"}


def test_every_page_route_that_changes_something_asks_for_the_token(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, org, _ref, _players = tally_game(service)
    organizer = service.person(game.id, org.person_id)  # type: ignore[arg-type]
    phone = Phone(client, follow_redirects=False)
    assert phone.get(f"/t/{service.link_of(organizer).token}").status_code == 303
    before = service.load(game.id).game.seq
    values = {
        "game_id": game.id,
        "person_id": str(organizer.id),
        "action": "revoke",
        "token": "x",
        "match_id": "x",
        "team_id": "1",
        "proposal_id": "1",
        "page": "staff",
    }
    unsafe = sorted(
        (method, path)
        for method, path in all_routes(client.app.routes)  # type: ignore[attr-defined]
        if method not in ("GET", "HEAD", "OPTIONS") and not path.startswith("/api/")
    )
    assert ("POST", "/g/{game_id}/act") in unsafe and len(unsafe) > 10
    open_doors = []
    for method, path in unsafe:
        url = re.sub(r"{(\w+)}", lambda m: values[m.group(1)], path)
        for headers in ({}, {"HX-Request": "true"}, {"X-CSRF-Token": "guessed"}):
            answer = phone.request(method, url, data=COMMAND, headers=headers)
            if answer.status_code != 403:
                open_doors.append((method, path, headers, answer.status_code))
    assert not open_doors, open_doors
    assert service.load(game.id).game.seq == before  # nothing was done
