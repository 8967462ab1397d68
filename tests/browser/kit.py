"""Browser helpers every game's browser tests use: a phone's viewport, waiting for a state,
the requests a page made, accessibility checks with axe-core (vendored in tests/assets) and
screenshots. A game's own helpers are in its tests' folder."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Request, expect

AXE = (Path(__file__).parent.parent / "assets" / "axe.min.js").read_text()
# A browser test waits for a state the page reaches, never for a fixed time: `expect` waits up to
# this long for it, which a loaded machine may need (a state reached earlier ends the wait).
STATE_TIMEOUT = 20.0
expect.set_options(timeout=STATE_TIMEOUT * 1000)


def wait_until(page: Page, condition: Callable[[], bool], what: str) -> None:
    """Waits for a state the test sees from Python (a request made, a note the page wrote), as
    `expect` does for the page's own: Playwright's events are handled meanwhile."""
    deadline = time.monotonic() + STATE_TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        page.wait_for_timeout(20)


class Requests:
    """The requests a page made to addresses containing `part`, and how each ended."""

    def __init__(self, page: Page, part: str) -> None:
        self.started: list[Request] = []
        self.ended: list[Request] = []
        self.failed: list[Request] = []
        page.on("request", lambda r: self.started.append(r) if part in r.url else None)
        page.on("requestfinished", lambda r: self.ended.append(r) if part in r.url else None)
        page.on("requestfailed", lambda r: self._failed(r) if part in r.url else None)

    def _failed(self, request: Request) -> None:
        self.ended.append(request)
        self.failed.append(request)

    def settled(self) -> bool:
        """Every request made has ended (answered or failed)."""
        return len(self.ended) == len(self.started)


SHOTS = Path(__file__).parent.parent.parent / "test-results" / "screens"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core with the WCAG 2.1 A and AA rules; injected through the DevTools protocol, which
    the page's strict CSP (no inline script) does not block."""
    page.evaluate(AXE + ";0")
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: 'tag',
                values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
            return r.violations.map(v => ({id: v.id, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
        }"""
    )
    return list(result)


def assert_accessible(page: Any) -> None:
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # The caret left as it is: Playwright hides it with an inline style on every field, which
    # htmx's next swap carries over and the page's policy then refuses (a console error no
    # phone ever meets: issue 35, class D).
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, caret="initial")


PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "fr-FR",
}

# A phone whose requests a test holds or rewrites (page.route): no service worker, since a
# request of a page one controls may pass by page.route (Playwright's documented limit,
# microsoft/playwright#7588) and a swallowed tap reach the server after all (seen once in CI).
ROUTED: dict[str, Any] = {**PHONE, "service_workers": "block"}


# Records each try to buzz, and whether the phone had been touched (a browser refuses before).
BUZZES = """window.buzzes = [];
navigator.vibrate = (pattern) => {
  window.buzzes.push(pattern);
  return true;
};"""


def opened(browser: Browser, url: str, height: int = 844) -> Page:
    """A phone of `height` px at 390 px wide opened at `url`, its buzzes recorded (`BUZZES`)."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": 390, "height": height}})
    context.add_init_script(BUZZES)
    page = context.new_page()
    page.goto(url)
    return page


def live(page: Page) -> Page:
    """The page, once its live stream is connected."""
    expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    return page


def answer_confirm(page: Page, accept: bool) -> str:
    """Answers the page's own question before an action (`hx-confirm`: templates/base.html, never
    the browser's `confirm()`): Confirmer or Annuler tapped; what it asked."""
    dialog = page.locator("dialog[open]")
    expect(dialog).to_be_visible()
    # In the middle of the screen, never at its top-left corner over the header (a newcomer's
    # find, issue 54: a panel's margin took the dialog's own centring away).
    box, screen = dialog.bounding_box(), page.viewport_size
    assert box and screen, "the dialog and the screen have their sizes"
    right = screen["width"] - box["x"] - box["width"]
    middle = box["y"] + box["height"] / 2
    assert (
        abs(box["x"] - right) <= 2 and screen["height"] / 4 < middle < screen["height"] * 3 / 4
    ), box
    asked = dialog.locator("p").inner_text()
    dialog.get_by_role("button", name="Confirmer" if accept else "Annuler").tap()
    expect(dialog).to_be_hidden()
    return asked
