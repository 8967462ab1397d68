"""The game file is one door out and the import one door in (issue 31): the organizer's download is
their projection (no hand, draw order, objective or nobody's die they may not read), a game in
progress moves sealed to the destination's one-day, one-time ticket, and an import replays only
what a live command could do: the dice within their faces, entered by hand only by whoever may, a
command only from someone who may send it, a league's match only with its league, no more people
than a role holds, no bigger file than the settings say, and no lock held while it replays."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import InvalidInput, NotAllowed
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, SYSTEM, Viewer, nobodys
from server.platform.moving import ImportLimits
from server.platform.sealing import new_ticket, server_key, witness
from server.platform.service import GameService
from server.platform.service import moves as moves_module
from server.platform.service.moves import Moves
from server.platform.service.replaying import Replayer
from server.web.security import FORM_OVERHEAD
from tests.conftest import (
    OTHER_SECRET,
    SECRET,
    counts,
    csrf_of,
    form_fields,
    key,
    phone,
    tally_game,
    top_of,
)
from tests.files_kit import brought, clear_file, dice_of, file_of, organizer_of
from tests.scene import declared
from tests.security.conftest import SCENES

# Each game's declarations (tests/<game>/scenes.py): whether the organizer reads the whole game;
# the games in progress with secrets from them; the scenes brought in past a role's room.
READABLE: dict[str, bool] = declared("RECORD_READABLE")
SECRET_IN_PLAY = sorted(declared("SECRET_IN_PLAY"))
CROWDED = [
    (label, role) for label, roles in sorted(declared("ROLE_LIMITS").items()) for role in roles
]


def tally_file(service: GameService, rolls: ScriptedRolls) -> dict[str, Any]:
    """The whole file of a game of the platform's test kind under way: a referee, players, dice
    rolled by the server, points scored."""
    game, _org, referee, (lea, hugo) = tally_game(service)
    rolls.push(4, 2)
    for player in (lea, hugo):
        roll = {"type": "roll", "player": player.person_id}
        service.perform(game.id, referee, roll, idem_key=key())
    score = {"type": "score", "player": hugo.person_id, "points": 3}
    service.perform(game.id, referee, score, idem_key=key())
    return json.loads(json.dumps(service.export_game(game.id, SYSTEM)))


# ------------------------------------------------------------------------------ the way out


@pytest.mark.parametrize("label", sorted(SCENES))
def test_the_organizer_s_file_is_what_their_pages_show(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    """Each record is the organizer's view (as the API answers it) and their journal; what
    replays the game comes in clear only where they may read all of it; no die of the server's
    secret ones, at any depth, unless the game is over."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    body = file_of(service, scene)
    assert set(body) <= {
        "arbitre",
        "format",
        "schema",
        "exported_at",
        "records",
        "replay",
        "witness",
    }
    for record in body["records"]:
        organizer = organizer_of(service, record["id"])
        token = service.link_of(service.person(record["id"], organizer.person_id or 0)).token
        # A game whose organizer's seat is nobody's (a self-refereed match: issue 51) goes in
        # the file as the public reads it.
        delegates = service.load(record["id"]).game.settings.get("delegates") or {}
        nobodys_seat = delegates.get(str(organizer.person_id)) == "nobody"
        auth = {} if nobodys_seat else {"Authorization": f"Bearer {token}"}
        seen = client.get(f"/api/v1/games/{record['id']}", headers=auth).json()
        assert record["view"] == seen["state"]
        logged = client.get(f"/api/v1/games/{record['id']}/log", headers=auth).json()["events"]
        assert record["log"] == logged
        # No journal shows a die that is nobody's (a shuffle's, a deal's) while the game lasts.
        if record["status"] != "finished":
            hidden = {r["purpose"] for r in dice_of(service, record["id"]) if nobodys(r)}
            shown = {r["purpose"] for e in logged for r in e.get("rolls", [])}
            assert not hidden & shown
    in_clear = service.exports_in_clear(
        top_of(service, scene.game), organizer_of(service, scene.game)
    )
    assert ("replay" in body) is in_clear and ("witness" in body) is in_clear


@pytest.mark.parametrize(("label", "in_clear"), sorted(READABLE.items()))
def test_who_reads_a_whole_game(
    service: GameService, rolls: ScriptedRolls, label: str, in_clear: bool
) -> None:
    """The spec's table, each game's rows declared with its scenes (`RECORD_READABLE`): an
    organizer reads everything of a game nothing of which is kept from them (a table of physical
    cards), nothing of the players' secrets (a hand on a phone, an objective) until the end; the
    server's own secret dice (a shuffle, a deal) are nobody's while a game lasts."""
    scene = SCENES[label](service, rolls)
    assert service.exports_in_clear(scene.game, organizer_of(service, scene.game)) is in_clear


# ------------------------------------------------------------------------------ sealed moves


@pytest.mark.parametrize("label", SECRET_IN_PLAY)
def test_a_ticket_opens_nothing_after_a_day(
    service: GameService, rolls: ScriptedRolls, other: GameService, label: str
) -> None:
    scene = SCENES[label](service, rolls)
    service.store.trusted = service.store.trusted | {server_key(OTHER_SECRET)}
    ticket = other.new_ticket()
    body = file_of(service, scene, ticket=ticket.text)
    other.clock.advance(timedelta(hours=24, minutes=1).total_seconds())  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput, match=r"more than a day|plus d’un jour"):
        brought(other, body)
    forged = {**body, "sealed": {**body["sealed"], "box": body["sealed"]["box"][::-1]}}
    fresh = other.new_ticket()
    forged["sealed"]["ticket"] = fresh.id
    with pytest.raises(InvalidInput):
        brought(other, forged)


def test_a_file_this_server_wrote_is_witnessed_and_an_edited_one_is_not(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """The dice of a file this server signed keep their word; a file edited anywhere (here a
    die entered by hand turned into a server roll) shows every die as "from a file"."""
    body = tally_file(service, rolls)
    game, _ = brought(service, body)
    dice = dice_of(service, game.id)
    assert dice and not any(r.get("from_file") for r in dice)
    rolled = next(r for g in body["replay"] for e in g["events"] for r in e["rolls"])
    rolled["manual"] = not rolled.get("manual")
    edited, _ = brought(service, body)
    dice = dice_of(service, edited.id)
    assert dice and all(r.get("from_file") for r in dice)
    organizer = organizer_of(service, edited.id)
    shown = [r for e in service.log(edited.id, organizer) for r in e.get("rolls", [])]
    assert shown and all(r.get("from_file") for r in shown)


# ------------------------------------------------------------------------------ the way in


def test_a_d20_that_rolled_99_is_refused(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    for label in sorted(SCENES):
        scene = SCENES[label](service, rolls)
        body = clear_file(service, scene)
        rolled = [r for g in body["replay"] for e in g["events"] for r in e["rolls"]]
        if not rolled:
            continue
        rolled[0]["value"] = rolled[0]["sides"] + 80
        before = counts(other)
        # Edited, the file is no longer its server's: a game in progress with secrets is
        # refused for that alone; any other, for its die.
        with pytest.raises(InvalidInput, match=r"between 1 and|entre 1 et|ne se rejoue pas|TRUST"):
            brought(other, body)
        # Signed again by a server `other` trusts, the die itself is what is refused.
        body["witness"] = witness(SECRET, body["replay"])
        with pytest.raises(InvalidInput, match=r"between 1 and|entre 1 et|ne se rejoue pas"):
            brought(other, body)
        assert counts(other) == before


def test_a_physical_game_s_hand_entered_die_is_not_made_a_server_roll(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    game, owner = service.create_game("tally", "Dés", "Orga", dice="physical", idem_key=key())
    org = Viewer(owner.person.role, owner.person.id, owner.person.name)
    lea = service.register(game.id, org, "player", "Léa", idem_key=key()).person.id
    roll = {"type": "roll", "player": lea}
    service.perform(game.id, org, roll, idem_key=key(), rolls={"points": 4})
    body = json.loads(json.dumps(service.export_game(game.id, SYSTEM)))
    rolled = next(r for g in body["replay"] for e in g["events"] for r in e["rolls"])
    assert rolled["manual"] is True
    rolled["manual"] = False
    with pytest.raises(InvalidInput, match=r"Enter the die|Saisissez le dé|ne se rejoue pas"):
        brought(other, body)


@pytest.mark.parametrize("label", sorted(SCENES))
def test_no_command_is_replayed_in_the_name_of_someone_who_may_not_send_it(
    service: GameService, rolls: ScriptedRolls, other: GameService, label: str
) -> None:
    """The class of the outside attack's "staff command in a player's name": for each game of
    each scene, the first command some person of the game may not send is put in their name."""
    scene = SCENES[label](service, rolls)
    body = clear_file(service, scene)
    for game in body["replay"]:
        kind = KINDS[game["kind"]]
        people = [
            e["command"] for e in game["events"] if e["type"] == "person" and e["actor_id"]
        ] + [e["command"] for e in game["events"] if e["type"] == "person"]
        for event in game["events"]:
            if event["type"] != "command":
                continue
            command = kind.parse(event["command"])
            who = next(
                (
                    p
                    for p in people
                    if p["id"] != event["actor_id"]
                    and not kind.may_send(Viewer(p["role"], p["id"], p["name"]), command)
                ),
                None,
            )
            if who is None:
                continue
            event.update(actor_id=who["id"], actor_role=who["role"], actor_name=who["name"])
            # Signed again by a server `other` trusts: the guard itself is what refuses it.
            body["witness"] = witness(SECRET, body["replay"])
            before = counts(other)
            with pytest.raises(InvalidInput, match=r"may not|pas le droit|ne se rejoue pas"):
                brought(other, body)
            assert counts(other) == before
            return
    pytest.skip("every person of this scene may send each of its commands")


def _with_people(body: dict[str, Any], role: str, count: int) -> dict[str, Any]:
    """The first game's log, with `count` more people of `role` joining just after it opens."""
    game = body["replay"][0]
    organizer = next(e for e in game["events"] if e["type"] == "person")
    taken = max(
        e["command"]["id"] for g in body["replay"] for e in g["events"] if e["type"] == "person"
    )
    added = [
        {
            **organizer,
            "actor_id": organizer["command"]["id"],
            "actor_role": "organizer",
            "actor_name": organizer["command"]["name"],
            "command": {"type": "person", "id": taken + n, "role": role, "name": f"Clone {n}"},
        }
        for n in range(1, count + 1)
    ]
    events = [game["events"][0], *added, *game["events"][1:]]
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    game["events"] = events
    return body


@pytest.mark.parametrize(("label", "role"), CROWDED)
def test_no_file_holds_more_people_than_a_role_does(
    service: GameService, rolls: ScriptedRolls, other: GameService, label: str, role: str
) -> None:
    """The outside attack made a 2-to-6-player game of 800 organizers."""
    scene = SCENES[label](service, rolls)
    kind = KINDS[scene.kind]
    room = 1 if role == "organizer" else kind.people_limit(role)
    body = _with_people(clear_file(service, scene), role, room + 1)
    # Signed again by a server `other` trusts: the count itself is what refuses it (unsigned, a
    # game with secrets is refused for that alone, in words that name its organizer too).
    body["witness"] = witness(SECRET, body["replay"])
    before = counts(other)
    with pytest.raises(
        (InvalidInput, NotAllowed), match=r"organizer|organisateur|no room|complète"
    ):
        brought(other, body)
    assert counts(other) == before


def test_a_file_past_a_bound_is_refused_before_any_work(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    text = json.dumps(tally_file(service, rolls))
    events = sum(len(g["events"]) for g in json.loads(text)["replay"])
    for limits, message in (
        (ImportLimits(bytes=len(text) - 1), "MiB|Mio"),
        (ImportLimits(events=events - 1), "entries|entrées"),
    ):
        with pytest.raises(InvalidInput, match=message):
            other.import_game(text, caller="attacker", idem_key=key(), limits=limits)
    doubled = json.loads(text)
    doubled["replay"].append(dict(doubled["replay"][0], id="autre"))
    with pytest.raises(InvalidInput, match=r"games|parties"):
        other.import_game(
            json.dumps(doubled), caller="attacker", idem_key=key(), limits=ImportLimits(games=1)
        )


@pytest.mark.parametrize("label", SECRET_IN_PLAY)
def test_the_import_page_answers_a_big_file_413_and_a_record_422(
    client: TestClient, app: Any, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = app.state.service
    scene = SCENES[label](service, rolls)
    record = json.dumps(file_of(service, scene))
    newcomer = TestClient(app, follow_redirects=False)
    fields = form_fields(newcomer.get("/").text, "/games/import")
    before = counts(service)
    answer = newcomer.post(
        "/games/import",
        data=fields,
        files={"file": ("r.json", record.encode(), "application/json")},
    )
    assert answer.status_code == 422 and "ticket" in answer.text
    big = (
        b'{"arbitre": "game", "pad": "' + b"x" * (app.state.settings.import_max_bytes + 10) + b'"}'
    )
    answer = newcomer.post(
        "/games/import",
        data=form_fields(answer.text, "/games/import"),
        files={"file": ("big.json", big, "application/json")},
        headers={"Accept": "text/html,application/xhtml+xml"},
    )
    assert answer.status_code == 413 and "Mio" in answer.text  # the home page, its error said
    # Far past it, refused before the app reads it: a browser's form still gets a page that
    # says so in its language, with the way back (not the API's JSON).
    huge = big + b"x" * FORM_OVERHEAD
    answer = newcomer.post(
        "/games/import",
        data=form_fields(newcomer.get("/").text, "/games/import"),
        files={"file": ("big.json", huge, "application/json")},
        headers={"Accept": "text/html,application/xhtml+xml"},
    )
    assert answer.status_code == 413 and answer.headers["content-type"].startswith("text/html")
    assert "trop gros" in answer.text and 'href="/"' in answer.text
    assert counts(service) == before
    # The ticket form on the People page names the file the organizer takes away.
    org = service.person(scene.game, organizer_of(service, scene.game).person_id or 0)
    organizer = phone(client, service.link_of(org).token)
    made = newcomer.post("/tickets", data={"csrf_token": csrf_of(newcomer.get("/").text)})
    assert made.status_code == 200 and "arbitre-ticket:" in made.text
    assert "game.json" in organizer.get(f"/g/{scene.game}/people").text


def test_an_import_holds_no_lock_while_it_replays(
    service: GameService, rolls: ScriptedRolls, other: GameService, monkeypatch: Any
) -> None:
    """Another game's action goes through while an import replays (the outside attack measured
    a 25 s wait): the replay is stopped until that action is done; a lock held would block it."""
    text = json.dumps(tally_file(service, rolls))
    there, owner = other.create_game("tally", "Ailleurs", "Orga", idem_key=key())
    org = Viewer(owner.person.role, owner.person.id, owner.person.name)
    done = threading.Event()
    replay = Replayer.replay

    def slow_replay(self: Any, *args: Any, **kwargs: Any) -> Any:
        worker = threading.Thread(
            target=lambda: (
                other.register(there.id, org, "player", "Pendant", idem_key=key()),
                done.set(),
            )
        )
        worker.start()
        assert done.wait(10), "another game's action waited for the import"
        return replay(self, *args, **kwargs)

    monkeypatch.setattr(Replayer, "replay", slow_replay)
    game, _ = other.import_game(text, caller="test", idem_key=key())
    assert other.verify(game.id) and done.is_set()
    assert "Pendant" in {p.name for p in other.people(there.id)}


@pytest.mark.parametrize("label", SECRET_IN_PLAY)
def test_a_ticket_of_the_organizer_s_own_making_seals_nothing(
    service: GameService, rolls: ScriptedRolls, label: str
) -> None:
    """The outside review's hole: a ticket is a public key; an organizer who makes one of their
    own reads the sealed file. A ticket must come signed by a server this one trusts."""
    scene = SCENES[label](service, rolls)
    mine = new_ticket("the organizer's own laptop")
    with pytest.raises(InvalidInput, match=r"TRUSTED_SERVERS"):
        file_of(service, scene, ticket=mine.text)
    # A trusted server's ticket whose key was swapped for the organizer's: its signature fails.
    real = service.new_ticket()
    swapped = real.text.replace(real.public_key, mine.public_key)
    with pytest.raises(InvalidInput, match=r"damaged|abîmé"):
        file_of(service, scene, ticket=swapped)


@pytest.mark.parametrize("label", SECRET_IN_PLAY)
def test_a_game_sealed_to_its_own_server_comes_back_nowhere(
    service: GameService, rolls: ScriptedRolls, monkeypatch: Any, label: str
) -> None:
    """Issue 51's outside attack: the organizer made an import ticket on the game's own server,
    saved the game sealed to it and brought it back; the copy's seats were all free, and every
    hand theirs to read. A ticket of this server seals nothing, and a file sealed here for here
    (by a version without that check) comes in nowhere here."""
    scene = SCENES[label](service, rolls)
    own = service.new_ticket()
    with pytest.raises(InvalidInput, match=r"this server's own|celui de ce serveur"):
        file_of(service, scene, ticket=own.text)
    monkeypatch.setattr(moves_module, "read_ticket", lambda *_: (own.id, own.public_key))
    body = file_of(service, scene, ticket=own.text)
    assert "sealed" in body
    before = counts(service)
    with pytest.raises(InvalidInput, match=r"sealed by this server for itself|scellé par ce"):
        brought(service, body)
    assert counts(service) == before


@pytest.mark.parametrize("label", SECRET_IN_PLAY)
def test_a_game_in_progress_with_secrets_comes_only_from_a_trusted_server(
    service: GameService, rolls: ScriptedRolls, other: GameService, label: str
) -> None:
    """The outside review stacked a deck in a file of its own making (the sealed box
    decrypted, the shuffle dice chosen) and imported it. A game its organizer may not read whole
    comes in only signed by a server the destination trusts."""
    scene = SCENES[label](service, rolls)
    body = clear_file(service, scene)
    before = counts(other)
    unsigned = {k: v for k, v in body.items() if k != "witness"}
    with pytest.raises(InvalidInput, match=r"TRUSTED_SERVERS"):
        brought(other, unsigned)
    forged = {**body, "witness": witness("a server nobody trusts", body["replay"])}
    with pytest.raises(InvalidInput, match=r"TRUSTED_SERVERS"):
        brought(other, forged)
    changed = json.loads(json.dumps(body))
    changed["replay"][0]["name"] = "Partie truquée"  # signed, then changed
    with pytest.raises(InvalidInput, match=r"TRUSTED_SERVERS"):
        brought(other, changed)
    assert counts(other) == before
    game, _ = brought(other, body)  # signed by the tests' server, which `other` trusts
    assert other.verify(game.id)


@pytest.mark.parametrize(("label", "role"), [(lb, r) for lb, r in CROWDED if r != "organizer"])
def test_a_crowd_of_people_is_refused_before_anything_is_reserved(
    service: GameService,
    rolls: ScriptedRolls,
    other: GameService,
    monkeypatch: Any,
    label: str,
    role: str,
) -> None:
    """The outside review's file of 49,990 referees held the write lock 14 s while their rows
    were reserved, then was refused at its 66th entry: now the people of each role are counted
    first, and nothing is reserved (the lock is never taken)."""
    scene = SCENES[label](service, rolls)
    body = _with_people(clear_file(service, scene), role, 5_000)
    # Signed again by a server `other` trusts: the count itself is what refuses it.
    body["witness"] = witness(SECRET, body["replay"])

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("reserved before the people were counted")

    monkeypatch.setattr(Moves, "_reserve", never)
    with pytest.raises(InvalidInput, match=r"no room|complète"):
        brought(other, body)
