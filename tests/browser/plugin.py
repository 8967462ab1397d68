"""What every browser test gets, wherever its file is (a game's browser tests live in its own
tests' folder): the `browser` mark, fresh dice and closed phones after each test, and a console
left without an error."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog

# A test that asks for one of these (or for a browser of its own, `*_browser`) drives Chromium,
# or the live server that browser tests share.
BROWSER_FIXTURES = {"browser", "page", "context", "browser_type", "live_server"}


def mark_browser_tests(items: list[pytest.Item]) -> None:
    """Every test that opens a browser is a browser test (`-m "not browser"` leaves them out)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & names or any(n.endswith("_browser") for n in names):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _browser_marker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Starts the test with the live server's dice fresh, and closes the phones it opened: a
    page left open goes on ticking its countdowns and holding its stream, slowing every test
    after it."""
    if "live_server" in request.fixturenames:
        # The live server lives for the whole session: dice a test pushed and did not use are
        # not the next test's (a fight read another test's leftovers as its defence).
        dice = request.getfixturevalue("live_server").app.state.service.dice
        dice.values.clear()
        dice.endless = True
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


# What the browser itself logs for any answer in error (a refusal is a 4xx the page shows): the
# answers are tested for what they say; the console check is for what the page's code does.
ANSWER_LOGGED = "Failed to load resource"


@pytest.fixture(autouse=True)
def quiet_console(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[str]]:
    """Issue 35, class D: every page every browser test opens, and every tap it makes, leaves
    the console without an error: no script error, no policy violation (an inline style that
    the strict CSP refuses), nothing logged as an error by Arbitre's own script. A test whose
    point is an error the browser logs (the network cut on purpose) says which, with
    `@pytest.mark.console(r"pattern")`. No page opens a native dialog (`confirm()`): the
    page's own asks (issue 54)."""
    errors: list[str] = []
    if "browser" not in request.fixturenames and "page" not in request.fixturenames:
        yield errors
        return
    marker = request.node.get_closest_marker("console")
    allowed = [re.compile(p) for p in (marker.args if marker else ())]

    def heard(text: str) -> None:
        if not text.startswith(ANSWER_LOGGED) and not any(p.search(text) for p in allowed):
            errors.append(text)

    def native(dialog: Dialog) -> None:
        # Issue 54: a question is asked in the page's own dialog, never the browser's.
        errors.append(f"a native {dialog.type}() dialog: {dialog.message}")
        dialog.dismiss()

    def watched(context: BrowserContext) -> BrowserContext:
        context.on("console", lambda m: heard(m.text) if m.type == "error" else None)
        context.on("weberror", lambda e: heard(f"script error: {e.error}"))
        context.on("dialog", native)
        return context

    new_context = Browser.new_context
    monkeypatch.setattr(
        Browser, "new_context", lambda self, *a, **kw: watched(new_context(self, *a, **kw))
    )
    yield errors
    assert errors == [], "the browser console said:\n" + "\n".join(errors[:10])
