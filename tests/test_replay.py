"""A finished game replays move by move (issue 37).

A step is the game as it stood just after one action: an action undone later is still in it, one
undone by then is out, and a snapshot that an undo reached behind is never used (the rebuilt state
equals the one stored at that moment, for every step of a game of 230 actions). Every finished
scene of every kind replays for each of its people and the public, every step, with no form on it;
a game in play has no replay yet; a step's address says it (one past the end, or no number, is
the end's). (What a game's replay keeps from whom, and a game that moves after its end: in the
games' folders.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import NotFound
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, tally_game
from tests.scene import declared
from tests.security.conftest import SCENES, phones

ENDED = sorted(declared("ENDS"))  # every game's ends
STEPS = re.compile(r'data-step="(\d+)" data-last="(\d+)"')
NOW = re.compile(r'class="now-where">([^<]+)</strong>\s*<span class="now-you">(.*?)</span>', re.S)


def test_a_step_is_the_game_as_it_stood_then(service: GameService) -> None:
    game, _org, ref, players = tally_game(service)
    then: dict[int, Any] = {}

    def seen() -> None:
        loaded = service.load(game.id)
        then[loaded.game.seq] = loaded.state.model_dump(mode="json")

    seen()
    for n in range(1, 231):
        player = players[n % 2].person_id
        points = 1 if n % 4 < 2 else -1
        service.perform(
            game.id, ref, {"type": "score", "player": player, "points": points}, idem_key=key()
        )
        seen()
        if service.load(game.id).game.seq in (100, 157):
            # The action at 100 held a snapshot: undone, the snapshot goes, and the replay of
            # step 100 must not start from it, nor from the state after the undo.
            service.undo(game.id, ref, idem_key=key())
            seen()
    assert any(state != then[seq - 1] for seq, state in then.items() if seq - 1 in then)
    for seq, state in then.items():
        assert service.state_at(game.id, seq)[1].model_dump(mode="json") == state, seq
    steps = service.steps(game.id)
    assert len(steps) == 232 and sum(undone for _, undone in steps) == 2


@pytest.mark.parametrize("label", sorted(SCENES))
def test_the_last_step_of_every_scene_is_its_stored_state(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    """What a replay rebuilds is what the live pages showed: the state after the last event is
    the stored one, for every kind in every phase (a step between is the Tally test's)."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    loaded = service.load(scene.game)
    rebuilt = service.state_at(scene.game, loaded.game.seq)[1]
    assert rebuilt.model_dump(mode="json") == loaded.state.model_dump(mode="json")


@pytest.mark.parametrize("label", ENDED)
def test_every_finished_game_replays_for_each_reader_step_by_step(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    board = client.get(f"/g/{scene.game}/board").text
    assert f'href="/g/{scene.game}/replay"' in board  # offered where the game is watched
    for persona, phone in phones(client, service, scene).items():
        if persona not in ("public", "stranger"):  # and on every page of the game's people
            own = phone.get(f"/g/{scene.game}").text
            assert f'href="/g/{scene.game}/replay"' in own, persona
        answer = phone.get(f"/g/{scene.game}/replay")
        assert answer.status_code == 200, (persona, answer.text[:300])
        # Each reader's own, asked again each time: unchanged while the game has not moved.
        assert answer.headers["cache-control"] == "private, no-cache"
        again = phone.get(
            f"/g/{scene.game}/replay", headers={"If-None-Match": answer.headers["etag"]}
        )
        assert again.status_code == 304
        found = STEPS.search(answer.text)
        assert found and found.group(1) == found.group(2), persona  # it opens on the end
        last = int(found.group(2))
        assert last == len(service.steps(scene.game)) and last > 0
        numbers = [seq for seq, _undone in service.steps(scene.game)]
        for step in range(last + 1):
            page = phone.get(f"/g/{scene.game}/replay?step={step}").text
            assert f'data-step="{step}"' in page
            shown = page[page.index('id="replay"') :]  # the step and its controls
            assert 'method="post"' not in shown and "hx-post" not in shown, (persona, step)
            # Nor a link that brings today's game into an old step (a live panel).
            assert 'hx-get="/g/' not in shown, (persona, step)
            assert 'aria-current="step"' in page or step == 0
            if step == 0:  # a setup as it stood: not what its organizer still had to do then,
                assert 'class="missing"' not in shown and 'class="warning"' not in shown, persona
                # nor a live page to do it on (a newcomer's find, issue 54)
                assert f'href="/g/{scene.game}/people"' not in shown, persona
                assert f'href="/g/{scene.game}/{scene.kind}/' not in shown, persona
            if step:  # reached by its journal's number, as the timeline shows it
                jumped = phone.get(f"/g/{scene.game}/replay?seq={numbers[step - 1]}")
                assert jumped.headers["location"].endswith(f"?step={step}"), (persona, step)
            if step:  # numbered as the journal numbers it, said in words to every reader
                line = NOW.search(page)
                assert line and f"nº {numbers[step - 1]}," in line.group(1), (persona, step)
                said = re.sub(r"<[^>]+>|\s+", " ", line.group(2)).strip()
                assert said and said != "Une action", (persona, step, said)


def tally_played(service: GameService, *, finished: bool) -> str:
    """A game of the platform's test kind, points scored, its winner's or not yet."""
    game, _org, ref, (lea, _hugo) = tally_game(service)
    for _ in range(2 if finished else 1):  # the target is 20
        command = {"type": "score", "player": lea.person_id, "points": 10}
        service.perform(game.id, ref, command, idem_key=key())
    assert service.load(game.id).game.status == ("finished" if finished else "running")
    return game.id


def test_a_step_past_the_end_or_not_a_number_is_the_end(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game = tally_played(service, finished=True)
    last = len(service.steps(game))
    for asked in ("99999", "-1", "abc", "1.5", ""):
        answer = client.get(f"/g/{game}/replay?step={asked}", follow_redirects=False)
        assert answer.status_code == 303, asked
        assert answer.headers["location"] == f"/g/{game}/replay?step={last}"


def test_a_game_in_play_has_no_replay_yet(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game = tally_played(service, finished=False)
    answer = client.get(f"/g/{game}/replay", headers={"Accept-Language": "fr"})
    assert answer.status_code == 404 and "une fois la partie finie" in answer.text
    with pytest.raises(NotFound):
        service.state_at("no-such-game", 1)


def test_a_step_in_other_digits_is_the_end_not_a_500(client: TestClient) -> None:
    """An outside attack: "²" passed `isdigit` and broke `int`; "１" broke the ETag header."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game = tally_played(service, finished=True)
    for asked in ("²", "１", "٣", "03"):
        answer = client.get(f"/g/{game}/replay?step={asked}", follow_redirects=False)
        assert answer.status_code in (200, 303), (asked, answer.status_code)
