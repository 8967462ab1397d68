"""The field (issue 23): a laptop on a hotspot serves plain HTTP at a LAN address, which browsers
treat as NOT a secure context (no service worker, no Wake Lock). Chromium is pointed at a name
mapped to the loopback (`--host-resolver-rules`), which it treats the same way. There the pages
and their live updates work; the referee's screen is kept awake by a silent video started on the
first tap; the organizer is told once what HTTPS would add. On 127.0.0.1 (a secure context) the
service worker and the Wake Lock are as before, and no hint shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, Requests, wait_until
from tests.conftest import chromium_path, key, tally_game

FIELD = "arbitre.field"


@pytest.fixture(scope="module")
def field_browser(browser_type: BrowserType) -> Iterator[Browser]:
    browser = browser_type.launch(
        executable_path=chromium_path(),
        args=["--no-sandbox", "--disable-gpu", f"--host-resolver-rules=MAP {FIELD} 127.0.0.1"],
    )
    yield browser
    browser.close()


def test_the_field_works_without_a_secure_context(field_browser: Browser, live_server: Any) -> None:
    service: GameService = live_server.app.state.service
    game, org, referee, (lea, _hugo) = tally_game(service)
    organizer = service.person(game.id, org.person_id)  # type: ignore[arg-type]
    port = live_server.url.rsplit(":", 1)[1]
    base = f"http://{FIELD}:{port}"
    context = field_browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/t/{service.link_of(organizer).token}")
    assert page.evaluate("window.isSecureContext") is False
    # Told once what HTTPS would add; gone for good once understood.
    hint = page.locator("#insecure-hint")
    expect(hint).to_be_visible()
    hint.get_by_role("button").click()
    expect(hint).to_be_hidden()
    page.reload()
    expect(page.locator("#insecure-hint")).to_be_hidden()
    # No service worker where there can be none; the page and its live part work.
    assert page.evaluate("'serviceWorker' in navigator") is False
    service.perform(game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key=key())
    seq = service.seq_of(game.id)
    expect(page.locator("#stream")).to_have_attribute("data-seq", str(seq))
    # The referee's console: the silent video starts on the first tap.
    console = context.new_page()
    console.goto(f"{base}/t/{service.link_of(service.person(game.id, referee.person_id)).token}")  # type: ignore[arg-type]
    # (The page's policy forbids wait_for_function's eval: `evaluate` is asked until true.)
    wait_until(console, lambda: console.evaluate("window.NoSleep !== undefined"), "NoSleep")
    console.locator("main").click()
    wait_until(console, lambda: console.evaluate("document.body.dataset.awake") == "video", "video")
    context.close()


def test_on_a_secure_address_nothing_changes(browser: Browser, live_server: Any) -> None:
    service: GameService = live_server.app.state.service
    game, org, _referee, _players = tally_game(service)
    page = browser.new_context(**PHONE).new_page()
    page.goto(
        f"{live_server.url}/t/{service.link_of(service.person(game.id, org.person_id)).token}"
    )  # type: ignore[arg-type]
    assert page.evaluate("window.isSecureContext") is True
    expect(page.locator("#insecure-hint")).to_be_hidden()
    registered = "navigator.serviceWorker.getRegistration().then(r => !!r)"
    wait_until(page, lambda: page.evaluate(registered), "the service worker")
    assert page.evaluate("document.getElementById('nosleep-js')") is None


def test_a_tap_made_offline_on_the_field_is_sent_once(
    field_browser: Browser, live_server: Any
) -> None:
    """On the insecure name too, a tap made while the hotspot is gone is sent once it is back."""
    from tests.conftest import viewer_of

    service: GameService = live_server.app.state.service
    game, organizer = service.create_game("tally", "Champ", "Camille", idem_key=key())
    lea = viewer_of(
        service.register(game.id, viewer_of(organizer), "player", "Léa", idem_key=key())
    )
    port = live_server.url.rsplit(":", 1)[1]
    context = field_browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"http://{FIELD}:{port}/t/{service.link_of(organizer.person).token}")
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    before = service.load(game.id).game.seq
    taps = Requests(page, "/act")
    context.set_offline(True)
    page.get_by_role("button", name="Dé pour Léa").tap()
    expect(page.locator("#conn")).to_contain_text("Pas de réseau sur ce téléphone")
    assert service.load(game.id).game.seq == before
    context.set_offline(False)
    expect(page.locator("#flash")).to_contain_text("Léa scores")
    wait_until(page, taps.settled, "every sending of the tap to end")
    rolls = [
        e
        for e in service.log(game.id, viewer_of(organizer))
        if e["type"] == "command" and e["command"]["player"] == lea.person_id
    ]
    assert len(rolls) == 1
    context.close()
