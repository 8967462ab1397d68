"""Every page of every game at a narrow phone's width (issue 17, items 11 and 17): nothing needs
sideways scrolling at 320 px, every tap target is at least 48 px on its short side, and no word
of a header or a button is cut in two ("Combatta nts") or spills out of its box ("Réessayer").

The pages are those `tests/security/test_every_page.py` walks (every GET page of every scene,
for each person of the scene and the public), opened in Chromium at 320 x 640; a page another
person or scene showed byte for byte (its tokens aside) is measured once. A radio button or
a checkbox is tapped through its label, so the label is its target.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Browser, Route

from server.games import routers
from server.platform.kinds import KINDS
from server.platform.service import GameService
from tests.conftest import BROWSER, all_routes, fingerprint
from tests.security.conftest import SCENES, addresses

NARROW: dict[str, Any] = {
    "viewport": {"width": 320, "height": 640},
    "is_mobile": True,
    "has_touch": True,
    "locale": "fr-FR",
    "service_workers": "block",  # layout only: no offline cache filled for each visitor
}
TARGET = 48  # px, the spec's least tap target (platform.md)

MEASURE = r"""(TARGET) => {
  const conn = document.getElementById('conn');  // the offline banner, with its longest words
  if (conn) {
    const text = conn.querySelector('[data-conn-text]');
    text.textContent = text.dataset.pending;
    conn.hidden = false;
  }
  const doc = document.documentElement;
  const wide = [];
  // A phone widens its layout to the widest content: the screen's width is the measure.
  if (doc.scrollWidth > screen.width) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width && r.right > screen.width + 1) wide.push(el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim().slice(0, 40));
    }
  }
  const small = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('a[href], button, select, input, textarea, summary')) {
    if (el.type === 'hidden' || el.closest('[hidden], .visually-hidden, noscript')) continue;
    let target = el;
    if ((el.type === 'radio' || el.type === 'checkbox') && el.labels && el.labels.length) target = el.labels[0];
    if (seen.has(target)) continue;
    seen.add(target);
    const r = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    if (Math.min(r.width, r.height) < TARGET - 0.5) small.push(target.tagName + ' "' + (target.textContent || target.value || target.getAttribute('aria-label') || '').trim().slice(0, 30) + '" ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  for (const el of document.body.querySelectorAll('*')) {  // a box of its own scrolling sideways
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1) wide.push(el.tagName + '.' + el.className + ' scrolls');
  }
  const broken = [];  // "Combatta nts": a word cut over two lines, or text out of its box
  for (const el of document.querySelectorAll('th, td, li, button, .button, .chip-button, .seg, .segmented span')) {
    if (!el.getBoundingClientRect().width) continue;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible') {
      broken.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" overflows');
      continue;
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\s\u00a0]{2,}/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(el.tagName + ' "' + m[0] + '" cut');
      }
    }
  }
  return {wide: wide.slice(0, 5), small: small.slice(0, 8), broken: broken.slice(0, 5)};
}"""


RECODED = ("content-encoding", "content-length")  # the body handed over is the decoded one
GAME_ROUTES = re.compile(r"^/g/[^/]+/([^/]+)/")
# The games' own routes, `/g/{game_id}/<the game's package>/...` (`server.games.routers()`).
OWN_ROUTES = {
    match.group(1)
    for router in routers()
    for route in router.routes
    if (match := GAME_ROUTES.match(getattr(route, "path", ""))) is not None
}


def package_of(kind: str) -> str:
    """The game's package under `server/games` (the kinds of one game share it)."""
    return type(KINDS[kind]).__module__.split(".")[2]


def another_kinds(url: str, kind: str) -> bool:
    """A page of another game's own routes (one game's deck asked of another's): a refusal."""
    found = GAME_ROUTES.match(url)
    return found is not None and found.group(1) in OWN_ROUTES and found.group(1) != package_of(kind)


def answering(asked: APIResponse) -> Callable[[Route], None]:
    headers = {k: v for k, v in asked.headers.items() if k not in RECODED}
    body = asked.body()
    return lambda route: route.fulfill(status=asked.status, headers=headers, body=body)


# What was measured already, by the page's HTML without its per-request tokens: a page that another
# person or another scene got byte for byte lays out the same (each worker keeps its own).
MEASURED: set[str] = set()


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_page_fits_320_px_with_48_px_targets(
    browser: Browser, live_server: Any, label: str
) -> None:
    service: GameService = live_server.app.state.service
    scene = SCENES[label](service, service.dice)  # type: ignore[arg-type]
    urls = [
        u
        for u in addresses(all_routes(live_server.app.routes), scene, service)
        if not u.endswith((".svg", ".csv", ".json", ".png"))
        and "/live/" not in u
        and "999999" not in u
        and "/t/" not in u
        and "/join/" not in u
        and not another_kinds(u, scene.kind)
    ]
    faults: list[str] = []
    pages = 0
    context = browser.new_context(**NARROW)
    page = context.new_page()
    visitors: dict[str, Any] = {"public": None, **scene.people}
    for persona, viewer in visitors.items():
        context.clear_cookies()
        if viewer is not None:
            person = service.person(scene.game, viewer.person_id)
            link = f"{live_server.url}/t/{service.link_of(person).token}"  # type: ignore[arg-type]
            # Signed in, as a browser opening the link takes its seat (issue 51).
            assert context.request.get(link, max_redirects=0, headers=BROWSER).status == 303
        for url in urls:
            # Asked first without a page (the context's cookies, no rendering): a refusal or a
            # page measured already is not opened again.
            asked = context.request.get(live_server.url + url, max_redirects=0)
            if asked.status != 200 or "html" not in asked.headers.get("content-type", ""):
                continue
            pages += 1
            seen = fingerprint(asked.text())
            if seen in MEASURED:
                continue
            # The page opened is the answer just read (not rendered a second time), as it came:
            # its headers (its policy among them) and its body, decoded.
            address = live_server.url + url
            page.route(address, answering(asked))
            answer = page.goto(address)
            page.unroute(address)
            assert answer is not None and answer.status == 200, url
            found = page.evaluate(MEASURE, TARGET)
            faults += [f"{persona} {url}: sideways {w}" for w in found["wide"]]
            faults += [f"{persona} {url}: small target {s}" for s in found["small"]]
            faults += [f"{persona} {url}: {b}" for b in found["broken"]]
            MEASURED.add(seen)
    context.close()
    assert pages, "no page to measure"
    assert not faults, "\n".join(faults)
