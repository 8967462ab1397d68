"""Roi / Chevalier / Bourreau: pure rules (rule book `../shared/seeds/002_ab125751994015b6.txt`,
numbered paragraphs 1-11 and the end of the game; the spec settles the lost picture of the cycle).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from server.errors import RuleError
from server.platform.dice import SERVER, Dice
from server.platform.i18n import N_
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

# Cards dealt by number of fighters (the rule book's table): Witch, Dragon, Executioner, Knight, King.
DEAL_TABLE: list[tuple[int, int, dict[Role, int]]] = [
    (6, 7, {"witch": 1, "dragon": 1, "executioner": 2, "knight": 2, "king": 2}),
    (8, 10, {"witch": 1, "dragon": 1, "executioner": 3, "knight": 3, "king": 3}),
    (11, 13, {"witch": 1, "dragon": 1, "executioner": 4, "knight": 4, "king": 4}),
    (14, 17, {"witch": 1, "dragon": 1, "executioner": 5, "knight": 5, "king": 5}),
]

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


def cards_for(fighters: int) -> dict[Role, int]:
    """The character cards to use for this many fighters (Nombre de joueurs table)."""
    for low, high, cards in DEAL_TABLE:
        if low <= fighters <= high:
            return dict(cards)
    raise RuleError(
        N_("The deal needs 6 to 17 fighters, not {count}."), field="fighters", count=fighters
    )


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


def pay_out(stake_winner: int, stake_loser: int, bank: int) -> tuple[int, int]:
    """Traitement des mises: the loser's stake goes to the bank, then the winner takes back its
    stake and receives as much from the bank, or what the bank still has.
    Returns (cards the winner team gets back in all, the bank after)."""
    bank += stake_loser
    paid = min(stake_winner, bank)
    return stake_winner + paid, bank - paid


def taxes(cards_a: int, cards_b: int) -> tuple[int, int]:
    """An empty bank at the end of a round: each team pays a third of its cards, rounded down
    (28 and 17 pay 9 and 5)."""
    return cards_a // 3, cards_b // 3


# ---------------------------------------------------------------------------- state


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


class RCBSettings(BaseModel):
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


def deal(state: RCBState, dice: Dice) -> None:
    """Rules 2-4: character cards by the table, shuffled, one to each fighter; 15 bet cards to
    each team, the rest is the bank."""
    fighters = list(state.fighters.values())
    unassigned = [f.name for f in fighters if f.team is None]
    if unassigned:
        raise RuleError(
            N_("Put every fighter in a team first: {names}."),
            field="team",
            names=", ".join(unassigned),
        )
    for team in ("A", "B"):
        if not state.team(team):
            raise RuleError(N_("Each team needs at least one fighter."), field="team")
    counts = cards_for(len(fighters))
    deck: list[Role] = [role for role in ROLES for _ in range(counts[role])]
    for i in range(len(deck) - 1, 0, -1):
        j = dice.roll(i + 1, f"shuffle_{i}", owner=SERVER, secret=True) - 1
        deck[i], deck[j] = deck[j], deck[i]
    for fighter in sorted(fighters, key=lambda f: f.id):
        fighter.role = deck.pop(0)
    state.set_aside = deck
    state.bets = {"A": state.bets_setting, "B": state.bets_setting}
    state.bank = state.bank_setting
    state.phase = "ready"


def split_at_random(state: RCBState, dice: Dice) -> None:
    """Two teams drawn by the dice, as even as the count allows."""
    people = sorted(state.fighters.values(), key=lambda f: f.id)
    for i in range(len(people) - 1, 0, -1):
        j = dice.roll(i + 1, f"team_{i}", owner=SERVER) - 1
        people[i], people[j] = people[j], people[i]
    for index, fighter in enumerate(people):
        fighter.team = "A" if index % 2 == 0 else "B"


def max_stake(cards: int) -> int:
    return min(MAX_STAKE, cards)


def check_stake(state: RCBState, team: Team, stake: int) -> None:
    """Rule 8: 1 to 5 bet cards, compulsory, never more than the team holds; nothing when it
    holds none."""
    held = state.bets[team]
    name = state.team_names[team]
    if held == 0:
        if stake != 0:
            raise RuleError(
                N_("Team {team} has no bet card left: it stakes nothing."),
                field=f"stake_{team.lower()}",
                team=name,
            )
        return
    if not 1 <= stake <= max_stake(held):
        raise RuleError(
            N_("Team {team} stakes 1 to {most} bet cards, not {stake}."),
            field=f"stake_{team.lower()}",
            team=name,
            most=max_stake(held),
            stake=stake,
        )


def settle_duel(state: RCBState, current: Round) -> None:
    """Rules 9-10: the duel by the matrix, then the stakes; then taxes if the bank is empty."""
    a, b = state.fighter(current.fighter_a or 0), state.fighter(current.fighter_b or 0)
    assert a.role is not None and b.role is not None
    outcome = state.matrix.duel(a.role, b.role)
    current.outcome = outcome
    stake = {
        "A": (current.stake_a or 0) + current.carried_a,
        "B": (current.stake_b or 0) + current.carried_b,
    }
    if outcome == "tie":
        # Both go back with their cards; the stakes stay in the middle for the next round.
        state.carry = {"A": stake["A"], "B": stake["B"]}
    else:
        winner: Team = outcome
        loser = other(winner)
        back, state.bank = pay_out(stake[winner], stake[loser], state.bank)
        current.bank_paid = back - stake[winner]
        state.bets[winner] += back
        state.carry = {"A": 0, "B": 0}
        (b if loser == "B" else a).ghost = True
    if state.bank == 0:
        current.taxes_a, current.taxes_b = taxes(state.bets["A"], state.bets["B"])
        state.bets["A"] -= current.taxes_a
        state.bets["B"] -= current.taxes_b
        state.bank += current.taxes_a + current.taxes_b


def end_of_game(state: RCBState) -> Result | None:
    """A team with no fighter ends the game: most bet cards wins, equal cards both win. When only
    fighters who can never beat each other remain, it is a perfect tie: both teams win."""
    left_a, left_b = state.standing("A"), state.standing("B")
    if not left_a or not left_b:
        if state.bets["A"] == state.bets["B"]:
            return Result(winners=["A", "B"], reason="no_fighters")
        return Result(
            winners=["A" if state.bets["A"] > state.bets["B"] else "B"], reason="no_fighters"
        )
    if all(
        state.matrix.duel(x.role, y.role) == "tie"  # type: ignore[arg-type]
        for x in left_a
        for y in left_b
    ):
        return Result(winners=["A", "B"], reason="perfect_tie")
    return None


def finish(state: RCBState, result: Result) -> None:
    state.result = result
    state.phase = "finished"
    state.timer = None
    # What stayed in the middle after a tie goes back to its team.
    for team in ("A", "B"):
        state.bets[team] += state.carry[team]
    state.carry = {"A": 0, "B": 0}
