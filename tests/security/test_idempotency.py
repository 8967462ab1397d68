"""Idempotency keys as Stripe defines them: a key belongs to its caller and its operation.

The same key from another caller is another key (never their result, never their link); from the
same caller with another operation or body, it is refused (`idempotency_mismatch`); the keys the
server uses for a game's follow-ups live where no client can write (in the games' folders); an
anonymous creation is never answered again with its organizer's link.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from server.models import Event
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key, seat_key, tally_game, viewer_of

# The kinds whose shared invitation seats people who join by themselves.
OPEN_KINDS = sorted(k for k, kind in KINDS.items() if kind.open_role is not None)


def api(client: TestClient, path: str, body: dict[str, Any], token: str | None, idem: str) -> Any:
    headers = {"Idempotency-Key": idem}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(path, json=body, headers=headers)


# ---------------------------------------------------------------------------- the holes found


def test_an_anonymous_creation_never_answers_another_its_link(client: TestClient) -> None:
    body = {"kind": "tally", "name": "Forêt", "organizer": "Camille"}
    first = api(client, "/api/v1/games", body, None, "shared-key-1")
    assert first.status_code == 201
    again = api(client, "/api/v1/games", body, None, "shared-key-1")
    assert again.status_code == 409 and again.json()["code"] == "idempotency_replayed"
    assert first.json()["organizer"]["token"] not in again.text
    other = api(client, "/api/v1/games", {**body, "name": "Plaine"}, None, "shared-key-1")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_mismatch"


def test_a_browser_retry_of_a_creation_is_the_same_game_and_nobody_elses(
    client: TestClient,
) -> None:
    def create(phone: TestClient, idem: str) -> str:
        csrf = csrf_of(phone.get("/").text)
        form = {"kind": "tally", "name": "Forêt", "organizer": "Camille", "idem": idem}
        done = phone.post("/games", data={**form, "csrf_token": csrf})
        assert done.status_code == 303, done.text
        return str(done.headers["location"])

    camille = Phone(client, follow_redirects=False)
    mallory = Phone(client, follow_redirects=False)
    first = create(camille, "double-tap-1")
    assert create(camille, "double-tap-1") == first  # the same browser: the same game
    theirs = create(mallory, "double-tap-1")
    assert theirs != first  # another browser: a game of its own
    game = first.split("/")[2]
    assert mallory.get(f"/g/{game}/people").status_code == 403  # not the organizer of Camille's


@pytest.mark.parametrize("kind", OPEN_KINDS)
def test_joining_with_someone_elses_key_never_gives_their_seat(
    client: TestClient, rolls: ScriptedRolls, kind: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game(kind, "Ligue", "Camille", idem_key=key())
    service.set_invitation(game.id, viewer_of(owner), open_it=True)
    url = f"/g/{game.id}/join/{service.invitation(service.load(game.id).game)}"

    def join(phone: TestClient, name: str, idem: str) -> Any:
        csrf = csrf_of(phone.get(url).text)
        return phone.post(url, data={"name": name, "idem": idem, "csrf_token": csrf})

    alix, mallory = (Phone(client, follow_redirects=False) for _ in range(2))
    assert join(alix, "Alix", "join-key-1").status_code == 303
    assert join(alix, "Alix", "join-key-1").status_code == 303  # her retry: her seat again
    taken = join(mallory, "Alix", "join-key-1")
    assert taken.status_code == 422 and "Alix" in taken.text  # a name taken, not her seat
    assert mallory.get(f"/g/{game.id}").status_code in (303, 200)
    assert "Alix" not in mallory.get("/").text
    joined = [p.name for p in service.people(game.id) if p.role == KINDS[kind].open_role]
    assert joined == ["Alix"]


def test_an_undo_sent_with_a_commands_key_is_refused_not_answered(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, _org, referee, (lea, _hugo) = tally_game(service)
    token = seat_key(service, game.id, referee.person_id)
    score = {"command": {"type": "score", "player": lea.person_id, "points": 3}}
    done = api(client, f"/api/v1/games/{game.id}/commands", score, token, "tap-4242")
    assert done.status_code == 200
    undo = api(client, f"/api/v1/games/{game.id}/undo", {}, token, "tap-4242")
    assert undo.status_code == 422 and undo.json()["code"] == "idempotency_mismatch"
    other = {"command": {"type": "score", "player": lea.person_id, "points": 4}}
    changed = api(client, f"/api/v1/games/{game.id}/commands", other, token, "tap-4242")
    assert changed.status_code == 422 and changed.json()["code"] == "idempotency_mismatch"
    register = api(
        client,
        f"/api/v1/games/{game.id}/people",
        {"role": "player", "name": "X"},
        token,
        "tap-4242",
    )
    assert register.status_code in (403, 422)  # never a 500 (was KeyError: 'id')
    state = service.load(game.id).state
    assert state.players[str(lea.person_id)].points == 3  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- any reuse


CALLERS = ("org", "ref", "lea", "ref_other", "anonymous")
OPERATIONS = ("score", "score_other", "undo", "register", "reissue", "create")


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(CALLERS), st.sampled_from(OPERATIONS), st.sampled_from(["k1", "k2"])
        ),
        min_size=1,
        max_size=14,
    )
)
def test_any_reuse_of_keys_across_callers_operations_and_bodies(
    client: TestClient, rolls: ScriptedRolls, steps: list[tuple[str, str, str]]
) -> None:
    """Never a 500; a replay only ever answers its own caller's first request; a key reused by
    its caller for another request is refused; another caller's key is a new key."""
    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, org, ref, (lea, hugo) = tally_game(service)
    other, _org_b, ref_b, _ = tally_game(service, ("Max",))
    people = {
        "org": (game.id, org),
        "ref": (game.id, ref),
        "lea": (game.id, lea),
        "ref_other": (other.id, ref_b),
    }
    tokens = {
        name: service.link_of(service.person(g, v.person_id)).token  # type: ignore[arg-type]
        for name, (g, v) in people.items()
    }
    tokens["anonymous"] = ""
    ids = {name: v.person_id for name, (_, v) in people.items()}
    bodies = {
        "score": (
            f"/api/v1/games/{game.id}/commands",
            {"command": {"type": "score", "player": hugo.person_id, "points": 1}},
        ),
        "score_other": (
            f"/api/v1/games/{game.id}/commands",
            {"command": {"type": "score", "player": hugo.person_id, "points": 2}},
        ),
        "undo": (f"/api/v1/games/{game.id}/undo", {}),
        "register": (f"/api/v1/games/{game.id}/people", {"role": "player", "name": "Zoé"}),
        "reissue": (f"/api/v1/games/{game.id}/people/{hugo.person_id}/link", {}),
        "create": ("/api/v1/games", {"kind": "tally", "name": "N", "organizer": "O"}),
    }
    # (caller, key, where it is kept) -> (operation, first answer). Creating a game takes no
    # token: its caller is anonymous, its keys are kept with the games, not in a game's log.
    first: dict[tuple[str, str, str], tuple[str, Any]] = {}
    for sender, operation, idem in steps:
        path, body = bodies[operation]
        answer = api(client, path, body, tokens[sender] or None, f"{idem}-{game.id}")
        assert answer.status_code < 500, answer.text
        said = answer.json()
        assert "code" in said or answer.status_code < 300
        caller = "anonymous" if operation == "create" else sender
        place = "games" if operation == "create" else "log"
        seen = first.get((caller, idem, place))
        if seen is not None and seen[1].status_code < 300:
            if seen[0] != operation:  # refused: as a mismatch, or for its own reason first
                assert 400 <= answer.status_code < 500, (seen, operation, said)
            elif caller != "anonymous" or operation != "create":
                assert answer.status_code == seen[1].status_code
                assert {k: said.get(k) for k in ("seq", "person_id")} == {
                    k: seen[1].json().get(k) for k in ("seq", "person_id")
                }
        if seen is None or seen[1].status_code >= 300:
            first[(caller, idem, place)] = (operation, answer)
        if answer.status_code == 200 and "seq" in said:  # an action: its caller's own event
            with service.db.read() as s:
                event = s.exec(
                    select(Event).where(Event.game_id == game.id, Event.seq == said["seq"])
                ).one()
            assert event.actor_id == ids[caller]
        if operation == "create" and caller == "anonymous" and answer.status_code == 409:
            assert "token" not in said
