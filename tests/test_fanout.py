"""A change's live parts are made once per projection and handed to every phone (issue 21).

The promise that makes this right: a phone's pushed part is exactly what its own refresh renders
(its viewer's projection, its own cross-site token), and phones share a render only when they
share what they may see. Walked over every scene of every kind (each phase and end), for every
person of the game, a second referee where the kind has referees, and two board watchers, in
both languages. Then what it saves: a Serial Battle assault watched by 6 referees, 30 players
and 10 boards renders the parts of the projections it touched (the defender's, the staff's, the
organizer's), not 47; a Roi / Chevalier / Bourreau round renders each team's part once and each
of 16 fighters' own card alone.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections import Counter
from typing import Any

import anyio
import jinja2
import pytest
from fastapi.testclient import TestClient

import server.web.fanout as fanout_module
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC, Viewer
from server.platform.live import Broker
from server.platform.service import GameService
from server.platform.service.store import may_undo
from server.web.answer_first import HeldNudges
from server.web.answers import digest, live_tag, page_context
from server.web.fanout import REVOKED, Fanout, Shown, Watcher
from server.web.parts import LiveParts, OneState
from server.web.templating import Templates
from tests.conftest import Phone, key, run_async, viewer_of
from tests.security.conftest import SCENES
from tests.serial_battle.scenes import sb_game

HX = {"HX-Request": "true"}
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def same(html: str) -> str:
    """A part with its forms' idempotency keys set aside: every render makes new ones."""
    return re.sub(r'name="idem" value="[^"]*"', 'name="idem"', html)


def opened(client: TestClient, service: GameService, game: str, person: int | None) -> Any:
    """A phone that opened this person's link (None: nobody's), and its cross-site token."""
    phone = Phone(client, follow_redirects=False)
    if person is not None:
        token = service.link_of(service.person(game, person)).token
        assert phone.get(f"/t/{token}").status_code == 303
    page = phone.get(f"/g/{game}/board" if person is None else f"/g/{game}")
    found = CSRF.search(page.text)
    assert found, page.text[:300]
    return phone, found.group(1)


def part_of(shown: Shown) -> dict[str, Any]:
    """What a "part" event brings: the HTML and its marks."""
    assert shown.part is not None
    data = json.loads(shown.part.raw.decode().split("data: ", 1)[1])
    assert data["tag"] == shown.tag and isinstance(data["html"], str)
    return dict(data)


def filled(part: dict[str, Any], csrf: str, keys: str | None = None) -> str:
    """What a page does with a part that arrives on its stream (`arbitre.js`): its own token
    and a base of its own for its forms' keys where the marks are."""
    html = str(part["html"]).replace(part["marks"]["csrf"], csrf)
    return html.replace(part["marks"]["keys"], keys or secrets.token_hex(16))


KEY_BASE = re.compile(r'name="idem" value="([0-9a-f]+)-1"')


def key_base(html: str) -> str | None:
    """The base of a render's form keys (`templating.key_factory`), when it has forms."""
    found = KEY_BASE.search(html)
    return found.group(1) if found else None


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
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    player = Viewer("player", ids["Léa"], "Léa")
    asking = [
        Watcher(game, player, "staff", "fr", None),
        Watcher(game, people["referee"], "player", "fr", None),
        Watcher(game, PUBLIC, "player", "fr", None),
        Watcher(game, player, "../staff", "fr", None),
    ]
    made = fanout.make(game, asking)[1]
    assert all(made[w] is None for w in asking)


def test_an_assault_renders_the_projections_it_touched_not_the_phones(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    rolls.endless = True
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    stats = client.app.state.live_stats  # type: ignore[attr-defined]
    names = tuple(f"P{n}" for n in range(30))
    game, people, ids = sb_game(service, names)
    org = people["organizer"]
    referees = [people["referee"]] + [
        viewer_of(service.register(game, org, "referee", f"R{n}", idem_key=key())) for n in range(5)
    ]
    watchers = (
        [Watcher(game, r, "staff", "fr", None) for r in referees]
        + [Watcher(game, org, "staff", "fr", None)]
        + [Watcher(game, Viewer("player", i, n), "player", "fr", None) for n, i in ids.items()]
        + [Watcher(game, PUBLIC, "board", "fr", None) for _ in range(10)]
    )
    first = fanout.make(game, watchers)[1]
    for watcher in watchers:
        shown = first[watcher]
        assert shown is not None
        watcher.tag = shown.tag
    # 30 players, the referees, the organizer, the board: 33 projections for 47 phones.
    assert len({id(s) for s in first.values()}) == 33
    rendered, unchanged = stats["rendered"], stats["unchanged"]
    before = {w: alone(service, client, w) for w in watchers}
    assault = {"type": "assault", "attacker": ids["P3"], "defenders": [ids["P7"]], "card": "bare"}
    dice = {"damage": 4, "location": 3, "answer_damage": 2, "answer_location": 5}
    service.perform(game, referees[2], assault, idem_key=key(), rolls=dice)
    after = {w: alone(service, client, w) for w in watchers}
    # What the change touched, each phone's part taken alone as its refresh would: the
    # defender, the staff (the referee who may undo the assault; the five others, one
    # projection) and the organizer.
    touched = {after[w][1] for w in watchers if after[w][0] != before[w][0]}
    assert {w.viewer.name for w in watchers if after[w][0] != before[w][0]} >= {
        "P7",
        "Orga",
        *(r.name for r in referees),
    }
    pushed = fanout.make(game, watchers)[1]
    assert stats["rendered"] - rendered == len(touched) == 4
    assert stats["unchanged"] - unchanged == sum(after[w][0] == before[w][0] for w in watchers)
    for watcher in watchers:
        shown = pushed[watcher]
        assert shown is not None and shown.tag == after[watcher][0]
        assert (shown.part is None) == (shown.tag == watcher.tag)


def rcb_round(service: GameService, fighters: int) -> tuple[str, Viewer, list[Viewer]]:
    """A Roi / Chevalier / Bourreau game of `fighters` in two teams, dealt: its id, its game
    master and its fighters."""
    game, organizer = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(organizer)
    people = []
    for n in range(fighters):
        fighter = viewer_of(service.register(game.id, gm, "fighter", f"F{n:02}", idem_key=key()))
        assign = {"type": "assign", "person": fighter.person_id, "team": "AB"[n % 2]}
        service.perform(game.id, gm, assign, idem_key=key())
        people.append(fighter)
    service.perform(game.id, gm, {"type": "deal"}, idem_key=key())
    return game.id, gm, people


STAND_IN = re.compile(r"apart[0-9a-f]{32}")


def test_a_round_renders_each_team_s_part_once_and_each_fighter_s_own_card_alone(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 38: at a round's start, 16 fighters' parts differ in their own card alone
    (`GameKind.personal_block`) around their team's part: the rest is rendered once a team and
    each card on its own, and each phone is still pushed exactly what its refresh shows."""
    rolls.endless = True
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    stats = client.app.state.live_stats  # type: ignore[attr-defined]
    game, gm, fighters = rcb_round(service, 16)
    page = service.load(game).kind.page_for(fighters[0])
    phones = [opened(client, service, game, f.person_id) for f in fighters]
    watchers = [Watcher(game, f, page, "fr", None) for f in fighters]
    for watcher, shown in fanout.make(game, watchers)[1].items():
        assert isinstance(shown, Shown)
        watcher.tag = shown.tag
    service.perform(game, gm, {"type": "round"}, idem_key=key())
    rests, apart = stats["rests"], stats["apart"]
    made = fanout.make(game, watchers)[1]
    assert (stats["rests"] - rests, stats["apart"] - apart) == (2, 16)
    state = service.load(game).state
    for watcher, (phone, csrf) in zip(watchers, phones, strict=True):
        shown = made[watcher]
        assert isinstance(shown, Shown)
        part = part_of(shown)
        assert not STAND_IN.search(part["html"])
        refresh = phone.get(f"/g/{game}/live/{page}", headers=HX)
        assert refresh.headers["X-Live-Tag"] == shown.tag
        assert filled(part, csrf, key_base(refresh.text)) == refresh.text, watcher.viewer
        own = state.fighters[str(watcher.viewer.person_id)]  # type: ignore[attr-defined]
        assert f'<h1 id="me-title">{own.name}</h1>' in part["html"]
        assert part["html"].count('id="me-title"') == 1


AFTER_CARD = "{% endblock %}\n{% if own %}"  # in rcb/player.html: right after the card's block


@pytest.mark.parametrize(
    ("old", "new", "made"),
    [
        ("", "", "apart"),  # as it is: the rest once, each card alone
        ("{% block me %}", "{% block me %}<input name=idem value='{{ new_key() }}'>", "whole"),
        (AFTER_CARD, "{% endblock %}\n{{ self.me() }}\n{% if own %}", "whole"),  # twice
        # The rest reads a fighter's own outside the card: it is not rendered from the first
        # fighter's, for the others to see; the parts are rendered whole.
        (AFTER_CARD, "{% endblock %}\n<p>{{ view.me.name }}</p>\n{% if own %}", "whole"),
        (AFTER_CARD, "{% endblock %}\n<p>{{ view.me.role }}</p>\n{% if own %}", "whole"),
        # It shows who the viewer is: from what they share, nobody (their refresh differs,
        # which `test_every_phone_is_pushed_what_its_refresh_shows` would say).
        (AFTER_CARD, "{% endblock %}\n<p>{{ viewer.name }}</p>\n{% if own %}", "nobody"),
    ],
    ids=["as-it-is", "a-form-in-it", "twice", "its-name-outside", "its-card-outside", "viewer"],
)
def test_a_personal_block_is_rendered_apart_only_when_it_can_be(
    client: TestClient, service: GameService, rolls: ScriptedRolls, old: str, new: str, made: str
) -> None:
    """A part whose personal block makes a form (its keys count through the whole part) or
    stands more than once, or whose rest reads what the block shows, is rendered whole, the
    same bytes as a refresh's; what a fighter's rest shows is never another fighter's own."""
    rolls.endless = True
    templates: Templates = client.app.state.templates  # type: ignore[attr-defined]
    source = templates.env.loader.get_source(templates.env, "rcb/player.html")[0]  # type: ignore[union-attr]
    assert old in source
    source = source.replace(old, new, 1)
    loader = jinja2.ChoiceLoader(
        [jinja2.DictLoader({"rcb/player.html": source}), templates.env.loader]  # type: ignore[list-item]
    )
    stats: Counter[str] = Counter()
    clock = client.app.state.clock  # type: ignore[attr-defined]
    parts = LiveParts(service, Templates(templates.env.overlay(loader=loader)), clock, stats)
    game, _gm, fighters = rcb_round(service, 6)
    loaded = service.load(game)
    page = loaded.kind.page_for(fighters[0])
    one = OneState()
    for fighter in fighters[::2]:  # one team
        part = parts.make(loaded, fighter, page, "fr", one=one)
        whole = parts.make(loaded, fighter, page, "fr")
        assert part.tag == whole.tag and part.html is not None
        others = [f for f in fighters if f != fighter]
        assert not [f.name for f in others if f">{f.name}<" in part.html]
        same = part.filled("csrf", "keys") == whole.filled("csrf", "keys")
        assert same == (made != "nobody")
    assert (stats["rests"], stats["apart"]) == ((1, 0) if made == "whole" else (1, 3))


def alone(service: GameService, client: TestClient, watcher: Watcher) -> tuple[str, Any]:
    """A phone's part taken alone, as its refresh takes it: its fingerprint and projection."""
    clock = client.app.state.clock  # type: ignore[attr-defined]
    loaded = service.load(watcher.game_id)
    context = page_context(service, clock, loaded, watcher.viewer, watcher.page)
    return live_tag(context), context["projection"]


def test_a_part_s_marks_are_its_render_s_own_and_stand_only_where_secrets_go(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """The page puts its token where the marks are: a mark that a name could hold would put a
    referee's token in that name. The marks are drawn for each render, after every name in it
    was written, and stand only in the forms' token and key fields."""
    rolls.endless = True
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    staff = [Watcher(game, people["referee"], "staff", "fr", None)]
    seen = []
    for points in (30, 20):
        service.perform(
            game,
            people["referee"],
            {"type": "correct", "player": ids["Léa"], "pv": points, "reason": "b"},
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
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    org = people["organizer"]
    spy = service.register(game, org, "referee", "Espion", idem_key=key())
    version = spy.person.version
    spy_watch = Watcher(game, viewer_of(spy), "staff", "fr", None, version)
    lea = Viewer("player", ids["Léa"], "Léa")
    lea_watch = Watcher(game, lea, "player", "fr", None, service.person(game, ids["Léa"]).version)
    board = Watcher(game, PUBLIC, "board", "fr", None)
    made = fanout.make(game, [spy_watch, lea_watch, board])[1]
    assert all(isinstance(made[w], Shown) for w in (spy_watch, lea_watch, board))
    getattr(service, change)(game, org, spy.person.id, idem_key=key())
    secret = {"type": "correct", "player": ids["Léa"], "pv": 7, "reason": "secret"}
    service.perform(game, people["referee"], secret, idem_key=key())
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
    (`SLICE`), not before each of its projections: a Serial Battle change of 30 players waited
    31 times while a busy server was always answering someone. (Before it starts, it waits on
    the event loop: `test_a_job_waits_for_the_actions_holding_no_live_thread`.)"""
    fanout: Fanout = client.app.state.fanout  # type: ignore[attr-defined]
    names = tuple(f"P{n}" for n in range(30))
    game, _people, ids = sb_game(service, names)
    watchers = [Watcher(game, Viewer("player", i, n), "player", "fr", None) for n, i in ids.items()]
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
    game, _people, _ids = sb_game(service, ("Léa", "Hugo"))
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
