"""In Chromium at 390 px: a phone whose viewer's projection did not change is answered 204 on the
nudge of another player's assault, keeps its page, and has the change that touches it at once."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from server.platform.service import GameService
from tests.browser.test_platform_flow import PHONE
from tests.helpers import key
from tests.security.scenes import sb_game


def test_an_untouched_phone_is_answered_204_and_still_follows(
    browser: Browser, live_server: Any
) -> None:
    service: GameService = live_server.app.state.service
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Ines"))
    token = service.link_of(service.person(game, ids["Ines"])).token
    page = browser.new_context(**PHONE).new_page()
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    page.goto(f"{live_server.url}/t/{token}")
    tag = page.locator("#live").get_attribute("data-live-tag")
    assert tag  # the page came with its part's fingerprint
    # An assault between Léa and Hugo: Ines's phone is nudged, asks, and is told "unchanged".
    assault = {
        "type": "assault",
        "attacker": ids["Léa"],
        "defenders": [ids["Hugo"]],
        "card": "bare",
    }
    service.perform(game, people["referee"], assault, idem_key=key())
    seq = service.seq_of(game)
    page.wait_for_function(f"parseInt(document.getElementById('stream').dataset.seq, 10) >= {seq}")
    deadline = 50
    while 204 not in statuses and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert 204 in statuses and 200 not in statuses, statuses  # answered, nothing rendered
    assert page.locator("#live").get_attribute("data-live-tag") == tag
    # A change to Ines herself reaches her page at once.
    correct = {"type": "correct", "player": ids["Ines"], "pv": 7, "reason": "b"}
    service.perform(game, people["referee"], correct, idem_key=key())
    expect(page.locator("#live")).to_contain_text("7")
