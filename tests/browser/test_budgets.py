"""Size budgets (sizes, not times): the first load of each game's staff page in Chromium (and, in
the games' folders, the answer to an htmx action). Figures are printed (`-s`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Request, expect

from server.games.demo import DEMOS
from server.platform.service import GameService
from tests.browser.kit import PHONE, Requests, wait_until
from tests.conftest import key
from tests.scene import declared

# Compressed, htmx included: 40 KB before issue 52, 36 with each game its own styles and the icon
# in the page, 37 with the form rules said before the tap (js/rules.js, 1.7 KB: issue 53), 30
# with an EventSource of our own for htmx's SSE extension (-2.1 KB), Brotli (-3.6), no document
# policy on a script or a style sheet (-0.6) and the styles of the pages around a game left out
# of a console's (-0.25): issue 52. 31 since issue 54's second pass (30.7 to 30.8 KB on Serial
# Battle's console: the page's own question centred, a form done with bringing the page up, a
# menu's needs by name), under the first budget by 9 KB.
FIRST_LOAD_BYTES = 31 * 1024
FIRST_LOAD_REQUESTS = 3  # the page, its script, its styles
LONG_LIVED = ("/events",)  # the live stream stays open: not part of a load


def body_size(request: Request) -> int:
    """Bytes on the wire (compressed), headers included; Chromium says -1 when it does not know,
    and then the body as decoded counts (an upper bound)."""
    sizes = request.sizes()
    body = sizes["responseBodySize"]
    if body < 0:
        response = request.response()
        body = len(response.body()) if response else 0
    return body + max(0, sizes["responseHeadersSize"])


@pytest.mark.parametrize("kind", sorted(declared("LOAD_BUDGETED")))
def test_first_load_of_a_staff_page_fits_the_budget(
    browser: Browser, live_server: Any, kind: str
) -> None:
    service: GameService = live_server.app.state.service
    game, organizer = DEMOS[kind](service, key())
    signing_in = browser.new_context(**PHONE)
    signing_in.new_page().goto(f"{live_server.url}/t/{service.link_of(organizer.person).token}")
    cookies = signing_in.cookies()
    signing_in.close()

    context = browser.new_context(**PHONE)  # an empty cache: a first load
    context.add_cookies(cookies)  # type: ignore[arg-type]
    page = context.new_page()
    asked = Requests(page, "")
    page.goto(f"{live_server.url}/g/{game.id}", wait_until="load")
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")  # its script ran

    def loading() -> list[Request]:
        return [r for r in asked.started if not any(part in r.url for part in LONG_LIVED)]

    wait_until(page, lambda: all(r in asked.ended for r in loading()), "the page's requests")
    seen = [r for r in asked.ended if r not in asked.failed]
    loaded = [r for r in seen if not any(part in r.url for part in LONG_LIVED)]
    sizes = {r.url.split("?")[0].removeprefix(live_server.url): body_size(r) for r in loaded}
    total = sum(sizes.values())
    print(
        f"\nbudget: {kind} staff page, {len(loaded)} requests, {total / 1024:.1f} KB compressed: "
        + ", ".join(f"{url} {size / 1024:.1f} KB" for url, size in sizes.items())
    )
    origin = urlsplit(live_server.url).netloc
    assert all(urlsplit(r.url).netloc == origin for r in seen), "a request to another host"
    assert len(loaded) <= FIRST_LOAD_REQUESTS, list(sizes)
    assert total <= FIRST_LOAD_BYTES
