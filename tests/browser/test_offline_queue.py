"""Issue 36, the referee's queue beyond one page: on the field's plain-HTTP name (not a secure
context: no service worker, the queue in localStorage) it survives a reload and the browser
closed and opened again; and it is drained, applied once each, across a server restart, even
when the answer to the first drain is lost on the way back."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Route, expect
from playwright.sync_api import Error as PlaywrightError

from server.platform.clock import FakeClock
from tests.browser.conftest import PHONE, Requests, assault_offline, forest, wait_until
from tests.conftest import LiveServer, chromium_path, live_app, live_database
from tests.server_process import Cable, free_port

FIELD = "arbitre.field"
OFFLINE = (
    r"Failed to fetch|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED|sse:error"  # on purpose
)
PAIRS = (("Léa", "Hugo"), ("Zoé", "Tom"), ("Ana", "Paul"))
NAMES = ("Léa", "Hugo", "Zoé", "Tom", "Ana", "Paul")


def test_a_queue_on_the_field_survives_a_reload_and_the_browser_closed(
    browser_type: BrowserType, live_server: Any, tmp_path: Path
) -> None:
    """The hotspot's range is a cable cut and mended (not the browser's offline emulation,
    which a page being torn down escapes: seen here, a reload sending its queue anyway)."""
    woods = forest(live_server.app.state.service, NAMES)
    cable = Cable(int(live_server.url.rsplit(":", 1)[1]))
    base = f"http://{FIELD}:{cable.port}"
    profile = tmp_path / "phone"  # the phone's browser profile, kept when the browser closes

    def open_browser() -> Any:
        return browser_type.launch_persistent_context(
            str(profile),
            executable_path=chromium_path(),
            args=["--no-sandbox", "--disable-gpu", f"--host-resolver-rules=MAP {FIELD} 127.0.0.1"],
            **PHONE,
        )

    context = open_browser()
    try:
        page = context.new_page()
        page.goto(woods.console(base))
        assert page.evaluate("window.isSecureContext") is False
        expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
        cable.cut()  # out of the hotspot's range
        for attacker, defender in PAIRS:
            assault_offline(page, attacker, defender)
        expect(page.locator("#queue li")).to_have_count(3)
        with contextlib.suppress(PlaywrightError):  # no page without network here: no worker
            page.reload()
        page.close()
        context.close()  # the browser closed, the phone in a pocket
        assert woods.assaults() == []

        cable.mend()  # back in range, the browser opened again
        context = open_browser()
        page = context.new_page()
        page.goto(f"{base}/g/{woods.game}")
        wait_until(page, lambda: len(woods.assaults()) == 3, "the three assaults")
        assert woods.assaults() == [woods.pair(*p) for p in PAIRS]  # once each, in order
        expect(page.locator("#queue li")).to_have_count(0)
        expect(page.locator("#flash .flash")).to_have_count(3)
    finally:
        context.close()
        cable.close()


@pytest.mark.console(OFFLINE)
def test_a_queue_is_drained_across_a_server_restart_once_each(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    url, port = live_database(tmp_path_factory), free_port()
    clock = FakeClock(datetime.now(UTC))
    server = LiveServer(live_app(url, clock), port)
    server.start()
    woods = forest(server.app.state.service, NAMES)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(woods.console(server.url))
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    context.set_offline(True)
    for attacker, defender in PAIRS:
        assault_offline(page, attacker, defender)
    server.stop()  # the laptop's server restarts just as the phone comes back in range
    drains = Requests(page, "/queue")
    context.set_offline(False)
    wait_until(page, lambda: len(drains.failed) >= 1, "a drain the server could not answer")
    expect(page.locator("#queue li")).to_have_count(3)  # kept, to send again

    # The server is back; the first drain it applies loses its answer on the way back.
    lost: list[bool] = []

    def lose_the_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # applied on the server
        lost.append(True)
        route.abort("connectionreset")

    page.route("**/queue", lose_the_answer)
    server = LiveServer(live_app(url, clock), port)
    server.start()
    try:
        woods.service = server.app.state.service  # the restarted server's
        wait_until(page, lambda: bool(lost), "the drain whose answer is lost")
        expect(page.locator("#queue li")).to_have_count(0)  # sent again, answered
        assert woods.assaults() == [woods.pair(*p) for p in PAIRS]  # once each, in order
        expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    finally:
        server.stop()
        context.close()
