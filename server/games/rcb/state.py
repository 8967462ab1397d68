"""Roi / Chevalier / Bourreau's state: the teams and their fighters, the characters dealt,
the bet cards, the bank, the rounds. Steps are the rule book's (`../shared/seeds/002_…`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from server.errors import RuleError
from server.i18n import N_
from server.platform.commands import Strict
from server.platform.timers import Timer

Role = Literal["king", "knight", "executioner", "witch", "dragon"]


Team = Literal["A", "B"]


ROLES: tuple[Role, ...] = ("king", "knight", "executioner", "witch", "dragon")


ROLE_TITLES = {
    "king": N_("King"),
    "knight": N_("Knight"),
    "executioner": N_("Executioner"),
    "witch": N_("Witch"),
    "dragon": N_("Dragon"),
}


MAX_STAKE = 5  # "1 à 5 cartes Pari"


# Arbitre's reading of the cycle (spec): the King beats the Knight, the Knight the Executioner,
# the Executioner the King, the Witch and the Dragon (who lose their heads); the Witch and the
# Dragon, of the same level, beat the King and the Knight. Anything else is a tie.
DEFAULT_BEATS: dict[Role, list[Role]] = {
    "king": ["knight"],
    "knight": ["executioner"],
    "executioner": ["king", "witch", "dragon"],
    "witch": ["king", "knight"],
    "dragon": ["king", "knight"],
}


def per_team(a: int, b: int) -> dict[Team, int]:
    return {"A": a, "B": b}


def team_names(a: str, b: str) -> dict[Team, str]:
    return {"A": a, "B": b}


def other(team: Team) -> Team:
    return "B" if team == "A" else "A"


class Matrix(BaseModel):
    """Who beats whom; a pair in neither direction is a tie."""

    beats: dict[Role, list[Role]] = Field(default_factory=lambda: dict(DEFAULT_BEATS))

    @model_validator(mode="after")
    def no_pair_both_ways(self) -> Matrix:
        for winner, losers in self.beats.items():
            for loser in losers:
                if winner == loser:
                    raise ValueError(f"{winner} cannot beat itself")
                if winner in self.beats.get(loser, []):
                    raise ValueError(f"{winner} and {loser} cannot beat each other")
        return self

    def duel(self, a: Role, b: Role) -> Literal["A", "B", "tie"]:
        if b in self.beats.get(a, []):
            return "A"
        if a in self.beats.get(b, []):
            return "B"
        return "tie"


class Fighter(BaseModel):
    id: int
    name: str
    team: Team | None = None
    role: Role | None = None
    ghost: bool = False  # fantôme


class Phone(BaseModel):
    """A team's shared phone."""

    id: int
    name: str
    team: Team | None = None


class Round(BaseModel):
    number: int
    fighter_a: int | None = None
    fighter_b: int | None = None
    chosen_by_opponent_a: bool = False  # late or several stepped forward (rule 7)
    chosen_by_opponent_b: bool = False
    stake_a: int | None = None
    stake_b: int | None = None
    carried_a: int = 0  # left in the middle by ties
    carried_b: int = 0
    outcome: Literal["A", "B", "tie"] | None = None
    bank_paid: int = 0
    taxes_a: int = 0
    taxes_b: int = 0


class Result(BaseModel):
    winners: list[Team]
    reason: Literal["no_fighters", "perfect_tie"]


class RCBSettings(Strict):
    bets: int = Field(default=15, ge=1, le=200)
    bank: int = Field(default=15, ge=0, le=200)
    designation_seconds: int = Field(default=30, ge=5, le=600)


class RCBState(BaseModel):
    phase: Literal["setup", "ready", "designation", "stakes", "duel", "finished"] = "setup"
    team_names: dict[Team, str] = Field(default_factory=lambda: team_names("A", "B"))
    bets_setting: int = 15
    bank_setting: int = 15
    designation_seconds: int = 30
    matrix: Matrix = Field(default_factory=Matrix)
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    phones: dict[str, Phone] = Field(default_factory=dict)
    set_aside: list[Role] = Field(default_factory=list)  # cards not dealt, face down
    bets: dict[Team, int] = Field(default_factory=lambda: per_team(0, 0))
    bank: int = 0
    carry: dict[Team, int] = Field(default_factory=lambda: per_team(0, 0))
    current: Round | None = None
    rounds: list[Round] = Field(default_factory=list)
    timer: Timer | None = None
    time_up: bool = False
    result: Result | None = None
    revealed: bool = False
    dealt_at: datetime | None = None

    def fighter(self, fighter_id: int) -> Fighter:
        fighter = self.fighters.get(str(fighter_id))
        if fighter is None:
            raise RuleError(N_("No fighter number {id}."), field="fighter", id=fighter_id)
        return fighter

    def team(self, team: Team) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.team == team]

    def standing(self, team: Team) -> list[Fighter]:
        return [f for f in self.team(team) if not f.ghost]

    def total_cards(self) -> int:
        middle = self.carry["A"] + self.carry["B"]
        if self.current is not None:
            middle += (self.current.stake_a or 0) + (self.current.stake_b or 0)
        return self.bets["A"] + self.bets["B"] + self.bank + middle
