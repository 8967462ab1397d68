"""A whole three-player BattleFight match through the JSON API, as three phones and an organizer
would play it: constructed decks, a game won, the next game begun by who lost first (2.1.6), a game
drawn by threefold repetition (2.6.2), and a last game after a draw begun by lot. Every player reads
only their own view and answers only what it offers them."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from tests.conftest import key

TYPES = ("attaque", "défense", "déplacement", "concentration", "rhétorique")
# Every card hits from anywhere for 7: three blows end a player (2.5, 4.4.1, 4.4.6 with N = 0).
HARD = json.dumps(
    [
        {"title": f"Frappe {kind}", "type": kind, "steps": ["Distance 0", "Blesser 7"]}
        for kind in TYPES
    ]
)
NAMES = ("Léa", "Hugo", "Inès")


class Table:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        created = client.post(
            "/api/v1/games",
            json={
                "kind": "battlefight",
                "name": "Match à trois",
                "organizer": "Orga",
                "settings": {"deck_mode": "constructed"},
            },
            headers={"Idempotency-Key": key()},
        )
        assert created.status_code == 201, created.text
        self.game = created.json()["game"]["id"]
        self.tokens = {"Orga": created.json()["organizer"]["token"]}
        self.ids: dict[str, int] = {}
        for name in NAMES:
            person = self.post_as("Orga", "people", {"role": "player", "name": name})
            assert person["seat"] == "free"
            # Each player's client takes their seat with its ticket (issue 51): it is handed the
            # seat's own key, and the ticket then opens nothing, for the organizer neither.
            taken = client.post("/api/v1/claim", json={"token": person["token"]})
            assert taken.status_code == 200 and taken.json()["seat"] == "taken", taken.text
            assert taken.json()["token"] != person["token"]
            again = client.post("/api/v1/claim", json={"token": person["token"]})
            assert again.status_code == 409 and again.json()["code"] == "seat_taken"
            self.tokens[name], self.ids[name] = taken.json()["token"], person["person_id"]

    def post_as(self, who: str, path: str, body: dict[str, Any], status: int = 200) -> Any:
        answer = self.client.post(
            f"/api/v1/games/{self.game}/{path}",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[who]}", "Idempotency-Key": key()},
        )
        assert answer.status_code in (status, 201), answer.text
        return answer.json()

    def act(self, who: str, command: dict[str, Any], status: int = 200) -> Any:
        return self.post_as(who, "commands", {"command": command}, status)

    def view(self, who: str) -> dict[str, Any]:
        answer = self.client.get(
            f"/api/v1/games/{self.game}/state",
            headers={"Authorization": f"Bearer {self.tokens[who]}"},
        )
        assert answer.status_code == 200, answer.text
        return answer.json()["state"]

    def asked(self) -> tuple[str, dict[str, Any]]:
        """Who the public board says must choose, and the choice as their own phone shows it."""
        pending = self.view("Orga")["table"]["pending"]
        assert pending is not None
        name = pending["player"]
        choice = self.view(name)["me"]["choice"]
        assert choice is not None, f"{name}'s phone shows no choice"
        for other in NAMES:
            if other != name:
                assert self.view(other)["me"]["choice"] is None
        return name, choice


def fight(t: Table) -> None:
    """Each player draws until they hold a card, then plays it against the weakest opponent."""
    for _ in range(200):
        board = t.view("Orga")
        if board["phase"] == "finished":
            return
        name, choice = t.asked()
        options = [o["value"] for o in choice["options"]]
        if choice["kind"] == "technique":
            cards = [o for o in options if not o.startswith("base-")]
            value = cards[0] if cards else "base-concentration"
        elif choice["kind"] == "target":
            life = {s["id"]: s["life"] for s in board["table"]["seats"]}
            value = min(options, key=lambda o: life[int(o)])
        else:
            raise AssertionError(f"unexpected choice {choice['kind']}")
        t.act(name, {"type": "choose", "values": [value]})
    raise AssertionError("the game did not end")


def test_a_three_player_match_through_the_api(client: TestClient, rolls: ScriptedRolls) -> None:
    rolls.endless = True
    t = Table(client)
    t.act("Orga", {"type": "collection", "text": HARD})
    keys = [c["key"] for c in t.view("Orga")["collection"]]
    refused = t.act("Léa", {"type": "deck", "cards": keys * 3}, status=422)
    assert refused["field"] == "cards" and "4 cartes de chaque type" in refused["message"]  # 1.1.3
    for name in NAMES:
        t.act(name, {"type": "deck", "cards": keys * 4})

    # Game 1: won by the last one standing (2.5); who lost first is remembered (2.1.6).
    started = t.act("Orga", {"type": "start"})
    assert "commence" in started["summary"] or "premi" in started["summary"], started
    fight(t)
    board = t.view("Orga")
    assert board["result"] == "won"
    seats = board["table"]["seats"]
    lost = [s for s in seats if s["lost"]]
    winner = next(s for s in seats if not s["lost"])
    assert len(lost) == 2 and board["table"]["winner"] == winner["name"]
    assert {p["name"]: p["wins"] for p in board["players"]}[winner["name"]] == 1
    first_out = next(s["name"] for s in seats if s["life"] <= 0 and s["lost"])

    # Game 2: who lost first plays first; three rounds of base defence repeat the start (2.6.2).
    t.act("Orga", {"type": "next_game"})
    board = t.view("Orga")
    first = next(s for s in board["table"]["seats"] if s["turn"])
    loser_ids = [t.ids[s["name"]] for s in lost]
    assert t.ids[first["name"]] in loser_ids
    refusal = t.act(first["name"], {"type": "repetition"}, status=422)
    assert "2.6.2" in refusal["message"]
    for round_ in range(2):
        for _ in NAMES:
            name, choice = t.asked()
            assert "base-defence" in [o["value"] for o in choice["options"]]
            # 3.4.3: Bloquer names no opponent, so nobody is asked whom it targets
            t.act(name, {"type": "choose", "values": ["base-defence"]})
        if round_ == 0:  # reached twice: not yet
            t.act(NAMES[2], {"type": "repetition"}, status=422)
    assert t.view("Hugo")["table"]["repetition"] is True
    t.act("Hugo", {"type": "repetition"})
    board = t.view("Orga")
    assert board["result"] == "draw_repetition" and board["draws"] == 1
    t.act("Léa", {"type": "choose", "values": ["base-attack"]}, status=422)  # the game is over

    # Game 3, after a draw: the first player by lot; played to its end.
    t.act("Orga", {"type": "next_game"})
    fight(t)
    board = t.view("Orga")
    assert board["result"] == "won" and board["games"] == 2
    assert sum(p["wins"] for p in board["players"]) == 2 and board["draws"] == 1
    assert first_out in NAMES

    # The journal, as one player reads it, names nobody's hand: every card played is public.
    log = client.get(
        f"/api/v1/games/{t.game}/log", headers={"Authorization": f"Bearer {t.tokens['Inès']}"}
    ).json()["events"]
    assert log and all("command" not in e for e in log)
