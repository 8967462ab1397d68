"""Browser helpers: a phone's viewport, accessibility checks with axe-core (vendored in
tests/assets), screenshots, and a self-refereed match between two coaches."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from server.games.killpower.demo import wizard
from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered
from tests.conftest import key, viewer_of

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder is a browser test (`-m "not browser"` leaves them out)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _browser_marker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Starts the test with the live server's dice fresh, and closes the phones it opened: a
    page left open goes on ticking its countdowns and holding its stream, slowing every test
    after it."""
    if "live_server" in request.fixturenames:
        # The live server lives for the whole session: dice a test pushed and did not use are
        # not the next test's (a Trust Me fight read another test's leftovers as its defence).
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
    `@pytest.mark.console(r"pattern")`."""
    errors: list[str] = []
    if "browser" not in request.fixturenames and "page" not in request.fixturenames:
        yield errors
        return
    marker = request.node.get_closest_marker("console")
    allowed = [re.compile(p) for p in (marker.args if marker else ())]

    def heard(text: str) -> None:
        if not text.startswith(ANSWER_LOGGED) and not any(p.search(text) for p in allowed):
            errors.append(text)

    def watched(context: BrowserContext) -> BrowserContext:
        context.on("console", lambda m: heard(m.text) if m.type == "error" else None)
        context.on("weberror", lambda e: heard(f"script error: {e.error}"))
        return context

    new_context = Browser.new_context
    monkeypatch.setattr(
        Browser, "new_context", lambda self, *a, **kw: watched(new_context(self, *a, **kw))
    )
    yield errors
    assert errors == [], "the browser console said:\n" + "\n".join(errors[:10])


PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "fr-FR",
}


def two_coach_match(
    service: GameService, *, board: bool = False
) -> tuple[str, dict[str, Registered], str]:
    """A league (Alix's Nabos, Basile's Titanos) and a self-refereed match opened between them:
    the league's id, the coaches, the match's id."""
    game, owner = service.create_game("killpower_league", "Ligue", "Camille", idem_key=key())
    org = viewer_of(owner)
    coaches = {
        name: service.register(game.id, org, "coach", name, idem_key=key())
        for name in ("Alix", "Basile")
    }
    for name, team in (("Alix", "Nabos"), ("Basile", "Titanos")):
        service.perform(game.id, viewer_of(coaches[name]), wizard(team), idem_key=key())
    teams = {t.name: t.id for t in service.load(game.id).state.teams.values()}
    request = {"team_a": teams["Nabos"], "team_b": teams["Titanos"], "mode": "self", "board": board}
    match_id = service.open_linked(game.id, viewer_of(coaches["Alix"]), request, idem_key=key())
    return game.id, coaches, match_id


# ---------------------------------------------------------------- a forest without coverage


@dataclass
class Forest:
    """A running Serial Battle with two referees, its cards scattered (none dealt at the start,
    so a test gives the ones it needs), for the offline tests of issue 36."""

    service: GameService
    game: str
    org: Viewer
    referee: Registered
    other: Viewer
    players: dict[str, Viewer]

    def console(self, base: str) -> str:
        return f"{base}/t/{self.service.link_of(self.referee.person).token}"

    def assaults(self) -> list[tuple[int, int]]:
        """The assaults applied, in order: (attacker, first defender)."""
        return [
            (e["command"]["attacker"], e["command"]["defenders"][0])
            for e in self.service.log(self.game, self.org)
            if e["type"] == "command" and e["command"]["type"] == "assault"
        ]

    def pair(self, attacker: str, defender: str) -> tuple[int, int]:
        return (self.players[attacker].person_id, self.players[defender].person_id)  # type: ignore[return-value]


def forest(service: GameService, names: tuple[str, ...], dice: str = "server") -> Forest:
    game, organizer = service.create_game(
        "serial_battle",
        "Forêt",
        "Orga",
        dice=dice,
        idem_key=key(),
        settings={"deal_mode": "scattered"},
    )
    org = viewer_of(organizer)
    referee = service.register(game.id, org, "referee", "Arbitre Nord", idem_key=key())
    other = viewer_of(service.register(game.id, org, "referee", "Arbitre Sud", idem_key=key()))
    players = {
        n: viewer_of(service.register(game.id, org, "player", n, idem_key=key())) for n in names
    }
    service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return Forest(service, game.id, org, referee, other, players)


def pick(page: Page, attacker: str, defender: str) -> None:
    """The two chips of an assault, online, each tap seen through before the next (a tap on the
    chips before the last answer has redrawn them picks from the old list)."""
    chips = page.locator("#assault-chips")
    chips.get_by_role("link", name=re.compile(attacker)).tap()
    expect(page.get_by_role("heading", name=f"{attacker} attaque. Qui défend ?")).to_be_visible()
    chips.get_by_role("link", name=re.compile(defender)).tap()
    expect(page.get_by_role("heading", name=f"{attacker} → {defender}")).to_be_visible()


def assault_offline(page: Page, attacker: str, defender: str, dice: tuple[int, ...] = ()) -> None:
    """An assault entered on the chips with no network: the phone builds its form and keeps it."""
    chips = page.locator("#assault-chips")
    chips.get_by_role("link", name=re.compile(attacker)).tap()
    expect(page.locator("#assault-title")).to_contain_text(attacker)
    chips.get_by_role("link", name=re.compile(defender)).tap()
    form = page.locator("form.offline-assault")
    expect(form.locator("[data-who]")).to_have_text(f"{attacker} → {defender}")
    # Nothing decisive starts chosen: who touched first, whether the defender answers.
    form.locator('[name="touch"][value="attacker"]').check()
    form.locator('[name="answer"][value="true"]').check()
    for field, value in zip(("roll_damage", "roll_location"), dice, strict=False):
        form.locator(f'[name="{field}"]').fill(str(value))
    form.get_by_role("button", name="Garder cet assaut").tap()
    expect(page.locator("#assault-chips")).to_be_visible()  # the chips, for the next one
