"""A change's live parts made once per projection (`tests/test_fanout.py`), in Serial Battle: an
assault watched by 6 referees, 30 players and 10 boards renders the parts of the projections it
touched (the defender's, the staff's, the organizer's), not 47."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC, Viewer
from server.platform.service import GameService
from server.web.fanout import Fanout, Watcher
from tests.conftest import key, viewer_of
from tests.phones_kit import alone
from tests.serial_battle.scenes import sb_game


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
