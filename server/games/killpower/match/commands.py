"""What a coach or the referee may ask of the match sheet: one model per command."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from server.games.killpower import match_rules as mr
from server.games.killpower import rules
from server.games.killpower.match.state import (
    Condition,
)
from server.games.killpower.match_rules import Side
from server.games.killpower.rules import Location
from server.platform.commands import Strict
from server.platform.refs import Ref

# What commands name (checked by the platform against `KillpowerMatch.references`): a gladiator
# of either team's sheet, a power card of the match (or "bluff").
GladiatorRef = Annotated[int, Ref("gladiator")]


PowerRef = Annotated[str, Ref("power")]


class Lineup(Strict):
    """3.2, COMPOSITION: the gladiators who play, told secretly, and the bluff cards (4.4)."""

    type: Literal["lineup"]
    side: Side | None = None  # the referee gives it for a side; a coach for their own
    gladiators: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    # 3.2: 1 to 3 bluff cards; 13.2, a tournament: "autant que vous le souhaitez".
    # Bounded for parsing only; the bound a lineup may reach is `mr.BLUFF_BOUND` (preparation).
    bluff: int = Field(default=1, ge=mr.BLUFF_CARDS[0], le=100_000)


class GiveBall(Strict):
    type: Literal["give_ball"]
    gladiator: GladiatorRef


class Enter(Strict):
    type: Literal["enter", "leave"]
    gladiator: GladiatorRef


SquareName = Annotated[str, Field(min_length=2, max_length=3, pattern=r"^[A-Oa-o][0-9]{1,2}$")]


class Move(Strict):
    """5.1: a gladiator of the moving team to a square (from the side-line zone: onto the field),
    with the board kept."""

    type: Literal["move"]
    gladiator: GladiatorRef
    to: SquareName


class BlindMove(Strict):
    """5.1, AVEUGLE: the number of squares said; each step's direction is rolled (TABLE 4)."""

    type: Literal["blind_move"]
    gladiator: GladiatorRef
    steps: int = Field(ge=1, le=10)


class EndPhase(Strict):
    type: Literal["end_phase"]
    side: Side | None = None  # phase 3: the side whose remaining gladiators do nothing


class Act(Strict):
    """Phase 3 without a roll: do nothing, wait for later, stand up, sprint, concentrate."""

    type: Literal["act"]
    gladiator: GladiatorRef
    action: Literal["pass", "wait", "stand", "sprint", "concentrate"]


class Shot(Strict):
    type: Literal["shot"]
    gladiator: GladiatorRef
    distance: int = Field(default=0, ge=0, le=30)  # with the board, counted from the squares
    near: bool = False  # on the basket square or with the basket in the action zone
    blind: bool = False  # the basket is not seen (9.F)
    own: bool = False  # into the team's own basket
    other_half: bool = False  # from the other half of the field: refused
    token: bool = False  # the mandatory-success token


class Throw(Strict):
    type: Literal["throw"]
    gladiator: GladiatorRef
    distance: int = Field(default=1, ge=1, le=30)  # with the board, counted from the squares
    to: GladiatorRef | None = None  # a friend; none: a square
    at: SquareName | None = None  # with the board, the square aimed at
    blind: bool = False
    token: bool = False


class Handoff(Strict):
    """7, hand to hand: no roll, no interception; reaching one square away costs the passer 1A."""

    type: Literal["handoff"]
    gladiator: GladiatorRef
    to: GladiatorRef
    reach: bool = False


class Take(Strict):
    type: Literal["take"]
    gladiator: GladiatorRef
    token: bool = False


class Pick(Strict):
    type: Literal["pick", "drop"]
    gladiator: GladiatorRef
    zone: bool = False  # drop on a square of the action zone (1A) instead of one's own (0A)
    at: SquareName | None = None  # with the board, from the side-line zone: the square in front


class Attack(Strict):
    """8: one attacker or a group attack on a target in their action zones."""

    type: Literal["attack"]
    attackers: list[GladiatorRef] = Field(min_length=1, max_length=8)
    target: GladiatorRef
    located: bool = False  # an inert target hit on a chosen location (7 or less)
    location: Location | None = None  # 8.4: the location chosen (the head, by example)
    token: bool = False


class Answer(Strict):
    """The answer to a pending question: evade (with whom to evade in a group), intercept (with
    whom, none: let the ball go), resist a take."""

    type: Literal["answer"]
    yes: bool = False
    gladiator: GladiatorRef | None = None
    token: bool = False  # 3.2: the mandatory-success token, "intercepter le ballon" included


class Hurt(Strict):
    """Damage or wound points from a power (9.1: wound points ignore the armour)."""

    type: Literal["hurt"]
    gladiator: GladiatorRef
    points: int = Field(ge=1, le=99)
    wound_points: bool = False


class SetCondition(Strict):
    type: Literal["condition"]
    gladiator: GladiatorRef
    condition: Condition
    turns: int = Field(default=0, ge=0, le=20)  # 0: until cleared
    clear: bool = False
    # The power card that put it (read aloud): what the card outlasts, the state does (3.3).
    card: PowerRef | None = None


class Expel(Strict):
    type: Literal["expel"]
    gladiator: GladiatorRef
    offence: Literal["table6", "basket_zone"] = "table6"
    reason: str = Field(default="", max_length=200)


class Reentry(Strict):
    """6.2: the square rolled is taken (roll again) or the side-line zone is full (1D10 more)."""

    type: Literal["reentry"]
    gladiator: GladiatorRef
    outcome: Literal["taken", "no_room"]


class UsePower(Strict):
    type: Literal["power"]
    gladiator: GladiatorRef
    card: PowerRef = Field(min_length=1, max_length=40)  # a power key, or "bluff"
    deactivate: bool = False
    # 4.4: what a bluff passes for, so that it is played as such a card would be (in phase 3 at
    # its turn for 1A; from the ground or the side-line zone for an automatic one).
    bluff_as: Literal["0A", "1A", "automatic"] = "0A"
    bluff_stays: bool = True  # on the table as a power that works, or taken back as one that failed
    # A card with an effect (`PowerCard.effect`): the gladiator it aims at (Sommeil, Peur, the
    # friend a Bouclier humain shields) and, with the board, the square (Téléportation).
    target: GladiatorRef | None = None
    to: SquareName | None = None


class Check(Strict):
    """A roll under a characteristic (HAB to move on through action zones, POU to resist)."""

    type: Literal["check"]
    gladiator: GladiatorRef
    characteristic: Literal["DEP", "PHY", "HAB", "POU", "BAL", "VIE"]
    zones: int = Field(default=1, ge=1, le=8)  # HAB divided by the enemy action zones
    action: bool = False  # the roll costs the action (1A)
    # Resisting a power: 3.3, "La règle sur la RAP n'intervient pas [...] de résister à un
    # pouvoir qui coûte 1A": no waiting for one's turn, in any phase (TABLE 10, HORS PHASE).
    resist: bool = False
    token: bool = False  # 3.2: the mandatory-success token makes the resistance succeed


class Trigger(Strict):
    """4.3: the condition of a power armed earlier happened (Rayon laser: a gladiator crossed
    line 14); its underlined part is read now, unless the target resists."""

    type: Literal["trigger"]
    gladiator: GladiatorRef  # the power's bearer
    card: PowerRef
    target: GladiatorRef | None = None  # who it strikes (rolls the resistance, if the card has one)


class Surrender(Strict):
    type: Literal["surrender"]
    side: Side | None = None


class FreeShot(Strict):
    type: Literal["free_throw"]
    gladiator: GladiatorRef
    distance: int = Field(ge=2, le=12)
