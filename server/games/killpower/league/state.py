"""A Killpower Ball league's state: its teams and their gladiators (2), its power deck, the
matches played and open, the championship's points and the tournament's bracket (13); the words for them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from server.errors import RuleError
from server.games.killpower import rules
from server.games.killpower.powers import PowerDeck, sample_deck
from server.games.killpower.rules import (
    Characteristic,
    Equipment,
    Specialization,
    Verdict,
)
from server.i18n import N_
from server.platform.commands import Strict

Mode = Literal["championship", "tournament"]


Side = Literal["", "A", "B"]


SPECIALIZATION_TITLES = {
    "archer": N_("Archer (+1 HAB)"),
    "defender": N_("Defender (+1 VIE)"),
    "warrior": N_("Warrior (+1 PHY)"),
    "mentor": N_("Mentor (+1 POU)"),
    "shooter": N_("Shooter (+1 BAL)"),
}


EQUIPMENT_TITLES = {
    "gloves": N_("combat gloves (1D10 damage)"),
    "armour": N_("magic armour (1D5+6)"),
    "powers": N_("two power cards"),
}


FATE_TITLES = {
    "badly_wounded": N_("badly wounded, back to the coach"),
    "coma": N_("coma, back to the coach"),
    "dead": N_("dead"),
}


class Gladiator(BaseModel):
    id: int
    number: int
    name: str
    specialization: Specialization
    equipment: Equipment | None  # none: lost in a match, to draw again before playing (3.4)
    armour: int | None = None  # magic armour, rolled once; none until rolled (tournament)
    powers: list[str] = Field(default_factory=list)
    characteristics: dict[Characteristic, int]
    exp: int = 0
    increases: int = 0  # EXP is never erased (12): increases allowed = exp // 10 - increases
    matches: int = 0
    may_reequip: bool = False  # played the last match: its equipment may be exchanged (3.4)
    died_in: int | None = None
    paper: bool = False  # entered by hand from a paper sheet, every figure as it stood

    @property
    def shield(self) -> int | None:
        """The "Bouclier" box: the magic armour, or 1 for normal armour (2.1)."""
        return self.armour if self.equipment == "armour" else rules.NORMAL_ARMOUR

    @property
    def increases_left(self) -> int:
        return self.exp // rules.EXP_PER_INCREASE - self.increases


class Team(BaseModel):
    id: int
    name: str
    coach: int | None  # the coach's person id; none when the owner keeps the team
    left_by: int | None = None  # the coach whose link was revoked: theirs again if re-issued
    coach_name: str
    gladiators: list[Gladiator]
    fallen: list[Gladiator] = Field(default_factory=list)
    ranking: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    abandoned: int = 0
    paper: bool = False  # entered by hand from a paper sheet (its ranking and record too)

    def gladiator(self, gladiator_id: int) -> Gladiator:
        for g in self.gladiators:
            if g.id == gladiator_id:
                return g
        raise RuleError(
            N_("No gladiator {gladiator} in {team}."),
            field="gladiator",
            gladiator=gladiator_id,
            team=self.name,
        )

    @property
    def total_exp(self) -> int:
        return sum(g.exp for g in self.gladiators)

    def power(self, playing: list[int] | None = None) -> rules.Power:
        chosen = [g for g in self.gladiators if playing is None or g.id in playing]
        return rules.team_power(self.ranking, [g.exp for g in chosen])


class Risk(BaseModel):
    team: Literal["A", "B"]
    gladiator: int
    name: str
    state: int
    die: int | None  # none when the blow chose the location (8.4)
    location: str
    fate: rules.Fate


class MatchRecord(BaseModel):
    number: int
    at: datetime
    teams: tuple[int, int]
    names: tuple[str, str]
    powers: tuple[int, int]
    divisions: tuple[int, int]
    margins: tuple[int, int]
    score: tuple[int, int]
    surrendered: Side = ""
    eliminated: Side = ""
    outcomes: tuple[Verdict, Verdict]
    ranking_before: tuple[int, int]
    ranking_after: tuple[int, int]
    played: tuple[list[int], list[int]]
    risks: list[Risk] = Field(default_factory=list)
    lost_equipment: list[int] = Field(default_factory=list)
    free_throws: tuple[list[int], list[int]] | None = None
    note: str = ""


def match_record(
    c: Any,
    number: int,
    at: datetime,
    teams: tuple[Team, Team],
    powers: list[rules.Power],
    margins: tuple[int, int],
    outcomes: tuple[Verdict, Verdict],
    before: tuple[int, int],
    **extra: Any,
) -> MatchRecord:
    """The archive's line of a recorded match (`c`: the RecordMatch command), its ranking points
    as they are now."""
    return MatchRecord(
        number=number,
        at=at,
        teams=(teams[0].id, teams[1].id),
        names=(teams[0].name, teams[1].name),
        powers=(powers[0].power, powers[1].power),
        divisions=(powers[0].division, powers[1].division),
        margins=margins,
        score=(c.score_a, c.score_b),
        surrendered=c.surrendered,
        eliminated=c.eliminated,
        outcomes=outcomes,
        ranking_before=before,
        ranking_after=(teams[0].ranking, teams[1].ranking),
        played=(list(c.played_a), list(c.played_b)),
        note=c.note.strip(),
        **extra,
    )


class LeagueSettings(Strict):
    mode: Mode = "championship"
    draw_points: int = Field(default=1, ge=-5, le=5)
    surrender_points: int = Field(default=-3, ge=-10, le=0)


class Pairing(BaseModel):
    a: int | None  # a team id; none: a bye
    b: int | None
    winner: int | None = None
    match: int | None = None


class LiveMatch(BaseModel):
    """A match played with Arbitre's referee sheet (its own game), opened from the league."""

    game: str
    teams: tuple[int, int]
    names: tuple[str, str]
    mode: Literal["referee", "self"]
    coaches: tuple[int, int]  # the coaches' person ids in the match game
    organizer: int  # the match game's organizer (the league's staff open it with that link)
    recorded: int | None = None  # the league's match number once the result came back


class LeagueState(BaseModel):
    mode: Mode = "championship"
    draw_points: int = 1
    surrender_points: int = -3
    deck: PowerDeck = Field(default_factory=sample_deck)
    coaches: dict[str, str] = Field(default_factory=dict)
    teams: dict[str, Team] = Field(default_factory=dict)
    matches: list[MatchRecord] = Field(default_factory=list)
    next_id: int = 1
    # Tournament (13.2): the direct-elimination bracket, round by round, and each team as it came
    # to the tournament (after its armour roll): a team is given back that way after each match.
    bracket: list[list[Pairing]] = Field(default_factory=list)
    entered: dict[str, list[Gladiator]] = Field(default_factory=dict)
    champion: int | None = None
    live: list[LiveMatch] = Field(default_factory=list)

    def team(self, team_id: int) -> Team:
        team = self.teams.get(str(team_id))
        if team is None:
            raise RuleError(N_("No team {team} in this league."), field="team", team=team_id)
        return team

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1


def team_owner(team: Team) -> str:
    """The owner of a team's dice (its armour, its power draws, its risks of death)."""
    return f"team:{team.id}"
