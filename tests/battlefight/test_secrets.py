"""No hand and no pile reaches anyone but its player (1.3.1, 1.3.2): whole games are played from
the players' phones with random legal answers; after every step, every page, htmx fragment, API
answer, journal export and refused command that each other viewer can ask for (the organizer, the
other players, the public board, in French or in English by turns; the journal from the first
action not yet searched, all of it at the end: `tests.conftest.Hunt`) is searched for the cards
of a deck that were never face up. Each player's deck is made of cards only they hold, so a title seen
elsewhere tells where it came from."""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from server.games.battlefight.state import BFState
from server.platform.data_import import slug
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Hunt, Phone, Phones, key, serve, viewer_of

NAMES = ("Lea", "Hugo", "Ines")
STEPS = {  # varied enough to draw, discard, stay Stable, move and hurt
    "attaque": ["Distance 0", "Blesser 3"],
    "défense": ["Protection 1", "Stable 1"],
    "déplacement": ["Se déplacer 1", "Piocher 1"],
    "concentration": ["Piocher 2"],
    "rhétorique": ["Si possible défausser 1", "Piocher 1"],
}


def title(name: str, kind: str) -> str:
    return (
        f"Zq{name}{slug(kind)[:3].capitalize()}"  # one word, no accent: found as written anywhere
    )


COLLECTION = json.dumps(
    [
        {"title": title(name, kind), "type": kind, "steps": steps}
        for name in NAMES
        for kind, steps in STEPS.items()
    ]
)


def face_up(state: BFState, seen: set[str]) -> set[str]:
    """The titles that were ever face up (1.3.3, 1.3.4): in an activity zone or a discard."""
    table = state.table
    assert table is not None
    for seat in table.seats:
        seen.update(table.technique(c).title for c in seat.discard)
    seen.update(table.technique(a.technique).title for a in table.active)
    return seen


def hidden_from(name: str, seen: set[str]) -> re.Pattern[str] | None:
    titles = [title(other, kind) for other in NAMES if other != name for kind in STEPS]
    secret = [t for t in titles if t not in seen]
    return re.compile("|".join(secret)) if secret else None


def play(client: TestClient, seed: int) -> int:
    rng = random.Random(seed)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    service.dice.endless = True  # type: ignore[attr-defined]
    game, owner = service.create_game(
        "battlefight", "Secrets", "Orga", idem_key=key(), settings={"deck_mode": "constructed"}
    )
    org = viewer_of(owner)
    service.perform(game.id, org, {"type": "collection", "text": COLLECTION}, idem_key=key())
    refusal = ({"type": "choose", "values[]": "base-attack"}, {"type": "choose", "values": ["1:1"]})
    phones = Phones(client, service, game.id, refusal)
    phones.open("Orga", org)
    players: dict[int, Viewer] = {}
    for name in NAMES[: 2 + seed % 2]:
        person = viewer_of(service.register(game.id, org, "player", name, idem_key=key()))
        players[person.person_id] = person  # type: ignore[index]
        phones.open(name, person)
        deck = [slug(title(name, kind)) for kind in STEPS for _ in range(4)]  # their own cards
        service.perform(game.id, person, {"type": "deck", "cards": deck}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    seen: set[str] = set()
    hunt = Hunt(phones)
    viewers = [*phones.phones]
    for step in range(40):
        state: BFState = service.load(game.id).state  # type: ignore[assignment]
        if state.phase != "playing":
            break
        face_up(state, seen)
        for name in viewers:
            hunt.search(name, hidden_from(name, seen), step)
        pending = state.table.pending  # type: ignore[union-attr]
        assert pending is not None
        values = rng.sample(pending.options, pending.count)
        service.perform(
            game.id, players[pending.player], {"type": "choose", "values": values}, idem_key=key()
        )
    face_up(service.load(game.id).state, seen)  # type: ignore[arg-type]
    hunt.finish({name: hidden_from(name, seen) for name in viewers})
    return hunt.checked


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_never_show_a_hand_or_a_pile(client: TestClient, seed: int) -> None:
    assert play(client, seed) > 300


def test_the_event_stream_carries_only_numbers(client: TestClient) -> None:
    """The stream of a BattleFight game, as a player's phone holds it while cards are drawn."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    service.dice.endless = True  # type: ignore[attr-defined]
    game, owner = service.create_game("battlefight", "Flux", "Orga", idem_key=key())
    org = viewer_of(owner)
    people = [
        viewer_of(service.register(game.id, org, "player", n, idem_key=key())) for n in NAMES[:2]
    ]
    for person in people:
        service.perform(game.id, person, {"type": "boosters"}, idem_key=key())
    phone = Phone(client, follow_redirects=False)
    phone.get(f"/t/{service.link_of(service.person(game.id, people[0].person_id)).token}")  # type: ignore[arg-type]
    lines: list[str] = []
    listening = threading.Event()
    with serve(client.app) as base:
        last = service.seq_of(game.id) + 3

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
                    if line.startswith("data: ") and json.loads(line[6:])["seq"] >= last:
                        return

        listener = threading.Thread(target=listen)
        listener.start()
        assert listening.wait(10)  # the stream's hello: it listens
        service.perform(game.id, org, {"type": "start"}, idem_key=key())
        for _ in range(2):
            state: Any = service.load(game.id).state
            who = next(p for p in people if p.person_id == state.table.pending.player)
            service.perform(
                game.id, who, {"type": "choose", "values": ["base-concentration"]}, idem_key=key()
            )
        listener.join(timeout=10)
        assert not listener.is_alive()
    data = [json.loads(line[6:]) for line in lines if line.startswith("data: ")]
    assert data and all(set(d) <= {"seq", "now"} for d in data)
