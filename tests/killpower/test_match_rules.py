"""The match's rolls and tables (chapters 3 to 9, TABLES 1, 3, 4, 7, 9), with scripted dice and
the rule book's own examples."""

from __future__ import annotations

import pytest

from server.errors import RuleError
from server.games.killpower import match_rules as mr
from server.platform.dice import CommandDice, ScriptedRolls


def dice(*values: int) -> CommandDice:
    return CommandDice(ScriptedRolls(values))


@pytest.mark.parametrize(
    ("die", "value", "ok"),
    [(1, 0, True), (1, -3, True), (10, 12, False), (4, 4, True), (5, 4, False), (9, 9, True)],
)
def test_a_roll_under_a_characteristic(die: int, value: int, ok: bool) -> None:
    # 1 always succeeds, 10 always fails, otherwise at or under the value.
    assert mr.succeeds(die, value) is ok


@pytest.mark.parametrize(
    ("distance", "malus"),
    [
        (0, 0),
        (3, 0),
        (4, 1),
        (6, 1),
        (7, 2),
        (9, 2),
        (10, 3),
        (12, 3),
        (13, 4),
        (15, 4),
        (16, 5),
        (18, 5),
        (19, 6),
        (21, 6),
        (22, 7),
        (24, 7),
        (25, 8),
        (30, 8),
    ],
)
def test_table_9h_the_ball_malus(distance: int, malus: int) -> None:
    assert mr.ball_malus(distance) == malus


def test_table_9_what_each_ball_action_needs() -> None:
    # 9.A: BAL + concentration (at most +4) - malus; 9.B: BAL + 5 - malus; 9.F: BAL / 2 - malus.
    assert mr.shot_needed(5, 6) == 4
    assert mr.shot_needed(5, 6, concentration=6) == 8
    assert mr.shot_needed(5, 10, blind=True) == 0  # BAL 5 / 2 = 3 (rounded up), - 3
    assert mr.throw_needed(4, 5) == 8
    assert mr.throw_needed(7, 12, blind=True) == 1  # BAL 7 / 2 = 4, - 3
    with pytest.raises(RuleError):
        mr.ball_malus(-1)


@pytest.mark.parametrize(
    ("distance", "near", "token", "points"),
    [
        (6, False, False, 6),
        (1, True, False, 1),
        (9, True, False, 1),
        (8, False, True, 2),
        (3, False, True, 3),
    ],
)
def test_basket_values(distance: int, near: bool, token: bool, points: int) -> None:
    # 7: the distance; 1 from the basket's reach; the token makes a long shot worth 2 (3.2).
    assert mr.basket_value(distance, near=near, token=token) == points


@pytest.mark.parametrize(
    ("value", "by", "result"),
    [
        (3, 2, 2),  # 1.1: "Sur 3 ou 4 sur le dé, cela veut dire que vous avez fait 2."
        (4, 2, 2),
        (5, 2, 3),  # HAB 5 in two action zones: 3
        (4, 3, 2),  # a blind attacker of PHY 4: PHY / 3 = 2
        (9, 3, 3),
        (1, 4, 1),
        (7, 1, 7),
    ],
)
def test_divided_rolls_round_up(value: int, by: int, result: int) -> None:
    # 1.1, LE DÉ DANS LE JEU: "Pour un jet divisé par 2, arrondissez à la valeur supérieure."
    assert mr.divided(value, by) == result


def test_table_4_rolls_again_on_9_and_10() -> None:
    roll = dice(9, 10, 9, 3)
    assert mr.direction(roll) == 3
    assert [r["value"] for r in roll.rolls] == [9, 10, 9, 3]


@pytest.mark.parametrize(
    ("phy", "inert", "located", "blind", "needed"),
    [
        (6, False, False, False, 6),
        (6, True, False, False, 9),
        (6, True, True, False, 7),
        (7, False, False, True, 3),  # PHY 7 / 3 = 3 (rounded up)
    ],
)
def test_what_a_blow_needs(phy: int, inert: bool, located: bool, blind: bool, needed: int) -> None:
    # 8.1 PHY; 8.4 an inert target 9, a chosen location 7; 5.1 a blind attacker PHY / 3.
    assert mr.hit_needed(phy, inert=inert, located=located, blind=blind) == needed


def test_9_1_toms_armour_and_the_group_attack() -> None:
    # Tom, VIE 4 and armour 6, takes 8: 10 - 8 = 2, nothing.
    assert mr.damage_state(4, 6, 8) == 2 and mr.wound(2) == "unhurt"
    # The group attack of three that sends Tom to -11: coma, off for the match.
    assert mr.damage_state(4, 6, 21) == -11 and mr.wound(-11) == "coma"
    assert [mr.wound(s) for s in (0, -1, -10, -11, -30)] == [
        "unhurt",
        "badly_wounded",
        "badly_wounded",
        "coma",
        "coma",
    ]
    # Wound points ignore the armour.
    assert mr.damage_state(4, 6, 8, wound_points=True) == -4


def test_3_3_the_sleeping_gladiator_of_turn_18() -> None:
    # Asleep at phase 3 of turn 18 for 2 turns: awake at the start of phase 3 of turn 16.
    end = mr.timer_end(18, 3, 2)
    assert (end.turn, end.phase) == (16, 3)
    assert not end.reached(17, 3) and not end.reached(16, 1) and not end.reached(16, 2)
    assert end.reached(16, 3) and end.reached(15, 1)
    # Started in a movement phase: ends at the start of the turn; past the end: below 1.
    assert (mr.timer_end(10, 2, 4).turn, mr.timer_end(10, 2, 4).phase) == (6, 1)
    assert mr.timer_end(3, 1, 8).turn < 1


@pytest.mark.parametrize(
    ("offence", "values", "turns"),
    [
        ("table6", (1,), 6),
        ("table6", (10,), 10),
        ("table6", (5,), 8),
        ("basket_zone", (4,), 2),
        ("basket_zone", (9,), 5),
        ("again", (7,), 7),
    ],
)
def test_table_6_expulsion_lengths(
    offence: mr.Offence, values: tuple[int, ...], turns: int
) -> None:
    # 1D5+5 for TABLE 6's offences, 1D5 in one's basket zone, 1D10 with no room; 1D5 = 1D10 / 2.
    assert mr.expulsion_turns(offence, dice(*values), "Tom") == turns


@pytest.mark.parametrize(("d10", "row"), [(1, 1), (5, 1), (6, 2), (10, 2)])
def test_6_2_the_reentry_square(d10: int, row: int) -> None:
    # 6.2: 1D2 and 1D10; 1.1, the game's one die is a d10: 1D2 is the d10 / 5, rounded up.
    assert mr.reentry_square(dice(d10, 7), "Tom") == (row, 7)


S = mr.Standing


@pytest.mark.parametrize(
    ("team", "case"),
    [
        ([S("field"), S("bg")], "I"),
        ([S("zt"), S("expelled")], "II"),
        ([S("zt", involuntary=True), S("expelled"), S("bg")], "III"),
        # The Massacra example: four BG, three risks of death, nobody on the field: case IV.
        ([S("bg")] * 4 + [S("coma")] * 3, "IV"),
        ([S("zt", involuntary=True), S("dead")], "V"),
        ([S("expelled", back_in_time=False), S("coma"), S("dead")], "VI"),
        ([S("zt", involuntary=True, back_in_time=False)], "VI"),
    ],
)
def test_table_7_team_states(team: list[mr.Standing], case: str) -> None:
    assert mr.team_case(team) == case


def test_3_3_phase_3_order() -> None:
    actors = [
        mr.Actor("1", "A", 6),
        mr.Actor("2", "B", 9),
        mr.Actor("3", "B", 6),
        mr.Actor("g:4,5", "A", 3),
    ]
    # By decreasing RAP, ties to the team with the hand; a group at its lowest RAP.
    assert [a.key for a in mr.phase3_order(actors, "B")] == ["2", "3", "1", "g:4,5"]
    assert [a.key for a in mr.phase3_order(actors, "A")] == ["2", "1", "3", "g:4,5"]


@pytest.mark.parametrize(
    ("powers", "exps", "raps", "draw", "expected"),
    [
        # Nabos 46 against Titanos 33: Nabos places first, Titanos has the ball and the hand.
        ((46, 33), (0, 0), (0, 0), (), ("A", "B", "B", "B", "power")),
        ((10, 10), (40, 55), (0, 0), (), ("B", "A", "A", "A", "exp")),
        ((10, 10), (40, 40), (30, 21), (), ("A", "B", "B", "B", "rap")),
        # Everything tied: the ball on H14, a draw (1D2 from the d10: 7 gives 2) says who
        # places first.
        ((10, 10), (40, 40), (30, 30), (7,), ("B", None, "A", "A", "draw")),
    ],
)
def test_3_2_placement_ball_hand_and_token(powers, exps, raps, draw, expected) -> None:  # type: ignore[no-untyped-def]
    k = mr.kickoff(powers, exps, raps, dice(*draw))
    assert (k.first, k.ball, k.hand, k.token, k.reason) == expected


def test_13_2_free_throw_order() -> None:
    # The stronger first, in turn; a team with one living gladiator throws once.
    assert mr.free_throw_order("B", {"A": 2, "B": 2}) == ["B", "A", "B", "A"]
    assert mr.free_throw_order("A", {"A": 2, "B": 1}) == ["A", "B", "A"]


@pytest.mark.parametrize(
    ("powers", "exps", "raps", "draw", "expected"),
    [
        # 13.2: "On donne le ballon à l'équipe la moins puissante".
        ((46, 33), (0, 0), (0, 0), (), ("A", "B", "B", "B", "power")),
        # Same power: no EXP tie-break, "la somme de la rapidité [...] l'équipe qui en a le moins,
        # qui part avec le ballon".
        ((10, 10), (40, 55), (30, 21), (), ("A", "B", "B", "B", "rap")),
        # Tied RAP: "on tire au hasard l'équipe qui commence à se placer en ZT et qui se déplacera
        # la première": the drawn team places first and has the hand.
        ((10, 10), (40, 55), (30, 30), (2,), ("A", None, "A", "B", "draw")),
    ],
)
def test_13_2_a_tournament_kickoff(powers, exps, raps, draw, expected) -> None:  # type: ignore[no-untyped-def]
    kick = mr.kickoff(powers, exps, raps, dice(*draw), tournament=True)
    assert (kick.first, kick.ball, kick.hand, kick.token, kick.reason) == expected
