"""No role of the other team, and no ghost's role, reaches anyone but the game master.

Whole games are played with random settings; after every step, every page, htmx fragment, API
answer, journal export and error page each non-GM viewer can ask for is captured (in French or in
English, by turns) and searched for the names of the characters that viewer may not know; the
journal from the first action not yet searched (`tests.conftest.Hunt`), all of it at the end."""

from __future__ import annotations

import json
import random
import re
import threading

import httpx
import pytest
from fastapi.testclient import TestClient

from server.games.rcb.state import ROLES, RCBState
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Hunt, Phone, Phones, key, serve, viewer_of
from tests.rcb.conftest import WORDS


def pattern(roles: set[str]) -> re.Pattern[str] | None:
    words = [w for role in roles for w in WORDS[role]]
    return re.compile(r"\b(" + "|".join(words) + r")\b", re.IGNORECASE) if words else None


def allowed_roles(state: RCBState, viewer: Viewer) -> set[str]:
    """The characters a viewer may know: those of its own team still standing."""
    team = None
    if str(viewer.person_id) in state.fighters:
        team = state.fighters[str(viewer.person_id)].team
    elif str(viewer.person_id) in state.phones:
        team = state.phones[str(viewer.person_id)].team
    return {f.role for f in state.standing(team)} if team else set()  # type: ignore[arg-type, misc]


def forbidden_to(state: RCBState, viewer: Viewer) -> re.Pattern[str] | None:
    return pattern(set(ROLES) - allowed_roles(state, viewer))


def search(hunt: Hunt, people: dict[str, Viewer], step: int) -> None:
    service = hunt.phones.service
    state: RCBState = service.load(hunt.phones.game).state  # type: ignore[assignment]
    for name in [*people, "public"]:
        hunt.search(name, forbidden_to(state, people.get(name, Viewer("public"))), step)


def play_random_game(client: TestClient, seed: int) -> int:
    rng = random.Random(seed)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    dice: ScriptedRolls = client.app.state.service.dice  # type: ignore[attr-defined]
    dice.endless = True
    dice._next = rng.randrange(6)
    # Six to twelve fighters and up to twelve bet cards a team: every phase, reveal and end
    # within about a hundred steps (seventeen and twenty took three times as long, no new state).
    count = rng.randint(6, 12)
    game, organizer = service.create_game(
        "rcb",
        "Soirée",
        "MJ",
        idem_key=key(),
        settings={
            "bets": rng.randint(3, 12),
            "bank": rng.randint(0, 15),
            "designation_seconds": rng.randint(5, 60),
        },
    )
    gm = viewer_of(organizer)
    fighters = [
        viewer_of(service.register(game.id, gm, "fighter", f"F{i}", idem_key=key()))
        for i in range(count)
    ]
    phone_a = viewer_of(service.register(game.id, gm, "team", "Tél A", idem_key=key()))
    phone_b = viewer_of(service.register(game.id, gm, "team", "Tél B", idem_key=key()))
    service.perform(game.id, gm, {"type": "random_teams"}, idem_key=key())
    service.perform(
        game.id, gm, {"type": "assign", "person": phone_a.person_id, "team": "A"}, idem_key=key()
    )
    service.perform(
        game.id, gm, {"type": "assign", "person": phone_b.person_id, "team": "B"}, idem_key=key()
    )
    service.perform(game.id, gm, {"type": "deal"}, idem_key=key())
    state: RCBState = service.load(game.id).state  # type: ignore[assignment]
    a_fighters = [f for f in fighters if state.fighters[str(f.person_id)].team == "A"]
    b_fighters = [f for f in fighters if state.fighters[str(f.person_id)].team == "B"]
    people = {
        "phone_a": phone_a,
        "phone_b": phone_b,
        "a1": a_fighters[0],
        "a2": a_fighters[-1],
        "b1": b_fighters[0],
    }
    phones = Phones(client, service, game.id, ({"type": "duel"}, {"type": "reveal"}))
    for name, person in people.items():
        phones.open(name, person)
    hunt = Hunt(phones)
    search(hunt, people, 0)
    step = 1
    while service.load(game.id).state.phase != "finished" and step < 200:  # type: ignore[attr-defined]
        state = service.load(game.id).state  # type: ignore[assignment]
        pick_a = rng.choice(state.standing("A")).id
        pick_b = rng.choice(state.standing("B")).id
        stakes = {t: (rng.randint(1, min(5, state.bets[t])) if state.bets[t] else 0) for t in "AB"}
        for command in (
            {"type": "round"},
            {"type": "fighters", "a": pick_a, "b": pick_b, "opponent_a": rng.random() < 0.2},
            {"type": "stakes", "a": stakes["A"], "b": stakes["B"]},
            {"type": "duel"},
        ):
            service.perform(game.id, gm, command, idem_key=key())
            search(hunt, people, step)
            step += 1
        total = service.load(game.id).state.total_cards()  # type: ignore[attr-defined]
        assert total == state.bets_setting * 2 + state.bank_setting  # bet cards are conserved
    state = service.load(game.id).state  # type: ignore[assignment]
    assert state.phase == "finished"
    everyone = {**people, "public": Viewer("public")}
    hunt.finish({name: forbidden_to(state, person) for name, person in everyone.items()})
    hunt.replay(lambda then, name: forbidden_to(then, everyone[name]))
    return hunt.checked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_never_leak_a_hidden_role(client: TestClient, seed: int) -> None:
    checked = play_random_game(client, seed)
    assert checked > 100
    print(f"\nleaks: game {seed}, {checked} answers searched, none leaked")


def test_the_event_stream_carries_only_numbers(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, organizer = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(organizer)
    fighters = [
        viewer_of(service.register(game.id, gm, "fighter", f"F{i}", idem_key=key()))
        for i in range(6)
    ]
    phone = Phone(client, follow_redirects=False)
    phone.get(f"/t/{service.link_of(service.person(game.id, fighters[0].person_id)).token}")  # type: ignore[arg-type]
    lines: list[str] = []
    listening = threading.Event()
    last = service.seq_of(game.id) + 4  # four commands, one change each
    with serve(client.app) as base:

        def listen() -> None:
            with httpx.stream(
                "GET",
                f"{base}/g/{game.id}/events",
                cookies={"arbitre": phone.cookies["arbitre"]},
                timeout=10,
            ) as sse:
                for line in sse.iter_lines():
                    lines.append(line)
                    listening.set()
                    # Nudges coalesce: the stream is done once it reached the last change.
                    if line.startswith("data: ") and json.loads(line[6:])["seq"] >= last:
                        return

        listener = threading.Thread(target=listen)
        listener.start()
        assert listening.wait(10)  # the stream's hello: it listens
        client.app.state.service.dice.endless = True  # type: ignore[attr-defined]
        for command in (
            {"type": "random_teams"},
            {"type": "team_names", "a": "Rouges", "b": "Bleus"},
            {"type": "deal"},
            {"type": "round"},
        ):
            service.perform(game.id, gm, command, idem_key=key())
        assert service.seq_of(game.id) == last
        listener.join(timeout=10)
        assert not listener.is_alive()
    data = [json.loads(line[6:]) for line in lines if line.startswith("data: ")]
    assert data and all(set(d) <= {"seq", "now"} for d in data)
