"""Issue 36, the referee's queue beyond one page: on the field's plain-HTTP name (not a secure
context: no service worker, the queue in localStorage) it survives a reload and the browser
closed and opened again; and it is drained, applied once each, across a server restart, even
when the answer to the first drain is lost on the way back."""

from __future__ import annotations

import contextlib
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Route, expect
from playwright.sync_api import Error as PlaywrightError

from server.platform.clock import FakeClock
from tests.browser.kit import PHONE, ROUTED, Requests, wait_until
from tests.conftest import LiveServer, chromium_path, key, live_app, live_database
from tests.serial_battle.browser_kit import assault_offline, forest, pick
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
    context = browser.new_context(**ROUTED)
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


@pytest.fixture
def cable(live_server: Any) -> Any:
    """The live server behind a cable to cut: `http://localhost:<port>` (a secure context, with
    its service worker) or the field's name."""
    made = Cable(int(live_server.url.rsplit(":", 1)[1]))
    yield made
    made.close()


@pytest.mark.console(OFFLINE + "|ERR_EMPTY_RESPONSE|ERR_CONNECTION_CLOSED|ERR_CONNECTION_RESET")
def test_a_tap_that_may_have_reached_the_server_cannot_be_cancelled(
    browser: Browser, live_server: Any, cable: Any
) -> None:
    """An outside review: out of range with the phone still "online", an assault's tap is kept,
    but it may have reached the server before the cut: it is said so, with no Cancel that would
    lie (cancelled, then applied). Its panel goes back to the chips: the same assault is not
    tapped twice by mistake (the review's doubled assault)."""
    woods = forest(live_server.app.state.service, ("Léa", "Hugo", "Zoé", "Tom"))
    page = browser.new_context(**PHONE).new_page()
    page.goto(woods.console(f"http://localhost:{cable.port}"))
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    pick(page, "Léa", "Hugo")
    cable.cut()
    page.get_by_role("button", name="Lancer les dés").tap()
    waiting = page.locator("#queue li")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("ne peut plus être annulée")
    expect(waiting.get_by_role("button", name="L’annuler")).to_have_count(0)
    expect(page.locator("#assault-chips")).to_be_visible()  # not the same form again
    cable.mend()
    wait_until(page, lambda: woods.assaults() == [woods.pair("Léa", "Hugo")], "the assault")
    expect(waiting).to_have_count(0)


@pytest.mark.console(OFFLINE)
def test_an_attacker_chosen_online_attacks_the_defender_tapped_offline(
    browser: Browser, live_server: Any
) -> None:
    """An outside review: the attacker tapped online, the defender offline: the assault is the
    attacker's (it was the defender's); "Other players" gives the chips back, nothing chosen."""
    woods = forest(live_server.app.state.service, ("Léa", "Hugo", "Zoé", "Tom"))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(woods.console(live_server.url))
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    chips = page.locator("#assault-chips")
    chips.get_by_role("link", name=re.compile("Léa")).tap()
    expect(page.locator("#assault-title")).to_contain_text("Léa attaque")
    context.set_offline(True)
    chips.get_by_role("link", name=re.compile("Hugo")).tap()
    form = page.locator("form.offline-assault")
    expect(form.locator("[data-who]")).to_have_text("Léa → Hugo")
    form.get_by_role("button", name="Autres joueurs").tap()
    expect(page.locator("#assault-chips .chosen")).to_have_count(0)
    assault_offline(page, "Zoé", "Tom")
    expect(page.locator("#queue li")).to_have_count(1)
    context.set_offline(False)
    wait_until(page, lambda: woods.assaults() == [woods.pair("Zoé", "Tom")], "Zoé → Tom")


@pytest.mark.console(OFFLINE)
def test_two_tabs_keep_their_own_queues_and_none_is_lost(
    browser: Browser, live_server: Any
) -> None:
    """An outside review: two tabs of the console offline, an assault in each; the first tab
    closed. Its queue is not overwritten by the other's: the next page that opens sends it."""
    woods = forest(live_server.app.state.service, NAMES)
    context = browser.new_context(**PHONE)
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(woods.console(live_server.url))
        expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    context.set_offline(True)
    assault_offline(first, "Léa", "Hugo")
    assault_offline(second, "Zoé", "Tom")
    # (A tab closed under the browser's offline emulation may still send its queue as it goes:
    # the emulation is lifted from a page being torn down. Either way, each assault once.)
    first.close()
    context.set_offline(False)
    wait_until(second, lambda: woods.pair("Zoé", "Tom") in woods.assaults(), "Zoé → Tom")
    second.reload()  # a page that opens takes in what another tab left
    wait_until(second, lambda: len(woods.assaults()) >= 2, "Léa → Hugo too")
    expect(second.locator("#stream")).to_have_attribute("data-connected", "1")
    assert sorted(woods.assaults()) == sorted([woods.pair("Zoé", "Tom"), woods.pair("Léa", "Hugo")])


@pytest.mark.console(OFFLINE + "|ERR_EMPTY_RESPONSE|ERR_CONNECTION_CLOSED|ERR_CONNECTION_RESET")
def test_the_offline_page_comes_back_with_the_network(
    browser: Browser, live_server: Any, cable: Any
) -> None:
    """An outside review: a console reloaded out of range shows the service worker's page
    ("No network"), which came back to nothing. It comes back to the console by itself once the
    server answers again."""
    woods = forest(live_server.app.state.service, ("Léa", "Hugo"))
    page = browser.new_context(**PHONE).new_page()
    page.goto(woods.console(f"http://localhost:{cable.port}"))
    active = "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))"
    wait_until(page, lambda: page.evaluate(active), "the service worker")
    page.reload()  # now under the worker's control
    controlled = "!!navigator.serviceWorker.controller"
    wait_until(page, lambda: page.evaluate(controlled), "the service worker in control")
    cable.cut()
    page.reload()
    expect(page.get_by_role("heading", name="Pas de réseau")).to_be_visible()
    cable.mend()
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")  # the console


def test_a_tap_in_flight_when_its_page_closes_is_sent_by_the_next_one(
    browser: Browser, live_server: Any
) -> None:
    """An outside review: on a network that swallows requests, a tap was kept nowhere while it
    travelled (15 s before it was listed): a page closed meanwhile lost it. It is now kept from
    the moment it leaves, listed once its answer is slow, and the next page sends it (once)."""
    woods = forest(live_server.app.state.service, ("Léa", "Hugo", "Zoé", "Tom"))
    context = browser.new_context(**ROUTED)
    page = context.new_page()
    page.goto(woods.console(live_server.url))
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    hugo = woods.players["Hugo"].person_id
    held: list[Route] = []
    page.route("**/act", lambda route: held.append(route))  # swallowed: no answer, ever
    # ...and so is its queue: on a loaded machine htmx's 15 s timeout may come first, and the
    # tap go to the queue (rightly): this page sends nothing that reaches the server.
    page.route("**/queue", lambda route: held.append(route))
    pick(page, "Léa", "Hugo")
    page.get_by_role("button", name="Lancer les dés").tap()
    wait_until(page, lambda: bool(held), "the tap, on its way")
    waiting = page.locator("#queue li")
    expect(waiting).to_contain_text("Léa → Hugo")  # listed once its answer is slow
    expect(waiting.get_by_role("button", name="L’annuler")).to_have_count(0)
    page.close()
    assert woods.assaults() == []
    again = context.new_page()
    again.goto(f"{live_server.url}/g/{woods.game}")
    wait_until(again, lambda: woods.assaults() == [woods.pair("Léa", "Hugo")], "the assault")
    assert woods.service.load(woods.game).state.player(hugo).assaults == 1  # type: ignore[attr-defined]


@pytest.mark.console(OFFLINE)
def test_a_drain_leaves_each_tap_applied_or_returned_in_order_and_the_banner_goes(
    browser: Browser, live_server: Any
) -> None:
    """The fifth outside pass: three assaults queued offline around Hugo at 1 PV, whatever the
    dice make of them (a knockout, a choice pending, a refusal). Each is applied or comes back;
    none is applied after one that came back naming the same player; and once nothing waits for
    the network (only for the referee), the banner goes."""
    woods = forest(live_server.app.state.service, ("Léa", "Hugo", "Zoé", "Tom"))
    hugo = woods.players["Hugo"].person_id
    woods.service.perform(
        woods.game,
        woods.org,
        {"type": "correct", "player": hugo, "pv": 1, "reason": "x"},
        idem_key=key(),
    )
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(woods.console(live_server.url))
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    pairs = (("Léa", "Hugo"), ("Hugo", "Zoé"), ("Zoé", "Tom"))
    context.set_offline(True)
    for attacker, defender in pairs:
        assault_offline(page, attacker, defender)
    context.set_offline(False)
    waiting, back = page.locator("#queue li"), page.locator("#queue li[class^='queue-']")
    wait_until(page, lambda: len(woods.assaults()) + back.count() == 3, "each applied or back")
    expect(waiting).to_have_count(back.count())  # nothing left waiting for the network
    applied = woods.assaults()
    returned = [p for p in pairs if woods.pair(*p) not in applied]
    assert back.count() == len(returned)
    for n, later in enumerate(pairs):
        if woods.pair(*later) in applied:  # nothing before it came back naming its players
            assert not any(set(later) & set(p) for p in pairs[:n] if p in returned), applied
    expect(page.locator("#conn")).to_be_hidden()
