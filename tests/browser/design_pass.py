"""The design pass (issue 54): every scene of every kind (`tests/scene.py`) as each of its
people opens it, at 320 and 390 px wide, in French and English, the first screen of each
(844 px) saved as a picture, and a page that shows them side by side.

Not part of `make test` (its name is not a test's): `make design` runs it,
`DESIGN_OUT=folder` says where (`docs/design` by default; `DESIGN_SETS=390-fr` only some of the
sets). Run it before and after a change of the pages into two folders and open both pages: the
same pictures in the same places. docs/design holds the 390 px French set of the last pass.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from server.config import ROOT
from tests.conftest import BROWSER
from tests.scene import declared
from tests.security.conftest import SCENES

# The scenes, and the decision states between them (a cell to choose, a die to reroll: each
# game's `DECISIONS`, tests/browser/test_first_screen.py).
BUILDERS = {**SCENES, **{label: b for label, (b, _who) in declared("DECISIONS").items()}}

OUT = Path(os.environ.get("DESIGN_OUT", ROOT / "docs" / "design"))
SETS = [
    (int(width), language)
    for width, language in (
        s.split("-")
        for s in os.environ.get("DESIGN_SETS", "320-fr,320-en,390-fr,390-en").split(",")
    )
]
LOCALES = {"fr": "fr-FR", "en": "en-GB"}
FIRST_SCREEN = 844


def picture(label: str, persona: str, width: int, language: str) -> Path:
    return OUT / f"{width}-{language}" / f"{label.replace(':', '--')}--{persona}.jpg"


@pytest.mark.parametrize("label", sorted(BUILDERS))
def test_design_pass(browser: Browser, live_server: Any, label: str) -> None:
    service = live_server.app.state.service
    scene = BUILDERS[label](service, service.dice)
    for width, language in SETS:
        context = browser.new_context(
            viewport={"width": width, "height": FIRST_SCREEN},
            is_mobile=True,
            has_touch=True,
            service_workers="block",
            locale=LOCALES[language],
        )
        page = context.new_page()
        for persona, viewer in scene.people.items():
            context.clear_cookies()
            person = service.person(scene.game, viewer.person_id)
            link = f"{live_server.url}/t/{service.link_of(person).token}"
            assert context.request.get(link, max_redirects=0, headers=BROWSER).status == 303
            page.goto(f"{live_server.url}/g/{scene.game}")
            path = picture(label, persona, width, language)
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), type="jpeg", quality=50, caret="initial")
        context.close()


def test_the_page_of_the_pass() -> None:
    """The pictures side by side: a row a scene and person, a column a set."""
    rows = []
    for label in sorted(BUILDERS):
        names = sorted(
            {
                p.name
                for _, lang in SETS
                for p in OUT.glob(f"*-{lang}/{label.replace(':', '--')}--*")
            }
        )
        for name in names:
            cells = "".join(
                f'<td><img src="{width}-{language}/{html.escape(name)}" width="{width // 2}"'
                f' alt="{html.escape(name)} {width} {language}" loading="lazy"></td>'
                for width, language in SETS
            )
            rows.append(f"<tr><th>{html.escape(name[:-4])}</th>{cells}</tr>")
    head = "".join(f"<th>{w} px, {lang}</th>" for w, lang in SETS)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Arbitre: the design pass</title>"
        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>\n",
        encoding="utf-8",
    )
    assert rows, f"no picture in {OUT}: run the whole file"
