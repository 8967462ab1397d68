"""A referee's queue of taps made offline, drained once the network is back (issue 36), in a
Serial Battle.

Three assaults queued on one screen, while another referee corrects Hugo's PV: the assault on
Hugo comes back as a conflict (what changed, and who), the queued correction that names Hugo too
is held with it, not applied; the assault between players nobody touched is applied although the
game moved on. Sent again (the first answer lost), nothing is applied twice; the queue is read
strictly.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key
from tests.phones_kit import referee_phone, tap
from tests.scene import registered
from tests.serial_battle.scenes import sb_game


def test_a_drained_queue_applies_what_nobody_touched_and_returns_the_rest(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé", "Tom"))
    org = people["organizer"]
    other = registered(service, game, org, "referee", "Arbitre Sud")
    phone = referee_phone(client, service, game, people["referee"].person_id)  # type: ignore[arg-type]
    seen = service.seq_of(game)  # the screen the taps are made on, offline
    queue = [
        tap(seen, type="assault", attacker=ids["Léa"], **{"defenders[]": [ids["Hugo"]]}),
        tap(seen, type="correct", player=ids["Hugo"], pv=30, reason="oubli"),
        tap(seen, type="assault", attacker=ids["Zoé"], **{"defenders[]": [ids["Tom"]]}),
    ]
    # Meanwhile, in coverage, the other referee corrects Hugo.
    service.perform(
        game,
        other,
        {"type": "correct", "player": ids["Hugo"], "pv": 20, "reason": "x"},
        idem_key=key(),
    )
    rolls.push(*[3] * 40)
    answer = phone.post(f"/g/{game}/queue", json={"taps": queue})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [r["status"] for r in results] == ["conflict", "held", "applied"], results
    assert "Arbitre Sud" in results[0]["message"]  # who changed it
    state = service.load(game).state
    assert state.player(ids["Hugo"]).pv == 20  # the other referee's, not overwritten
    assert state.player(ids["Zoé"]).assaults == 1  # applied on the game as it is now
    before = service.seq_of(game)
    again = phone.post(f"/g/{game}/queue", json={"taps": queue[2:]}).json()["results"]
    assert again[0]["status"] == "applied" and service.seq_of(game) == before  # once only


def test_a_queue_that_is_not_json_or_forges_a_die_is_refused_not_a_500(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    phone = referee_phone(client, service, game, people["referee"].person_id)  # type: ignore[arg-type]
    nested = "[" * 5000 + "]" * 5000
    for body, kind in ((nested, "text/plain"), (nested, "application/json"), ("{}", "")):
        answer = phone.post(f"/g/{game}/queue", content=body, headers={"Content-Type": kind})
        assert answer.status_code in (400, 413, 422), (kind, answer.status_code)
    seen = service.seq_of(game)
    forged = {"body": f"type=correct&player={ids['Léa']}&pv=2&reason=x&roll_a=5&roll_a=&seq={seen}"}
    result = phone.post(f"/g/{game}/queue", json={"taps": [forged]}).json()["results"][0]
    assert result["status"] == "refused"
    answer = phone.post(
        f"/g/{game}/act",
        content=forged["body"] + f"&idem={key()}",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 422


def test_a_tap_whose_first_sending_was_applied_is_said_applied_not_held(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """An outside review: a queued assault reached the server (its answer lost); a correction
    queued before it comes back as a conflict. The assault must be said applied, not held for
    the referee to send again (applied twice) or drop (applied behind their back)."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Tom"))
    other = registered(service, game, people["organizer"], "referee", "Arbitre Sud")
    referee = people["referee"]
    phone = referee_phone(client, service, game, referee.person_id)  # type: ignore[arg-type]
    seen = service.seq_of(game)
    correction = tap(seen, type="correct", player=ids["Hugo"], pv=30, reason="oubli")
    assault = tap(seen, type="assault", attacker=ids["Tom"], **{"defenders[]": [ids["Hugo"]]})
    rolls.push(*[3] * 40)
    first = phone.post(f"/g/{game}/queue", json={"taps": [assault]}).json()["results"]
    assert first[0]["status"] == "applied"  # ...and its answer lost on the way back
    service.perform(
        game,
        other,
        {"type": "correct", "player": ids["Hugo"], "pv": 20, "reason": "x"},
        idem_key=key(),
    )
    before = service.seq_of(game)
    results = phone.post(f"/g/{game}/queue", json={"taps": [correction, assault]}).json()
    assert [r["status"] for r in results["results"]] == ["conflict", "applied"]
    assert service.seq_of(game) == before  # nothing applied again


def test_a_refused_tap_holds_the_later_ones_naming_the_same_people(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """An outside review: a refused tap (not a conflict) let a later one on the same players
    through, which then came before it once corrected and sent again."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé", "Tom"))
    phone = referee_phone(client, service, game, people["referee"].person_id)  # type: ignore[arg-type]
    seen = service.seq_of(game)
    queue = [
        tap(seen, type="correct", player=ids["Hugo"], pv=99, reason="trop"),  # above 36
        tap(seen, type="assault", attacker=ids["Léa"], **{"defenders[]": [ids["Hugo"]]}),
        tap(seen, type="assault", attacker=ids["Zoé"], **{"defenders[]": [ids["Tom"]]}),
    ]
    rolls.push(*[3] * 40)
    results = phone.post(f"/g/{game}/queue", json={"taps": queue}).json()["results"]
    # A tap that cannot even be read names nobody it can be sure of: all that follows waits.
    assert [r["status"] for r in results] == ["refused", "held", "held"], results
    queue[0] = tap(seen, type="correct", player=ids["Hugo"], pv=20, reason="ok")
    queue[1:] = [tap(seen, type="give", player=ids["Hugo"], card="nope"), *queue[1:]]
    results = phone.post(f"/g/{game}/queue", json={"taps": queue}).json()["results"]
    # Refused by the rules (no such card), it names Hugo: his assault waits, Zoé's goes.
    assert [r["status"] for r in results] == ["applied", "refused", "held", "applied"], results


def test_a_tap_refused_for_a_pending_knockout_holds_the_next_on_its_players(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """A fourth outside review: Léa's queued assault knocks Hugo out (a choice pending); Hugo's
    own queued assault is refused by the rules; Zoé's, which names Hugo's defender, waits."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé", "Tom"))
    org = people["organizer"]
    service.perform(
        game,
        org,
        {"type": "correct", "player": ids["Hugo"], "pv": 1, "reason": "x"},
        idem_key=key(),
    )
    phone = referee_phone(client, service, game, people["referee"].person_id)  # type: ignore[arg-type]
    seen = service.seq_of(game)
    queue = [
        tap(
            seen,
            type="assault",
            attacker=ids["Léa"],
            answer="false",
            **{"defenders[]": [ids["Hugo"]]},
        ),
        tap(seen, type="assault", attacker=ids["Hugo"], **{"defenders[]": [ids["Zoé"]]}),
        tap(seen, type="assault", attacker=ids["Zoé"], **{"defenders[]": [ids["Tom"]]}),
        tap(seen, type="assault", attacker=ids["Tom"], **{"defenders[]": [ids["Léa"]]}),
    ]
    rolls.push(*[6] * 40)
    results = phone.post(f"/g/{game}/queue", json={"taps": queue}).json()["results"]
    statuses = [r["status"] for r in results]
    assert statuses[:3] == ["applied", "refused", "held"], results
    assert statuses[3] == "held"  # Tom's names Tom, whom the held one names: behind it too
