"""In Chromium at 390 px: a phone whose viewer's projection did not change is told so on its
stream at another player's assault (the part's fingerprint, nothing fetched, nothing rendered),
its forms take the new number, and the change that touches it arrives on the stream itself, with
no request for it (issue 21)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, wait_until
from tests.conftest import key
from tests.serial_battle.scenes import sb_game


def test_an_untouched_phone_fetches_nothing_and_a_change_arrives_on_its_stream(
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
    # Its stream is open (a stream that opens after the change catches up with a fetch).
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    stats = live_server.app.state.live_stats
    rendered = stats["rendered"]
    # An assault between Léa and Hugo: Ines's stream says her part is unchanged.
    assault = {
        "type": "assault",
        "attacker": ids["Léa"],
        "defenders": [ids["Hugo"]],
        "card": "bare",
    }
    service.perform(game, people["referee"], assault, idem_key=key())
    seq = service.seq_of(game)
    expect(page.locator("#stream")).to_have_attribute("data-seq", str(seq))
    # (The page's policy forbids wait_for_function's eval: `evaluate` is asked until true.)
    numbers = "[...document.querySelectorAll('#live input[name=seq]')].map(i => i.value)"
    wait_until(page, lambda: set(page.evaluate(numbers)) <= {str(seq)}, "the forms' number")
    assert statuses == []  # nothing fetched
    assert stats["rendered"] == rendered  # nothing rendered for her
    assert page.locator("#live").get_attribute("data-live-tag") == tag
    # A change to Ines herself reaches her page at once, on the stream: still nothing fetched.
    correct = {"type": "correct", "player": ids["Ines"], "pv": 7, "reason": "b"}
    service.perform(game, people["referee"], correct, idem_key=key())
    expect(page.locator("#live")).to_contain_text("7")
    expect(page.locator("#live")).not_to_have_attribute("data-live-tag", tag)  # then its tag
    assert statuses == []


def test_two_referees_and_a_board_get_the_change_on_their_streams_rendered_once_each(
    browser: Browser, live_server: Any
) -> None:
    """The staff's part is rendered once for both referees, the board's once for it (issue 21:
    renders follow the projections a change touches, not the phones); each phone's forms keep
    their own cross-site token and take keys of their own."""
    service: GameService = live_server.app.state.service
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Ines"))
    second = service.register(game, people["organizer"], "referee", "Bruno", idem_key=key())
    first = service.person(game, people["referee"].person_id)  # type: ignore[arg-type]
    links = [service.link_of(first).token, second.link.token]
    pages, statuses = [], []
    for token in links:
        page = browser.new_context(**PHONE).new_page()
        page.on("response", lambda r: statuses.append(r.url) if "/live/" in r.url else None)
        page.goto(f"{live_server.url}/t/{token}")
        pages.append(page)
    board = browser.new_context(**PHONE).new_page()
    board.on("response", lambda r: statuses.append(r.url) if "/live/" in r.url else None)
    encodings: list[str | None] = []
    board.on(
        "response",
        lambda r: (
            encodings.append(r.headers.get("content-encoding")) if "/events" in r.url else None
        ),
    )
    board.goto(f"{live_server.url}/g/{game}/board")
    for page in [*pages, board]:
        expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    stats = live_server.app.state.live_stats
    rendered = stats["rendered"]
    # Hugo is out of the area, said by the organizer: the staff's console and the board both
    # change (neither referee may undo the organizer's action: one projection for both).
    out = {"type": "eliminate", "player": ids["Hugo"], "cause": "out_of_bounds"}
    service.perform(game, people["organizer"], out, idem_key=key())
    seq = service.seq_of(game)
    for page in [*pages, board]:
        expect(page.locator("#stream")).to_have_attribute("data-seq", str(seq))
        expect(page.locator("#live")).to_contain_text("Hugo")
    assert statuses == []  # all of it on the streams
    assert encodings == ["gzip"]  # compressed, as a page is
    assert stats["rendered"] - rendered == 2  # the staff's part and the board's
    tokens = [p.locator("#live input[name=csrf_token]").first.get_attribute("value") for p in pages]
    metas = [p.locator("meta[name=csrf-token]").get_attribute("content") for p in pages]
    assert tokens == metas and tokens[0] != tokens[1]
    keys = [p.locator("#live input[name=idem]").first.get_attribute("value") for p in pages]
    assert keys[0] != keys[1]
