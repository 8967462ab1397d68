"""Adversaries consent (issue 34, platform.md): in a self-refereed match, a coach's hand tool on the
other team's gladiators (a condition, damage or wounds, an expulsion) is a proposal: nothing
changes until the other coach accepts it, a refusal changes nothing, and both coaches' logs say
each step; on their own team it is one tap. A coach undoes their own last action alone while the
other has not acted since; any other undo is a proposal. The API and the pages behave the same,
and no forged answer, replayed key or import applies a change to the other side alone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import InvalidInput, NotAllowed, NotFound, StaleScreen
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, SYSTEM, Viewer, consent_of
from server.platform.service import GameService
from tests.conftest import counts, key
from tests.killpower.conftest import NABOS, TITANOS, Coaches, League, Match, team_command


def running(service: GameService, rolls: ScriptedRolls) -> Match:
    """Both teams lined up, Titanos no. 1 and Nabos no. 1 on the field."""
    rolls.endless = True
    match = Match(service, rolls)
    for side in "AB":
        match.act(side, {"type": "lineup", "gladiators": match.ids[side][:6], "bluff": 1})
    for _ in range(2):
        side = match.state.moving
        if match.state.ball == f"zt:{side}":
            match.act(side, {"type": "give_ball", "gladiator": match.g(side, 2)})
        match.act(side, {"type": "enter", "gladiator": match.g(side, 1)})
        match.act(side, {"type": "end_phase"})
    assert match.state.phase == 3
    return match


# Each hand tool a coach may send, on a gladiator of the side named.
TOOLS: dict[str, Any] = {
    "hurt": lambda g: {"type": "hurt", "gladiator": g, "points": 30},
    "wounds": lambda g: {"type": "hurt", "gladiator": g, "points": 6, "wound_points": True},
    "condition": lambda g: {"type": "condition", "gladiator": g, "condition": "blind", "turns": 3},
    "clear": lambda g: {"type": "condition", "gladiator": g, "condition": "on_ground"},
    "expel": lambda g: {"type": "expel", "gladiator": g},
}


def fighter_state(match: Match, side: str, number: int) -> str:
    return match.fighter(side, number).model_dump_json()


def summaries(service: GameService, match: Match, side: str) -> list[str]:
    return [e["summary"] for e in service.log(match.id, match.coach[side])]


def proposal_of(service: GameService, match: Match) -> int:
    proposals = service.load(match.id).game.proposals or []
    assert len([p for p in proposals if p["status"] == "open"]) == 1, proposals
    return int(proposals[-1]["id"])


@pytest.mark.parametrize("via", ["api", "htmx"])
@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_a_hand_tool_on_the_other_team_waits_for_its_coach(
    client: TestClient, rolls: ScriptedRolls, tool: str, via: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = running(service, rolls)
    coaches = Coaches(client, match)
    target = match.g("B", 1)
    if tool == "clear":  # something to clear: B's own coach puts their gladiator down, one tap
        status, _ = coaches.send(via, "B", {**TOOLS["condition"](target), "condition": "on_ground"})
        assert status == 200 and match.fighter("B", 1).has("on_ground")
        command = {**TOOLS["clear"](target), "clear": True}
    else:
        command = TOOLS[tool](target)
    before, seq = fighter_state(match, "B", 1), service.load(match.id).game.seq

    # A's tool on B's gladiator: a proposal, nothing changes.
    status, text = coaches.send(via, "A", command)
    assert status == (202 if via == "api" else 200), text
    assert fighter_state(match, "B", 1) == before
    proposal = proposal_of(service, match)
    assert service.load(match.id).game.seq == seq + 1  # the proposal, logged
    if via == "api":
        assert json.loads(text)["proposal"] == proposal
    for side in "AB":
        assert re.search(r"propose", summaries(service, match, side)[-1])
    # B's page shows it at the top, to accept or refuse; A's says it waits.
    page_b = coaches.page("B")
    assert (
        page_b.index("data-proposals") < page_b.index('id="board"')
        if 'id="board"' in page_b
        else True
    )
    assert f'action="/g/{match.id}/proposals/{proposal}"' in page_b and 'value="accept"' in page_b
    page_a = coaches.page("A")
    assert 'value="accept"' not in page_a and 'value="refuse"' in page_a  # withdraw only

    # A cannot accept it for B, nor can a forged answer from A.
    status, _ = coaches.answer(via, "A", proposal, True)
    assert status == 403 and fighter_state(match, "B", 1) == before

    # B accepts: applied as A sent it, both names in both logs.
    status, text = coaches.answer(via, "B", proposal, True)
    assert status == 200, text
    assert fighter_state(match, "B", 1) != before
    for side in "AB":
        last = summaries(service, match, side)[-1]
        assert "Tomas (Titanos)" in last, last
    event = service.log(match.id, match.organizer)[-1]
    assert event["actor"]["name"] == "Nadia (Nabos)"
    # A's page says how it ended (until the game moves on); B's has nothing left to answer.
    assert [p["status"] for p in service.load(match.id).game.proposals or []] == ["accepted"]
    assert 'data-proposal-status="accepted"' in coaches.page("A")
    assert 'value="accept"' not in coaches.page("B")


@pytest.mark.parametrize("via", ["api", "htmx"])
@pytest.mark.parametrize("tool", ["hurt", "condition", "expel"])
def test_a_refused_proposal_changes_nothing_and_says_so(
    client: TestClient, rolls: ScriptedRolls, tool: str, via: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = running(service, rolls)
    coaches = Coaches(client, match)
    before = fighter_state(match, "A", 1)
    status, _ = coaches.send(via, "B", TOOLS[tool](match.g("A", 1)))
    assert status in (200, 202)
    proposal = proposal_of(service, match)
    status, text = coaches.answer(via, "A", proposal, False)
    assert status == 200, text
    assert fighter_state(match, "A", 1) == before
    for side in "AB":
        assert (
            "refuses" in summaries(service, match, side)[-1]
            or "refuse" in summaries(service, match, side)[-1]
        )
    # Answered: a second answer finds nothing; B's page says it was refused.
    status, _ = coaches.answer(via, "A", proposal, True)
    assert status == 404 and fighter_state(match, "A", 1) == before
    assert 'data-proposal-status="refused"' in coaches.page("B")


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_on_their_own_team_a_coach_s_tool_is_one_tap(
    service: GameService, rolls: ScriptedRolls, tool: str
) -> None:
    match = running(service, rolls)
    target = match.g("A", 1)
    if tool == "clear":
        match.act("A", {**TOOLS["condition"](target), "condition": "on_ground"})
        command = {**TOOLS["clear"](target), "clear": True}
    else:
        command = TOOLS[tool](target)
    before = fighter_state(match, "A", 1)
    done = service.perform(match.id, match.coach["A"], command, idem_key=key())
    assert done.proposal is None and fighter_state(match, "A", 1) != before
    assert not service.load(match.id).game.proposals


def test_a_proposal_expires_when_the_game_moves_on(
    service: GameService, rolls: ScriptedRolls
) -> None:
    match = running(service, rolls)
    before = fighter_state(match, "B", 1)
    done = service.perform(
        match.id, match.coach["A"], TOOLS["expel"](match.g("B", 1)), idem_key=key()
    )
    assert done.proposal is not None
    # Phase 3 ends: the proposal made in it expired, and says so on both pages.
    match.end_phase()
    assert service.load(match.id).game.proposals[0]["status"] == "expired"  # type: ignore[index]
    with pytest.raises(StaleScreen, match=r"expired|expiré"):
        service.answer(match.id, match.coach["B"], done.proposal, accept=True, idem_key=key())
    assert fighter_state(match, "B", 1) == before
    # A new proposal takes the expired one's place.
    service.perform(match.id, match.coach["A"], TOOLS["hurt"](match.g("B", 1)), idem_key=key())
    assert [p["status"] for p in service.load(match.id).game.proposals or []] == ["open"]
    # One the rules would no longer take expires at once (B1 expelled by its own coach).
    match.act("B", TOOLS["expel"](match.g("B", 1)))
    assert [p["status"] for p in service.load(match.id).game.proposals or []] == ["expired"]


def test_undo_alone_only_while_the_other_coach_has_not_acted(
    service: GameService, rolls: ScriptedRolls
) -> None:
    match = running(service, rolls)
    # A hurts their own gladiator, then undoes it alone: B has not acted since.
    match.act("A", TOOLS["hurt"](match.g("A", 1)))
    hurt = fighter_state(match, "A", 1)
    undone = service.undo(match.id, match.coach["A"], idem_key=key())
    assert undone.proposal is None and fighter_state(match, "A", 1) != hurt
    # A hurts their own gladiator, B acts (a tool on their own team): A's undo is a proposal.
    match.act("A", TOOLS["hurt"](match.g("A", 1)))
    match.act("B", TOOLS["condition"](match.g("B", 1)))
    blind = fighter_state(match, "B", 1)
    proposal = service.undo(match.id, match.coach["A"], idem_key=key())
    assert proposal.proposal is not None and fighter_state(match, "B", 1) == blind
    # B's undo of B's own last action is one tap; then A's proposal (of another target) expired.
    undone = service.undo(match.id, match.coach["B"], idem_key=key())
    assert undone.proposal is None and fighter_state(match, "B", 1) != blind
    with pytest.raises(StaleScreen):
        service.answer(match.id, match.coach["B"], proposal.proposal, accept=True, idem_key=key())
    # Now the last action is A's, agreed by nobody, and B undid since: A proposes; B accepts.
    hurt = fighter_state(match, "A", 1)
    again = service.undo(match.id, match.coach["A"], idem_key=key())
    assert again.proposal is not None and fighter_state(match, "A", 1) == hurt
    service.answer(match.id, match.coach["B"], again.proposal, accept=True, idem_key=key())
    assert fighter_state(match, "A", 1) != hurt
    assert "Tomas (Titanos)" in summaries(service, match, "A")[-1]
    # An action the other coach agreed to is not undone alone by its proposer.
    done = service.perform(
        match.id, match.coach["A"], TOOLS["hurt"](match.g("B", 1)), idem_key=key()
    )
    service.answer(match.id, match.coach["B"], done.seq, accept=True, idem_key=key())
    assert service.undo(match.id, match.coach["A"], idem_key=key()).proposal is not None


def test_no_forged_answer_applies_a_proposal(client: TestClient, rolls: ScriptedRolls) -> None:
    """An attacker's script: the proposer's token, another game's proposal, the league's staff,
    a stranger, a replayed key with another answer."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = running(service, rolls)
    coaches = Coaches(client, match)
    before = fighter_state(match, "B", 1)
    _, text = coaches.send("api", "A", TOOLS["hurt"](match.g("B", 1)))
    proposal = json.loads(text)["proposal"]
    for viewer in (match.coach["A"], match.organizer, SYSTEM):
        with pytest.raises(NotAllowed):
            service.answer(match.id, viewer, proposal, accept=True, idem_key=key())
    other = running(service, rolls)  # another match: its coach B answers ours
    with pytest.raises((NotAllowed, NotFound)):
        service.answer(match.id, other.coach["B"], proposal, accept=True, idem_key=key())
    with pytest.raises(NotFound):
        service.answer(other.id, other.coach["B"], proposal, accept=True, idem_key=key())
    no_token = client.post(
        f"/api/v1/games/{match.id}/proposals/{proposal}",
        json={"accept": True},
        headers={"Idempotency-Key": key()},
    )
    assert no_token.status_code in (401, 403)
    # The page route refuses a form without an answer, and one from another browser's session.
    assert (
        coaches.phones["B"]
        .post(
            f"/g/{match.id}/proposals/{proposal}",
            data={"idem": key()},
            headers={"HX-Request": "true"},
        )
        .status_code
        == 422
    )
    assert fighter_state(match, "B", 1) == before
    # B refuses with a key, then a replay of that key asking to accept is refused.
    headers = {"Authorization": f"Bearer {coaches.tokens['B']}", "Idempotency-Key": "same-key"}
    url = f"/api/v1/games/{match.id}/proposals/{proposal}"
    assert client.post(url, json={"accept": False}, headers=headers).status_code == 200
    assert client.post(url, json={"accept": True}, headers=headers).status_code == 422
    assert fighter_state(match, "B", 1) == before


def test_a_move_carries_the_consent_and_an_import_holds_to_it(
    service: GameService, rolls: ScriptedRolls, other: GameService
) -> None:
    match = running(service, rolls)
    done = service.perform(
        match.id, match.coach["A"], TOOLS["hurt"](match.g("B", 1)), idem_key=key()
    )
    service.answer(match.id, match.coach["B"], done.seq, accept=True, idem_key=key())
    pending = service.perform(
        match.id, match.coach["B"], TOOLS["condition"](match.g("A", 1)), idem_key=key()
    )
    assert pending.proposal is not None
    league = match.league.id
    data = json.loads(json.dumps(service.export_game(league, SYSTEM)))
    moved, _ = other.import_game(json.dumps(data), caller="test", idem_key=key())
    records = other.export_game(moved.id, SYSTEM)["records"]
    moved_match = other.load(records[1]["id"]).game
    # Still to answer, and A's notice of the accepted one: as on the server it came from.
    source = service.load(match.id).game.proposals or []
    assert [p["status"] for p in moved_match.proposals or []] == ["accepted", "open"]
    assert [p["status"] for p in source] == ["accepted", "open"]
    # A file where A's hurt on B's gladiator was never agreed to does not import.
    events = data["replay"][1]["events"]
    accepted = next(e for e in events if e.get("agreed_by"))
    accepted["agreed_by"] = None
    before = counts(other)
    with pytest.raises(InvalidInput):
        other.import_game(json.dumps(data), caller="test", idem_key=key())
    # Nor one where the agreement is B's own proposer's, or the proposal is dropped.
    accepted["agreed_by"] = accepted["actor_id"]
    with pytest.raises(InvalidInput):
        other.import_game(json.dumps(data), caller="test", idem_key=key())
    assert counts(other) == before


@pytest.mark.parametrize("opener", ["owner", "other coach"])
def test_the_league_owner_coaching_a_team_is_that_coach_in_the_match(
    service: GameService, rolls: ScriptedRolls, opener: str
) -> None:
    """Whoever opens the match (the outside review: the other coach opened it, and the owner
    came in as its staff, reading both sides and acting alone)."""
    rolls.endless = True
    league = League(service, rolls)
    tomas = league.coach("Tomas")
    league.act(league.owner, team_command("Nabos", NABOS))
    league.act(tomas, team_command("Titanos", TITANOS))
    owner_first = opener == "owner"
    nabos, titanos = league.team("Nabos").id, league.team("Titanos").id
    match = service.open_linked(
        league.id,
        league.owner if owner_first else tomas,
        {
            "team_a": nabos if owner_first else titanos,
            "team_b": titanos if owner_first else nabos,
            "mode": "self",
        },
        idem_key=key(),
    )
    link = service.handoff(league.id, league.owner, match)
    assert link is not None
    person = service.person_by_token(link.token)
    assert person.role == "coach"
    state: Any = service.load(match).state
    assert state.teams["A" if owner_first else "B"].coach == person.id
    # The match's staff is named after the league's organizer, not after whoever opened it.
    organizer = next(p for p in service.people(match) if p.role == "organizer")
    assert organizer.name == "Camille"


def test_every_kind_that_asks_for_consent_declares_real_commands() -> None:
    """The contract any two-sided kind with no referee signs: each declared command is one of
    its commands, and its side pages show the proposals."""
    asking = [kind for kind in KINDS.values() if kind.consent_commands]
    assert asking
    for kind in asking:
        types = set()
        for member in kind.commands.json_schema()["$defs"].values():
            typed = member.get("properties", {}).get("type", {})
            types |= {*typed.get("enum", []), typed.get("const")} - {None}
        assert kind.consent_commands <= types, kind.key
        for page in ("player", "staff"):
            source = (Path("templates") / kind.key / f"{page}.html").read_text()
            assert '{% include "platform/_proposals.html" %}' in source


def test_a_coach_with_no_side_proposes_nothing(service: GameService, rolls: ScriptedRolls) -> None:
    match = running(service, rolls)
    nobody = Viewer("coach", 999_999, "Personne")
    assert (
        consent_of(
            KINDS["killpower_match"],
            match.state,
            KINDS["killpower_match"].parse(TOOLS["hurt"](match.g("B", 1))),
            nobody,
        )
        == "B"
    )


def test_the_reason_typed_with_an_expulsion_reaches_the_coach_asked(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """Issue 54: the words a coach gives for an expulsion of the other team's gladiator are in
    what the other coach is asked to accept (they were lost on the way)."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = running(service, rolls)
    coaches = Coaches(client, match)
    command = {**TOOLS["expel"](match.g("B", 1)), "reason": "coup de coude en zone de but"}
    status, _ = coaches.send("htmx", "A", command)
    assert status == 200
    page_b = coaches.page("B")
    proposed = page_b[page_b.index("data-proposals") :]
    assert "« coup de coude en zone de but »" in proposed
