"""Seats that belong to their players in a league and its matches (issue 51): a match's coach seats
handed through the league alone, a league seat re-issued taking its match seats with it, a
self-refereed match with no staff seat and its record nobody's to read whole, a join by the
league's invitation retried after a re-issue. The seats of every kind: tests/test_seats.py."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Phone, bearer, csrf_of, key, opened, seat_key
from tests.security.conftest import SCENES


def test_a_league_s_match_hands_its_coaches_seats_through_the_league_alone(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """The match's organizer (the league's owner) is never shown a coach's link of the match:
    each coach reaches their own seat from the league."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES["killpower_match:running"](service, rolls)
    game = scene.game
    org_key = seat_key(service, game, scene.people["organizer"].person_id)
    org = opened(client, org_key)
    page = org.get(f"/g/{game}/people").text
    listed = org.get(f"/api/v1/games/{game}/people", headers=bearer(org_key)).json()
    for persona in ("coach_a", "coach_b"):
        coach = scene.people[persona]
        ticket = service.link_of(service.person(game, coach.person_id)).token  # type: ignore[arg-type]
        assert ticket not in page
        entry = next(p for p in listed if p["person_id"] == coach.person_id)
        assert entry["token"] is None and entry["url"] is None
        assert org.get(f"/g/{game}/people/{coach.person_id}/qr.svg").status_code == 403


def test_a_league_s_match_seat_re_issued_goes_back_through_the_league_alone(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """Re-issuing a coach's seat of a league's match (a lost phone) answers the match's
    organizer with no ticket, by the API or the People page: the coach takes the new seat from
    the league, as before, and nobody else can."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES["killpower_match:running"](service, rolls)
    game = scene.game
    settings = service.load(game).game.settings
    org_key = seat_key(service, game, scene.people["organizer"].person_id)
    org = opened(client, org_key)
    coach_a, coach_b = scene.people["coach_a"].person_id, scene.people["coach_b"].person_id
    for coach in (coach_a, coach_b):  # each coach's phone took the seat from the league
        seat_key(service, game, coach)  # type: ignore[arg-type]
    api = org.post(
        f"/api/v1/games/{game}/people/{coach_a}/link",
        headers={**bearer(org_key), "Idempotency-Key": key()},
    )
    assert api.status_code == 200, api.text
    assert api.json()["token"] is None and api.json()["join_code"] is None
    assert api.json()["seat"] == "free"
    page = org.post(
        f"/g/{game}/people/{coach_b}/reissue",
        data={"csrf": csrf_of(org.get(f"/g/{game}/people").text), "idem": key()},
    ).text
    for coach in (coach_a, coach_b):
        ticket = service.link_of(service.person(game, coach)).token  # type: ignore[arg-type]
        assert ticket not in page and ticket not in org.get(f"/g/{game}/people").text
        assert org.get(f"/g/{game}/people/{coach}/qr.svg").status_code == 403
    # Coach A comes back from the league, on a new phone: the league hands the new seat.
    league = settings["parent"]
    league_coach = settings["delegates"][str(coach_a)]
    phone = opened(client, seat_key(service, league, league_coach))
    went = phone.get(f"/g/{league}/killpower/matches/{game}")
    assert went.status_code == 303, went.text
    assert phone.get(went.headers["location"]).status_code == 200
    mine = service.person(game, coach_a)  # type: ignore[arg-type]
    assert mine.claimed_at is not None


def test_a_join_retried_after_its_seat_was_re_issued_takes_nothing(client: TestClient) -> None:
    """Issue 51's outside attack: a phone that joined by the invitation posted its join again
    (same key) after the organizer re-issued the seat, and was handed the new seat. A retry
    answers the seat it made only while it is still that seat."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    from tests.conftest import viewer_of

    league, owner = service.create_game("killpower_league", "Ligue", "Camille", idem_key=key())
    service.set_invitation(league.id, viewer_of(owner), open_it=True)
    path = f"/g/{league.id}/join/{service.invitation(service.load(league.id).game)}"
    phone = Phone(client, follow_redirects=False)
    phone.headers["X-CSRF-Token"] = csrf_of(phone.get(path).text)
    join = {"name": "Chloé", "idem": key()}
    assert phone.post(path, data=join).status_code == 303
    assert phone.post(path, data=join).status_code == 303  # its own retry: the same seat
    chloe = next(p for p in service.people(league.id) if p.name == "Chloé")
    service.reissue(league.id, viewer_of(owner), chloe.id or 0, idem_key=key())
    assert phone.get(f"/g/{league.id}").status_code == 404  # let go
    again = phone.post(path, data=join)
    assert again.status_code == 404 and "Demandez-en un nouveau" in again.text
    assert phone.get(f"/g/{league.id}").status_code == 404
    ticket = service.link_of(service.person(league.id, chloe.id or 0)).token
    assert ticket not in again.text


def test_a_league_seat_re_issued_takes_its_match_seats_with_it(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """Issue 51's outside attack: the owner re-issued a coach's league seat, took it, and from
    the league was handed the coach's match seat, still held by the coach's phone. A league seat
    re-issued re-issues the seats its matches hand that person: the old phone keeps none, every
    person of the match is told, and the new holder takes the match seat from the league."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES["killpower_match:running"](service, rolls)
    game = scene.game
    settings = service.load(game).game.settings
    league = settings["parent"]
    coach_a = scene.people["coach_a"].person_id
    league_coach = settings["delegates"][str(coach_a)]
    from_league = opened(client, seat_key(service, league, league_coach))
    assert from_league.get(f"/g/{league}/killpower/matches/{game}").status_code == 303
    in_match = opened(client, seat_key(service, game, coach_a))
    assert in_match.get(f"/g/{game}").status_code == 200
    owner = next(p for p in service.people(league) if p.role == "organizer")
    owner_viewer = Viewer(owner.role, owner.id, owner.name)
    before = service.person(game, coach_a).version  # type: ignore[arg-type]
    service.reissue(league, owner_viewer, league_coach, idem_key=key())
    seat = service.person(game, coach_a)  # type: ignore[arg-type]
    assert seat.version == before + 1 and seat.claimed_at is None
    assert in_match.get(f"/g/{game}").status_code == 404  # the coach's old phone let go
    told = "Le siège de Nadia (Nabos) a été réattribué par l’organisateur."
    coach_b = opened(client, seat_key(service, game, scene.people["coach_b"].person_id))
    assert told in coach_b.get(f"/g/{game}/log").text
    # Whoever holds the league seat now takes the match seat from the league, and reads it.
    new_holder = opened(client, seat_key(service, league, league_coach))
    went = new_holder.get(f"/g/{league}/killpower/matches/{game}")
    assert went.status_code == 303 and new_holder.get(went.headers["location"]).status_code == 200
    assert new_holder.get(f"/g/{game}").status_code == 200
    assert service.verify(game) and service.verify(league)


def test_a_self_refereed_match_has_no_staff_seat_for_the_league(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """Issue 51's outside attack: a league owner who coached a side registered a league referee
    and came into the match as its staff, reading the other coach's RAP. Self-refereed, Arbitre
    is the referee: the league's staff, owner and referees alike, watch the board; refereed, the
    league's staff come in as its staff, who read both sides by the book."""
    from tests.conftest import viewer_of
    from tests.killpower.conftest import Match

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    for mode, lands in (("self", "/board"), ("referee", "")):
        match = Match(service, rolls, mode=mode)
        league = match.league
        referee = service.register(league.id, league.owner, "referee", "Rémi", idem_key=key())
        for token in (
            seat_key(service, league.id, league.owner.person_id),
            seat_key(service, league.id, viewer_of(referee).person_id),
        ):
            phone = opened(client, token)
            hop = phone.get(f"/g/{league.id}/killpower/matches/{match.id}")
            landed = hop.headers["location"]
            if landed.startswith("/t/"):
                landed = phone.get(landed).headers["location"]
            assert landed == f"/g/{match.id}{lands}", (mode, landed)
        organizer = service.person(match.id, match.organizer.person_id or 0)
        shown = service.load(match.id).game.settings["delegates"][str(organizer.id)]
        assert shown == ("nobody" if mode == "self" else "staff")


def test_a_self_refereed_match_leaves_the_league_s_file_as_the_public_reads_it(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 51's second outside attack: the league's file held its self-refereed match in clear,
    read as the match's organizer (staff), so the owner read every RAP in it. Self-refereed, the
    match goes in the file as the public reads it, and the file is a record (sealed to move)."""
    from tests.killpower.conftest import Match

    match = Match(service, rolls, mode="self")
    match.act("A", {"type": "lineup", "gladiators": match.ids["A"][:3], "bluff": 1}, 9, 8, 7)
    owner = match.league.owner
    assert not service.exports_in_clear(match.league.id, owner)
    body = json.loads(json.dumps(service.export_game(match.league.id, owner)))
    assert "replay" not in body
    record = next(r for r in body["records"] if r["id"] == match.id)
    text = json.dumps(record)
    assert "RAP de" not in text and "RAP of" not in text and '"raps"' not in text
    # Refereed, the referee reads both sides by the book: the league's file holds it whole.
    refereed = Match(service, rolls, mode="referee")
    assert service.exports_in_clear(refereed.league.id, refereed.league.owner)


def test_a_league_referee_let_go_leaves_the_matches_they_came_into(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """Issue 51's second outside attack: a league referee revoked kept the refereed match's
    organizer link they came in by. A league staff member's seat revoked or re-issued re-issues
    the staff's seat of every match (the others come in again from the league)."""
    from tests.conftest import viewer_of
    from tests.killpower.conftest import Match

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls, mode="referee")
    league = match.league
    referee = service.register(league.id, league.owner, "referee", "Rémi", idem_key=key())
    phone = opened(client, seat_key(service, league.id, viewer_of(referee).person_id))
    hop = phone.get(f"/g/{league.id}/killpower/matches/{match.id}")
    assert phone.get(hop.headers["location"]).status_code in (200, 303)
    assert phone.get(f"/g/{match.id}").status_code == 200
    service.revoke(league.id, league.owner, viewer_of(referee).person_id or 0, idem_key=key())
    assert phone.get(f"/g/{match.id}").status_code == 404
    public = Phone(client).get(f"/g/{match.id}/log.json")
    assert phone.get(f"/g/{match.id}/log.json").text == public.text  # the public's, no more
    # The owner comes in again from the league, by the staff's new link.
    owner = opened(client, seat_key(service, league.id, league.owner.person_id))
    again = owner.get(f"/g/{league.id}/killpower/matches/{match.id}")
    assert again.status_code == 303 and owner.get(again.headers["location"]).status_code in (
        200,
        303,
    )
    assert owner.get(f"/g/{match.id}").status_code == 200


def test_a_team_the_owner_keeps_plays_self_refereed(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 51's second outside attack: the owner opened a match of their own team with a
    referee, then read the other side's RAP as that referee. The owner's team plays with Arbitre
    as its referee; the form says so before the tap."""
    from server.errors import RuleError
    from tests.killpower.conftest import NABOS, TITANOS, League, team_command

    league = League(service, rolls)
    nadia = league.coach("Nadia")
    league.act(league.owner, team_command("Gardés", NABOS), 5, 1, 6)
    league.act(nadia, team_command("Titanos", TITANOS), 6, 1)
    request = {
        "team_a": league.team("Gardés").id,
        "team_b": league.team("Titanos").id,
        "mode": "referee",
    }
    with pytest.raises(RuleError, match=r"self-refereed|auto-arbitré"):
        service.open_linked(league.id, league.owner, request, idem_key=key())
    match = service.open_linked(
        league.id, league.owner, {**request, "mode": "self"}, idem_key=key()
    )
    assert match
