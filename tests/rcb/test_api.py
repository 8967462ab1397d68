"""The JSON API (`tests/test_api.py`) with Roi / Chevalier / Bourreau: its kind's route takes
its own commands only; both routes refuse half a character and take a command as it was
sent."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import key
from tests.phones_kit import post


def test_a_kind_route_takes_its_own_kind_s_commands_only(client: TestClient) -> None:
    created = post(client, "/api/v1/games", {"kind": "rcb", "name": "Soirée", "organizer": "MJ"})
    game_id, token = created.json()["game"]["id"], created.json()["organizer"]["token"]
    names = {"command": {"type": "team_names", "a": "Rouges", "b": "Bleus"}}
    done = post(client, f"/api/v1/rcb/games/{game_id}/commands", names, token)
    assert done.status_code == 200, done.text
    # Another kind's command, or this game through another kind's route: refused, nothing done.
    wrong = post(
        client, f"/api/v1/rcb/games/{game_id}/commands", {"command": {"type": "keep"}}, token
    )
    assert wrong.status_code == 422 and wrong.json()["code"] == "invalid"
    elsewhere = post(
        client, f"/api/v1/trust_me/games/{game_id}/commands", {"command": {"type": "deal"}}, token
    )
    assert elsewhere.status_code == 404
    unsigned = post(client, f"/api/v1/rcb/games/{game_id}/commands", names)
    assert unsigned.status_code == 401
    seq = client.get(
        f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()["game"]["seq"]
    # The old route still takes any kind's command.
    again = post(
        client,
        f"/api/v1/games/{game_id}/commands",
        {"command": {**names["command"], "a": "Or"}},
        token,
    )
    assert again.status_code == 200 and again.json()["seq"] == seq + 1


def test_half_a_character_is_refused_not_a_500(client: TestClient) -> None:
    """Found by an outside attack: a lone surrogate ("\\ud83d") in a command or in the dice
    entered crashed the idempotency fingerprint (a 500) on both routes, for any token."""
    created = post(client, "/api/v1/games", {"kind": "rcb", "name": "Soirée", "organizer": "MJ"})
    game_id, token = created.json()["game"]["id"], created.json()["organizer"]["token"]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bodies = [
        b'{"command": {"type": "team_names", "a": "x", "b": "\\ud83d"}}',
        b'{"command": {"type": "team_names", "a": "x", "b": "y"}, "rolls": {"\\ud83d": 1}}',
    ]
    for route in (f"/api/v1/games/{game_id}/commands", f"/api/v1/rcb/games/{game_id}/commands"):
        for body in bodies:
            answer = client.post(route, content=body, headers={**headers, "Idempotency-Key": key()})
            assert 400 <= answer.status_code < 500, (route, answer.status_code, answer.text)
            assert answer.json()["message"]
    state = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert state.json()["game"]["seq"] == created.json()["game"]["seq"]


def test_both_routes_take_a_command_as_it_was_sent(client: TestClient) -> None:
    """Found by an outside attack: the kind's route checked and fingerprinted the command once
    parsed ("3" read as 3, spaces stripped), the old route as sent: a retry with the same key
    across the routes was refused, and a hidden character a validator stripped went through."""
    created = post(client, "/api/v1/games", {"kind": "rcb", "name": "Soirée", "organizer": "MJ"})
    game_id, token = created.json()["game"]["id"], created.json()["organizer"]["token"]
    settings = {"type": "settings", "bets": "12", "bank": 10, "designation_seconds": 60}
    first = post(
        client, f"/api/v1/games/{game_id}/commands", {"command": settings}, token, "same-key-1"
    )
    again = post(
        client, f"/api/v1/rcb/games/{game_id}/commands", {"command": settings}, token, "same-key-1"
    )
    assert first.status_code == 200 and again.json()["replayed"] is True
    hidden = {"command": {"type": "team_names", "a": "Rouges\x0b", "b": "Bleus"}}
    for route in (f"/api/v1/games/{game_id}/commands", f"/api/v1/rcb/games/{game_id}/commands"):
        refused = post(client, route, hidden, token)
        assert refused.status_code == 422 and refused.json()["field"] == "a", refused.text
