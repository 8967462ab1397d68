"""A change's live parts made once per projection (`tests/test_fanout.py`), in Roi / Chevalier /
Bourreau: a round renders each team's part once and each of 16 fighters' own card alone
(`GameKind.personal_block`), and only when it can be."""

from __future__ import annotations

import re
from collections import Counter

import jinja2
import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from server.web.fanout import Fanout, Shown, Watcher
from server.web.parts import LiveParts, OneState
from server.web.templating import Templates
from tests.conftest import key, viewer_of
from tests.phones_kit import HX, filled, key_base, opened, part_of


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
