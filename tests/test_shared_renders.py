"""A public board's live part is rendered once a change and language and served to every phone
that watches it: these tests hold the promise that makes this right (the part shows the game's
state alone) and check that a change, a language and an old render are never mixed up."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

import server.games  # noqa: F401  (registers the game kinds)
from server.games.demo import DEMOS
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS
from server.platform.service import GameService
from server.web.parts import Part, SharedRenders
from tests.conftest import Phone, key, tally_game
from tests.scene import all_scenes

HX = {"HX-Request": "true"}


def demo_game(kind: str) -> Callable[[GameService, ScriptedRolls], tuple[str, str]]:
    """The game id and its organizer's link."""

    def make(service: GameService, rolls: ScriptedRolls) -> tuple[str, str]:
        rolls.endless = True
        game, owner = DEMOS[kind](service, key())
        return game.id, owner.link.token

    return make


def opened_game(kind: str) -> Callable[[GameService, ScriptedRolls], tuple[str, str]]:
    """A kind only another game opens (a league's match, no demo of its own): the game of its
    first scene, and the link of its first person of the kind's own roles."""

    def make(service: GameService, rolls: ScriptedRolls) -> tuple[str, str]:
        scenes, _waits = all_scenes()
        build = next(b for label, b in scenes.items() if label.split(":", 1)[0] == kind)
        scene = build(service, rolls)
        person = next(v for v in scene.people.values() if v.role in KINDS[kind].roles)
        return scene.game, service.link_of(service.person(scene.game, person.person_id)).token  # type: ignore[arg-type]

    return make


OPENED = sorted(key for key, kind in KINDS.items() if not kind.standalone)
GAMES = {
    **{kind: demo_game(kind) for kind in sorted(DEMOS)},
    **{kind: opened_game(kind) for kind in OPENED},
}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_board_live_part_is_the_same_for_every_phone(
    client: TestClient, service: GameService, rolls: ScriptedRolls, kind: str
) -> None:
    game_id, token = GAMES[kind](service, rolls)
    staff = Phone(client, follow_redirects=False)
    assert staff.get(f"/t/{token}").status_code == 303
    stranger = Phone(client)
    for language in ("en", "fr"):
        headers = {**HX, "Accept-Language": language}
        # The board asked by htmx is rendered anew for each request, with the request's own
        # session, cross-site token and form keys: anything of theirs in the live part would
        # make two phones' renders differ.
        fresh = [
            phone.get(f"/g/{game_id}/board", headers=headers).text
            for phone in (client, staff, stranger)
        ]
        assert fresh[0] == fresh[1] == fresh[2]
        shared = [
            phone.get(f"/g/{game_id}/live/board", headers=headers).text
            for phone in (staff, client, stranger)
        ]
        assert shared == fresh
    english = client.get(f"/g/{game_id}/live/board", headers={**HX, "Accept-Language": "en"})
    french = client.get(f"/g/{game_id}/live/board", headers={**HX, "Accept-Language": "fr"})
    assert english.text != french.text  # each language has its own render


def test_a_change_is_on_the_board_at_once(client: TestClient, service: GameService) -> None:
    game, org, _referee, _players = tally_game(service)
    url = f"/g/{game.id}/live/board"
    before = client.get(url, headers=HX)
    watcher = Phone(client)
    assert watcher.get(url, headers=HX).text == before.text
    service.register(game.id, org, "player", "Zoé", idem_key=key())
    after = watcher.get(url, headers=HX)
    assert int(after.headers["X-Game-Seq"]) == int(before.headers["X-Game-Seq"]) + 1
    assert "Zoé" in after.text and "Zoé" not in before.text
    assert client.get(url, headers=HX).text == after.text


def test_an_old_render_never_replaces_a_newer_one() -> None:
    boards = SharedRenders()

    def at(seq: int) -> Part:
        return Part(seq, f"tag{seq}", "running", 0, f"<p>{seq}</p>")

    boards.keep("g", "en", at(5))
    boards.keep("g", "en", at(4))  # a slow request that read the game before the change
    assert boards.get("g", "en", 5) == at(5)
    assert boards.get("g", "en", 4) is None
    assert boards.get("g", "fr", 5) is None
    boards.keep("g", "en", at(6))
    assert boards.get("g", "en", 5) is None and boards.get("g", "en", 6) == at(6)


def test_an_actions_answer_is_the_part_its_projection_is_then_given(
    client: TestClient, service: GameService
) -> None:
    """Issue 38's lever: an action's answer renders its sender's live part once, and the phones
    of the same projection (another tab of the same referee) are given that render, not
    another one; another projection has its own: a player, and another referee (whose page
    offers no undo of an action not theirs: issue 53)."""
    import re

    from tests.conftest import csrf_of, fingerprint
    from tests.scene import registered

    played, org, referee, (lea, hugo) = tally_game(service)
    game = played.id
    second = registered(service, game, org, "referee", "Arbitre Sud")
    phones = {}
    for name, viewer in (("one", referee), ("two", second), ("Léa", lea)):
        phones[name] = Phone(client, follow_redirects=False)
        token = service.link_of(service.person(game, viewer.person_id)).token  # type: ignore[arg-type]
        assert phones[name].get(f"/t/{token}").status_code == 303
    page = phones["one"].get(f"/g/{game}").text
    live = re.search(r'id="live" hx-get="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    stats = client.app.state.live_stats  # type: ignore[attr-defined]
    rendered, reused = stats["rendered"], stats["reused"]
    points = {"type": "score", "player": hugo.person_id, "points": 3}
    answer = phones["one"].post(
        f"/g/{game}/act",
        data={**points, "idem": key(), "csrf_token": csrf_of(page)},
        headers=HX,
    )
    assert answer.status_code == 200, answer.text[:300]
    assert stats["rendered"] == rendered + 1  # the answer's part
    tab = Phone(client, follow_redirects=False)  # the same referee's other tab
    tab.cookies = phones["one"].cookies
    other = tab.get(live, headers=HX)
    assert other.status_code == 200
    assert (stats["rendered"], stats["reused"]) == (rendered + 1, reused + 1)  # not again
    answered = answer.text.split('<div id="flash"')[0]
    assert fingerprint(other.text) == fingerprint(answered)  # the same bytes, tokens aside
    assert '/undo"' in answered
    south = phones["two"].get(live, headers=HX).text
    assert stats["rendered"] == rendered + 2 and '/undo"' not in south  # not Arbitre Sud's
    hers = re.search(r'id="live" hx-get="([^"]+)"', phones["Léa"].get(f"/g/{game}").text)
    assert hers and hers.group(1) != live
    before = stats["rendered"]
    assert phones["Léa"].get(hers.group(1), headers=HX).status_code == 200
    assert stats["rendered"] == before + 1  # her projection: a render of its own
