"""A finished match replayed on its board (`tests/browser/test_replay.py`): a piece slides from
one step to the next."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE
from tests.killpower.conftest import Match


def test_a_piece_slides_from_one_step_to_the_next(browser: Browser, live_server: Any) -> None:
    """Killpower Ball on the board: a gladiator walks, then the match is conceded; stepping from
    before the walk to after it, its piece slides to its new square (an animation runs) instead
    of jumping."""
    service: GameService = live_server.app.state.service
    m = Match(service, service.dice, board=True)  # type: ignore[arg-type]
    m.act("A", {"type": "lineup", "gladiators": m.ids["A"][:6], "bluff": 2}, 10, 8, 6, 4, 2, 1)
    m.act("B", {"type": "lineup", "gladiators": m.ids["B"][:2], "bluff": 1}, 9, 7)
    m.act("B", {"type": "give_ball", "gladiator": m.g("B", 1)})
    m.act("B", {"type": "move", "gladiator": m.g("B", 1), "to": "N17"})
    m.act("B", {"type": "move", "gladiator": m.g("B", 1), "to": "L17"})
    m.act("B", {"type": "end_phase"})
    m.act("A", {"type": "surrender"})
    assert m.state.stage == "finished"
    walk = len(service.steps(m.id)) - 2  # the second move: N17 to L17
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/g/{m.id}/replay?step={walk - 1}")
    piece = page.locator(f'.kp-piece[data-id="{m.g("B", 1)}"]')
    expect(piece).to_have_attribute("data-square", "N17")
    page.get_by_role("link", name="Suivante ▶").tap()
    expect(piece).to_have_attribute("data-square", "L17")
    page.wait_for_function("document.getAnimations().length > 0", timeout=2000)
