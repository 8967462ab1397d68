"""A change's live parts are made once per projection and handed to every phone (issue 21).

The promise that makes this right: a phone's pushed part is exactly what its own refresh renders
(its viewer's projection, its own cross-site token), and phones share a render only when they
share what they may see. Walked over every scene of every kind (each phase and end), for every
person of the game, a second referee where the kind has referees, and two board watchers, in
both languages. (What it saves, on a game's own changes: in the games' folders.)
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter

import anyio
import pytest
from fastapi.testclient import TestClient

import server.web.fanout as fanout_module
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC, Viewer
from server.platform.live import Broker
from server.platform.service import GameService
from server.platform.service.store import may_undo
from server.web.answer_first import HeldNudges
from server.web.answers import digest
from server.web.fanout import REVOKED, Fanout, Shown, Watcher
from server.web.parts import LiveParts
from tests.conftest import key, run_async, tally_game, viewer_of
from tests.phones_kit import HX, filled, key_base, opened, part_of
from tests.security.conftest import SCENES


def same(html: str) -> str:
    """A part with its forms' idempotency keys set aside: every render makes new ones."""
    return re.sub(r'name="idem" value="[^"]*"', 'name="idem"', html)


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_phone_is_pushed_what_its_refresh_shows(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    parts: LiveParts = client.app.state.parts  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    game = scene.game
    kind = service.load(game).kind
    organizer = next(p for p in service.people(game) if p.role == "organizer")
    if kind.allows_referees:
        org = Viewer("organizer", organizer.id, organizer.name)
        service.register(game, org, "referee", "Seconde", idem_key=key())
    people = [p for p in service.people(game) if not p.revoked]
    viewers = [Viewer(p.role, p.id, p.name) for p in people] + [PUBLIC, PUBLIC]
    phones = [opened(client, service, game, v.person_id) for v in viewers]
    for language in ("fr", "en"):
        watchers = [Watcher(game, v, kind.page_for(v), language, None) for v in viewers]
        seq, made = fanout.make(game, watchers)
        assert seq == service.seq_of(game)
        for watcher, (phone, csrf) in zip(watchers, phones, strict=True):
            shown = made[watcher]
            assert shown is not None, watcher
            part = part_of(shown)
            assert csrf not in part["html"]  # nobody's token is in a part made for many
            url = f"/g/{game}/live/{watcher.page}"
            refresh = phone.get(url, headers={**HX, "Accept-Language": language})
            assert refresh.status_code == 200, (watcher.viewer, refresh.text[:200])
            assert refresh.headers["X-Live-Tag"] == shown.tag, watcher.viewer
            # The same bytes, whichever way the part came (`server.web.parts`): the refresh,
            # the push filled as the page fills it, and the board kept for every phone.
            keys = key_base(refresh.text)
            assert filled(part, csrf, keys) == refresh.text, watcher.viewer
            if watcher.page == "board":
                kept = parts.board(game, language)
                assert kept.filled(csrf, keys).decode() == refresh.text
        # Phones share a render only when they see the same: the two boards, the two referees.
        by_tag: dict[str, set[int]] = {}
        for watcher in watchers:
            shown = made[watcher]
            assert shown is not None
            by_tag.setdefault(shown.tag, set()).add(id(shown))
        assert all(len(ids) == 1 for ids in by_tag.values())
        assert made[watchers[-1]] is made[watchers[-2]]
        # Two referees share one unless the last action is one's to undo, not the other's.
        referees = [w for w in watchers if w.viewer.role == "referee"]
        if len(referees) == 2:
            actor = service.undo_actor(game)
            alike = may_undo(referees[0].viewer, actor) == may_undo(referees[1].viewer, actor)
            assert (made[referees[0]] is made[referees[1]]) == alike


def test_a_page_not_the_viewer_s_is_never_made_for_them(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """A player's stream asking for the staff's part gets a bare nudge (None), never it."""
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    played, _org, referee, (player, _hugo) = tally_game(service)
    game = played.id
    asking = [
        Watcher(game, player, "staff", "fr", None),
        Watcher(game, referee, "player", "fr", None),
        Watcher(game, PUBLIC, "player", "fr", None),
        Watcher(game, player, "../staff", "fr", None),
    ]
    made = fanout.make(game, asking)[1]
    assert all(made[w] is None for w in asking)


def test_a_part_s_marks_are_its_render_s_own_and_stand_only_where_secrets_go(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """The page puts its token where the marks are: a mark that a name could hold would put a
    referee's token in that name. The marks are drawn for each render, after every name in it
    was written, and stand only in the forms' token and key fields."""
    rolls.endless = True
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    played, _org, referee, (lea, _hugo) = tally_game(service)
    game = played.id
    staff = [Watcher(game, referee, "staff", "fr", None)]
    seen = []
    for points in (3, 2):
        service.perform(
            game,
            referee,
            {"type": "score", "player": lea.person_id, "points": points},
            idem_key=key(),
        )
        shown = fanout.make(game, staff)[1][staff[0]]
        assert shown is not None
        part = part_of(shown)
        html, marks = part["html"], part["marks"]
        tokens = re.findall(r'name="csrf_token" value="([^"]*)"', html)
        keys = re.findall(r'name="idem" value="([^"]*)"', html)
        assert tokens and set(tokens) == {marks["csrf"]}
        assert keys and all(k.startswith(marks["keys"] + "-") for k in keys)
        assert html.count(marks["csrf"]) == len(tokens)
        assert html.count(marks["keys"]) == len(keys)
        seen.append(marks)
    assert seen[0]["csrf"] != seen[1]["csrf"] and seen[0]["keys"] != seen[1]["keys"]


@pytest.mark.parametrize("change", ["revoke", "reissue"])
def test_a_dead_link_is_shown_no_part_whatever_it_hears_of_first(
    client: TestClient, service: GameService, rolls: ScriptedRolls, change: str
) -> None:
    """A change made after a link is revoked or re-issued can reach its stream before the
    revocation's own nudge (which waits for the organizer's answer): the job reads the links
    after the game, and tells that stream it is over instead of showing it the change."""
    rolls.endless = True
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    played, org, referee, (lea, _hugo) = tally_game(service)
    game = played.id
    spy = service.register(game, org, "referee", "Espion", idem_key=key())
    version = spy.person.version
    spy_watch = Watcher(game, viewer_of(spy), "staff", "fr", None, version)
    lea_version = service.person(game, lea.person_id).version  # type: ignore[arg-type]
    lea_watch = Watcher(game, lea, "player", "fr", None, lea_version)
    board = Watcher(game, PUBLIC, "board", "fr", None)
    made = fanout.make(game, [spy_watch, lea_watch, board])[1]
    assert all(isinstance(made[w], Shown) for w in (spy_watch, lea_watch, board))
    getattr(service, change)(game, org, spy.person.id, idem_key=key())
    secret = {"type": "score", "player": lea.person_id, "points": 7}
    service.perform(game, referee, secret, idem_key=key())
    made = fanout.make(game, [spy_watch, lea_watch, board])[1]
    assert made[spy_watch] is REVOKED
    assert isinstance(made[lea_watch], Shown) and isinstance(made[board], Shown)
    # A watcher holding a version its person never had is no better off.
    forged = Watcher(game, lea, "player", "fr", None, lea_watch.link + 1)  # type: ignore[operator]
    assert fanout.make(game, [forged])[1][forged] is REVOKED


def test_a_change_s_parts_give_way_to_actions_by_slices_not_before_every_projection(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: a job gives way to the actions being answered after each slice of its work
    (`SLICE`), not before each of its projections: a change in a game of 30 players waited 31
    times while a busy server was always answering someone. (Before it starts, it waits on
    the event loop: `test_a_job_waits_for_the_actions_holding_no_live_thread`.)"""
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    played, _org, _referee, players = tally_game(service, tuple(f"P{n}" for n in range(30)))
    game = played.id
    watchers = [Watcher(game, p, "player", "fr", None) for p in players]
    waits: list[float] = []
    monkeypatch.setattr(fanout.held, "give_way", lambda most: waits.append(most))
    start = time.perf_counter()
    made = fanout.make(game, watchers)[1]
    took = time.perf_counter() - start
    assert all(made[w] is not None for w in watchers)  # 30 projections made
    # Once a slice: however slow the machine, never once a projection.
    assert len(waits) <= took / fanout_module.SLICE
    assert len(waits) < len(watchers) - 1
    monkeypatch.setattr(fanout_module, "SLICE", 0.0)  # every piece a slice: the wait each time
    waits.clear()
    fanout.make(game, watchers)
    assert len(waits) == len(watchers)


def test_a_job_waits_for_the_actions_holding_no_live_thread(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: a change's job gives way to the actions being answered before it takes a live
    thread, not on one: a job that held its thread while it waited kept every job behind it
    waiting too (40 ms of a thread for 8 ms of work at G = 200). Once the action is answered,
    the job takes its thread and the phone its part."""
    monkeypatch.setattr(fanout_module, "GIVE_WAY", 30.0)  # longer than the test: it must not
    game = tally_game(service)[0].id
    watcher = Watcher(game, PUBLIC, "board", "fr", None)
    parts: LiveParts = client.app.state.parts  # type: ignore[attr-defined]

    async def run() -> None:
        held = HeldNudges(Broker())
        fanout = Fanout(service, parts, held, anyio.CapacityLimiter(1), Counter())
        fanout.watch(watcher)
        with held.holding():  # an action being answered
            shown = asyncio.create_task(fanout.shown(watcher, service.seq_of(game)))
            await asyncio.sleep(0.1)
            assert not shown.done()
            assert fanout.limiter.borrowed_tokens == 0  # waiting, on no thread
        assert isinstance(await asyncio.wait_for(shown, 10), Shown)

    run_async(run())


def test_a_fingerprint_tells_apart_what_it_cannot_write_fast() -> None:
    """A view's fingerprint is taken by orjson, which does not write integers beyond 64 bits:
    those go the standard library's way, still a fingerprint of their own, never an error."""
    big, bigger = {"n": 2**70, "a": [1]}, {"n": 2**70 + 1, "a": [1]}
    assert digest(big) == digest({"a": [1], "n": 2**70})  # keys in any order: the same value
    assert digest(big) != digest(bigger)
    # Keys that are not text (a player's id) are written as text, in order, as json did.
    assert digest({"n": 1, 2: "b"}) == digest({2: "b", "n": 1}) != digest({"n": 1, 2: "c"})
