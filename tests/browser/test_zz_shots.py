"""Screenshots of scenes (not a test of the suite: copied in for a look, removed after)."""
from __future__ import annotations
import os
from typing import Any
import pytest
from playwright.sync_api import Browser
from tests.conftest import BROWSER
from tests.security.conftest import SCENES

LABELS = [x for x in os.environ.get("SHOTS", "").split(",") if x]
WHO = [x for x in os.environ.get("SHOT_WHO", "").split(",") if x]
W = int(os.environ.get("SHOT_W", "390"))
LANG = os.environ.get("SHOT_LANG", "fr-FR")


@pytest.mark.parametrize("label", LABELS)
def test_shot(browser: Browser, live_server: Any, label: str) -> None:
    service = live_server.app.state.service
    if "@" in label:  # module@function: a builder not among the scenes
        import importlib
        module, _, function = label.partition("@")
        scene = getattr(importlib.import_module(module), function)(service, service.dice)
    else:
        scene = SCENES[label](service, service.dice)
    context = browser.new_context(viewport={"width": W, "height": 844}, is_mobile=True,
                                  has_touch=True, service_workers="block", locale=LANG)
    page = context.new_page()
    for persona, viewer in scene.people.items():
        if WHO and persona not in WHO:
            continue
        context.clear_cookies()
        person = service.person(scene.game, viewer.person_id)
        link = f"{live_server.url}/t/{service.link_of(person).token}"
        context.request.get(link, max_redirects=0, headers=BROWSER)
        page.goto(f"{live_server.url}/g/{scene.game}")
        name = f"/tmp/shots/{label.replace(':', '_').replace('@', '_')}_{persona}_{W}_{LANG[:2]}.png"
        top = int(os.environ.get("SHOT_Y", "0"))
        height = int(os.environ.get("SHOT_H", "0"))
        if height:
            page.screenshot(path=name, full_page=True,
                            clip={"x": 0, "y": top, "width": W, "height": height})
        else:
            page.screenshot(path=name, full_page=True)
        with open(name + ".html", "w") as f:
            f.write(page.content())
    context.close()
