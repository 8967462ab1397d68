"""What the league's owner, its referees and its coaches may ask: one model per command."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from server.games.killpower import rules
from server.games.killpower.league.state import (
    Mode,
    Side,
)
from server.games.killpower.powers import PowerDeck
from server.games.killpower.rules import (
    Characteristic,
    Equipment,
    Specialization,
)
from server.platform.commands import Strict
from server.platform.refs import LinkedPersonRef, PersonRef, Ref


class Recruit(Strict):
    """One gladiator of the wizard (2.1): name, number, specialization and magic equipment; in a
    tournament, the two powers chosen."""

    name: str = Field(min_length=1, max_length=40)
    number: int = Field(ge=0, le=99)
    specialization: Specialization
    equipment: Equipment
    powers: list[str] = Field(default_factory=list, max_length=2)

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("empty")
        return value


class CreateTeam(Strict):
    type: Literal["team"]
    name: str = Field(min_length=1, max_length=40)
    coach: PersonRef | None = None  # the owner creates a team for a coach; a coach for themselves
    gladiators: list[Recruit] = Field(max_length=rules.TEAM_SIZE + 1)


# What commands name (checked by the platform against `KillpowerLeague.references`): a team, a
# gladiator of a team, a power card of the league's deck.
TeamRef = Annotated[int, Ref("team")]


GladiatorRef = Annotated[int, Ref("gladiator")]


PowerRef = Annotated[str, Ref("power")]


class PaperGladiator(Strict):
    """One gladiator as their paper sheet has them: every figure entered by hand."""

    name: str = Field(min_length=1, max_length=40)
    number: int = Field(ge=0, le=99)
    specialization: Specialization
    equipment: Equipment
    armour: int | None = Field(default=None, ge=1, le=20)  # none: rolled by Arbitre later
    powers: list[PowerRef] = Field(default_factory=list, max_length=2)
    characteristics: dict[Characteristic, int]
    exp: int = Field(default=0, ge=0, le=9999)
    increases: int = Field(default=0, ge=0, le=999)
    matches: int = Field(default=0, ge=0, le=999)

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        return Recruit._strip(value)


class EnterTeam(Strict):
    """A team brought from paper (spec, "Bringing a league from paper"): the league owner enters
    it as its sheet stands; the chapter 2 wizard stays the way to make a new team."""

    type: Literal["paper_team"]
    name: str = Field(min_length=1, max_length=40)
    coach: PersonRef | None = None
    ranking: int = Field(default=0, ge=-9999, le=9999)
    played: int = Field(default=0, ge=0, le=9999)
    won: int = Field(default=0, ge=0, le=9999)
    lost: int = Field(default=0, ge=0, le=9999)
    drawn: int = Field(default=0, ge=0, le=9999)
    abandoned: int = Field(default=0, ge=0, le=9999)
    gladiators: list[PaperGladiator] = Field(min_length=1, max_length=rules.TEAM_SIZE)


class Replace(Strict):
    """A dead (or dismissed) gladiator replaced through the wizard (3.4)."""

    type: Literal["replace"]
    team: TeamRef
    gladiator: GladiatorRef | None = None  # the one dismissed; none to fill a place left by a death
    recruit: Recruit


class Improve(Strict):
    type: Literal["improve"]
    team: TeamRef
    gladiator: GladiatorRef
    characteristic: Characteristic


class Reequip(Strict):
    type: Literal["reequip"]
    team: TeamRef
    gladiator: GladiatorRef
    equipment: Equipment
    powers: list[PowerRef] = Field(default_factory=list, max_length=2)


class RollArmour(Strict):
    """A magic armour not rolled yet (13.2 in a tournament; a paper team's left blank): rolled
    by Arbitre, its die logged, before the team's first match, by its coach or the staff."""

    type: Literal["roll_armour"]
    team: TeamRef


class DrawBracket(Strict):
    """Tournament (13.2): a direct-elimination bracket drawn by Arbitre among the complete teams."""

    type: Literal["bracket"]


class SetMode(Strict):
    type: Literal["mode"]
    mode: Mode


class SetPoints(Strict):
    type: Literal["points"]
    draw_points: int = Field(ge=-5, le=5)
    surrender_points: int = Field(ge=-10, le=0)


class SetDeck(Strict):
    type: Literal["deck"]
    deck: PowerDeck


class RecordMatch(Strict):
    """A finished match, from the referee sheet: who played, the score, a surrender or an
    elimination, who left the field with a risk of death and how low they fell, which magic
    equipment was lost."""

    type: Literal["match"]
    team_a: TeamRef
    team_b: TeamRef
    played_a: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    played_b: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    score_a: int = Field(ge=0, le=999)
    score_b: int = Field(ge=0, le=999)
    surrendered: Side = ""
    eliminated: Side = ""
    risk: dict[GladiatorRef, int] = Field(default_factory=dict)  # gladiator -> state (-11 or less)
    # 8.4: the location a blow on an inert target chose, for TABLE 8 (no location die then).
    located: dict[GladiatorRef, rules.Location] = Field(default_factory=dict)
    lost_equipment: list[GladiatorRef] = Field(default_factory=list, max_length=14)
    # Tournament draws (13.2): the points of each free throw, 0 for a miss, every try in order.
    throws_a: list[int] = Field(default_factory=list, max_length=20)
    throws_b: list[int] = Field(default_factory=list, max_length=20)
    note: str = Field(default="", max_length=500)
    match_game: str = Field(default="", max_length=40)  # the match played with the live sheet


class OpenMatch(Strict):
    """A match opened with the live referee sheet: its game, created just before."""

    type: Literal["open_match"]
    game: str = Field(min_length=1, max_length=40)
    team_a: int
    team_b: int
    mode: Literal["referee", "self"] = "self"
    coach_a: LinkedPersonRef  # the match's people, not the league's
    coach_b: LinkedPersonRef
    organizer: LinkedPersonRef
