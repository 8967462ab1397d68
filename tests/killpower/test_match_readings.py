"""Killpower Ball matches read to the letter: each test quotes the rule book's line it holds (the
readings are listed in docs/readings.md). Two coach viewers play through the service, with
scripted dice; after every command neither coach's view nor log carries the other's secrets."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server.errors import ArbitreError, RuleError
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key
from tests.killpower.conftest import League, Match, team_command

A, B = "A", "B"


@pytest.fixture
def match(service: GameService, rolls: ScriptedRolls) -> Match:
    return Match(service, rolls)


def staff(m: Match, command: dict[str, Any], *dice: int) -> str:
    """What the match's organizer records with the referee tools."""
    m.rolls.push(*dice)
    return m.service.perform(m.id, m.organizer, command, idem_key=key()).summary.render()


def start(m: Match, a: list[int], b: list[int], raps_a: list[int], raps_b: list[int]) -> None:
    """Lineups of the first gladiators (by number), RAP rolled with each."""
    m.act(A, {"type": "lineup", "gladiators": [m.g(A, n) for n in a], "bluff": 1}, *raps_a)
    m.act(B, {"type": "lineup", "gladiators": [m.g(B, n) for n in b], "bluff": 1}, *raps_b)


def take_the_ball(m: Match, taker: int, carrier: int) -> None:
    """Phase 3: B's gladiator takes the ball from A's (BAL 4, rolled 1); A does not resist."""
    m.act(B, {"type": "take", "gladiator": m.g(B, taker)}, 1)
    m.act(A, {"type": "answer", "yes": False})
    assert m.state.carrier.id == m.g(B, taker)  # type: ignore[union-attr]


def test_a_basket_against_a_team_with_nobody_to_take_the_ball(match: Match) -> None:
    """3.4: "Si un entraîneur, après panier ou don d'un point, n'a que des gladiateurs expulsés ou
    en ZT involontaire (TABLE 7) : alors le ballon est placé sur la case de son panier et
    l'équipe adverse joue seule jusqu'au retour des expulsés." Once a deadlock: nothing could
    hand the ball over nor end the phase."""
    m = match
    start(m, [1, 2], [1], [3, 1], [5])  # RAP 4 against 5: Nabos gets the ball and the hand
    assert (m.state.hand, m.state.ball) == (A, "zt:A")
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "end_phase"})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "end_phase"})
    take_the_ball(m, 1, 1)
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "pass"})
    assert (m.state.turn, m.state.hand) == (19, B)
    # Turn 19: A1 is expelled (1D5+5: the d10 shows 10), A2 flees in its side-line zone.
    staff(m, {"type": "expel", "gladiator": m.g(A, 1)}, 10)
    staff(m, {"type": "condition", "gladiator": m.g(A, 2), "condition": "afraid", "turns": 12})
    m.fails(A, {"type": "give_ball", "gladiator": m.g(A, 2)}, RuleError)  # no ball to give yet
    # B1 scores from 6 squares (BAL 4 - 1 = 3, rolled 2).
    said = m.act(B, {"type": "shot", "gladiator": m.g(B, 1), "distance": 6}, 2)
    assert "personne pour prendre le ballon" in said
    s = m.state
    assert (s.ball, s.hand, s.turn, s.phase, s.first) == ("basket", A, 19, 1, B)
    assert s.team(A).case == "III"  # expelled: Titanos plays alone
    m.act(A, {"type": "end_phase"})  # nothing to give, nothing to do: the phase ends
    assert m.state.phase == 2


def test_a_team_all_afraid_is_not_made_to_take_the_ball(match: Match) -> None:
    """5.1, GUERRIER EN FUITE: "Il ne s'occupe plus du match"; 3.4: a team with only gladiators
    in an involuntary side-line zone does not get the ball. It was handed one, then expelled
    for keeping it in the side-line zone."""
    m = match
    start(m, [1], [1], [3], [5])
    staff(m, {"type": "condition", "gladiator": m.g(A, 1), "condition": "afraid", "turns": 12})
    m.fails(A, {"type": "give_ball", "gladiator": m.g(A, 1)}, RuleError)
    said = m.act(A, {"type": "end_phase"})
    assert "case de son panier" in said
    assert m.fighter(A, 1).where == "zt" and m.state.ball == "basket"


def test_the_ball_kept_in_the_side_line_zone_expels_its_carrier_in_one_clear_sentence(
    match: Match,
) -> None:
    """TABLE 6: the ball kept in the side-line zone at the end of the movement: 1D5+5 turns.
    Issue 17: the sentence once ended in a glitch ("…tour 14. phase 2 du tour 20.")."""
    m = match
    start(m, [1, 2], [1], [3, 1], [5])
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 2)})
    said = m.act(A, {"type": "end_phase"}, 8)  # 1D5 from a d10 showing 8: 4, so 9 turns
    assert m.fighter(A, 1).where == "expelled"
    assert "expulsé 9 tours : retour en phase 1 du tour 11." in said, said
    assert said.endswith("Place à la phase 2 du tour 20."), said
    assert not re.search(r"\. [a-zé]", said), said  # each sentence begins as one


def test_states_from_the_field_end_at_a_reset_and_when_leaving_it(match: Match) -> None:
    """3.3, CAS PARTICULIER: "Si un gladiateur est sous l'effet d'un pouvoir sur le terrain, si
    panier ou don d'un point, le gladiateur repart de sa ZT normalement"; "en fuite se trouve
    dans sa ZT [...] il restera en fuite"; BG, "il n'est plus affecté par le pouvoir"."""
    m = match
    start(m, [1, 2, 3], [1], [3, 1, 1], [7])
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    for n in (1, 2):
        m.act(A, {"type": "enter", "gladiator": m.g(A, n)})
    m.act(A, {"type": "end_phase"})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "end_phase"})
    staff(m, {"type": "condition", "gladiator": m.g(A, 1), "condition": "blind", "turns": 5})
    staff(m, {"type": "condition", "gladiator": m.g(A, 2), "condition": "asleep", "turns": 2})
    staff(m, {"type": "condition", "gladiator": m.g(A, 3), "condition": "afraid", "turns": 12})
    take_the_ball(m, 1, 1)
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "pass"})
    # Turn 19, Titanos' phase 1: B1 scores from 6 squares; the blind A1 lets the ball go by.
    m.act(B, {"type": "shot", "gladiator": m.g(B, 1), "distance": 6}, 2)
    m.act(A, {"type": "answer", "yes": False})
    s = m.state
    assert not s.fighter(m.g(A, 1)).conditions and not s.fighter(m.g(A, 2)).conditions
    assert s.fighter(m.g(A, 1)).where == "zt"
    assert m.fighter(A, 3).has("afraid")  # in the side-line zone: the fear goes on
    # Badly wounded, a blind gladiator is no longer blind.
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 2)})
    staff(m, {"type": "condition", "gladiator": m.g(A, 2), "condition": "blind", "turns": 5})
    staff(m, {"type": "hurt", "gladiator": m.g(A, 2), "points": 12, "wound_points": True})
    assert m.fighter(A, 2).where == "bg" and not m.fighter(A, 2).conditions


def test_speed_order_and_resistance(service: GameService, rolls: ScriptedRolls) -> None:
    """3.3: "Si une seule des deux équipes a des actions à faire, on néglige cette règle sur la
    RAP. La règle sur la Rap n'intervient pas lorsqu'un gladiateur tente d'éviter une attaque ou
    de résister à un pouvoir qui coûte 1A." 5.1: an inert gladiator "ne peut pas résister par
    des jets de POU (0A)"."""
    m = Match(service, rolls)
    start(m, [1, 2], [1], [9, 8], [2])  # Titanos, the slower, has the ball and the hand
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "end_phase"})
    for n in (1, 2):
        m.act(A, {"type": "enter", "gladiator": m.g(A, n)})
    m.act(A, {"type": "end_phase"})
    # A1 (9) is due; B1 (2) resists a power that costs 1A at once, but may not act otherwise.
    check = {"type": "check", "gladiator": m.g(B, 1), "characteristic": "POU", "action": True}
    m.fails(B, check, RuleError)
    m.act(B, {**check, "resist": True}, 3)
    # Only Nabos has actions left: its gladiators act in any order, A2 before A1.
    m.act(A, {"type": "act", "gladiator": m.g(A, 2), "action": "pass"})
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "pass"})
    assert m.state.turn == 19
    staff(m, {"type": "condition", "gladiator": m.g(B, 1), "condition": "asleep", "turns": 2})
    m.fails(B, {"type": "check", "gladiator": m.g(B, 1), "characteristic": "POU"}, RuleError)


def test_the_token_makes_an_interception(match: Match) -> None:
    """3.2, PION RÉUSSITE OBLIGATOIRE: "Ce pion peut être utilisé pour n'importe quelle action
    (frapper un adversaire, intercepter le ballon ou tirer au panier"; 8.2: never against a
    group attack, "même pour la cible"."""
    m = match
    start(m, [1, 2], [1], [3, 1], [5])  # Nabos: the ball, the hand and the token
    assert m.state.token == A
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    for n in (1, 2):
        m.act(A, {"type": "enter", "gladiator": m.g(A, n)})
    m.act(A, {"type": "end_phase"})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "end_phase"})
    take_the_ball(m, 1, 1)
    for n in (1, 2):
        m.act(A, {"type": "act", "gladiator": m.g(A, n), "action": "pass"})
    # Turn 19, Titanos' phase 1: B1 throws to a square 5 away (BAL 4 + 5 - 1 = 8, rolled 3);
    # Nabos intercepts with A1 and the token: no die.
    m.act(B, {"type": "throw", "gladiator": m.g(B, 1), "distance": 5}, 3)
    assert m.state.pending.kind == "intercept"  # type: ignore[union-attr]
    said = m.act(A, {"type": "answer", "yes": True, "gladiator": m.g(A, 1), "token": True})
    assert "pion réussite obligatoire" in said
    s = m.state
    assert s.carrier.id == m.g(A, 1) and s.token is None  # type: ignore[union-attr]


def test_fighting_from_the_ground_is_an_expulsion(match: Match) -> None:
    """TABLE 6, 1D5+5 TOURS: "Combattre ou activer des pouvoirs alors que vous êtes à terre";
    "Faire des pouvoirs dans la ZT". 6.2: "on néglige l'action qui a causé l'expulsion"."""
    m = match
    start(m, [1, 2], [1], [9, 8], [2])  # Titanos has the ball and the hand
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "end_phase"})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "end_phase"})
    staff(m, {"type": "condition", "gladiator": m.g(A, 1), "condition": "on_ground"})
    said = m.act(A, {"type": "attack", "attackers": [m.g(A, 1)], "target": m.g(B, 1)}, 4)
    assert "à terre" in said and m.fighter(A, 1).where == "expelled"
    assert m.fighter(B, 1).where == "field"  # the blow is ignored
    # A2 in the side-line zone puts Sommeil down (a power that is not automatic): expelled too.
    said = m.act(A, {"type": "power", "gladiator": m.g(A, 2), "card": "bluff"}, 4)
    assert m.fighter(A, 2).where == "expelled"


def test_an_own_basket_gives_the_ball_to_the_team_placed_second(match: Match) -> None:
    """3.4: "Si une équipe a mis un panier dans son propre panier, la balle revient à l'équipe
    adverse, même si elle se place en second"; 7: "l'équipe adverse gagne les points"."""
    m = match
    start(m, [1], [1], [3], [5])
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "shot", "gladiator": m.g(A, 1), "distance": 4, "own": True}, 1)
    s = m.state
    assert (s.team(B).score, s.first, s.hand, s.token, s.ball) == (4, A, B, B, "zt:B")


def test_both_teams_idle_five_turns_is_no_forfeit(match: Match) -> None:
    """TABLE 7, II: "Victoire par abandon si aucun gladiateur de l'équipe X ne rentre sur le
    terrain avant 5 tours": when both stay off, neither wins by the other's forfeit, and no score
    decides before the 20 turns (3.2: "pour gagner au bout des 20 tours")."""
    m = match
    start(m, [1], [1], [3], [5])
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "drop", "gladiator": m.g(A, 1)})  # 2, the ball put down from the ZT
    for _ in range(7):
        m.quiet_turn()
    s = m.state
    assert (s.stage, s.turn, s.surrendered, s.outcomes) == ("running", 13, None, None)
    # Once one enters, the other, idle for more than 5 turns, forfeits at the next turn.
    if s.moving != B:
        m.end_phase()
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.quiet_turn()
    s = m.state
    assert (s.stage, s.surrendered, s.outcomes) == ("finished", A, ("abandoned", "won"))


def test_bluff_cards_in_a_championship_and_in_a_tournament(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """3.2: "chaque entraîneur prend de 1 à 3 cartes bluff"; 13.2, a tournament: "Rajoutez
    autant de cartes bluff que vous le souhaitez"."""
    m = Match(service, rolls)
    lineup = {"type": "lineup", "gladiators": [m.g(A, 1)], "bluff": 5}
    m.fails(A, lineup, RuleError)
    league = League(service, rolls, mode="tournament")
    titanos, viking = league.coach("Titanos"), league.coach("Viking")
    league.act(titanos, team_command("Titanos", ["gloves"] * 7), *[1] * 7)
    league.act(viking, team_command("Viking", ["gloves"] * 7), *[1] * 7)
    league.act(league.owner, {"type": "bracket"}, 1)
    match_id = service.open_linked(
        league.id,
        league.owner,
        {"team_a": league.team("Titanos").id, "team_b": league.team("Viking").id},
        idem_key=key(),
    )
    coach = Viewer("coach", league.state.live[0].coaches[0], "T")
    rolls.push(4)
    service.perform(
        match_id,
        coach,
        {"type": "lineup", "gladiators": league.ids("Titanos")[:1], "bluff": 5},
        idem_key=key(),
    )
    assert service.load(match_id).state.teams["A"].bluff == 5  # type: ignore[attr-defined]
    # Issue 33, item 6: "autant [...] que vous le souhaitez": a 21st is no different; past 100,
    # the refusal says the bound is the app's, not the rules'.
    other = Viewer("coach", league.state.live[0].coaches[1], "V")
    refused = {"type": "lineup", "gladiators": league.ids("Viking")[:1], "bluff": 101}
    with pytest.raises(RuleError, match="100") as caught:
        service.perform(match_id, other, refused, idem_key=key())
    assert caught.value.field == "bluff" and "13.2" in caught.value.message
    rolls.push(4)
    lineup = {"type": "lineup", "gladiators": league.ids("Viking")[:1], "bluff": 21}
    service.perform(match_id, other, lineup, idem_key=key())
    assert service.load(match_id).state.teams["B"].bluff == 21  # type: ignore[attr-defined]


def test_a_located_blow_decides_table_8(match: Match) -> None:
    """8.4: "7 si vous frappez une localisation précise, la tête par exemple (Il ne sera pas alors
    nécessaire de jeter 1D10 de localisation, voir 9.2)"; TABLE 8: "-11 à -15 [...] MORT" at the
    head. A group blow on the head of a sleeping gladiator leaves him at -12: dead, no die."""
    m = match
    start(m, [3, 4], [1], [9, 8], [2])  # two gloved Nabos; Titanos (RAP 2) has the ball
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "enter", "gladiator": m.g(B, 1)})
    m.act(B, {"type": "drop", "gladiator": m.g(B, 1)})  # 0A, on its own square
    m.act(B, {"type": "end_phase"})
    for n in (3, 4):
        m.act(A, {"type": "enter", "gladiator": m.g(A, n)})
    m.act(A, {"type": "end_phase"})
    staff(m, {"type": "condition", "gladiator": m.g(B, 1), "condition": "asleep", "turns": 3})
    m.act(A, {"type": "act", "gladiator": m.g(A, 3), "action": "wait"})
    blow = {"type": "attack", "attackers": [m.g(A, 3), m.g(A, 4)], "target": m.g(B, 1)}
    m.fails(A, {**blow, "located": True}, RuleError)  # which location?
    # 7 or less on a chosen location (one die for the group, 6); PHY 5 + 3 and PHY 4 + 5 (gloves)
    # = 17 against VIE 4 + armour 1: -12, a coma; the sheet keeps the head for TABLE 8.
    said = m.act(A, {**blow, "located": True, "location": "head"}, 6, 3, 5)
    assert "tête" in said
    b1 = m.fighter(B, 1)
    assert (b1.where, b1.state, b1.location) == ("coma", -12, "head")
    # Nobody of Titanos left: victory (TABLE 7, VI); the league rolls no location die.
    record = m.league.state.matches[-1]
    assert [(r.gladiator, r.die, r.location, r.fate) for r in record.risks] == [
        (m.g(B, 1), None, "head", "dead")
    ]


class Powers:
    """A match whose Nabos no. 1 holds Rayon laser and Sprint éclair (draws 2, 2), Titanos no. 1
    Fantôme and Peur (1, 4); each coach plays through `act`."""

    def __init__(self, service: GameService, rolls: ScriptedRolls) -> None:
        self.service, self.rolls = service, rolls
        league = League(service, rolls)
        nadia, tomas = league.coach("Nadia"), league.coach("Tomas")
        league.act(nadia, team_command("Nabos", ["powers"] + ["gloves"] * 6), 2, 2)
        league.act(tomas, team_command("Titanos", ["powers"] + ["gloves"] * 6), 1, 4)
        self.id = service.open_linked(
            league.id,
            nadia,
            {"team_a": league.team("Nabos").id, "team_b": league.team("Titanos").id},
            idem_key=key(),
        )
        live = league.state.live[0]
        self.coach = {
            A: Viewer("coach", live.coaches[0], "N"),
            B: Viewer("coach", live.coaches[1], "T"),
        }
        self.ids = {A: league.ids("Nabos"), B: league.ids("Titanos")}

    def act(self, side: str, command: dict[str, Any], *dice: int) -> str:
        self.rolls.push(*dice)
        done = self.service.perform(self.id, self.coach[side], command, idem_key=key())
        return done.summary.render()

    @property
    def state(self) -> Any:
        return self.service.load(self.id).state

    def view(self, side: str) -> dict[str, Any]:
        kind = self.service.load(self.id).kind
        return kind.view(self.state, self.coach[side], self.service.clock.now())


def test_the_turn_of_the_example_of_3_3(service: GameService, rolls: ScriptedRolls) -> None:
    """3.3: "Durant un nouveau tour, le porteur du ballon active l'un de ses pouvoirs à 0A (HORS
    PHASE), se déplace en direction d'un ami (PHASE 1), en lâchant le ballon sur sa case (0A)
    (PHASE 1), puis termine son déplacement (PHASE 1). En PHASE 3, il frappe un adversaire
    (1A)." """
    m = Powers(service, rolls)
    a1, a2, b1 = m.ids[A][0], m.ids[A][1], m.ids[B][0]
    m.act(A, {"type": "lineup", "gladiators": [a1, a2]}, 3, 3)
    m.act(B, {"type": "lineup", "gladiators": [b1]}, 9)  # Nabos: the ball and the hand
    m.act(A, {"type": "give_ball", "gladiator": a1})
    for g in (a1, a2):
        m.act(A, {"type": "enter", "gladiator": g})
    m.act(A, {"type": "end_phase"})
    m.act(B, {"type": "enter", "gladiator": b1})
    while m.state.turn > 18:  # two quiet turns: the hand comes back to Nabos at turn 18
        phase_over(m)
    assert (m.state.turn, m.state.phase, m.state.hand, m.state.carrier.id) == (18, 1, A, a1)
    # HORS PHASE, 0A: Sprint éclair (DEP 5, rolled 4); A1 still has its action.
    m.act(A, {"type": "power", "gladiator": a1, "card": "sprint-eclair"}, 4)
    m.act(A, {"type": "drop", "gladiator": a1})  # PHASE 1: the ball on its own square, 0A
    assert m.state.ball == "ground" and not m.state.fighter(a1).acted
    m.act(A, {"type": "end_phase"})  # the end of its move
    m.act(B, {"type": "end_phase"})
    m.act(B, {"type": "act", "gladiator": b1, "action": "pass"})  # B1 (9) acts first
    # PHASE 3: A1 hits B1 (PHY 4, rolled 2, 1A); B1 spent its action, it cannot evade (8.1):
    # 4 against VIE 5 + armour 1, nothing.
    said = m.act(A, {"type": "attack", "attackers": [a1], "target": b1}, 2)
    assert "1 coup porte" in said and "sans effet" in said
    assert m.state.fighter(a1).acted and m.state.fighter(b1).where == "field"


def phase_over(m: Any) -> None:
    """The current phase ends, nobody doing anything more."""
    state = m.state
    if state.phase in (1, 2):
        m.act(state.moving, {"type": "end_phase"})
    else:
        for side in (A, B):
            if m.state.phase == 3 and m.state.turn == state.turn:
                m.act(side, {"type": "end_phase"})


def test_a_power_read_when_its_moment_comes(service: GameService, rolls: ScriptedRolls) -> None:
    """4.3: "Pour Rayon laser, on ne dira rien à l'adversaire tant qu'aucun gladiateur ne passera
    la ligne 14. Dès que ce sera fait, on lira le texte souligné à condition qu'il ait raté son
    jet de résistance, sinon il ne se passera rien." """
    m = Powers(service, rolls)
    a1, b1 = m.ids[A][0], m.ids[B][0]
    m.act(A, {"type": "lineup", "gladiators": [a1]}, 9)
    m.act(B, {"type": "lineup", "gladiators": [b1]}, 2)
    m.act(B, {"type": "give_ball", "gladiator": b1})
    m.act(B, {"type": "enter", "gladiator": b1})
    m.act(B, {"type": "end_phase"})
    m.act(A, {"type": "enter", "gladiator": a1})
    m.act(A, {"type": "end_phase"})
    # Phase 3: A1 activates Rayon laser (POU 4, rolled 2): armed, nothing read to Titanos.
    said = m.act(A, {"type": "power", "gladiator": a1, "card": "rayon-laser"}, 2)
    assert m.state.reveals == [] and "rayon" not in said.lower()
    theirs = m.view(B)
    assert "armed" not in theirs["teams"]["A"] and "rayon" not in str(theirs).lower()
    assert [a["card"] for a in m.view(A)["teams"]["A"]["armed"]] == ["rayon-laser"]
    # B1 crosses line 14: the target resists under VIE (4) and fails (7): the text is read,
    # and the ray strikes: « subit 1D10 points de blessure » (10: VIE 4 + armour 1 - 10 = -5).
    said = m.act(
        A, {"type": "trigger", "gladiator": a1, "card": "rayon-laser", "target": b1}, 7, 10
    )
    assert "rayon laser frappe" in said.lower() and len(m.state.reveals) == 1
    assert "subit 10 points de dégâts : blessé grave" in said  # a gift point (3.4) follows
    with pytest.raises(ArbitreError):  # read once
        m.act(A, {"type": "trigger", "gladiator": a1, "card": "rayon-laser", "target": b1}, 1)


def test_a_resisted_power_reads_nothing(service: GameService, rolls: ScriptedRolls) -> None:
    m = Powers(service, rolls)
    a1, b1 = m.ids[A][0], m.ids[B][0]
    m.act(A, {"type": "lineup", "gladiators": [a1]}, 9)
    m.act(B, {"type": "lineup", "gladiators": [b1]}, 2)
    m.act(B, {"type": "give_ball", "gladiator": b1})
    m.act(B, {"type": "enter", "gladiator": b1})
    m.act(B, {"type": "end_phase"})
    m.act(A, {"type": "enter", "gladiator": a1})
    m.act(A, {"type": "end_phase"})
    m.act(A, {"type": "power", "gladiator": a1, "card": "rayon-laser"}, 2)
    said = m.act(A, {"type": "trigger", "gladiator": a1, "card": "rayon-laser", "target": b1}, 3)
    assert "résiste" in said and m.state.reveals == [] and m.state.armed == []


def test_a_tournament_match_from_turn_20_to_1(service: GameService, rolls: ScriptedRolls) -> None:
    """A self-refereed tournament match played to its last turn through the readings above:
    5 bluff cards each (13.2), a token interception (3.2), a blinded gladiator back to normal
    after a basket (3.3), a basket against a team with nobody to take the ball (3.4), a head blow
    on a sleeping gladiator (8.4), and the league's end-of-match operations. Every die is scripted: none is rolled that the test did not say."""
    league = League(service, rolls, mode="tournament")
    titanos, viking = league.coach("Titanos"), league.coach("Viking")
    league.act(titanos, team_command("Titanos", ["gloves"] * 7))
    league.act(viking, team_command("Viking", ["gloves"] * 7))
    league.act(league.owner, {"type": "bracket"}, 1)
    match_id = service.open_linked(
        league.id,
        titanos,
        {"team_a": league.team("Titanos").id, "team_b": league.team("Viking").id},
        idem_key=key(),
    )
    live = league.state.live[0]
    coach = {A: Viewer("coach", live.coaches[0], "T"), B: Viewer("coach", live.coaches[1], "V")}
    organizer = Viewer("organizer", live.organizer, "Staff")
    ids = {A: league.ids("Titanos"), B: league.ids("Viking")}

    def g(side: str, n: int) -> int:
        return ids[side][n - 1]

    def act(side: str, command: dict[str, Any], *dice: int, who: Viewer | None = None) -> str:
        rolls.push(*dice)
        actor = who or coach[side]
        return service.perform(match_id, actor, command, idem_key=key()).summary.render()

    def state() -> Any:
        return service.load(match_id).state

    def quiet() -> None:  # the current phase ends, nobody doing more
        s = state()
        if s.phase in (1, 2):
            act(s.moving, {"type": "end_phase"})
        else:
            for side in (A, B):
                if state().phase == 3 and state().turn == s.turn:
                    act(side, {"type": "end_phase"})

    # 13.2: bluff cards at will; RAP 3, 1, 1 against 9, 8: Titanos has the ball, hand and token.
    act(A, {"type": "lineup", "gladiators": [g(A, n) for n in (1, 2, 3)], "bluff": 5}, 3, 1, 1)
    act(B, {"type": "lineup", "gladiators": [g(B, n) for n in (1, 2)], "bluff": 5}, 9, 8)
    assert (state().hand, state().token, state().team(A).bluff) == (A, A, 5)

    # Turn 20: B1 takes the ball from A1 in phase 3.
    act(A, {"type": "give_ball", "gladiator": g(A, 1)})
    for n in (1, 2):
        act(A, {"type": "enter", "gladiator": g(A, n)})
    act(A, {"type": "end_phase"})
    for n in (1, 2):
        act(B, {"type": "enter", "gladiator": g(B, n)})
    act(B, {"type": "end_phase"})
    act(B, {"type": "take", "gladiator": g(B, 1)}, 1)
    act(A, {"type": "answer", "yes": False})
    quiet()
    assert (state().turn, state().hand) == (19, B)

    # Turn 19: B1 throws, A1 intercepts with the token (no die).
    act(B, {"type": "throw", "gladiator": g(B, 1), "distance": 5}, 3)
    act(A, {"type": "answer", "yes": True, "gladiator": g(A, 1), "token": True})
    assert state().carrier.id == g(A, 1) and state().token is None
    act(B, {"type": "end_phase"})
    # B2 is blinded by a power; A1, its action spent on the interception, scores next turn.
    act(
        B,
        {"type": "condition", "gladiator": g(B, 2), "condition": "blind", "turns": 5},
        who=organizer,
    )
    while state().turn == 19:
        quiet()
    act(A, {"type": "shot", "gladiator": g(A, 1), "distance": 6}, 2)  # turn 18, Titanos' hand
    act(B, {"type": "answer", "yes": False})
    s = state()
    assert (s.team(A).score, s.turn, s.phase, s.hand, s.token) == (6, 18, 1, B, B)
    assert not s.fighter(g(B, 2)).conditions  # 3.3: back from its side-line zone, normally

    # Still turn 18: Viking's two are expelled (1D5+5: 10 turns, back at phase 1 of turn 8);
    # nobody takes the ball: it goes on Viking's basket square, Titanos picks it up.
    for n in (1, 2):
        act(B, {"type": "expel", "gladiator": g(B, n)}, 10, who=organizer)
    assert "case de son panier" in act(B, {"type": "end_phase"})
    act(A, {"type": "enter", "gladiator": g(A, 2)})
    act(A, {"type": "pick", "gladiator": g(A, 2)})
    quiet()  # phase 3: nobody else acts
    said = act(A, {"type": "shot", "gladiator": g(A, 2), "distance": 6}, 2)  # turn 17
    assert "personne pour prendre le ballon" in said  # 3.4: Viking has only expelled gladiators
    s = state()
    assert (s.team(A).score, s.ball, s.turn, s.hand) == (12, "basket", 17, B)
    act(B, {"type": "end_phase"})  # nothing to give: the phase ends (no deadlock)
    act(A, {"type": "enter", "gladiator": g(A, 3)})  # Titanos keeps someone on the field
    while state().turn > 9 or state().phase != 3:
        quiet()
    rolls.push(1, 1, 1, 2)  # the re-entry squares of B1 and B2 (1D2, 1D10 each)
    quiet()
    s = state()
    assert s.turn == 8 and {s.fighter(g(B, n)).where for n in (1, 2)} == {"zt"}

    # Turn 8: B1 enters and falls asleep (a power); A1 and A3 strike its head together (8.4).
    for side in (s.moving, B if s.moving == A else A):  # each team's movement phase
        for n in (1, 2) if side == B else (1,):
            act(side, {"type": "enter", "gladiator": g(side, n)})
        quiet()
    act(
        B,
        {"type": "condition", "gladiator": g(B, 1), "condition": "asleep", "turns": 3},
        who=organizer,
    )
    due = service.load(match_id).kind.view(state(), coach[A], service.clock.now())["due"]
    if due and due["side"] == B:
        act(B, {"type": "act", "gladiator": due["id"], "action": "pass"})
    act(A, {"type": "act", "gladiator": g(A, 1), "action": "wait"})
    blow = {"type": "attack", "attackers": [g(A, 1), g(A, 3)], "target": g(B, 1)}
    said = act(A, {**blow, "located": True, "location": "head"}, 6, 3, 5)
    b1 = state().fighter(g(B, 1))
    assert (b1.where, b1.state, b1.location) == ("coma", -12, "head")

    # To the end: B2 stays on the field, nobody scores again.
    while state().stage == "running":
        quiet()
    s = state()
    assert (s.stage, s.turn, s.outcomes) == ("finished", 1, ("won", "lost"))
    assert rolls.values == []  # no die rolled that the test did not say
    record = league.state.matches[-1]
    assert (record.score, record.outcomes) == ((12, 0), ("won", "lost"))
    # 13.2: the winner gets its team back as it came (no risk of death to roll); the league
    # was still told where the coma blow landed.
    assert record.risks == [] and league.state.champion == league.team("Titanos").id
    sent = next(e for e in reversed(service.log(league.id, league.owner)) if e["type"] == "command")
    assert sent["command"]["located"] == {str(g(B, 1)): "head"}


# ---------------------------------------------------------------------------- a second review


def on_the_field(
    m: Match,
    a: list[int],
    b: list[int],
    raps_a: list[int],
    raps_b: list[int],
    stay: tuple[int, ...] = (),
) -> None:
    """Lineups, then each team's gladiators enter in its own movement phase (but Titanos' `stay`):
    phase 3 of turn 20. The team with the lower total RAP has the ball: its first holds it."""
    start(m, a, b, raps_a, raps_b)
    for _ in range(2):
        side = m.state.moving
        if m.state.ball == f"zt:{side}":
            m.act(side, {"type": "give_ball", "gladiator": m.g(side, (a if side == A else b)[0])})
        for n in a if side == A else b:
            if side == A or n not in stay:
                m.act(side, {"type": "enter", "gladiator": m.g(side, n)})
        m.act(side, {"type": "end_phase"})
    assert m.state.phase == 3


def test_a_lineup_is_given_once(match: Match) -> None:
    """3.2: the coaches "annoncent en secret à l'arbitre le nombre de gladiateurs", then "On tire
    la rapidité": a second lineup would keep the best of the RAP rolled."""
    m = match
    m.act(A, {"type": "lineup", "gladiators": m.ids[A][:3], "bluff": 1}, 1, 2, 10)
    m.fails(A, {"type": "lineup", "gladiators": [m.g(A, 3)], "bluff": 1}, RuleError)


def test_a_blind_gladiators_shot_needs_the_1_on_the_second_die(match: Match) -> None:
    """TABLE 9.F, "Tir dans un panier que vous ne voyez pas": "Si jet réussi, faire 1 sur 1D10 :
    le ballon rentre dans le panier, sinon il est posé sur la case du panier"."""
    m = match
    start(m, [1], [1], [3], [5])
    m.act(A, {"type": "give_ball", "gladiator": m.g(A, 1)})
    m.act(A, {"type": "enter", "gladiator": m.g(A, 1)})
    staff(m, {"type": "condition", "gladiator": m.g(A, 1), "condition": "blind", "turns": 3})
    # BAL 4 / 2 = 2 from 2 squares: 1 succeeds, then 7 on the second die: on the basket square.
    said = m.act(A, {"type": "shot", "gladiator": m.g(A, 1), "distance": 2}, 1, 7)
    assert m.state.ball == "basket" and m.state.team(A).score == 0, said


def test_a_group_attack_when_only_one_team_acts(match: Match) -> None:
    """3.3: "Si une seule des deux équipes a des actions à faire, on néglige cette règle sur la
    RAP": a group attack does not wait for its slowest member then."""
    m = match
    on_the_field(m, [1, 2], [1], [9, 8], [2])
    m.act(B, {"type": "end_phase"})  # Titanos does nothing more this phase
    staff(m, {"type": "condition", "gladiator": m.g(B, 1), "condition": "asleep", "turns": 2})
    m.act(A, {"type": "attack", "attackers": [m.g(A, 2), m.g(A, 1)], "target": m.g(B, 1)}, 9, 1, 1)


def test_a_resistance_in_the_other_teams_movement_phase_and_with_the_token(match: Match) -> None:
    """TABLE 10, HORS PHASE: "Si, pour résister à un pouvoir ne coûtant pas d'action, la cible
    visée doit faire un jet de résistance coûtant 1 action, ce sera fait immédiatement"; 3.2: the
    token "peut être utilisé pour n'importe quelle action"."""
    m = match
    on_the_field(m, [1], [1, 2], [3], [9, 8])  # Nabos has the ball and the hand
    m.end_phase()
    assert (m.state.turn, m.state.phase, m.state.moving) == (19, 1, B)
    resist = {"type": "check", "characteristic": "POU", "action": True, "resist": True}
    m.act(A, {**resist, "gladiator": m.g(A, 1), "token": True})  # Titanos moves: still at once
    assert m.state.token is None and m.fighter(A, 1).acted
    m.fails(A, {**resist, "gladiator": m.g(A, 1)}, RuleError)  # its action is spent


def test_a_gift_point_lapses_when_the_team_is_no_longer_badly_wounded(match: Match) -> None:
    """3.4: "Le don d'un point n'est validé qu'à la fin de la PHASE 3": a team that left case IV
    by then (a gladiator able to enter again) gives nothing."""
    m = match
    on_the_field(m, [1], [1, 2, 3], [1], [9, 8, 7], stay=(3,))
    # Titanos' no. 3 is kept in its side-line zone by a power; its two others badly wounded.
    staff(m, {"type": "condition", "gladiator": m.g(B, 3), "condition": "held", "turns": 1})
    for n in (1, 2):
        staff(m, {"type": "hurt", "gladiator": m.g(B, n), "points": 12, "wound_points": True})
    assert (m.state.team(B).case, m.state.gift) == ("IV", B)
    # Before the end of phase 3 the power ends: no. 3 may enter again (case II).
    staff(m, {"type": "condition", "gladiator": m.g(B, 3), "condition": "held", "clear": True})
    assert m.state.team(B).case == "II"
    m.end_phase()
    s = m.state
    assert (s.team(A).score, s.gift, s.turn) == (0, None, 19)


def test_attacking_across_the_side_line_and_the_impossible_blow(match: Match) -> None:
    """TABLE 6: "Combattre ou d'utiliser des pouvoirs sur la ou les ZT, tout en étant sur le
    terrain"; 6.3: "Si un gladiateur fait une erreur qui ne peut pas être commise. On annule"."""
    m = match
    on_the_field(m, [1, 2], [1, 3], [9, 8], [2, 1], stay=(3,))
    # A2 is not due (A1, 9, is): its blow cannot be given, it is cancelled, not punished.
    staff(m, {"type": "condition", "gladiator": m.g(A, 2), "condition": "on_ground"})
    m.fails(A, {"type": "attack", "attackers": [m.g(A, 2)], "target": m.g(B, 1)}, RuleError)
    assert m.fighter(A, 2).where == "field"
    # A1 hits Titanos' no. 3 in its side-line zone: expelled.
    said = m.act(A, {"type": "attack", "attackers": [m.g(A, 1)], "target": m.g(B, 3)}, 10)
    assert m.fighter(A, 1).where == "expelled", said


def test_an_armed_power_ends_when_its_bearer_leaves(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """4.2: "Pour qu'un pouvoir fonctionne, son lanceur doit être sur le terrain"."""
    m = Powers(service, rolls)
    a1, b1 = m.ids[A][0], m.ids[B][0]
    m.act(A, {"type": "lineup", "gladiators": [a1]}, 9)
    m.act(B, {"type": "lineup", "gladiators": [b1]}, 2)
    m.act(B, {"type": "give_ball", "gladiator": b1})
    m.act(B, {"type": "enter", "gladiator": b1})
    m.act(B, {"type": "end_phase"})
    m.act(A, {"type": "enter", "gladiator": a1})
    m.act(A, {"type": "end_phase"})
    m.act(A, {"type": "power", "gladiator": a1, "card": "rayon-laser"}, 2)
    assert m.state.armed and m.view(B)["teams"]["A"]["fighters"][0]["cards_down"] == 1
    m.service.perform(
        m.id,
        Viewer("coach", m.coach[B].person_id, "T"),
        {"type": "hurt", "gladiator": a1, "points": 12, "wound_points": True},
        idem_key=key(),
    )
    # B's coach's wound points on A's gladiator: a proposal A's coach accepts (issue 34).
    proposal = (m.service.load(m.id).game.proposals or [])[0]["id"]
    m.service.answer(m.id, m.coach[A], proposal, accept=True, idem_key=key())
    assert m.state.armed == [] and m.state.fighter(a1).where == "bg"


def test_a_power_s_state_outlasts_a_reset_or_an_exit_only_when_its_card_says_so(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """3.4 « le gladiateur repart de sa ZT normalement, sauf contre-indication du pouvoir »; 3.3
    « est expulsé [...] n'est plus affecté par le pouvoir sauf contre-indication de ce dernier »
    (issue 33, item 5): a card may say what it outlasts (`survives`); its states and its being
    active then outlast that, and nothing else does."""
    from datetime import UTC, datetime

    from server.games.killpower.match.kind import KILLPOWER_MATCH
    from server.games.killpower.match.play import Play
    from server.platform.dice import CommandDice
    from server.platform.kinds import Context

    rolls.endless = True
    m = Match(service, rolls)
    for side in (A, B):
        m.act(side, {"type": "lineup", "gladiators": m.ids[side][:2], "bluff": 1})
    for _ in range(2):  # each team's first gladiator on the field, in its movement phase
        moving = m.state.moving
        if m.state.ball == f"zt:{moving}":
            m.act(moving, {"type": "give_ball", "gladiator": m.g(moving, 2)})
        m.act(moving, {"type": "enter", "gladiator": m.g(moving, 1)})
        m.act(moving, {"type": "end_phase"})
    state = m.state
    state.cards["sommeil"] = state.cards["sommeil"].model_copy(
        update={"survives": ["reset", "expulsion"]}
    )
    ctx = Context(m.organizer, CommandDice(ScriptedRolls.cycle(), {}), datetime.now(UTC))
    b1, a1 = m.g(B, 1), m.g(A, 1)

    def put(gladiator: int, condition: str, card: str | None) -> None:
        nonlocal state
        command = {"type": "condition", "gladiator": gladiator, "condition": condition}
        if card:
            command["card"] = card
        state = KILLPOWER_MATCH.apply(state, KILLPOWER_MATCH.parse(command), ctx).state

    put(b1, "asleep", "sommeil")  # a card that says it outlasts a reset and an expulsion
    put(b1, "blind", "peur")  # a card that says nothing
    put(a1, "immobile", None)  # no card at all
    play = Play(state, ctx, None)
    play.reset(A, B)
    assert set(state.fighter(b1).conditions) == {"asleep"}
    assert state.fighter(a1).conditions == {}
    # An expulsion: the same card's state outlasts it; a bluff puts no state.
    play.expel(state.fighter(b1), "table6")
    assert set(state.fighter(b1).conditions) == {"asleep"}
    with pytest.raises(RuleError):
        put(a1, "blind", "bluff")
