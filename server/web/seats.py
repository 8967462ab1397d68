"""A seat taken (issue 51): a personal link, a join code or a match's hand-off, opened by this
browser, which alone then holds the seat."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from server.errors import SeatTaken
from server.platform.service import GameService
from server.web.deps import remember, session_links


def navigated(request: Request) -> bool:
    """A browser opening the address as its page (its Fetch Metadata says so)."""
    headers = request.headers
    return headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") in (
        None,
        "document",
    )


def take_seat(
    request: Request, service: GameService, *, token: str | None = None, code: str | None = None
) -> Response:
    """The seat a ticket (a link, a join code) opens, taken by this browser, which alone then
    holds it (platform.md, "Access"); the seat this browser holds already opens as it is."""
    try:
        registered = service.claim(token=token, code=code)
    except SeatTaken as taken:
        if held_here(request, service, taken):
            return RedirectResponse(f"/g/{taken.game_id}", status_code=303)
        raise
    remember(request, registered.person)
    return RedirectResponse(f"/g/{registered.person.game_id}", status_code=303)


def held_here(request: Request, service: GameService, taken: SeatTaken) -> bool:
    """Whether this browser is the phone that holds the seat a taken ticket names."""
    entry = session_links(request).get(taken.game_id)
    if not entry or taken.person_id is None or int(entry[0]) != taken.person_id:
        return False
    return service.viewer(taken.game_id, int(entry[0]), int(entry[1])) is not None
