"""The JSON API: bearer tokens, idempotency keys, errors with a stable code and a message."""

from __future__ import annotations

from typing import Any, Literal, get_args

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from tests.conftest import key
from tests.phones_kit import post


def make_game(client: TestClient) -> tuple[str, str, dict[str, str]]:
    created = post(client, "/api/v1/games", {"kind": "tally", "name": "API", "organizer": "Org"})
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    admin = created.json()["organizer"]["token"]
    tokens = {}
    for role, name in (("referee", "Ref"), ("player", "Léa"), ("player", "Hugo")):
        person = post(
            client, f"/api/v1/games/{game_id}/people", {"role": role, "name": name}, admin
        )
        assert person.status_code == 201, person.text
        # Each person's client takes their seat (issue 51): the key it is handed is its bearer.
        claimed = client.post("/api/v1/claim", json={"token": person.json()["token"]})
        assert claimed.status_code == 200, claimed.text
        tokens[name] = claimed.json()["token"]
        tokens[name + ":id"] = str(person.json()["person_id"])
    return game_id, admin, tokens


def test_a_whole_flow_through_the_api(client: TestClient, rolls: ScriptedRolls) -> None:
    game_id, _admin, tokens = make_game(client)
    rolls.push(6)
    done = post(
        client,
        f"/api/v1/games/{game_id}/commands",
        {"command": {"type": "roll", "player": int(tokens["Léa:id"])}},
        tokens["Ref"],
        idem="key-roll-1",
    )
    assert done.status_code == 200 and done.json()["result"] == {"points": 6}
    again = post(
        client,
        f"/api/v1/games/{game_id}/commands",
        {"command": {"type": "roll", "player": int(tokens["Léa:id"])}},
        tokens["Ref"],
        idem="key-roll-1",
    )
    assert again.json()["replayed"] is True and again.json()["seq"] == done.json()["seq"]
    mine = client.get(
        f"/api/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens['Léa']}"}
    ).json()
    assert mine["viewer"]["role"] == "player" and mine["state"]["me"]["points"] == 6
    assert "players" not in mine["state"]  # nobody else's points
    public = client.get(f"/api/v1/games/{game_id}").json()
    assert public["viewer"]["role"] == "public" and "me" not in public["state"]
    log = client.get(
        f"/api/v1/games/{game_id}/log", headers={"Authorization": f"Bearer {tokens['Ref']}"}
    ).json()["events"]
    assert log[-1]["rolls"][0]["value"] == 6
    undone = post(client, f"/api/v1/games/{game_id}/undo", {}, tokens["Ref"])
    assert undone.status_code == 200 and undone.json()["summary"].startswith("Annulé")


def test_errors_are_json_with_a_code_and_a_message_in_the_callers_language(
    client: TestClient,
) -> None:
    game_id, _admin, tokens = make_game(client)
    cases = [
        (
            post(
                client,
                f"/api/v1/games/{game_id}/commands",
                {"command": {"type": "score", "player": 999, "points": 1}},
                tokens["Ref"],
            ),
            422,
            "invalid",  # nobody 999 in this game: refused before the rules see it
        ),
        (
            post(
                client,
                f"/api/v1/games/{game_id}/commands",
                {"command": {"type": "nope"}},
                tokens["Ref"],
            ),
            422,
            "invalid",
        ),
        (
            post(
                client,
                f"/api/v1/games/{game_id}/commands",
                {"command": {"type": "score", "player": int(tokens["Hugo:id"]), "points": 1}},
                tokens["Léa"],
            ),
            403,
            "forbidden",
        ),
        (
            post(
                client,
                f"/api/v1/games/{game_id}/commands",
                {"command": {"type": "roll", "player": 1}, "rolls": {"points": 9}},
                tokens["Ref"],
            ),
            422,
            "rule",
        ),  # person 1 is the organizer, not a player
        (
            post(client, f"/api/v1/games/{game_id}/commands", {"command": {}}, "forged-token"),
            404,
            "link_invalid",
        ),
        (client.post(f"/api/v1/games/{game_id}/commands", json={"command": {}}), 422, "invalid"),
        (
            post(client, "/api/v1/games/none/commands", {"command": {}}, tokens["Ref"]),
            401,
            "unauthenticated",
        ),
        (post(client, f"/api/v1/games/{game_id}/undo", {}, tokens["Ref"]), 422, "rule"),
        (
            post(
                client,
                f"/api/v1/games/{game_id}/people",
                {"role": "player", "name": "X"},
                tokens["Ref"],
            ),
            403,
            "forbidden",
        ),
        (
            client.post(
                "/api/v1/games",
                content=b"{not json",
                headers={"Idempotency-Key": key(), "Content-Type": "application/json"},
            ),
            422,
            "invalid",
        ),
    ]
    for response, status, code in cases:
        assert response.status_code == status, (response.status_code, response.text)
        body = response.json()
        assert body["code"] == code and body["message"], body
    english = client.post(
        f"/api/v1/games/{game_id}/undo",
        json={},
        headers={
            "Idempotency-Key": key(),
            "Authorization": f"Bearer {tokens['Ref']}",
            "Accept-Language": "en",
        },
    )
    assert english.json()["message"] == "There is nothing to undo."


def test_a_die_outside_its_faces_is_a_rule_error(client: TestClient) -> None:
    game_id, _admin, tokens = make_game(client)
    bad = post(
        client,
        f"/api/v1/games/{game_id}/commands",
        {"command": {"type": "roll", "player": int(tokens["Léa:id"])}, "rolls": {"points": 9}},
        tokens["Ref"],
    )
    assert bad.status_code == 422 and bad.json()["field"] == "roll_points"
    assert "pas 9" in bad.json()["message"]


def test_links_are_managed_by_the_organizer(client: TestClient) -> None:
    game_id, admin, tokens = make_game(client)
    lea = tokens["Léa:id"]
    new = post(client, f"/api/v1/games/{game_id}/people/{lea}/link", {}, admin).json()
    assert new["token"] != tokens["Léa"]
    dead = client.get(
        f"/api/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens['Léa']}"}
    )
    assert dead.status_code == 404 and dead.json()["code"] == "link_invalid"
    revoked = client.delete(
        f"/api/v1/games/{game_id}/people/{lea}/link",
        headers={"Authorization": f"Bearer {admin}", "Idempotency-Key": key()},
    )
    assert revoked.json()["token"] is None
    people = client.get(
        f"/api/v1/games/{game_id}/people", headers={"Authorization": f"Bearer {admin}"}
    ).json()
    assert len(people) == 4


def test_openapi_describes_the_api(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/games/{game_id}/commands" in schema["paths"]
    assert "ErrorOut" in schema["components"]["schemas"]
    assert all(p.startswith("/api/v1/") for p in schema["paths"])


def resolve(schemas: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schemas[node["$ref"].rpartition("/")[2]]
    return node


def test_each_kind_has_its_own_typed_command_route(client: TestClient) -> None:
    """Issue 32: eight `type` tags exist in more than one kind (`deal`, `start`, `attack`...).
    Each kind's route takes that kind's own union, so a client generated from the schema tells
    one kind's `deal` from another's: each route's tags are its kind's, each leads to a model of
    that shape, and two kinds share a model only where their commands are the same shape (two
    kinds' bare `start`). (A kind's route with its own game: in the games' folders.)"""
    from server.platform.kinds import KINDS

    schema = client.get("/api/v1/openapi.json").json()
    schemas = schema["components"]["schemas"]
    seen: dict[str, tuple[str, type]] = {}  # component -> the first kind and model using it
    dealing = set()  # the kinds that have a `deal`
    for kind_key in sorted(KINDS):
        kind = KINDS[kind_key]
        if kind.command_union is None:
            continue  # a test's own kind
        operation = schema["paths"][f"/api/v1/{kind_key}/games/{{game_id}}/commands"]["post"]
        body = resolve(schemas, operation["requestBody"]["content"]["application/json"]["schema"])
        mapping = body["properties"]["command"]["discriminator"]["mapping"]
        models = {
            tag: m
            for m in kind.handlers
            if m not in kind.internal
            for tag in get_args(m.model_fields["type"].annotation)
        }
        assert set(mapping) == set(models), kind_key
        if "deal" in models:
            dealing.add(kind_key)
        for tag, ref in mapping.items():
            component = ref.rpartition("/")[2]
            first = seen.setdefault(component, (kind_key, models[tag]))
            if first[0] != kind_key:
                assert first[1].model_json_schema() == models[tag].model_json_schema(), component
    assert schema["paths"]["/api/v1/games/{game_id}/commands"]["post"]["deprecated"] is True
    # `deal` is more than one kind's, each its own shape: each route says whose.
    assert len(dealing) >= 2
    assert {
        k for k, m in seen.values() if m.model_fields["type"].annotation == Literal["deal"]
    } == dealing
