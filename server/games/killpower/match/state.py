"""A Killpower Ball match's state: the two teams as they came from the league, each gladiator's
place and states, the turn, the phase, the ball, the score; the words for them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from server.errors import RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower.match_rules import Side, Where, other
from server.games.killpower.powers import PowerCard
from server.i18n import N_
from server.platform.commands import Strict

Stage = Literal["lineup", "running", "free_throws", "finished"]


Mode = Literal["referee", "self"]


Condition = Literal["asleep", "ko", "afraid", "blind", "immobile", "on_ground", "held"]


SIDES: tuple[Side, Side] = ("A", "B")


INERT = ("asleep", "ko")  # 5.1, GUERRIER INERTE: KO, coma or asleep (coma leaves the field)


CONDITION_TITLES = {
    "asleep": N_("asleep"),
    "ko": N_("knocked out"),
    "afraid": N_("afraid, fleeing"),
    "blind": N_("blind"),
    "immobile": N_("immobile"),
    "on_ground": N_("on the ground"),
    "held": N_("kept in the side-line zone"),
}


WHERE_TITLES = {
    "zt": N_("side-line zone"),
    "field": N_("on the field"),
    "bg": N_("badly wounded"),
    "coma": N_("coma (risk of death)"),
    "dead": N_("dead"),
    "expelled": N_("expelled"),
}


# TABLE 7's cases, said as the coaches say them (the table's numerals stay in the code).
CASE_TITLES = {
    "I": N_("on the field again, the match goes on"),
    "II": N_("all in the side-line zone, forfeit if nobody enters within 5 turns"),
    "III": N_("all expelled, the other team plays alone"),
    "IV": N_("all badly wounded, a point to the other team"),
    "V": N_("all kept off the field, the other team plays alone"),
    "VI": N_("nobody left, the other team wins"),
}


OFFENCE_TITLES = {
    "table6": N_("an offence of TABLE 6 (1D5+5 turns)"),
    "basket_zone": N_("in their own basket zone (1D5 turns)"),
    "again": N_("no room to come back (1D10 turns)"),
}


PHASE_TITLES = {1: N_("phase 1"), 2: N_("phase 2"), 3: N_("phase 3")}
PENDING_TITLES = {
    "evade": N_("evade the blow?"),
    "intercept": N_("intercept the ball?"),
    "resist": N_("keep the ball?"),
}


class Until(BaseModel):
    turn: int
    phase: int

    @property
    def moment(self) -> mr.Moment:
        return mr.Moment(self.turn, self.phase)

    def left(self, turn: int) -> int:
        """Turns left on the sheet, as a coach asking the referee hears it (6.2)."""
        return max(0, turn - self.turn)


class Fighter(BaseModel):
    """A gladiator of the match, from the league's team sheet."""

    id: int
    side: Side
    number: int
    name: str
    characteristics: dict[str, int]
    armour: int  # the "Bouclier": magic armour or normal armour 1
    gloves: bool = False
    powers: list[str] = Field(default_factory=list)
    rap: int = 0
    where: Where = "zt"
    state: int | None = None  # (VIE + armour) - damage when it left the field
    acted: bool = False  # its action of this turn is used (phase 1, 2 or 3)
    waiting: bool = False  # phase 3: it let its turn pass and may act later
    entered: int = 0  # order of entry on the field (the sixth one is expelled, 6.1)
    conditions: dict[str, Until | None] = Field(default_factory=dict)
    back: Until | None = None  # end of an expulsion
    after: dict[str, int] = Field(default_factory=dict)  # served after the expulsion (3.3)
    causes: dict[str, str] = Field(default_factory=dict)  # a state's power card, by condition
    square: tuple[int, int] | None = None  # re-entry square rolled (1D2, 1D10), 6.2
    location: str | None = None  # 8.4: the location chosen by the blow that left it in a coma
    concentration: int = 0
    uses: dict[str, int] = Field(default_factory=dict)  # activations of each power
    active: list[str] = Field(default_factory=list)  # power cards on the table
    guards: int | None = None  # Bouclier humain: the friend whose blows this one takes

    @property
    def label(self) -> str:
        return f"{self.name} (#{self.number})"

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def inert(self) -> bool:
        return any(c in self.conditions for c in INERT)

    @property
    def may_enter(self) -> bool:
        """In the side-line zone, free to enter the field: not fleeing, held off or inert (6.3:
        an error that cannot be made is cancelled; the page offers no such entry)."""
        return self.where == "zt" and not (self.has("afraid") or self.has("held") or self.inert)

    def standing(self, turn: int) -> mr.Standing:
        until = self.back if self.where == "expelled" else None
        # TABLE 7 (4), ZT involontaire: "s'ils fuient ou subissent un pouvoir dans leur ZT" (a
        # sleeping one cannot enter either, nor be given the ball).
        held = [u for c, u in self.conditions.items() if c in ("afraid", "held", "asleep")]
        involuntary = self.where == "zt" and bool(held)
        back_in_time = True
        if until is not None and until.turn < 1:
            back_in_time = False
        if involuntary and any(u is None or u.turn < 1 for u in held):
            back_in_time = False
        return mr.Standing(self.where, involuntary, back_in_time)


class Roster(BaseModel):
    """A team as the league gave it to the match (its sheet at the time the match opened)."""

    team: int
    name: str
    coach_name: str
    ranking: int
    gladiators: list[dict[str, Any]]  # id, number, name, characteristics, armour, gloves, ...


class TeamPlay(BaseModel):
    roster: Roster
    coach: int | None = None  # the coach's person id in this match
    lineup: list[int] = Field(default_factory=list)  # secret until both are given
    # RAP rolled with the lineup, its side's alone (3.2: "en cachant le résultat à
    # l'adversaire"), kept for a gladiator once rolled: a lineup given again rolls no one twice.
    raps: dict[str, int] = Field(default_factory=dict)
    bluff: int = 0
    ready: bool = False
    power: int = 0
    exp: int = 0
    margin: int = 0
    score: int = 0
    idle_since: int | None = None  # turn at which case II began (forfeit after 5 turns)
    case: str = "II"


class Pending(BaseModel):
    """A question the other side answers before the match goes on (evade, intercept, resist)."""

    kind: Literal["evade", "intercept", "resist"]
    side: Side
    data: dict[str, Any]


class Reveal(BaseModel):
    """4.3: what is read to the other coach when a power is activated."""

    side: Side
    fighter: int
    text: str  # the underlined part only: the card's name stays with its coach
    turn: int


class Armed(BaseModel):
    """4.3: a power activated whose underlined part is read only once a condition happens (Rayon
    laser: when a gladiator crosses line 14). Its bearer's coach alone knows it is there."""

    side: Side
    fighter: int
    card: str
    turn: int


class FreeThrow(BaseModel):
    side: Side
    fighter: int
    distance: int
    die: int
    needed: int
    points: int
    round: int


class MatchSettings(Strict):
    league: str = ""
    mode: Mode = "self"
    board: bool = False  # the match keeps the squares (field.py); off: the sheet alone
    tournament: bool = False
    teams: list[Roster] = Field(default_factory=list, max_length=2)
    cards: list[PowerCard] = Field(default_factory=list)


class MatchState(BaseModel):
    league: str = ""
    mode: Mode = "self"
    tournament: bool = False
    stage: Stage = "lineup"
    teams: dict[str, TeamPlay] = Field(default_factory=dict)
    cards: dict[str, PowerCard] = Field(default_factory=dict)
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    turn: int = mr.TURNS
    phase: int = 1
    hand: Side = "A"
    token: Side | None = None  # who holds the mandatory-success token; none once used
    first: Side = "A"  # who placed first
    kickoff_reason: str = ""
    ball: str = ""  # "f:<id>" carried, "zt:<side>" to give, "ground", "basket", "center"
    ball_note: str = ""
    entries: int = 0
    moved: bool = False  # the moving team did something in this movement phase
    gift: Side | None = None  # who owes a point at the end of phase 3 (TABLE 7, case IV)
    pending: Pending | None = None
    reveals: list[Reveal] = Field(default_factory=list)
    armed: list[Armed] = Field(default_factory=list)
    surrendered: Side | None = None
    eliminated: Side | None = None
    outcomes: tuple[str, str] | None = None
    throws: list[FreeThrow] = Field(default_factory=list)
    coaches_joined: int = 0
    # The board (field.py), when the match keeps it: squares (column, row) by gladiator id, the
    # ball's when it lies on the field, DEP walked in this movement phase, HAB rolls passed.
    board: bool = False
    at: dict[str, tuple[int, int]] = Field(default_factory=dict)
    ball_at: tuple[int, int] | None = None
    spent: dict[str, int] = Field(default_factory=dict)
    spent_in: list[int] = Field(default_factory=list)  # [turn, phase] of `spent`
    free: list[int] = Field(default_factory=list)
    free_in: int = 0  # the turn of `free`
    # 5.2: the gladiator sprinting now in phase 3 (it moves a second time, within its DEP, never
    # into an enemy's action zone), until the next gladiator acts or the phase ends.
    sprinting: int | None = None

    def team(self, side: str) -> TeamPlay:
        return self.teams[side]

    def square_of(self, f: Fighter) -> tuple[int, int] | None:
        """Where a gladiator stands on the board (none off it, or without the board)."""
        found = self.at.get(str(f.id))
        return (found[0], found[1]) if found is not None else None

    def dep_left(self, f: Fighter) -> int:
        """5.1: DEP squares per movement phase, less what was walked this phase."""
        spent = self.spent.get(str(f.id), 0) if self.spent_in == [self.turn, self.phase] else 0
        return max(0, f.characteristics["DEP"] - spent)

    def fighter(self, fighter_id: int) -> Fighter:
        f = self.fighters.get(str(fighter_id))
        if f is None:
            raise RuleError(
                N_("Gladiator {gladiator} does not play this match."),
                field="gladiator",
                gladiator=fighter_id,
            )
        return f

    def side_fighters(self, side: str) -> list[Fighter]:
        return sorted((f for f in self.fighters.values() if f.side == side), key=lambda f: f.number)

    @property
    def moving(self) -> Side:
        """Who moves in phase 1 (the hand) and phase 2 (the other team)."""
        return self.hand if self.phase == 1 else other(self.hand)

    @property
    def carrier(self) -> Fighter | None:
        if self.ball.startswith("f:"):
            return self.fighters.get(self.ball[2:])
        return None


def make_fighter(side: Side, g: dict[str, Any]) -> Fighter:
    return Fighter(
        id=g["id"],
        side=side,
        number=g["number"],
        name=g["name"],
        characteristics=dict(g["characteristics"]),
        armour=g["armour"],
        gloves=g["gloves"],
        powers=list(g["powers"]),
    )


def roster_of(team: Any) -> Roster:
    """The league's team as the match keeps it (rules.Gladiator -> plain data)."""
    return Roster(
        team=team.id,
        name=team.name,
        coach_name=team.coach_name,
        ranking=team.ranking,
        gladiators=[
            {
                "id": g.id,
                "number": g.number,
                "name": g.name,
                "characteristics": dict(g.characteristics),
                "armour": g.shield,
                "gloves": g.equipment == "gloves",
                "powers": list(g.powers),
                "exp": g.exp,
                "equipment": g.equipment,
                "armour_rolled": g.equipment != "armour" or g.armour is not None,
            }
            for g in sorted(team.gladiators, key=lambda g: g.number)
        ],
    )
