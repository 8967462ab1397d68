"""A referee's queue of taps made offline, drained once the network is back (issue 36).

Three assaults queued on one screen, while another referee corrects Hugo's PV: the assault on
Hugo comes back as a conflict (what changed, and who), the queued correction that names Hugo too
is held with it, not applied; the assault between players nobody touched is applied although the
game moved on. Sent again (the first answer lost), nothing is applied twice; the queue is bounded
and read strictly; another game's people are refused as in a live tap.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key
from tests.security.conftest import registered, sb_game


def referee_phone(client: TestClient, service: GameService, game: str, person: int) -> Any:
    phone = Phone(client, follow_redirects=False)
    token = service.link_of(service.person(game, person)).token
    assert phone.get(f"/t/{token}").status_code == 303
    phone.headers["X-CSRF-Token"] = csrf_of(phone.get(f"/g/{game}").text)
    return phone


def tap(seq: int, **fields: Any) -> dict[str, str]:
    """A queued tap: the form's fields, its own key, the screen's sequence number."""
    return {"body": urlencode({**fields, "seq": seq, "idem": key()}, doseq=True)}


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


def test_a_queue_is_read_strictly(client: TestClient, rolls: ScriptedRolls) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, people, _ids = sb_game(service, ("Léa", "Hugo"))
    phone = referee_phone(client, service, game, people["referee"].person_id)  # type: ignore[arg-type]
    for bad in ({"taps": "x"}, {"nope": []}, {"taps": [{"body": "a" * 9000}]}):
        answer = phone.post(f"/g/{game}/queue", json=bad, headers={"Accept-Language": "fr"})
        assert answer.status_code == 422, (bad, answer.text)
    _other, _, other_ids = sb_game(service, ("Ana", "Tom"))
    seen = service.seq_of(game)
    stranger = tap(seen, type="correct", player=other_ids["Ana"], pv=1, reason="x")
    result = phone.post(f"/g/{game}/queue", json={"taps": [stranger]}).json()["results"][0]
    assert result["status"] == "refused"  # another game's player, as in a live tap
    too_many = [tap(seen, type="pause")] * 51
    assert phone.post(f"/g/{game}/queue", json={"taps": too_many}).status_code == 422
    anonymous = Phone(client, follow_redirects=False)
    assert anonymous.post(f"/g/{game}/queue", json={"taps": []}).status_code >= 400
