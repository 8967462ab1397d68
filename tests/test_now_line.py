"""Issue 35, class B: every page says at its top where the game stands and whose turn it is,
then what this viewer can do now.

Walked over every scene of every kind (each phase and end, `tests/scene.py`), as
every person of the scene and the public, in both languages: the live part opens on the line
(`templates/_now.html`, said by `GameKind.now`), before any form; the public's line says where
the game stands and nothing it could do; everyone else's says what they can do. The people the
game waits for, and only they, have the line marked as theirs: `WAITS_ON` lists them for every
scene (declared beside the scenes, `tests/<game>/scenes.py`), so a line that says "your turn" to the wrong phone fails here. A line that points to the
viewer's controls points to something on their page.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.kinds import may_now
from server.platform.service import GameService
from tests.security.conftest import SCENES, WAITS_ON, phones

LIVE = re.compile(r'<div id="live"[^>]*>\s*(<[^>]+>)(.*?)</p>', re.S)
WHERE = re.compile(r'<strong class="now-where">([^<]+)</strong>')
YOU = re.compile(r'<span class="now-you">([^<]+)</span>')
TO = re.compile(r'<a href="#([\w-]+)" class="now-to')
OFFERED = re.compile(r'<input type="hidden" name="type" value="(\w+)">')


def test_every_scene_says_whom_it_waits_for() -> None:
    assert set(WAITS_ON) == set(SCENES)


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_page_opens_on_where_the_game_stands_and_what_this_viewer_can_do(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    yours = set()
    loaded = service.load(scene.game)
    for persona, phone in phones(client, service, scene).items():
        if persona == "stranger":
            continue
        url = f"/g/{scene.game}/board" if persona == "public" else f"/g/{scene.game}"
        for language in ("fr", "en"):
            page = phone.get(url, headers={"Accept-Language": language}).text
            found = LIVE.search(page)
            assert found, f"{persona} ({language}): no live part"
            first, line = found.group(1), found.group(0)
            assert first.startswith('<p class="now'), f"{persona}: the live part opens on {first}"
            where, you = WHERE.search(line), YOU.search(line)
            assert where and where.group(1).strip(), f"{persona}: no word of where the game stands"
            if persona == "public":
                assert you is None and "data-yours" not in first, f"the board's line: {line}"
            else:
                assert you and you.group(1).strip(), f"{persona}: nothing said of what they can do"
            to = TO.search(line)
            if to:
                assert f'id="{to.group(1)}"' in page, f"{persona}: the line points to nothing"
            if "data-yours" in first:
                yours.add(persona)
                assert to or you, line
                # "Your turn" reads the game's moves as the forms and the rules do: the page
                # offers one of this viewer's moves now, or a proposal to answer; unless their
                # turn is said aloud at the table, for the staff to enter (`Now.aloud`).
                if "data-aloud" not in first:
                    may = may_now(loaded.kind, loaded.state, scene.people[persona])
                    offered = set(OFFERED.findall(page))
                    assert offered & may or "/proposals/" in page, (persona, offered, may)
    assert yours == WAITS_ON[label], f"{label}: the line says 'yours' to {sorted(yours)}"
