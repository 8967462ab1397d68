"""Issue 54: what you can do now is on the first screen. For every person whose now-line says
the game waits for them, in every scene of every kind (each phase and end, `tests/scene.py`),
the controls for it start within the first 844 px of their page at 390 px wide, in both
languages (unless their turn is said aloud, for the staff to enter: `Now.aloud`): the first
form of one of their moves now (`may_now`, the source the forms and the rules read), or of a
proposal to answer, or what the line points to as theirs (`Now.to`). A form folded in a
`<details>` counts by its summary, the tap that opens it. And that form ends there too, its
last control on the first screen (a board drawn inside it counts: a move tapped on it), unless its scene says why not (`LONG_FORMS`). Where the page
lights what a tap on its board chooses (`data-choose`: BattleFight's cells and pawns), the board
is the control: every lit place is on the first screen too. Beside the scenes, the states a turn
passes through on the way (a cell to choose, a die to reroll: each game's `DECISIONS`).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from server.platform.kinds import may_now
from server.platform.service import GameService
from tests.conftest import BROWSER
from tests.scene import declared
from tests.security.conftest import SCENES, WAITS_ON

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "service_workers": "block",
}
FOLD = 844  # px: the first screen of a 390 x 844 phone
LONG_FORMS = declared("LONG_FORMS")
# Decision states between the scenes, for this test only: by label, the builder and whom it
# waits for.
DECISIONS: dict[str, tuple[Any, set[str]]] = declared("DECISIONS")
BUILDERS = {**SCENES, **{label: built for label, (built, _who) in DECISIONS.items()}}
WAITING = {**WAITS_ON, **{label: who for label, (_built, who) in DECISIONS.items()}}

FIRST_CONTROL = r"""(may) => {
  // Where a form's last control ends (a folded form: its summary), down the page.
  const end = (form, box) => {
    if (form.closest('details:not([open])')) return box.bottom + window.scrollY;
    let bottom = box.top;
    // A drawing inside a form is its control (a board: a tap on it moves).
    for (const c of form.querySelectorAll('input:not([type=hidden]), select, textarea, button, svg')) {
      const b = (c.closest('label') || c).getBoundingClientRect();
      if (b.height) bottom = Math.max(bottom, b.bottom);
    }
    return bottom + window.scrollY;
  };
  // A turn said aloud at the table, for the staff to enter, has no control on this page.
  const yours = document.querySelector('#live [data-yours]:not([data-aloud])');
  if (!yours) return null;
  const tops = [];
  for (const form of document.querySelectorAll('#live form')) {
    const action = form.getAttribute('action') || '';
    const type = form.querySelector('input[type=hidden][name=type]');
    const ours = action.includes('/proposals/') || (type && may.includes(type.value));
    if (!ours || form.closest('[hidden]')) continue;
    let box = form.getBoundingClientRect();
    const folded = form.closest('details:not([open])');
    if (folded) box = folded.querySelector('summary').getBoundingClientRect();
    if (!box.height) continue;
    tops.push({top: box.top + window.scrollY, bottom: end(form, box),
               what: (type ? type.value : 'proposal')});
  }
  // What the line points to as the viewer's controls (a link to their match, a panel).
  const to = yours.querySelector('a.now-to');
  const target = to && document.getElementById(to.getAttribute('href').slice(1));
  if (target) {
    const holder = target.closest('section') || target;  // the line points to its heading
    const box = holder.getBoundingClientRect();
    const form = holder.querySelector('form');
    // A folded form ends where its summary does (the tap that opens it).
    const fold = form && form.closest('details:not([open])');
    const formBox = fold ? fold.querySelector('summary').getBoundingClientRect() : form && form.getBoundingClientRect();
    tops.push({top: box.top + window.scrollY, what: '#' + target.id,
               bottom: form ? end(form, formBox) : box.top + window.scrollY});
  }
  tops.sort((a, b) => a.top - b.top);
  // The first screen ends where a bar held at the screen's foot (sticky, fixed) covers it.
  let fold = window.innerHeight;
  for (const el of document.querySelectorAll('body *')) {
    const position = getComputedStyle(el).position;
    if (position !== 'sticky' && position !== 'fixed') continue;
    const b = el.getBoundingClientRect();
    if (b.height && b.bottom >= window.innerHeight - 1 && b.top > window.innerHeight / 2) fold = Math.min(fold, b.top);
  }
  const first = tops.length ? tops[0] : {top: Infinity, what: 'no control'};
  // A board whose places a tap chooses: where its lowest lit place ends.
  let lit = 0;
  for (const el of document.querySelectorAll('#live [data-choose]')) {
    const b = el.getBoundingClientRect();
    if (b.height) lit = Math.max(lit, b.bottom + window.scrollY);
  }
  return {...first, fold: fold, lit: lit};
}"""


# Only the people a scene waits for (tests/test_now_line.py holds `WAITS_ON` to the now-lines).
@pytest.mark.parametrize("label", sorted(label for label in BUILDERS if WAITING[label]))
def test_the_controls_for_your_turn_start_on_the_first_screen(
    browser: Browser, live_server: Any, label: str
) -> None:
    service: GameService = live_server.app.state.service
    # The same dice whatever ran before on this server: a scene is one state, not one of six.
    service.dice._next = 0  # type: ignore[attr-defined]
    scene = BUILDERS[label](service, service.dice)
    loaded = service.load(scene.game)
    late: list[str] = []
    for language in ("fr-FR", "en-GB"):
        context = browser.new_context(**PHONE, locale=language)
        page = context.new_page()
        for persona, viewer in scene.people.items():
            if persona not in WAITING[label]:
                continue
            context.clear_cookies()
            person = service.person(scene.game, viewer.person_id)  # type: ignore[arg-type]
            link = f"{live_server.url}/t/{service.link_of(person).token}"
            assert context.request.get(link, max_redirects=0, headers=BROWSER).status == 303
            page.goto(f"{live_server.url}/g/{scene.game}")
            may = sorted(may_now(loaded.kind, loaded.state, viewer))
            first = page.evaluate(FIRST_CONTROL, may)
            if label in DECISIONS:  # its people are said so on their now-line
                assert first is not None, f"{label}: the now-line does not wait for {persona}"
            fold = min(FOLD, first["fold"]) if first is not None else FOLD
            if first is not None and first["top"] > fold:
                late.append(f"{persona} ({language}): {first['what']} at {first['top']} px ")
            elif first is not None and first["lit"] > fold:
                late.append(
                    f"{persona} ({language}): the board's lit places end at {first['lit']} px"
                )
            elif first is not None and first["bottom"] > fold and label not in LONG_FORMS:
                late.append(
                    f"{persona} ({language}): {first['what']} ends at {first['bottom']} px "
                    f"(the first screen ends at {fold} px)"
                )
        context.close()
    assert not late, "\n".join(late)
