"""What the game master (or the clock) may ask: one model per command."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from server.games.rcb.state import MAX_STAKE
from server.platform.commands import Strict
from server.platform.refs import PersonRef


class TeamNames(Strict):
    type: Literal["team_names"]
    a: str = Field(min_length=1, max_length=30)
    b: str = Field(min_length=1, max_length=30)


class Settings(Strict):
    type: Literal["settings"]
    bets: int = Field(ge=1, le=200)
    bank: int = Field(ge=0, le=200)
    designation_seconds: int = Field(ge=5, le=600)


class SetMatrix(Strict):
    type: Literal["matrix"]
    wins: list[str] = Field(default_factory=list, max_length=20)  # "king>knight", ...


class Assign(Strict):
    type: Literal["assign"]
    person: PersonRef
    team: Literal["A", "B", ""]


class RandomTeams(Strict):
    type: Literal["random_teams"]


class Deal(Strict):
    type: Literal["deal"]


class RoundStart(Strict):
    type: Literal["round"]


class DesignationDue(Strict):
    type: Literal["designation_due"]


class Fighters(Strict):
    type: Literal["fighters"]
    a: PersonRef
    b: PersonRef
    opponent_a: bool = False  # A was late or sent several: B chose A's fighter
    opponent_b: bool = False


class Stakes(Strict):
    type: Literal["stakes"]
    a: int = Field(ge=0, le=MAX_STAKE)
    b: int = Field(ge=0, le=MAX_STAKE)


class Duel(Strict):
    type: Literal["duel"]


class Reveal(Strict):
    type: Literal["reveal"]
