"""Killpower Ball during a match: the rule book's rolls and tables as pure functions.

Rule book: `../shared/seeds/003_a6efabbd0265c321.txt`, chapters 3 (preparation, turns, team states,
scoring), 5 (states of a gladiator), 6 (expulsion), 7 (the ball), 8 (combat), 9 (wounds), 13.2 (free
throws) and TABLES 1, 3 to 7, 9, 10 and 12. Where the rule book leaves a reading open, the choice is
written next to the rule ("Arbitre's reading").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from server.errors import RuleError
from server.games.killpower import rules
from server.i18n import N_
from server.platform.dice import Dice

Side = Literal["A", "B"]
Where = Literal["zt", "field", "bg", "coma", "dead", "expelled"]
Case = Literal["I", "II", "III", "IV", "V", "VI"]
Wound = Literal["unhurt", "badly_wounded", "coma"]
Offence = Literal["table6", "basket_zone", "again"]

TURNS = 20  # 3.3: "Un match comprend 20 tours", counted down from 20 to 1 on the sheet
MAX_ON_FIELD = 5  # 3.3: "Cinq gladiateurs de la même équipe peuvent être sur le terrain"
MAX_CONCENTRATION = 4  # 7, CONCENTRATION: +1 per turn, at most +4
FORFEIT_TURNS = 5  # TABLE 7, case II: forfeit if nobody enters the field within 5 turns
FREE_THROWS = 2  # 13.2: two living gladiators, one shot each
BLUFF_CARDS = (1, 3)  # 3.2 and 4.4: each coach takes 1 to 3 bluff cards
# 13.2: "Rajoutez autant de cartes bluff que vous le souhaitez": no rule caps them; this is a
# bound of the app (a lineup is a form), said as such when it is passed.
BLUFF_BOUND = 100


def other(side: Side) -> Side:
    return "B" if side == "A" else "A"


# ---------------------------------------------------------------------------- rolls


def succeeds(die: int, value: int) -> bool:
    """A roll under a characteristic: 1D10 at or under the value; 1 always succeeds and 10 always
    fails (the spec's "rolls under a characteristic")."""
    if die == 1:
        return True
    if die == 10:
        return False
    return die <= value


def divided(value: int, by: int) -> int:
    """HAB / 2 in two action zones, BAL / 2 for a blind throw, PHY / 3 when blind, POU / 2 when
    fleeing. 1.1, LE DÉ DANS LE JEU: "Pour un jet divisé par 2, arrondissez à la valeur
    supérieure" (its example: 3 or 4 on the die make 2); the book's one rounding rule, which
    Arbitre extends to every divisor (docs/readings.md): HAB 5 / 2 = 3, PHY 4 / 3 = 2."""
    return -(-value // max(1, by))


def d5(dice: Dice, purpose: str) -> int:
    """1D5 is 1D10 halved, rounded up (1.1): a physical d10 is entered, 1-2 give 1."""
    return rules.d5(dice, purpose)


def rap(dice: Dice, name: str, side: Side) -> int:
    """TABLE 11 and 12: RAP is 1D10, rolled for every gladiator before each match; its value is
    its own side's (3.2: the coaches keep their RAP secret)."""
    return dice.roll(10, f"RAP of {name}", owner=side, secret=True)


# ---------------------------------------------------------------------------- preparation (3.2)


@dataclass(frozen=True)
class Kickoff:
    """Who places first, who has the ball, the hand and the mandatory-success token; `center`:
    the ball is put on H14 (every tie-break tied)."""

    first: Side
    ball: Side | None
    hand: Side
    token: Side
    reason: str  # "power", "exp", "rap" or "draw"


def kickoff(
    powers: tuple[int, int],
    exps: tuple[int, int],
    raps: tuple[int, int],
    dice: Dice,
    *,
    tournament: bool = False,
) -> Kickoff:
    """3.2, PLACEMENT and its notes: the stronger team places first and the weaker gets the ball
    and the hand; tied powers: the one with more EXP places first; tied EXP: more total RAP places
    first; tied RAP: the ball goes on H14 and a draw says who places first. The hand and the
    mandatory-success token go to the team placed second.
    13.2, a tournament: no EXP tie-break; tied RAP, "on tire au hasard l'équipe qui commence à se
    placer en ZT et qui se déplacera la première": the drawn team also has the hand."""

    def by(values: tuple[int, int], reason: str) -> Kickoff | None:
        if values[0] == values[1]:
            return None
        first: Side = "A" if values[0] > values[1] else "B"
        return Kickoff(first, other(first), other(first), other(first), reason)

    decided = by(powers, "power") or (not tournament and by(exps, "exp")) or by(raps, "rap")
    if decided:
        return decided
    first: Side = "A" if rules.d2(dice, "who places first") == 1 else "B"
    hand = first if tournament else other(first)
    return Kickoff(first, None, hand, other(first), "draw")


# ---------------------------------------------------------------------------- the ball (7, TABLE 9)


def ball_malus(distance: int) -> int:
    """TABLE 9.H: the squares between the thrower and the target, the target included. The
    table prints "0 à 6" for -1: Arbitre reads it as 4 to 6, after "0 à 3"."""
    if distance < 0:
        raise RuleError(N_("A distance cannot be negative."), field="distance")
    if distance <= 3:
        return 0
    if distance > 24:
        return 8
    return (distance - 1) // 3


LONG_SHOT = 8  # Œil de lynx (sample deck): « ses tirs au panier de plus de 8 cases »


def shot_needed(
    bal: int, distance: int, concentration: int = 0, blind: bool = False, long_shot: bool = False
) -> int:
    """TABLE 9.A: (BAL + concentration) - malus; 9.F, a basket not seen: BAL / 2 - malus.
    `long_shot`: a power that lifts the distance malus beyond 8 squares."""
    malus = 0 if long_shot and distance > LONG_SHOT else ball_malus(distance)
    if blind:
        return divided(bal, 2) - malus
    return bal + min(concentration, MAX_CONCENTRATION) - malus


def throw_needed(bal: int, distance: int, blind: bool = False) -> int:
    """TABLE 9.B: a throw to a square or a pass to a friend at (BAL + 5) - malus; 9.F, a square
    not seen: BAL / 2 - malus."""
    if blind:
        return divided(bal, 2) - ball_malus(distance)
    return bal + 5 - ball_malus(distance)


def basket_value(distance: int, *, near: bool = False, token: bool = False) -> int:
    """7, TIR AU PANIER: the squares between the thrower (not counted) and the basket (counted);
    from the basket square or with the basket in one's action zone, 1 point without a roll. With
    the mandatory-success token, a shot from more than 3 squares is worth 2 (3.2)."""
    if near:
        return 1
    if token and distance > 3:
        return 2
    return distance


DIRECTIONS = {1: "↖", 2: "↑", 3: "↗", 4: "←", 5: "→", 6: "↙", 7: "↓", 8: "↘"}


def direction(dice: Dice, purpose: str = "direction (TABLE 4)") -> int:
    """TABLE 4: 1D10 for a direction around the aimed square; 9 or 10, roll again. Arbitre's
    reading of the lost drawing: 1 to 8 clockwise from the upper left, as the arrows show."""
    while True:
        die = dice.roll(10, purpose)
        if die <= 8:
            return die


# ---------------------------------------------------------------------------- combat (8, 9)


def hit_needed(phy: int, *, inert: bool = False, located: bool = False, blind: bool = False) -> int:
    """8.1: PHY to hit; 8.4, an inert target: 9 or less, 7 to hit a chosen location (PHY without
    bonus); 5.1, a blind attacker: PHY / 3."""
    if inert:
        return 7 if located else 9
    return divided(phy, 3) if blind else phy


def damage_state(vie: int, armour: int, damage: int, *, wound_points: bool = False) -> int:
    """9.1: (VIE + armour) - damage; wound points ignore the armour. Tom, VIE 4 and armour 6,
    hit for 8: 10 - 8 = 2, nothing."""
    return vie - damage if wound_points else vie + armour - damage


def wound(state: int) -> Wound:
    """9.1: 0 or more, nothing; -1 to -10, badly wounded (off until the next basket or gift
    point); below -10, coma with a risk of death, off for the match."""
    if state >= 0:
        return "unhurt"
    return "badly_wounded" if state >= -10 else "coma"


# ---------------------------------------------------------------------------- time (3.3, 6.2)


@dataclass(frozen=True)
class Moment:
    """A point on the referee sheet: a turn (20 to 1) and a phase (1, 2, 3)."""

    turn: int
    phase: int

    def reached(self, turn: int, phase: int) -> bool:
        return (turn, -phase) <= (self.turn, -self.phase)


def timer_end(turn: int, phase: int, turns: int) -> Moment:
    """How a timed state ends on the sheet (3.3, the sleeping gladiator; 6.2, FIN D'EXPULSION):
    counted down from the current box. Started in phase 3, it ends at the start of phase 3 of its
    last turn (asleep at phase 3 of turn 18 for 2 turns: awake at phase 3 of turn 16); started in a
    movement phase, at the start of that turn. A turn below 1 means past the end of the match."""
    return Moment(turn - turns, 3 if phase == 3 else 1)


def expulsion_turns(offence: Offence, dice: Dice, name: str) -> int:
    """TABLE 6: 1D5+5 turns for the listed offences, 1D5 for staying in one's own basket zone;
    6.2: no room to come back, expelled again 1D10 turns."""
    purpose = f"expulsion of {name}"
    if offence == "again":
        return dice.roll(10, purpose)
    if offence == "basket_zone":
        return d5(dice, purpose)
    return d5(dice, purpose) + 5


def reentry_square(dice: Dice, name: str) -> tuple[int, int]:
    """6.2, FIN D'EXPULSION: 1D2 and 1D10 give the side-line square the gladiator comes back on."""
    return rules.d2(dice, f"re-entry row of {name}"), dice.roll(10, f"re-entry square of {name}")


# ---------------------------------------------------------------------------- TABLE 7


@dataclass(frozen=True)
class Standing:
    """One gladiator as TABLE 7 sees it."""

    where: Where
    involuntary: bool = False  # in the side-line zone but unable to enter (fleeing, a power)
    back_in_time: bool = True  # an expulsion or a timed state that ends before the match does


def team_case(gladiators: Iterable[Standing]) -> Case:
    """TABLE 7, read from the most important case (the smallest numeral): I someone on the field;
    II someone who may enter from the side-line zone; III someone expelled who comes back in time;
    IV someone badly wounded; V someone kept off for a while; VI nobody left (dead, coma, or out
    past the end of the match)."""
    team = list(gladiators)
    if any(g.where == "field" for g in team):
        return "I"
    if any(g.where == "zt" and not g.involuntary for g in team):
        return "II"
    if any(g.where == "expelled" and g.back_in_time for g in team):
        return "III"
    if any(g.where == "bg" for g in team):
        return "IV"
    if any(g.where == "zt" and g.involuntary and g.back_in_time for g in team):
        return "V"
    return "VI"


# ---------------------------------------------------------------------------- phase 3 order


@dataclass(frozen=True)
class Actor:
    key: str  # a gladiator id
    side: Side
    rap: int


def phase3_order(actors: Sequence[Actor], hand: Side) -> list[Actor]:
    """3.3, INITIATIVE: by decreasing RAP; tied, the team holding the hand first. A group attack
    (8.2) is not an actor here: its members wait until the slowest is due (see
    `match.combat.ready_to_strike`)."""
    return sorted(actors, key=lambda a: (-a.rap, a.side != hand, a.key))


# ---------------------------------------------------------------------------- free throws (13.2)


def free_throw_order(stronger: Side, count: dict[Side, int]) -> list[Side]:
    """13.2: the stronger team first, then in turn; a team with one living gladiator throws once."""
    order: list[Side] = []
    for i in range(FREE_THROWS):
        for side in (stronger, other(stronger)):
            if i < count[side]:
                order.append(side)
    return order
