"""A game moves between servers (issue 23): exported with the games it opened, imported on another
Arbitre that replays its log, finds the same state and issues fresh links; a file that does not
replay, comes from a newer Arbitre or names an unknown kind creates nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import InvalidInput, LinkInvalid
from server.i18n import Msg
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, SYSTEM, Viewer
from server.platform.sealing import server_key
from server.platform.service import GameService
from tests.conftest import (
    OTHER_SECRET,
    SECRET,
    counts,
    csrf_of,
    form_fields,
    key,
    phone,
    table,
    top_of,
)
from tests.files_kit import exported, imported
from tests.scene import declared
from tests.security.conftest import SCENES

# Each game's declarations (tests/<game>/scenes.py): the scenes whose organizer's file is a
# record (not the whole game), and the games in progress with secrets from their organizer.
RECORDS = sorted(label for label, whole in declared("RECORD_READABLE").items() if not whole)
SECRET_IN_PLAY = sorted(declared("SECRET_IN_PLAY"))
NUMBER = re.compile(r"(?<=player:)\d+")  # a person's number in a die's purpose


def tally_played(service: GameService, rolls: ScriptedRolls) -> str:
    """A game of the platform's test kind under way (a referee, players, the server's dice
    rolled, points scored), its organizer reading all of it: its id."""
    t = table(service, "tally", [("referee", "Réf"), ("player", "Léa"), ("player", "Hugo")])
    ref = t.viewer("Réf")
    rolls.push(4, 2)
    for name in ("Léa", "Hugo"):
        roll = {"type": "roll", "player": t.viewer(name).person_id}
        service.perform(t.game.id, ref, roll, idem_key=key())
    score = {"type": "score", "player": t.viewer("Hugo").person_id, "points": 3}
    service.perform(t.game.id, ref, score, idem_key=key())
    return t.game.id


def story(service: GameService, game_id: str) -> list[tuple[str, str, list[Any]]]:
    """The log as each reader has it: who, the sentence, the dice; no numbers of any server."""
    with service.db.read() as s:
        events = service.store.events(s, game_id)
    rows = []
    for e in events:
        rolls = [
            (NUMBER.sub("#", r["purpose"]), r["value"], r.get("owner", "")[:6]) for r in e.rolls
        ]
        undone = e.undone_by is not None
        rows.append((e.actor_name, Msg.from_json(e.summary).render(), [rolls, undone]))
    return rows


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_kind_moves_to_another_server_and_replays_to_the_same_state(
    service: GameService, rolls: ScriptedRolls, other: GameService, label: str
) -> None:
    scene = SCENES[label](service, rolls)
    # A league's match moves with its league (it is opened by it only).
    source = top_of(service, scene.game)
    text = exported(service, source)
    family = [r["id"] for r in json.loads(text)["records"]]
    moved = imported(other, text)
    top = other.load(
        [r["id"] for r in other.export_game(moved.id, SYSTEM)["records"]][family.index(scene.game)]
    ).game
    assert other.verify(top.id)
    before, after = service.load(scene.game), other.load(top.id)
    assert (after.game.kind, after.game.name, after.game.status, after.game.seq) == (
        before.game.kind,
        before.game.name,
        before.game.status,
        before.game.seq,
    )
    assert story(other, top.id) == story(service, scene.game)
    mine = {(p.role, p.name, p.revoked) for p in service.people(scene.game)}
    assert {(p.role, p.name, p.revoked) for p in other.people(top.id)} == mine
    # Numbers changed, and the moved state is the old one under the new numbers only.
    old_ids = sorted(p.id for p in service.people(scene.game))
    new_ids = sorted(p.id for p in other.people(top.id))
    assert old_ids != new_ids
    # The moved game exports again as the same story (the file is stable under a second move).
    again = json.loads(exported(other, moved.id))
    first = json.loads(text)
    assert [len(g["events"]) for g in again["replay"]] == [
        len(g["events"]) for g in first["replay"]
    ]


def test_an_undone_action_moves_undone(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    t = table(service, "tally", [("referee", "Réf"), ("player", "Léa"), ("player", "Hugo")])
    ref, lea = t.viewer("Réf"), t.viewer("Léa").person_id
    rolls.push(4, 6)
    service.perform(t.game.id, ref, {"type": "roll", "player": lea}, idem_key=key())
    service.perform(t.game.id, ref, {"type": "roll", "player": lea}, idem_key=key())
    service.undo(t.game.id, t.org, idem_key=key())
    service.revoke(t.game.id, t.org, t.viewer("Hugo").person_id or 0, idem_key=key())
    top = imported(other, exported(service, t.game.id))
    assert other.verify(top.id)
    assert story(other, top.id) == story(service, t.game.id)
    assert [p.revoked for p in other.people(top.id) if p.name == "Hugo"] == [True]
    # The undone roll stays undone: the next undo takes the first roll.
    org = next(p for p in other.people(top.id) if p.role == "organizer")
    other.undo(top.id, Viewer("organizer", org.id, org.name), idem_key=key())
    assert other.verify(top.id)


def test_fresh_links_on_the_new_server_and_a_retry_creates_nothing_more(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    game = tally_played(service, rolls)
    text = exported(service, game)
    first, organizer = other.import_game(text, caller="browser:1", idem_key="k1")
    again, same = other.import_game(text, caller="browser:1", idem_key="k1")
    assert (again.id, same.person.id) == (first.id, organizer.person.id)
    assert other.person_by_token(organizer.link.token).role == "organizer"
    for person in service.people(game):  # the old links open nothing here
        with pytest.raises(LinkInvalid):
            other.person_by_token(service.link_of(person).token)
    second = imported(other, text)  # imported again: another game, new ids
    assert second.id != first.id


def _tampered(text: str, change: Any) -> str:
    import sys

    sys.set_int_max_str_digits(0)  # the test writes a number Python would not read back
    try:
        data = json.loads(text)
        change(data)
        return json.dumps(data)
    finally:
        sys.set_int_max_str_digits(4300)


def _roll_changed(data: dict[str, Any]) -> None:
    event = next(e for e in data["replay"][0]["events"] if e["rolls"])
    event["rolls"][0]["value"] = 1 if event["rolls"][0]["value"] != 1 else 2


def _entry_dropped(data: dict[str, Any]) -> None:
    events = data["replay"][0]["events"]
    del events[len(events) // 2]


def _state_changed(data: dict[str, Any]) -> None:
    data["replay"][0]["name"] = "Forêt"
    data["replay"][0]["state"]["started"] = not data["replay"][0]["state"].get("started")


def _foreign_person(data: dict[str, Any]) -> None:
    event = next(
        e
        for e in data["replay"][0]["events"]
        if e["type"] == "command" and "player" in e["command"]
    )
    event["command"]["player"] = 999_999  # a person the file does not hold


def _naive_times(data: dict[str, Any]) -> None:
    for event in data["replay"][0]["events"]:
        event["at"] = event["at"].replace("Z", "").replace("+00:00", "")


def _unknown_role(data: dict[str, Any]) -> None:
    event = next(e for e in data["replay"][0]["events"] if e["command"].get("role") == "player")
    event["command"]["role"] = "system"


def _undo_of_an_earlier_action(data: dict[str, Any]) -> None:
    events = data["replay"][0]["events"]
    first = next(e for e in events if e["type"] == "command")
    events.append(
        {
            **events[-1],
            "seq": len(events) + 1,
            "type": "undo",
            "rolls": [],
            "command": {"type": "undo", "seq": first["seq"]},
        }
    )


BAD_FILES = {
    "a die changed": (_roll_changed, "ne se rejoue pas|ne redonne pas"),
    "an entry dropped": (_entry_dropped, "ne se rejoue pas|ne redonne pas"),
    "the state changed": (_state_changed, "ne redonne pas"),
    "a person the file does not hold": (_foreign_person, "ne se rejoue pas"),
    "from a newer Arbitre": (lambda d: d.update(format=99), "plus récent"),
    "a schema this server does not know": (lambda d: d.update(schema="9999"), "plus récent"),
    "an unknown kind": (lambda d: d["replay"][0].update(kind="chess"), "Jeu inconnu"),
    "not a game": (lambda d: d.update(arbitre="deck"), "pas une partie"),
    "a token slipped in": (lambda d: d["replay"][0].update(token="x"), "abîmé"),
    "a format that is no number": (lambda d: d.update(format="1"), "pas une partie"),
    "a format below one": (lambda d: d.update(format=-3), "pas une partie"),
    "times without their zone": (_naive_times, "abîmé"),
    "a role the game does not have": (_unknown_role, "rôle"),
    "an undo of an earlier action": (_undo_of_an_earlier_action, "ne se rejoue pas"),
    "a number too long to read": (lambda d: d.update(huge=int("9" * 5000)), "pas une partie"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_file_that_does_not_hold_creates_nothing(
    service: GameService, rolls: ScriptedRolls, other: GameService, case: str
) -> None:
    change, message = BAD_FILES[case]
    text = _tampered(exported(service, tally_played(service, rolls)), change)
    before = counts(other)
    with pytest.raises(InvalidInput) as refused:
        imported(other, text)
    assert re.search(message, refused.value.message), refused.value.message
    assert counts(other) == before


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"arbitre": "game"}', "[" * 200])
def test_what_is_not_json_or_not_a_game_is_refused_plainly(other: GameService, text: str) -> None:
    before = counts(other)
    with pytest.raises(InvalidInput):
        imported(other, text)
    assert counts(other) == before


@pytest.mark.parametrize("label", RECORDS)
def test_through_the_pages_the_organizer_saves_the_file_and_anyone_brings_it_in(
    client: Any, app: Any, rolls: ScriptedRolls, label: str
) -> None:
    """The People page's link saves the file; the home page's form imports it and signs the
    one who brought it in as the organizer; a player cannot take the file."""
    service: GameService = app.state.service
    scene = SCENES[label](service, rolls)
    org = service.person(scene.game, scene.people["organizer"].person_id or 0)
    organizer = phone(client, service.link_of(org).token)
    people_page = organizer.get(f"/g/{scene.game}/people").text
    assert f'href="/g/{scene.game}/game.json"' in people_page
    # The organizer may not read the whole game (a role dealt, a hand, an objective): their
    # file of a game being played is a record; sealed for a server's ticket, it moves.
    record = organizer.get(f"/g/{scene.game}/game.json")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert "replay" not in record.json() and record.json()["records"]
    newcomer = TestClient(app, follow_redirects=False)
    made = newcomer.post("/tickets", data={"csrf_token": csrf_of(newcomer.get("/").text)})
    ticket = re.search(r"arbitre-ticket:[\w=:-]+", made.text)
    assert made.status_code == 200 and ticket is not None
    # A ticket of this very server seals nothing: the copy's seats would all be free for the
    # organizer who brings it back, and every hand theirs to read (issue 51's outside attack).
    people = organizer.get(f"/g/{scene.game}/people").text
    fields = form_fields(people, f"/g/{scene.game}/game.json")
    answer = organizer.post(
        f"/g/{scene.game}/game.json", data={**fields, "ticket": ticket.group(0), "moving": "1"}
    )
    assert answer.status_code == 422 and '"sealed"' not in answer.text
    assert "Ce ticket est celui de ce serveur" in answer.text, answer.text[:600]
    player = next(v for p, v in scene.people.items() if p not in ("organizer", "stranger"))
    someone = phone(
        client, service.link_of(service.person(scene.game, player.person_id or 0)).token
    )
    assert someone.get(f"/g/{scene.game}/game.json").status_code == 403
    # A game its organizer reads whole travels in clear.
    readable = tally_played(service, rolls)
    boss = next(p for p in service.people(readable) if p.role == "organizer")
    text = (
        phone(TestClient(app, follow_redirects=False), service.link_of(boss).token)
        .get(f"/g/{readable}/game.json")
        .text
    )
    assert '"replay"' in text

    home = newcomer.get("/").text
    fields = form_fields(home, "/games/import")
    before = counts(service)
    refused = newcomer.post(
        "/games/import",
        data=fields,
        files={"file": ("partie.json", b"\xff\xfe nope", "text/plain")},
    )
    assert refused.status_code == 422
    assert "n’est pas une partie exportée par Arbitre" in refused.text, re.findall(
        r"field-error[^<]*<", refused.text
    )
    assert counts(service) == before
    moved = newcomer.post(
        "/games/import",
        data=form_fields(refused.text, "/games/import"),
        files={"file": ("partie.json", text.encode(), "application/json")},
    )
    assert moved.status_code == 303, moved.text[:400]
    new_id = moved.headers["location"].split("/")[2]
    assert new_id not in (scene.game, readable)
    console = newcomer.get(f"/g/{new_id}", follow_redirects=True)
    assert console.status_code == 200 and service.load(new_id).game.name in console.text
    assert newcomer.get(f"/g/{new_id}/people").status_code == 200  # the organizer's page


# The server's own command line knows the server's games (not a test-only kind of tests/).
SERVED_SECRETS = [
    label
    for label in SECRET_IN_PLAY
    if type(KINDS[label.split(":")[0]]).__module__.startswith("server.")
]


@pytest.mark.parametrize("label", SERVED_SECRETS)
def test_the_command_line_moves_a_game_from_one_database_to_another(
    service: GameService,
    rolls: ScriptedRolls,
    other: GameService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    label: str,
) -> None:
    """A game in progress with secrets, in clear from the runner of one server, moves to a
    server whose runner trusts it."""
    from server.__main__ import main
    from server.config import get_settings

    scene = SCENES[label](service, rolls)
    path = tmp_path / "partie.json"
    monkeypatch.setenv("DATABASE_URL", service.db.url)
    monkeypatch.setenv("SECRET_KEY", SECRET)  # the server whose runner exports it
    get_settings.cache_clear()
    try:
        assert main(["game", "export", scene.game, str(path)]) == 0
        # The key the other server's runner adds to its TRUSTED_SERVERS.
        capsys.readouterr()
        assert main(["key"]) == 0
        assert capsys.readouterr().out.strip() == server_key(SECRET)
        # A fresh process, as on the other server: every kind must be there without the app.
        import os
        import subprocess
        import sys

        env = {
            **os.environ,
            "DATABASE_URL": other.db.url,
            "SECRET_KEY": OTHER_SECRET,
            "TRUSTED_SERVERS": server_key(SECRET),
        }
        done = subprocess.run(
            [sys.executable, "-m", "server", "game", "import", str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        out = done.stdout
        monkeypatch.setenv("DATABASE_URL", other.db.url)
        get_settings.cache_clear()
        assert len(re.findall(r"/t/[\w-]{20,}", out)) == len(
            [p for p in service.people(scene.game) if not p.revoked]
        )
        path.write_text("{}", encoding="utf-8")
        assert main(["game", "import", str(path)]) == 2
        assert re.search("not a game exported|pas une partie", capsys.readouterr().err)
        assert main(["game", "export", "nope"]) == 2
    finally:
        get_settings.cache_clear()


def test_names_with_emoji_sequences_move(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    """A name the game accepted (an emoji sequence joins its parts with U+200D) moves with it."""
    t = table(service, "tally", [("player", "Famille 👨‍👩‍👧")], name="Soirée 🏳️‍🌈")
    top = imported(other, exported(service, t.game.id))
    assert other.load(top.id).game.name == "Soirée 🏳️‍🌈"
    assert {p.name for p in other.people(top.id)} == {"Orga", "Famille 👨‍👩‍👧"}


def test_a_log_of_older_link_entries_moves(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    """Logs written before link entries said the role and the name ({"type", "id"} only)."""
    t = table(service, "tally", [("player", "Léa"), ("player", "Hugo")])
    hugo = t.viewer("Hugo").person_id or 0
    service.revoke(t.game.id, t.org, hugo, idem_key=key())
    service.reissue(t.game.id, t.org, hugo, idem_key=key())
    data = json.loads(exported(service, t.game.id))
    for event in data["replay"][0]["events"]:
        if event["type"] == "access":
            event["command"] = {"type": event["command"]["type"], "id": event["command"]["id"]}
    top = imported(other, json.dumps(data))
    assert other.verify(top.id)
    assert not next(p for p in other.people(top.id) if p.name == "Hugo").revoked


def test_many_undos_replay_and_a_file_of_two_organizers_is_refused(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    """A long run of undos replays (each from the state before what it undid), and a retry
    answers the first import; a file that makes a second organizer of a player (found by an
    outside attack: a 500, then an import) is refused with a message and creates nothing."""
    t = table(service, "tally", [("player", "Léa"), ("player", "Zoé")])
    lea = t.viewer("Léa").person_id
    for n in range(60):
        service.perform(
            t.game.id, t.org, {"type": "score", "player": lea, "points": n % 7}, idem_key=key()
        )
    for _ in range(55):
        service.undo(t.game.id, t.org, idem_key=key())
    text = exported(service, t.game.id)
    first, _ = other.import_game(text, caller="browser:2", idem_key="same")
    again, organizer = other.import_game(text, caller="browser:2", idem_key="same")
    assert again.id == first.id and organizer.person.name == "Orga"
    assert other.verify(first.id)
    points = {p.name: p.points for p in service.load(t.game.id).state.players.values()}  # type: ignore[attr-defined]
    moved = {p.name: p.points for p in other.load(first.id).state.players.values()}  # type: ignore[attr-defined]
    assert moved == points
    data = json.loads(text)
    for event in data["replay"][0]["events"]:
        if event["type"] == "person" and event["command"]["name"] == "Zoé":
            event["command"]["role"] = "organizer"
            data["replay"][0]["state"]["players"].pop(str(event["command"]["id"]), None)
    before = counts(other)
    with pytest.raises(InvalidInput, match="organisateur"):
        other.import_game(json.dumps(data), caller="browser:2", idem_key="other")
    assert counts(other) == before
