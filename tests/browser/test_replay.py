"""A finished game replayed on its board (issue 37), at a phone's width in French and on a big
screen in English: the board offers it, a step has an address, the buttons, the arrows and "Play"
step through, and no page fails an accessibility check."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, assert_accessible, shot
from tests.scene import declared
from tests.security.conftest import SCENES

# The end each kind's replay is tried on; True: its replay is also stepped through, with its
# buttons, its arrows and "Play" (`REPLAY_ENDS` in each game's scenes).
ENDS: dict[str, bool] = declared("REPLAY_ENDS")


@pytest.mark.parametrize("label", sorted(label for label, walked in ENDS.items() if walked))
def test_a_finished_game_replays_on_its_board(
    browser: Browser, live_server: Any, label: str
) -> None:
    service: GameService = live_server.app.state.service
    scene = SCENES[label](service, service.dice)  # type: ignore[arg-type]
    last = len(service.steps(scene.game))
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/g/{scene.game}/board")
    phone.get_by_role("link", name="Revoir la partie, coup par coup").tap()
    replay = phone.locator("#replay")
    expect(replay).to_have_attribute("data-step", str(last))  # it opens on the end
    expect(phone.locator("[data-now]")).to_contain_text(f"étape {last} sur {last}")
    assert_accessible(phone)
    shot(phone, "replay")
    phone.get_by_role("link", name="Début").tap()
    expect(replay).to_have_attribute("data-step", "0")
    expect(phone).to_have_url(re.compile(r"\?step=0$"))  # the step has its address
    expect(phone.locator("[data-now]")).to_contain_text("La partie à son début.")
    phone.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "1")
    # Quick taps on "Next" add up, none lost while a step loads (issue 54): three taps in a row,
    # the second and third while the first step is in flight, land on the third step after.
    aim = min(4, last)
    phone.locator("[data-replay-next]").evaluate("a => { a.click(); a.click(); a.click(); }")
    expect(replay).to_have_attribute("data-step", str(aim))
    expect(phone).to_have_url(re.compile(rf"\?step={aim}$"))
    expect(phone.locator("[data-now]")).to_contain_text(f"étape {aim} sur {last}")
    phone.keyboard.press("Home")
    expect(replay).to_have_attribute("data-step", "0")
    phone.get_by_label("Vitesse").select_option("400")
    phone.get_by_role("button", name="Lecture").tap()
    expect(phone.get_by_role("button", name="Pause")).to_be_visible()
    expect(replay).to_have_attribute("data-step", str(last))  # played to the end, then stops
    expect(phone.get_by_role("button", name="Lecture")).to_be_visible()

    wide = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    big = wide.new_page()
    big.goto(f"{live_server.url}/g/{scene.game}/replay?step=1")
    expect(big.locator("[data-now]")).to_contain_text(f"step 1 of {last}")
    expect(big.locator("[aria-current=step]")).to_have_count(1)
    assert_accessible(big)
    big.keyboard.press("End")
    expect(big.locator("#replay")).to_have_attribute("data-step", str(last))


@pytest.mark.parametrize("label", sorted(ENDS))
def test_every_kind_replays_at_390_px_in_french_and_on_a_big_screen_in_english(
    browser: Browser, live_server: Any, label: str
) -> None:
    service: GameService = live_server.app.state.service
    scene = SCENES[label](service, service.dice)  # type: ignore[arg-type]
    last = len(service.steps(scene.game))
    for context, said in (
        (PHONE, f"étape {last} sur {last}"),
        ({"viewport": {"width": 1280, "height": 900}, "locale": "en-US"}, f"step {last} of {last}"),
    ):
        page = browser.new_context(**context).new_page()
        page.goto(f"{live_server.url}/g/{scene.game}/board")
        page.locator(f'a[href="/g/{scene.game}/replay"]').click()
        expect(page.locator("[data-now]")).to_contain_text(said)
        page.wait_for_load_state("load")  # its deferred scripts run: a key before them is lost
        assert_accessible(page)
        page.keyboard.press("Home")
        expect(page.locator("#replay")).to_have_attribute("data-step", "0")
        assert_accessible(page)
        page.context.close()
