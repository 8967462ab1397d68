"""Killpower Ball between matches: the rule book's tables as pure functions.

Rule book: `../shared/seeds/003_a6efabbd0265c321.txt`. Chapter and table numbers are cited where a
rule is written: 2 (team creation), 2.2 and TABLE 2 (power and division), 3.2 and TABLE 3 (points to
score), 3.4 (end-of-match operations and ranking points), 9.2 and TABLE 8 (risk of death), 12
(experience), 13 (championship and tournament), TABLE 11 (characteristics and specializations).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from server.errors import RuleError
from server.i18n import N_, P_, Msg
from server.platform.dice import Dice

Characteristic = Literal["DEP", "PHY", "HAB", "POU", "BAL", "VIE"]
Specialization = Literal["archer", "defender", "warrior", "mentor", "shooter"]
Equipment = Literal["gloves", "armour", "powers"]
Verdict = Literal["won", "lost", "drawn", "abandoned"]
Fate = Literal["badly_wounded", "coma", "dead"]
OUTCOME_TITLES = {  # nouns: "Nabos: victory" reads right whatever the team's name
    "won": N_("victory"),
    "lost": N_("defeat"),
    "drawn": N_("draw"),
    "abandoned": N_("surrender"),
}

CHARACTERISTICS: tuple[Characteristic, ...] = ("DEP", "PHY", "HAB", "POU", "BAL", "VIE")
# TABLE 11: a human's characteristics and the race maxima (specialization bonus included, 12).
HUMAN: dict[Characteristic, int] = {"DEP": 5, "PHY": 4, "HAB": 4, "POU": 4, "BAL": 4, "VIE": 4}
RACE_MAXIMA: dict[Characteristic, int] = {
    "DEP": 5,
    "PHY": 20,
    "HAB": 20,
    "POU": 20,
    "BAL": 20,
    "VIE": 15,
}
HUMAN_RACE_POWER = 0  # "Un humain rajoute 0 à la puissance de son équipe."
# TABLE 11, SPECIALISATION: +1 to one characteristic.
SPECIALIZATIONS: dict[Specialization, Characteristic] = {
    "archer": "HAB",
    "defender": "VIE",
    "warrior": "PHY",
    "mentor": "POU",
    "shooter": "BAL",
}
IMPROVABLE: tuple[Characteristic, ...] = ("PHY", "HAB", "POU", "BAL", "VIE")  # 12
TEAM_SIZE = 7  # 3.4: "Une équipe doit comporter 7 gladiateurs obligatoirement"
NORMAL_ARMOUR = 1  # 2.1, EQUIPEMENT NORMAL
MAGIC_ARMOUR_BASE = 6  # 2.1: magic armour is 1D5+6, rolled once and for good
POWERS_PER_GLADIATOR = 2  # 2.1: "Deux cartes pouvoir magique"
EXP_PER_MATCH = 5  # 12: "après un match joué, un gladiateur gagne 5 points d'expérience"
EXP_PER_INCREASE = 10  # 12: "Avec 10 points d'expérience ... augmenter d'1 point"
SAME_POWER_PER_TEAM = 3  # 13.2: "Vous ne pouvez avoir que 3 fois le même pouvoir."
WIN_POINTS, LOSS_POINTS = 3, -2  # 3.4: "Elle remporte 3 points", "perd 2 points"
FREE_THROW_RANGE = (2, 12)  # 13.2, LANCERS FRANCS


def starting_characteristics(specialization: Specialization) -> dict[Characteristic, int]:
    """2.1: a human's characteristics with the specialization's +1 (Tom the Tireur: BAL 5)."""
    values = dict(HUMAN)
    values[SPECIALIZATIONS[specialization]] += 1
    return values


def tenth_rounded(value: int) -> int:
    """TABLE 2: a value divided by 10, .1 to .4 rounded down, .5 to .9 rounded up."""
    quotient, rest = divmod(value, 10)
    return quotient + (1 if rest >= 5 else 0)


@dataclass(frozen=True)
class Power:
    """TABLE 2, with how it was computed: ranking points + total EXP / 10 + race."""

    ranking: int
    exp: int
    exp_part: int
    race: int
    power: int
    division: int

    def explain(self) -> Msg:
        return Msg(
            N_(
                "power {power} = {ranking} ranking points + {exp} EXP / 10 (rounded: {exp_part})"
                " + {race} for the race; division {power} / 10 rounded = {division}"
            ),
            {
                "power": self.power,
                "ranking": self.ranking,
                "exp": self.exp,
                "exp_part": self.exp_part,
                "race": self.race,
                "division": self.division,
            },
        )


def team_power(ranking: int, exps: Iterable[int], race: int = HUMAN_RACE_POWER) -> Power:
    """2.2 and TABLE 2, counting only the gladiators who play (3.2, COMPOSITION DE L'EQUIPE)."""
    exp = sum(exps)
    exp_part = tenth_rounded(exp)
    power = ranking + exp_part + race
    return Power(ranking, exp, exp_part, race, power, tenth_rounded(power))


def points_to_score(difference: int) -> tuple[int, int]:
    """TABLE 3: what the stronger and the weaker team must score above the other, by the
    difference of power (Nabos 46 against Titanos 33: 3 and 1). Arbitre reads the table's
    "Faible" column as printed, 3, 2, 2 then 1 from a difference of 55 on."""
    difference = abs(difference)
    if difference >= 100:
        return 25, 1
    band = difference // 5
    weaker = 1
    if 55 <= difference <= 59:
        weaker = 3
    elif 60 <= difference <= 69:
        weaker = 2
    return band + 1, weaker


def targets(power_a: int, power_b: int) -> tuple[int, int]:
    """Each team's margin to win, from the two powers (3.2, POINTS A MARQUER)."""
    stronger, weaker = points_to_score(power_a - power_b)
    if power_a == power_b:
        return stronger, stronger
    return (stronger, weaker) if power_a > power_b else (weaker, stronger)


def result_of(
    score: tuple[int, int],
    margins: tuple[int, int],
    surrendered: Literal["", "A", "B"] = "",
    eliminated: Literal["", "A", "B"] = "",
) -> tuple[Verdict, Verdict]:
    """3.4, ABANDON, NUL OU VICTOIRE: surrender and elimination (TABLE 7, case VI) decide first;
    otherwise a team wins by scoring its margin above the other, and if neither did it is a draw."""
    if surrendered:
        return ("abandoned", "won") if surrendered == "A" else ("won", "abandoned")
    if eliminated:
        return ("lost", "won") if eliminated == "A" else ("won", "lost")
    a, b = score
    if a - b >= margins[0]:
        return "won", "lost"
    if b - a >= margins[1]:
        return "lost", "won"
    return "drawn", "drawn"


def ranking_change(
    outcome: Verdict, division: int, other_division: int, draw: int, surrender: int
) -> int:
    """3.4, OPERATIONS DE FIN DE MATCH: a win +3, and +1 per division of difference when the
    loser's division is higher; a loss -2; a draw and a surrender by the league's settings."""
    if outcome == "won":
        return WIN_POINTS + max(0, other_division - division)
    if outcome == "lost":
        return LOSS_POINTS
    if outcome == "drawn":
        return draw
    return surrender


def new_ranking(points: int, change: int, championship: bool) -> int:
    """13.1 and 3.4: "une équipe a au minimum 0 point de classement" in a championship."""
    return max(0, points + change) if championship else points + change


def d5(dice: Dice, purpose: str, *, owner: str | None = None, secret: bool = False) -> int:
    """1.1, LE DÉ DANS LE JEU: "1D5 : Lancez le dé à 10 faces et divisez par 2", rounded up ("Sur
    3 ou 4 sur le dé, cela veut dire que vous avez fait 2"): the d10 is what is rolled and, with
    physical dice, entered, everywhere a 1D5 is asked (armour, expulsions)."""
    return -(-dice.roll(10, purpose, owner=owner, secret=secret) // 2)


def d2(dice: Dice, purpose: str) -> int:
    """1D2 with the game's only die (1.1: "utilisez le dé à 10 faces"): the d10 divided by 5,
    rounded up as 1D5 is (1 to 5 give 1, 6 to 10 give 2); the d10 is what is entered."""
    return -(-dice.roll(10, purpose) // 5)


Location = Literal["head", "trunk", "left_arm", "right_arm", "left_leg", "right_leg"]
LOCATION_TITLES = {
    "head": N_("head"),
    "trunk": N_("trunk"),
    "left_arm": N_("left arm"),
    "right_arm": N_("right arm"),
    "left_leg": N_("left leg"),
    "right_leg": N_("right leg"),
}


def location(die: int) -> str:
    """TABLE 8, LOCALISATION: 1 head, 2-4 trunk, 5-6 left arm, 7-8 right arm, 9 left leg,
    10 right leg."""
    if not 1 <= die <= 10:
        raise RuleError(N_("A location die goes from 1 to 10."), field="die")
    if die == 1:
        return "head"
    if die <= 4:
        return "trunk"
    if die <= 6:
        return "left_arm"
    if die <= 8:
        return "right_arm"
    return "left_leg" if die == 9 else "right_leg"


def fate(die: int, state: int) -> Fate:
    """TABLE 8 and 9.2: where the blow is located and how low the gladiator fell decide. -1 to -10:
    badly wounded; -11 to -15: dead if the head was hit, coma otherwise; -16 or less: dead."""
    return fate_at(location(die), state)


def fate_at(where: str, state: int) -> Fate:
    """TABLE 8 at a location already known: rolled, or chosen by a blow on an inert target
    ("Jetez 1D10 pour localiser [...] sauf si vous avez localisé", 8.4)."""
    if state >= 0:
        raise RuleError(N_("Only a negative state is a wound."), field="state")
    if state >= -10:
        return "badly_wounded"
    if state >= -15:
        return "dead" if where == "head" else "coma"
    return "dead"


def check_increase(characteristic: str, value: int, exp: int, increases: int) -> None:
    """12: +1 per 10 EXP (used EXP is never erased), PHY HAB POU BAL VIE only, within the race
    maxima."""
    if characteristic not in IMPROVABLE:
        raise RuleError(
            N_("Experience raises PHY, HAB, POU, BAL or VIE only."), field="characteristic"
        )
    if exp // EXP_PER_INCREASE <= increases:
        raise RuleError.counted(
            P_(
                "{exp} EXP allow {allowed} increase, taken: 10 more EXP are needed.",
                "{exp} EXP allow {allowed} increases, all taken: 10 more EXP are needed.",
            ),
            "allowed",
            field="characteristic",
            exp=exp,
            allowed=exp // EXP_PER_INCREASE,
        )
    maximum = RACE_MAXIMA[characteristic]
    if value + 1 > maximum:
        raise RuleError(
            N_("{characteristic} is already at the race maximum ({maximum})."),
            field="characteristic",
            characteristic=characteristic,
            maximum=maximum,
        )


def check_tournament_powers(
    choices: list[list[str]], names: Mapping[str, str] | None = None
) -> None:
    """13.2: a team holds the same power 3 times at most, and never twice on one gladiator.
    `names`: the cards' names by key, to say which."""
    for powers in choices:
        if len(set(powers)) != len(powers):
            raise RuleError(N_("One gladiator cannot hold the same power twice."), field="powers")
    counts = Counter(p for powers in choices for p in powers)
    for power, count in counts.items():
        if count > SAME_POWER_PER_TEAM:
            raise RuleError(
                N_("The power “{power}” is chosen {count} times: 3 at most per team."),
                field="powers",
                power=(names or {}).get(power, power),
                count=count,
            )


def free_throw_winner(
    score: tuple[int, int], throws_a: list[int], throws_b: list[int]
) -> Literal["A", "B", ""]:
    """13.2, LANCERS FRANCS: the match score plus the baskets of the free throws; "" when still
    tied (two new tries with the same gladiators). Titanos 0 + 0 + 12 against Viking 0 + 2 + 11:
    Viking wins 13 to 12."""
    for value in (*throws_a, *throws_b):
        low, high = FREE_THROW_RANGE
        if value and not low <= value <= high:
            raise RuleError(N_("A free throw is taken from 2 to 12 squares."), field="throws")
    a, b = score[0] + sum(throws_a), score[1] + sum(throws_b)
    return "A" if a > b else "B" if b > a else ""


# ---------------------------------------------------------------------------- the journal's dice

# The purposes the match and the league give their dice ("RAP of Nab1", "attack on Tit2"), as
# the journal page says them in the reader's language.
_ROLL_WHAT = {
    "RAP": N_("RAP"),
    "activation": N_("activation"),
    "blind basket": N_("blind basket"),
    "free throw": N_("free throw"),
    "gloves": N_("gloves"),
    "re-entry square": N_("re-entry square"),
    "re-entry row": N_("re-entry row"),
    "resistance": N_("resistance"),
    "magic armour": N_("magic armour"),
    "power card": N_("power card"),
    "risk of death": N_("risk of death"),
    "risk of death again": N_("risk of death rolled again"),
    "power damage": N_("a power's damage"),
    "expulsion": N_("expulsion"),
    "shot": N_("shot"),
    "take": N_("taking the ball"),
    "throw": N_("throw"),
    "resist": N_("keeping the ball"),
    "evade": N_("evasion"),
    "interception": N_("interception"),
    **{c: c for c in ("DEP", "PHY", "HAB", "POU", "BAL", "VIE")},
}
_ROLL_PLAIN = {
    "who places first": N_("who places first"),
    "bracket draw": N_("bracket draw"),
    "direction (TABLE 4)": N_("direction (TABLE 4)"),
}


def roll_label(purpose: str) -> Msg | str:
    if purpose in _ROLL_PLAIN:
        return Msg(_ROLL_PLAIN[purpose])
    if purpose.startswith("attack on "):
        return Msg(N_("attack on {name}"), {"name": purpose.removeprefix("attack on ")})
    for what, title in _ROLL_WHAT.items():
        for joint in (" of ", " for "):
            if purpose.startswith(what + joint):
                name = purpose.removeprefix(what + joint)
                return Msg(N_("{what} of {name}"), {"what": Msg(title), "name": name})
    return purpose
