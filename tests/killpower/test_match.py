"""A self-refereed Killpower Ball match through the service: two coach viewers, scripted dice, all
20 turns, and at every step a check that neither coach's view nor log carries the other's RAP
values or power cards before the rules reveal them."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import NotAllowed, RuleError
from server.games.killpower.match import MatchState
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key
from tests.killpower.conftest import League, Match, team_command


def test_a_full_self_refereed_match(match: Match, service: GameService) -> None:
    A, B = "A", "B"
    # Sequences 1-8: lineups told secretly (Nabos six gladiators, Titanos two), RAP rolled and
    # hidden, powers 0 and 0 (one point more wins), placement by total RAP.
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:6], "bluff": 2}, 10, 8, 6, 4, 2, 1)
    assert match.view(B)["teams"][A]["ready"] and "lineup" not in match.view(B)["teams"][A]
    summary = match.act(B, {"type": "lineup", "gladiators": match.ids[B][:2], "bluff": 1}, 9, 7)
    assert "doit marquer 1 de plus" in summary
    s = match.state
    assert (s.stage, s.turn, s.phase, s.first, s.hand, s.token) == ("running", 20, 1, A, B, B)
    assert [f["rap"] for f in match.view(A)["teams"][A]["fighters"]] == [10, 8, 6, 4, 2, 1]
    assert s.ball == "zt:B"

    # Turn 20, phase 1 (Titanos has the hand): the ball to no. 1, both enter, a 6-square shot
    # (BAL 4 - malus 1 = 3, rolled 2): nobody of Nabos is on the field to intercept.
    match.fails(B, {"type": "end_phase"}, RuleError)  # the ball must be given first
    match.act(B, {"type": "give_ball", "gladiator": match.g(B, 1)})
    for n in (1, 2):
        match.act(B, {"type": "enter", "gladiator": match.g(B, n)})
    match.fails(A, {"type": "enter", "gladiator": match.g(A, 1)}, RuleError)  # not A's phase
    match.act(B, {"type": "shot", "gladiator": match.g(B, 1), "distance": 6}, 2)
    s = match.state
    # 3.4: the scorer places first, Nabos gets the ball, the hand and the token; "On reprend
    # donc le match à la séquence 9": phase 1 of the same turn (its box is already checked).
    assert (s.team(B).score, s.turn, s.phase, s.hand, s.token, s.first) == (6, 20, 1, A, A, B)
    assert all(f.where == "zt" for f in s.fighters.values())

    # Turn 20 again: six Nabos on the field; the sixth is expelled at the end of the phase
    # (1D5+5: 10 on the d10 gives 5, so 10 turns: back at phase 1 of turn 10).
    match.act(A, {"type": "give_ball", "gladiator": match.g(A, 1)})
    for n in range(1, 7):
        match.act(A, {"type": "enter", "gladiator": match.g(A, n)})
    match.act(A, {"type": "end_phase"}, 10)
    a6 = match.fighter(A, 6)
    assert (a6.where, a6.back.turn, a6.back.phase) == ("expelled", 10, 1)
    assert match.view(B)["teams"][A]["fighters"][5]["expelled_left"] == 10
    for n in (1, 2):
        match.act(B, {"type": "enter", "gladiator": match.g(B, n)})
    match.act(B, {"type": "end_phase"})
    assert match.state.phase == 3
    # Phase 3 by decreasing RAP: A1 10, B1 9, A2 8, B2 7, A3 6, A4 4, A5 2.
    assert [o["id"] for o in match.view(A)["order"]] == [
        match.g(A, 1),
        match.g(B, 1),
        match.g(A, 2),
        match.g(B, 2),
        match.g(A, 3),
        match.g(A, 4),
        match.g(A, 5),
    ]
    match.fails(A, {"type": "act", "gladiator": match.g(A, 2), "action": "pass"}, RuleError)
    # A1 passes to A2 (BAL 4 + 5 - 1 = 8, rolled 3); Titanos tries to intercept with B1 (7:
    # missed), then lets it go: A2 catches.
    match.act(
        A, {"type": "throw", "gladiator": match.g(A, 1), "distance": 5, "to": match.g(A, 2)}, 3
    )
    assert match.view(B)["pending"]["kind"] == "intercept"
    match.fails(A, {"type": "act", "gladiator": match.g(A, 2), "action": "wait"}, RuleError)
    match.act(B, {"type": "answer", "yes": True, "gladiator": match.g(B, 1)}, 7)
    match.act(B, {"type": "answer", "yes": False})
    assert match.state.carrier.id == match.g(A, 2)
    # A2 waits; B2 hits A2 (1 always hits), A2 does not evade: PHY 4 + gloves 10 = 14 against
    # VIE 5 + armour 9: 0, nothing (9.1).
    match.act(A, {"type": "act", "gladiator": match.g(A, 2), "action": "wait"})
    match.act(B, {"type": "attack", "attackers": [match.g(B, 2)], "target": match.g(A, 2)}, 1)
    assert match.view(A)["pending"] == {
        "kind": "evade",
        "side": A,
        "mine": True,
        "target": match.fighter(A, 2).label,
        "hits": [{"id": match.g(B, 2), "label": match.fighter(B, 2).label}],
    }
    assert "sans effet" in match.act(A, {"type": "answer", "yes": False}, 10)
    # A3 and A4 put both Titanos badly wounded: case IV, a point given at the end of phase 3.
    match.act(A, {"type": "attack", "attackers": [match.g(A, 3)], "target": match.g(B, 1)}, 2, 7)
    match.act(A, {"type": "attack", "attackers": [match.g(A, 4)], "target": match.g(B, 2)}, 2, 9)
    s = match.state
    assert (s.fighter(match.g(B, 1)).where, s.fighter(match.g(B, 2)).where) == ("bg", "bg")
    assert (s.team(B).case, s.gift) == ("IV", B)
    assert s.ball == "ground" or s.carrier is not None
    match.act(A, {"type": "act", "gladiator": match.g(A, 5), "action": "pass"})
    match.act(A, {"type": "act", "gladiator": match.g(A, 2), "action": "pass"})
    s = match.state
    # The gift point (3.4): like a basket, phase 1 of the same turn, Titanos with the ball.
    assert (s.team(A).score, s.team(B).score, s.turn, s.hand, s.first) == (1, 6, 20, B, A)
    assert all(f.where in ("zt", "expelled") for f in s.fighters.values())  # the BG came back

    # Turn 20, third start: A1 puts Sommeil down on B2 (POU 4, rolled 2): its underlined part
    # is read to Titanos, never its name; B2 fails to resist under POU (9) and sleeps 2 turns.
    match.act(B, {"type": "give_ball", "gladiator": match.g(B, 1)})
    for n in (1, 2):
        match.act(B, {"type": "enter", "gladiator": match.g(B, n)})
    match.end_phase()
    for n in range(1, 6):
        match.act(A, {"type": "enter", "gladiator": match.g(A, n)})
    match.end_phase()
    sommeil = {"type": "power", "gladiator": match.g(A, 1), "card": "sommeil"}
    match.fails(A, sommeil, RuleError)  # 4: Sommeil asks its target (« une cible à vue »)
    summary = match.act(A, {**sommeil, "target": match.g(B, 2)}, 2, 9)
    assert "pose une carte pouvoir face cachée" in summary and "ne résiste pas" in summary
    assert match.view(B)["reveals"][0]["text"] == "La cible s'endort pour 2 tours."
    assert match.fighter(B, 2).causes == {"asleep": "sommeil"}
    assert match.view(A)["teams"][B]["fighters"][1]["conditions"] == [{"key": "asleep", "left": 2}]
    match.fails(B, {"type": "act", "gladiator": match.g(B, 2), "action": "pass"}, RuleError)
    # A bluff looks the same from the other side.
    match.act(B, {"type": "power", "gladiator": match.g(B, 1), "card": "bluff"}, 4)  # its die
    match.end_phase()
    match.quiet_turn()  # turn 19
    # Turn 18: B2 sleeps through phases 1 and 2 and wakes at the start of phase 3 (3.3).
    match.end_phase()
    assert match.fighter(B, 2).has("asleep")
    # In phase 2, A5 stays in its own basket zone: expelled 1D5 (4 -> 2 turns), back at turn 16.
    match.act(A, {"type": "expel", "gladiator": match.g(A, 5), "offence": "basket_zone"}, 4)
    match.end_phase()
    assert (match.state.phase, match.fighter(B, 2).has("asleep")) == (3, False)
    match.end_phase()
    match.rolls.push(1, 3)  # A5's re-entry square at the start of turn 16
    match.quiet_turn()  # 17 ends: A5 comes back at the start of turn 16
    assert match.state.turn == 16
    a5 = match.fighter(A, 5)
    assert (a5.where, a5.square) == ("zt", (1, 3))
    # 1D2 from the d10: 7 / 5 rounded up is 2.
    match.act(A, {"type": "reentry", "gladiator": match.g(A, 5), "outcome": "taken"}, 7, 5)
    assert match.fighter(A, 5).square == (2, 5)
    while match.state.turn > 11:
        match.quiet_turn()
    match.rolls.push(1, 4)  # A6 back from expulsion at the start of turn 10
    match.quiet_turn()
    assert (match.fighter(A, 6).where, match.fighter(A, 6).square) == ("zt", (1, 4))
    # Turn 10: a power's 20 wound points put B1 in a coma: off for the match, a risk of death.
    match.act(A, {"type": "hurt", "gladiator": match.g(B, 1), "points": 20, "wound_points": True})
    match.agree(B)  # on B's gladiator: B's coach agrees
    assert (match.fighter(B, 1).where, match.fighter(B, 1).state) == ("coma", -16)
    if match.state.moving == B:
        match.end_phase()
    match.fails(B, {"type": "surrender"}, RuleError)  # not at the start of B's movement
    # After turn 1: 1 - 6, Titanos wins by its margin; the league runs the end-of-match
    # operations (B1's risk of death: location die 5, left arm, -16 or less: dead).
    match.rolls.push(5)
    while match.state.stage == "running":
        match.quiet_turn()
    s = match.state
    assert (s.stage, s.turn, s.outcomes) == ("finished", 1, ("lost", "won"))
    assert match.rolls.values == []
    league = match.league.state
    record = league.matches[-1]
    assert (record.score, record.outcomes, record.played[1]) == (
        (1, 6),
        ("lost", "won"),
        match.ids[B][:2],
    )
    assert [(r.gladiator, r.state, r.fate) for r in record.risks] == [(match.g(B, 1), -16, "dead")]
    assert match.league.team("Titanos").ranking == 3


def test_the_result_goes_to_the_league(match: Match, service: GameService) -> None:
    A, B = "A", "B"
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:1]}, 3)
    match.act(B, {"type": "lineup", "gladiators": match.ids[B][:1]}, 5)
    # Nabos (RAP 3) has the ball and the hand; its coach surrenders at the start of phase 1.
    assert match.state.hand == A
    match.act(A, {"type": "surrender"})
    assert match.state.outcomes == ("abandoned", "won")
    league = match.league.state
    record = league.matches[-1]
    assert (record.outcomes, record.score, league.live[0].recorded) == (
        ("abandoned", "won"),
        (0, 0),
        record.number,
    )
    assert match.league.team("Titanos").ranking == 3
    # Sent again, it is applied once.
    service.resend_followups(match.id, match.organizer)
    assert len(match.league.state.matches) == 1


def test_what_the_rules_refuse(match: Match) -> None:
    A, B = "A", "B"
    assert "n’est pas dans Nabos" in match.fails(
        A, {"type": "lineup", "gladiators": [match.g(B, 1)]}, RuleError
    )
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:2]}, 9, 9)
    match.act(B, {"type": "lineup", "gladiators": match.ids[B][:2]}, 1, 1)
    # Nabos RAP 18 places first; Titanos moves first with the ball.
    match.act(B, {"type": "give_ball", "gladiator": match.g(B, 1)})
    match.act(B, {"type": "enter", "gladiator": match.g(B, 1)})
    # Too late to surrender: Titanos already moved this phase (3.4).
    assert "au début de sa propre phase de déplacement" in match.fails(
        B, {"type": "surrender"}, RuleError
    )
    # Another coach's gladiator, a gladiator already on the field.
    match.fails(B, {"type": "enter", "gladiator": match.g(A, 1)}, NotAllowed)
    match.fails(B, {"type": "enter", "gladiator": match.g(B, 1)}, RuleError)
    match.end_phase()
    for n in (1, 2):
        match.act(A, {"type": "enter", "gladiator": match.g(A, n)})
    match.end_phase()
    # Phase 3: A1 (9) acts first; the token is Titanos's, not Nabos's.
    message = match.fails(
        A,
        {"type": "attack", "attackers": [match.g(A, 1)], "target": match.g(B, 1), "token": True},
        RuleError,
    )
    assert "pion réussite obligatoire" in message
    match.act(A, {"type": "act", "gladiator": match.g(A, 1), "action": "pass"})
    # An action by a gladiator who already acted.
    assert "déjà utilisé" in match.fails(
        A, {"type": "act", "gladiator": match.g(A, 1), "action": "pass"}, RuleError
    )
    # A group attack acts at its slowest member's RAP: A2 (9) with A1 who acted is refused.
    match.fails(
        A,
        {"type": "attack", "attackers": [match.g(A, 2), match.g(A, 1)], "target": match.g(B, 1)},
        RuleError,
    )
    # The mandatory-success token: Titanos uses it once, then it is gone.
    match.act(A, {"type": "act", "gladiator": match.g(A, 2), "action": "pass"})
    match.act(
        B,
        {"type": "attack", "attackers": [match.g(B, 1)], "target": match.g(A, 1), "token": True},
    )
    assert match.state.token is None


def test_an_afraid_gladiator_expelled_serves_the_expulsion_then_the_fear(match: Match) -> None:
    A, B = "A", "B"
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:1]}, 3)
    match.act(B, {"type": "lineup", "gladiators": match.ids[B][:1]}, 5)
    match.act(A, {"type": "give_ball", "gladiator": match.g(A, 1)})
    match.act(A, {"type": "enter", "gladiator": match.g(A, 1)})
    # 3.3, CAS PARTICULIER: afraid for 12 turns, then expelled 5 turns (1D5: 9 gives 5).
    match.act(
        A, {"type": "condition", "gladiator": match.g(A, 1), "condition": "afraid", "turns": 12}
    )
    match.act(A, {"type": "expel", "gladiator": match.g(A, 1), "offence": "basket_zone"}, 9)
    a1 = match.fighter(A, 1)
    assert (a1.where, a1.back.turn, a1.after, a1.has("afraid")) == (
        "expelled",
        15,
        {"afraid": 12},
        False,
    )
    assert match.state.ball == "ground"
    assert match.state.team(A).case == "III"  # Titanos plays alone
    match.end_phase()
    match.act(B, {"type": "enter", "gladiator": match.g(B, 1)})
    match.end_phase()
    match.end_phase()
    match.rolls.push(8, 6)  # the re-entry square at the start of turn 15 (1D2: 8 / 5 -> 2)
    while match.state.turn > 15:
        match.quiet_turn()
    a1 = match.fighter(A, 1)
    # Back in the side-line zone, it now serves its 12 turns of fear there: case V.
    assert (a1.where, a1.square, a1.conditions["afraid"].turn) == ("zt", (2, 6), 3)
    assert match.state.team(A).case == "V"
    match.fails(A, {"type": "enter", "gladiator": match.g(A, 1)}, RuleError)


def test_a_tournament_draw_goes_to_free_throws(service: GameService, rolls: ScriptedRolls) -> None:
    league = League(service, rolls, mode="tournament")
    titanos, viking = league.coach("Titanos"), league.coach("Viking")
    league.act(titanos, team_command("Titanos", ["gloves"] * 7))
    league.act(viking, team_command("Viking", ["gloves"] * 7))
    league.act(league.owner, {"type": "bracket"}, 1)
    match_id = service.open_linked(
        league.id,
        league.owner,
        {"team_a": league.team("Titanos").id, "team_b": league.team("Viking").id, "mode": "self"},
        idem_key=key(),
    )
    live = league.state.live[0]
    coach = {"A": Viewer("coach", live.coaches[0], "T"), "B": Viewer("coach", live.coaches[1], "V")}

    def act(side: str, command: dict[str, Any], *dice: int) -> None:
        rolls.push(*dice)
        service.perform(match_id, coach[side], command, idem_key=key())

    ids = {"A": league.ids("Titanos"), "B": league.ids("Viking")}
    act("A", {"type": "lineup", "gladiators": ids["A"][:2]}, 5, 5)
    act("B", {"type": "lineup", "gladiators": ids["B"][:2]}, 2, 2)
    state: MatchState = service.load(match_id).state  # type: ignore[assignment]
    while state.stage == "running":  # 20 turns, nobody scores
        if state.phase == 3:
            for side in ("A", "B"):
                if service.load(match_id).state.phase == 3:
                    act(side, {"type": "end_phase"})
        else:
            side = state.moving
            if state.ball == f"zt:{side}":
                act(side, {"type": "give_ball", "gladiator": ids[side][0]})
            if state.team(side).case == "II":
                act(side, {"type": "enter", "gladiator": ids[side][0]})
            act(side, {"type": "end_phase"})
        state = service.load(match_id).state  # type: ignore[assignment]
    assert state.stage == "free_throws"
    # 13.2, the rule book's example: Titanos (first, as strong) misses from 10, Viking scores 2,
    # Titanos 12, Viking 11: Viking wins 13 to 12.
    act("A", {"type": "free_throw", "gladiator": ids["A"][0], "distance": 10}, 5)
    with pytest.raises(NotAllowed):
        act("A", {"type": "free_throw", "gladiator": ids["A"][1], "distance": 12}, 1)
    rolls.values.clear()
    act("B", {"type": "free_throw", "gladiator": ids["B"][0], "distance": 2}, 1)
    act("A", {"type": "free_throw", "gladiator": ids["A"][1], "distance": 12}, 1)
    act("B", {"type": "free_throw", "gladiator": ids["B"][1], "distance": 11}, 1)
    state = service.load(match_id).state  # type: ignore[assignment]
    assert (state.stage, state.outcomes) == ("finished", ("lost", "won"))
    record = league.state.matches[-1]
    assert record.free_throws == ([0, 12], [2, 11])
    assert league.state.champion == league.team("Viking").id


def test_both_coaches_let_phase_3_pass_from_the_same_screen(
    match: Match, service: GameService
) -> None:
    """Two phones in phase 3 show the same screen; each coach says "the gladiators left do nothing"
    at the same moment. The first does not make the second's screen stale (the platform's
    stale-screen check): it concerns only its own side."""
    A, B = "A", "B"
    match.act(A, {"type": "lineup", "gladiators": match.ids[A][:2], "bluff": 1}, 10, 8)
    match.act(B, {"type": "lineup", "gladiators": match.ids[B][:2], "bluff": 1}, 9, 7)
    match.act(B, {"type": "give_ball", "gladiator": match.g(B, 1)})
    match.act(B, {"type": "enter", "gladiator": match.g(B, 1)})
    match.act(B, {"type": "end_phase"})
    match.act(A, {"type": "enter", "gladiator": match.g(A, 1)})
    match.act(A, {"type": "end_phase"})
    assert (match.state.turn, match.state.phase) == (20, 3)
    screen = service.seq_of(match.id)
    for side in (A, B):  # both from the screen of sequence `screen`
        service.perform(
            match.id, match.coach[side], {"type": "end_phase"}, idem_key=key(), seen_seq=screen
        )
    assert (match.state.turn, match.state.phase) == (19, 1)


def test_each_gladiator_past_the_fifth_on_the_field_is_expelled_at_the_phase_s_end(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """3.3: « Cinq gladiateurs de la même équipe peuvent être sur le terrain »; 6.1: the one too
    many is expelled once its coach can no longer put it right (the phase's end). Seven entered:
    the last two are expelled, each said to be one too many (a newcomer read « Mia, the sixth
    gladiator » of the seventh: issue 54)."""
    rolls.endless = True
    match = Match(service, rolls)
    for side in "AB":
        match.act(side, {"type": "lineup", "gladiators": match.ids[side], "bluff": 1})
    side = match.state.moving
    if match.state.ball == f"zt:{side}":
        match.act(side, {"type": "give_ball", "gladiator": match.g(side, 1)})
    for number in range(1, 8):
        match.act(side, {"type": "enter", "gladiator": match.g(side, number)})
    said = match.act(side, {"type": "end_phase"})
    for number in (6, 7):
        assert match.fighter(side, number).where == "expelled"
        name = match.fighter(side, number).label
        assert f"{name} est de trop sur le terrain (cinq au plus)." in said
    assert [match.fighter(side, n).where for n in range(1, 6)] == ["field"] * 5
