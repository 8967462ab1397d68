"""Seats that belong to their players (issue 51): a personal link is a ticket to claim a seat,
once. The first phone that opens it holds the seat, with a key of its own; the ticket then opens
nothing for anyone else, the organizer included, and says so. The organizer sees which seats are
taken, never a taken seat's key, and re-issues a seat for a lost phone, which every person of
the game is told.

Walked over every scene of every kind (each phase and end), for every person of the scene but
its organizer: taken by its own phone, the seat is refused to the organizer's phone and to a
stranger by its ticket (a clear page, never a 500), its key is on no page, slip, QR code or API
answer of the organizer's, and the ticket reads nothing as an API token or a stream's.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import SeatTaken
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import Phone, bearer, csrf_of, key, opened, seat_key, tally_game
from tests.security.conftest import SCENES, stranger


@pytest.mark.parametrize("label", sorted(SCENES))
def test_a_taken_seat_opens_for_its_holder_alone(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    game = scene.game
    organizer = next(p for p in service.people(game) if p.role == "organizer")
    org_key = service.link_of(organizer).token
    org = opened(client, org_key)
    intruder = opened(client, stranger(service).link.token)
    seats = [v for v in scene.people.values() if v.role != "organizer"]
    assert seats, label
    for viewer in seats:
        ticket = service.link_of(service.person(game, viewer.person_id)).token  # type: ignore[arg-type]
        listed = org.get(f"/api/v1/games/{game}/people", headers=bearer(org_key)).json()
        before = next(p for p in listed if p["person_id"] == viewer.person_id)
        # A ticket reads nothing by itself, not even before its seat is taken (no silent read).
        unclaimed = intruder.get(f"/api/v1/games/{game}/state", headers=bearer(ticket))
        assert unclaimed.status_code == 401 and "POST /api/v1/claim" in unclaimed.text
        holder = opened(client, ticket)  # the first phone takes the seat
        seat = seat_key(service, game, viewer.person_id)
        assert seat != ticket
        assert holder.get(f"/t/{ticket}").status_code == 303  # its holder's again: it opens
        for other in (org, intruder, Phone(client, follow_redirects=False)):
            refused = other.get(f"/t/{ticket}")
            assert refused.status_code == 409, (label, viewer, refused.text[:300])
            assert "Siège déjà pris" in refused.text and viewer.name in refused.text
        # The organizer's phone is still the organizer's, and reads the seat's private view
        # through no door: no page, slip, QR code or API answer holds the seat's key.
        asked = org.get(f"/api/v1/games/{game}/state", headers=bearer(org_key)).json()
        assert asked["viewer"]["role"] == "organizer"
        for page in ("people", "slips"):
            text = org.get(f"/g/{game}/{page}").text
            assert seat not in text and ticket not in text, (label, page)
        assert "déjà pris" in org.get(f"/g/{game}/slips").text
        assert org.get(f"/g/{game}/people/{viewer.person_id}/qr.svg").status_code == 403
        listed = org.get(f"/api/v1/games/{game}/people", headers=bearer(org_key)).json()
        after = next(p for p in listed if p["person_id"] == viewer.person_id)
        assert after["seat"] == "taken" and after["taken_at"]
        assert after["token"] is after["url"] is after["join_code"] is None
        assert before["seat"] in ("free", "taken")  # a league's match hands its seats itself
        # The ticket reads nothing as a token; the seat's key reads the seat, as its holder.
        for door in (f"/api/v1/games/{game}/state", f"/g/{game}/events"):
            said = intruder.get(door, headers=bearer(ticket))
            assert said.status_code == 404, door
        mine = intruder.get(f"/api/v1/games/{game}/state", headers=bearer(seat)).json()
        assert mine["viewer"]["person_id"] == viewer.person_id
        # Its holder is shown their own key, to come back from another phone of theirs.
        assert seat in holder.get(f"/g/{game}/welcome").text


def test_a_seat_re_issued_lets_go_of_its_phone_and_every_person_is_told(
    client: TestClient,
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    played, _org, _referee, _players = tally_game(service)
    game = played.id
    people = {p.name: p for p in service.people(game)}
    lea, hugo = people["Léa"], people["Hugo"]
    org_key = service.link_of(next(p for p in people.values() if p.role == "organizer")).token
    org = opened(client, org_key)
    lost = opened(client, service.link_of(lea).token)  # the phone Léa then loses
    other = opened(client, service.link_of(hugo).token)
    assert lost.get(f"/g/{game}").status_code == 200
    csrf = csrf_of(org.get(f"/g/{game}/people").text)
    answer = org.post(
        f"/g/{game}/people/{lea.id}/reissue", data={"csrf_token": csrf, "idem": key()}
    )
    assert answer.status_code in (200, 303)
    # The phone that held the seat lets go; a new ticket opens it on Léa's new phone.
    assert lost.get(f"/g/{game}").status_code == 404
    ticket = service.link_of(service.person(game, lea.id)).token  # type: ignore[arg-type]
    assert service.person(game, lea.id).claimed_at is None  # type: ignore[arg-type]
    assert ticket in org.get(f"/g/{game}/people").text  # free again: to show or print
    found = opened(client, ticket)
    assert found.get(f"/g/{game}").status_code == 200
    # Every person of the game reads it in the journal, and nobody's swap is silent.
    told = "Le siège de Léa a été réattribué par l’organisateur."
    for phone in (other, found, org):
        assert told in phone.get(f"/g/{game}/log").text
    assert told not in Phone(client).get(f"/g/{game}/log").text  # the public: no person's


def test_a_join_code_takes_its_seat_as_its_link_does(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game("tally", "Forêt", "Orga", idem_key=key())
    from tests.conftest import viewer_of

    lea = service.register(game.id, viewer_of(owner), "player", "Léa", idem_key=key())
    phone = Phone(client, follow_redirects=False)
    csrf = csrf_of(phone.get("/join").text)
    taken = phone.post("/join", data={"code": lea.link.code, "csrf_token": csrf})
    assert taken.status_code == 303 and taken.headers["location"] == f"/g/{game.id}"
    assert service.person(game.id, lea.person.id).claimed_at is not None  # type: ignore[arg-type]
    again = Phone(client, follow_redirects=False)
    csrf = csrf_of(again.get("/join").text)
    refused = again.post("/join", data={"code": lea.link.code, "csrf_token": csrf})
    assert refused.status_code == 404 and "déjà pris" in refused.text
    assert again.get(f"/t/{lea.link.token}").status_code == 409  # its link: the same seat


def test_a_preview_of_a_link_takes_nothing_and_a_tap_takes_the_seat(client: TestClient) -> None:
    """A messenger's preview or a mail scanner fetches the address without a browser's
    navigation: it is shown the button that takes the seat, and takes nothing."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game("tally", "Soirée", "MJ", idem_key=key())
    from tests.conftest import viewer_of

    f1 = service.register(game.id, viewer_of(owner), "player", "Aya", idem_key=key())
    preview = TestClient(client.app, follow_redirects=False)  # no Fetch Metadata
    shown = preview.get(f"/t/{f1.link.token}")
    assert shown.status_code == 200 and "Prendre mon siège" in shown.text
    assert service.person(game.id, f1.person.id).claimed_at is None  # type: ignore[arg-type]
    tapped = preview.post(f"/t/{f1.link.token}", data={"csrf_token": csrf_of(shown.text)})
    assert tapped.status_code == 303
    assert service.person(game.id, f1.person.id).claimed_at is not None  # type: ignore[arg-type]
    # The organizer's own link is no seat: a preview of it takes nothing either.
    assert preview.get(f"/t/{owner.link.token}").status_code == 303


def test_two_phones_opening_one_ticket_at_once_make_one_holder(
    client: TestClient, service: GameService
) -> None:
    game, owner = service.create_game("tally", "Duel", "Orga", idem_key=key())
    from tests.conftest import viewer_of

    ticket = service.register(game.id, viewer_of(owner), "player", "Inès", idem_key=key())
    outcomes: list[Any] = []
    start = threading.Barrier(4)

    def take() -> None:
        start.wait()
        try:
            outcomes.append(service.claim(token=ticket.link.token).link.token)
        except SeatTaken as taken:
            outcomes.append(taken)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = [o for o in outcomes if isinstance(o, str)]
    assert len(keys) == 1 and sum(isinstance(o, SeatTaken) for o in outcomes) == 3


def test_a_ticket_re_issued_while_it_is_being_opened_takes_nothing(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a claim reads the ticket before it locks the game: a re-issue in between
    makes it an old ticket, which then takes nothing (issue 51's outside attack)."""
    from server.errors import LinkInvalid
    from server.platform.service.people import People
    from tests.conftest import viewer_of

    game, owner = service.create_game("tally", "Duel", "Orga", idem_key=key())
    ticket = service.register(game.id, viewer_of(owner), "player", "Inès", idem_key=key())
    looked_up = People._ticket

    def then_re_issued(self: People, s: Any, token: Any, code: Any) -> Any:
        person = looked_up(self, s, token, code)
        person.version += 1  # as the organizer's re-issue commits meanwhile
        person.nonce = "re-issued"
        self.set_link(person)
        s.flush()
        s.expire(person)
        return person

    monkeypatch.setattr(People, "_ticket", then_re_issued)
    with pytest.raises(LinkInvalid):
        service.claim(token=ticket.link.token)
    monkeypatch.undo()
    assert service.person(game.id, ticket.person.id or 0).claimed_at is None
