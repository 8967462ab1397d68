"""In Chromium at 390 px: a live part that changes under the user's hands keeps what is theirs
(found by a newcomer's playthrough with six referees acting): a row they unfolded stays open, a
field they are typing in keeps its text and focus, an answer that arrives after a later change
does not leave the older screen (nor does the change undo the form
whose tap is on its way), and a tap refused when the network came back says so where the
next change cannot take it away."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, ROUTED, wait_until
from tests.conftest import key, viewer_of
from tests.serial_battle.scenes import sb_game


def test_a_row_opened_and_a_field_being_typed_survive_other_referees_actions(
    browser: Browser, live_server: Any
) -> None:
    service: GameService = live_server.app.state.service
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Ines"))
    token = service.link_of(service.person(game, people["referee"].person_id)).token  # type: ignore[arg-type]
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/t/{token}")
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    rows = page.locator(".serial-battle-players details")
    lea = rows.filter(has=page.locator("summary", has_text="Léa"))
    lea.locator("summary").tap()
    expect(lea).to_have_attribute("open", "")

    # Another referee corrects Hugo: the part comes on the stream, Léa's row stays open.
    other = {"type": "correct", "player": ids["Hugo"], "pv": 12, "reason": "b"}
    service.perform(game, people["referee"], other, idem_key=key())
    hugo = rows.filter(has=page.locator("summary", has_text="Hugo"))
    expect(hugo.locator(".pv")).to_have_text("12 PV")
    expect(lea).to_have_attribute("open", "")

    # Typing in Léa's row: a change arrives, the field keeps its text and the focus...
    field = lea.locator("input:not([type=hidden])").first
    field.tap()
    field.fill("7")
    again = {"type": "correct", "player": ids["Ines"], "pv": 9, "reason": "b"}
    service.perform(game, people["referee"], again, idem_key=key())
    expect(page.locator("#live")).to_have_attribute("data-stale", "1")  # arrived, held
    assert page.evaluate("document.activeElement.closest('details') !== null")
    expect(field).to_have_value("7")
    expect(lea).to_have_attribute("open", "")
    # ...and the page catches up when they leave it.
    page.locator("h2#players-title").tap()
    ines = rows.filter(has=page.locator("summary", has_text="Ines"))
    expect(ines.locator(".pv")).to_have_text("9 PV")
    expect(field).to_have_value("7")


def tally_console(browser: Browser, live_server: Any) -> tuple[Any, Any, str, Any, Any]:
    service: GameService = live_server.app.state.service
    game, organizer = service.create_game("tally", "Parc", "Camille", idem_key=key())
    gm = viewer_of(organizer)
    lea = viewer_of(service.register(game.id, gm, "player", "Léa", idem_key=key()))
    context = browser.new_context(**ROUTED)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{service.link_of(organizer.person).token}")
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    return service, gm, game.id, lea, (context, page)


def test_an_answer_that_comes_after_a_later_change_does_not_leave_the_older_screen(
    browser: Browser, live_server: Any
) -> None:
    service, gm, game, lea, (_context, page) = tally_console(browser, live_server)
    held: list[tuple[Route, Any]] = []

    def hold_the_answer(route: Route) -> None:
        held.append((route, route.fetch()))  # applied on the server; the answer waits

    page.route("**/act", hold_the_answer)
    page.get_by_role("button", name="Dé pour Léa").tap()
    wait_until(page, lambda: bool(held), "the tap, held on its way")
    service.perform(
        game, gm, {"type": "score", "player": lea.person_id, "points": 10}, idem_key=key()
    )
    seq = service.seq_of(game)
    expect(page.locator("#stream")).to_have_attribute("data-seq", str(seq))
    # The later change came while the tap was on its way: its form stays as it was sent (its
    # button disabled, its key), so a second tap is not a new action the screen invited.
    expect(page.get_by_role("button", name="Dé pour Léa")).to_be_disabled()
    route, answer = held[0]
    route.fulfill(response=answer)  # the referee's own answer, older than what the page shows
    expect(page.locator("#flash")).to_contain_text("Léa scores")
    points = service.load(game).state.players[str(lea.person_id)].points  # type: ignore[attr-defined]
    assert points > 10
    expect(page.locator(f'[data-player="{lea.person_id}"] .points')).to_have_text(str(points))


@pytest.mark.console(r"htmx:error: Failed to fetch")  # the network cut on purpose
def test_a_tap_refused_when_the_network_came_back_says_so_and_stays_said(
    browser: Browser, live_server: Any
) -> None:
    service, gm, game, lea, (context, page) = tally_console(browser, live_server)
    context.set_offline(True)
    page.get_by_role("button", name="Dé pour Léa").tap()
    expect(page.locator("#conn")).to_contain_text("Pas de réseau sur ce téléphone")
    service.perform(game, gm, {"type": "out", "player": lea.person_id}, idem_key=key())
    context.set_offline(False)
    # Back to its referee, with what changed meanwhile: not applied, not dropped.
    refused = page.locator("#queue .queue-refused")
    expect(refused).to_contain_text("Dé pour Léa")
    expect(refused).to_contain_text("Léa is out")
    # Later changes of the live part do not take it away.
    live = page.locator("#live")
    tag = live.get_attribute("data-live-tag")
    service.perform(game, gm, {"type": "timer.start", "seconds": 60}, idem_key=key())
    expect(page.locator("#stream")).to_have_attribute("data-seq", str(service.seq_of(game)))
    expect(live).not_to_have_attribute("data-live-tag", tag or "")  # the new part is in
    expect(refused).to_be_visible()
    expect(page.locator("#conn")).to_be_hidden()
    assert not any(  # the tap was not applied
        e["type"] == "command" and e["command"]["type"] == "roll" for e in service.log(game, gm)
    )
    refused.get_by_role("button", name="L’abandonner").tap()  # only its referee drops it
    expect(refused).to_have_count(0)
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('arbitre-queue'))") == []
    )
