"""Killpower Ball between matches: the rule book's tables and worked examples."""

from __future__ import annotations

import pytest

from server.errors import RuleError
from server.games.killpower import rules


# ---------------------------------------------------------------- TABLE 11 and 2.1
@pytest.mark.parametrize(
    ("specialization", "raised"),
    [
        ("archer", "HAB"),
        ("defender", "VIE"),
        ("warrior", "PHY"),
        ("mentor", "POU"),
        ("shooter", "BAL"),
    ],
)
def test_table_11_specializations(specialization: rules.Specialization, raised: str) -> None:
    values = rules.starting_characteristics(specialization)
    expected = {"DEP": 5, "PHY": 4, "HAB": 4, "POU": 4, "BAL": 4, "VIE": 4}
    expected[raised] += 1
    assert values == expected


def test_tom_the_shooter_has_ball_5_and_armour_9() -> None:
    # 2.1: "Je jette 1D5 et j'obtiens 3. Il a donc une armure de 9 ... +1 en Ballon, soit 5."
    assert rules.MAGIC_ARMOUR_BASE + 3 == 9
    assert rules.starting_characteristics("shooter")["BAL"] == 5


# ---------------------------------------------------------------- TABLE 2
@pytest.mark.parametrize(
    ("value", "rounded"),
    [(0, 0), (4, 0), (5, 1), (9, 1), (10, 1), (11, 1), (14, 1), (15, 2), (19, 2), (46, 5), (33, 3)],
)
def test_table_2_rounding(value: int, rounded: int) -> None:
    assert rules.tenth_rounded(value) == rounded


def test_table_2_power_and_division_with_how_they_were_computed() -> None:
    power = rules.team_power(ranking=12, exps=[10, 10, 5, 5, 5, 0, 0])  # 35 EXP: 3.5 -> 4
    assert (power.exp, power.exp_part, power.power, power.division) == (35, 4, 16, 2)
    assert "16" in power.explain().render() and "35" in power.explain().render()
    assert rules.team_power(0, [0] * 7).power == 0  # "Une équipe qui débute a une puissance de 0"


# ---------------------------------------------------------------- TABLE 3
@pytest.mark.parametrize(
    ("difference", "stronger", "weaker"),
    [
        (0, 1, 1),
        (4, 1, 1),
        (5, 2, 1),
        (13, 3, 1),  # Nabos 46 against Titanos 33
        (19, 4, 1),
        (20, 5, 1),
        (49, 10, 1),
        (50, 11, 1),
        (54, 11, 1),
        (55, 12, 3),
        (59, 12, 3),
        (60, 13, 2),
        (69, 14, 2),
        (70, 15, 1),
        (95, 20, 1),
        (99, 20, 1),
        (100, 25, 1),
        (250, 25, 1),
    ],
)
def test_table_3_every_band(difference: int, stronger: int, weaker: int) -> None:
    assert rules.points_to_score(difference) == (stronger, weaker)
    assert rules.points_to_score(-difference) == (stronger, weaker)


def test_nabos_must_win_by_3_and_titanos_by_1() -> None:
    assert rules.targets(46, 33) == (3, 1)
    assert rules.targets(33, 46) == (1, 3)
    assert rules.targets(0, 0) == (1, 1)  # "un point de plus que l'autre"


# ---------------------------------------------------------------- 3.4 results and ranking
@pytest.mark.parametrize(
    ("score", "margins", "surrendered", "eliminated", "outcomes"),
    [
        ((0, 2), (1, 3), "", "", ("drawn", "drawn")),  # the rule book's draw example
        ((3, 0), (3, 1), "", "", ("won", "lost")),
        ((2, 0), (3, 1), "", "", ("drawn", "drawn")),
        ((0, 1), (3, 1), "", "", ("lost", "won")),
        ((0, 0), (1, 1), "", "", ("drawn", "drawn")),
        ((5, 0), (1, 1), "A", "", ("abandoned", "won")),
        ((5, 0), (1, 1), "", "A", ("lost", "won")),
        ((0, 5), (1, 1), "B", "", ("won", "abandoned")),
    ],
)
def test_the_end_of_a_match(
    score: tuple[int, int],
    margins: tuple[int, int],
    surrendered: str,
    eliminated: str,
    outcomes: tuple[str, str],
) -> None:
    assert rules.result_of(score, margins, surrendered, eliminated) == outcomes  # type: ignore[arg-type]


def test_team_a_15_to_19_and_team_b_20_to_18() -> None:
    # 3.4: A (power 12, division 1) beats B (power 19, division 2).
    a_div, b_div = rules.tenth_rounded(12), rules.tenth_rounded(19)
    assert (a_div, b_div) == (1, 2)
    a = rules.new_ranking(15, rules.ranking_change("won", a_div, b_div, 1, -3), True)
    b = rules.new_ranking(20, rules.ranking_change("lost", b_div, a_div, 1, -3), True)
    assert (a, b) == (19, 18)


@pytest.mark.parametrize(
    ("outcome", "division", "other", "change"),
    [
        ("won", 3, 1, 3),  # no bonus for beating a lower division
        ("won", 1, 4, 6),
        ("lost", 4, 1, -2),
        ("drawn", 1, 1, 1),
        ("abandoned", 1, 1, -3),
    ],
)
def test_ranking_changes(outcome: rules.Verdict, division: int, other: int, change: int) -> None:
    assert rules.ranking_change(outcome, division, other, draw=1, surrender=-3) == change


def test_never_below_zero_in_a_championship() -> None:
    assert rules.new_ranking(1, -2, championship=True) == 0
    assert rules.new_ranking(1, -2, championship=False) == -1


# ---------------------------------------------------------------- TABLE 8 and 9.2
@pytest.mark.parametrize(
    ("die", "where"),
    [
        (1, "head"),
        (2, "trunk"),
        (4, "trunk"),
        (5, "left_arm"),
        (6, "left_arm"),
        (7, "right_arm"),
        (8, "right_arm"),
        (9, "left_leg"),
        (10, "right_leg"),
    ],
)
def test_table_8_locations(die: int, where: str) -> None:
    assert rules.location(die) == where


@pytest.mark.parametrize(
    ("die", "state", "fate"),
    [
        (1, -1, "badly_wounded"),
        (1, -10, "badly_wounded"),
        (1, -11, "dead"),
        (1, -15, "dead"),
        (1, -16, "dead"),
        (3, -10, "badly_wounded"),
        (3, -11, "coma"),
        (3, -15, "coma"),
        (3, -16, "dead"),
        (6, -13, "coma"),
        (8, -40, "dead"),
        (9, -11, "coma"),  # Tom at -11, a limb: "Tom est juste dans le coma"
        (10, -15, "coma"),
    ],
)
def test_table_8_every_location_and_state(die: int, state: int, fate: str) -> None:
    assert rules.fate(die, state) == fate


@pytest.mark.parametrize(("die", "state"), [(0, -12), (11, -12), (3, 0)])
def test_table_8_refuses_what_is_not_a_wound(die: int, state: int) -> None:
    with pytest.raises(RuleError):
        rules.fate(die, state)


# ---------------------------------------------------------------- 12 experience
@pytest.mark.parametrize(
    ("characteristic", "value", "exp", "increases", "message"),
    [
        ("PHY", 4, 10, 0, None),
        ("PHY", 4, 20, 1, None),
        ("PHY", 4, 5, 0, "10 more EXP"),  # 5 EXP: nothing yet
        ("PHY", 4, 10, 1, "10 more EXP"),  # used EXP is never erased, but counted
        ("VIE", 15, 30, 0, "maximum"),
        ("BAL", 20, 30, 0, "maximum"),
        ("DEP", 5, 30, 0, "PHY, HAB"),
    ],
)
def test_increases(
    characteristic: str, value: int, exp: int, increases: int, message: str | None
) -> None:
    if message is None:
        rules.check_increase(characteristic, value, exp, increases)
        return
    with pytest.raises(RuleError) as refused:
        rules.check_increase(characteristic, value, exp, increases)
    assert message in refused.value.msg.text  # the message id, in English


# ---------------------------------------------------------------- 13.2 tournament
def test_tournament_powers() -> None:
    rules.check_tournament_powers([["a", "b"], ["a", "c"], ["a", "d"]])
    with pytest.raises(RuleError, match="3"):
        rules.check_tournament_powers([["a", "b"], ["a", "c"], ["a", "d"], ["a", "e"]])
    with pytest.raises(RuleError):
        rules.check_tournament_powers([["a", "a"]])


def test_free_throws_viking_wins_13_to_12() -> None:
    # 13.2: Titanos misses at 10 and scores at 12; Viking scores at 2 and 11.
    assert rules.free_throw_winner((0, 0), [0, 12], [2, 11]) == "B"
    assert rules.free_throw_winner((0, 0), [2, 2], [2, 2]) == ""
    with pytest.raises(RuleError):
        rules.free_throw_winner((0, 0), [13], [2])
