import os
from typing import Any
from playwright.sync_api import Browser
from tests.conftest import BROWSER
def test_open(browser: Browser, live_server: Any) -> None:
    from tests.browser.test_first_screen import BUILDERS
    service = live_server.app.state.service
    scene = BUILDERS[os.environ["SCENE"]](service, service.dice)
    context = browser.new_context(viewport={"width": int(os.environ.get("W", "390")), "height": 844}, is_mobile=True, has_touch=True, service_workers="block", locale=os.environ.get("LANG_", "fr-FR"))
    page = context.new_page()
    person = service.person(scene.game, scene.people[os.environ["WHO"]].person_id)
    context.request.get(f"{live_server.url}/t/{service.link_of(person).token}", max_redirects=0, headers=BROWSER)
    page.goto(f"{live_server.url}/g/{scene.game}")
    for text in [t for t in os.environ.get("TAPS", "").split("|") if t]:
        page.get_by_text(text, exact=True).first.tap()
        page.wait_for_timeout(200)
    if os.environ.get("TOP"):
        el = page.get_by_text(os.environ["TOP"]).first
        page.evaluate("(y) => window.scrollTo(0, y)", el.bounding_box()["y"] + page.evaluate("scrollY") - 20)
    page.screenshot(path="/tmp/shots/open.png", full_page=bool(os.environ.get("FULL")))
