"""Random game-master sessions through Roi / Chevalier / Bourreau's rules, checking what must always
hold.

Hypothesis deals 6 to 17 fighters with random settings and a random beats matrix, then sends
rounds, designations, fighters (ghosts and wrong teams included), stakes (0 to 6), duels and reveals
in any order. After every step: bet cards are conserved between the teams, the bank and the middle;
nobody holds fewer than none; each won duel made exactly one ghost and a ghost never fought again;
the game is over exactly when a team has no fighter or no duel can be won any more, and then the
richer team (or both) wins. A refused command leaves the state exactly as it was."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from pydantic import ValidationError

from server.errors import ArbitreError
from server.games.rcb.ending import end_of_game
from server.games.rcb.kind import RCB
from server.games.rcb.state import MAX_STAKE, ROLES, RCBSettings, RCBState
from server.platform.clock import FakeClock
from server.platform.dice import CommandDice
from server.platform.kinds import Context, PersonInfo, Viewer

GM = Viewer("organizer", 1, "MJ")
ANY_ORDER = ("round", "designation_due", "duel", "reveal")


def in_play(state: RCBState) -> int:
    """Every bet card of the game: both teams, the bank, the middle and the current stakes."""
    total = state.bets["A"] + state.bets["B"] + state.bank + state.carry["A"] + state.carry["B"]
    if state.current is not None:
        c = state.current
        total += c.carried_a + c.carried_b + (c.stake_a or 0) + (c.stake_b or 0)
    return total


class GameMasterSession(RuleBasedStateMachine):
    state: RCBState

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.rng = random.Random(0)

    def send(self, command: dict[str, Any]) -> bool:
        before = self.state.model_dump()
        dice = CommandDice(lambda sides: self.rng.randint(1, sides))
        try:
            outcome = RCB.apply(self.state, RCB.parse(command), Context(GM, dice, self.clock.now()))
        except (ArbitreError, ValidationError) as refusal:
            assert str(refusal)
            assert self.state.model_dump() == before, "a refused command changed the state"
            return False
        assert outcome.summary.render()
        self.state = outcome.state
        return True

    @initialize(
        fighters=st.integers(6, 17),
        bets=st.integers(1, 30),
        bank=st.integers(0, 30),
        wins=st.lists(st.sampled_from([f"{a}>{b}" for a in ROLES for b in ROLES]), max_size=8),
        seed=st.integers(0, 2**32),
    )
    def deal(self, fighters: int, bets: int, bank: int, wins: list[str], seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = RCB.new_state(RCBSettings(bets=bets, bank=bank))
        for n in range(fighters):
            self.state = RCB.add_person(self.state, PersonInfo(10 + n, "fighter", f"F{n}"))
        if wins:
            self.send({"type": "matrix", "wins": wins})  # may be refused: two beating each other
        assert self.send({"type": "random_teams"})
        assert self.send({"type": "deal"})
        self.total = bets * 2 + bank

    @rule(data=st.data())
    def fighters_step_forward(self, data: st.DataObject) -> None:
        ids = [int(i) for i in self.state.fighters]
        self.send(
            {
                "type": "fighters",
                "a": data.draw(st.sampled_from(ids)),
                "b": data.draw(st.sampled_from(ids)),
                "opponent_a": data.draw(st.booleans()),
            }
        )

    @rule(a=st.integers(0, 6), b=st.integers(0, 6))
    def stakes(self, a: int, b: int) -> None:
        self.send({"type": "stakes", "a": a, "b": b})

    @rule(data=st.data())
    def a_fair_round(self, data: st.DataObject) -> None:
        """A whole legal round, so that games reach their end."""
        if self.state.phase != "ready":
            return
        standing = {t: [f.id for f in self.state.standing(t)] for t in ("A", "B")}
        assert self.send({"type": "round"})
        assert self.send(
            {
                "type": "fighters",
                "a": data.draw(st.sampled_from(standing["A"])),
                "b": data.draw(st.sampled_from(standing["B"])),
            }
        )
        stake = {t: min(MAX_STAKE, self.state.bets[t]) for t in ("A", "B")}
        a = data.draw(st.integers(min(1, stake["A"]), stake["A"]))
        b = data.draw(st.integers(min(1, stake["B"]), stake["B"]))
        assert self.send({"type": "stakes", "a": a, "b": b})
        assert self.send({"type": "duel"})

    @rule(command=st.sampled_from(ANY_ORDER))
    def anything_at_any_time(self, command: str) -> None:
        self.send({"type": command})
        self.clock.advance(10)

    def teardown(self) -> None:
        if hasattr(self, "state"):
            event(f"ended in phase {self.state.phase} after {len(self.state.rounds)} rounds")

    # -- what always holds

    @invariant()
    def bet_cards_are_conserved(self) -> None:
        assert in_play(self.state) == self.total
        assert min(self.state.bets.values()) >= 0 and self.state.bank >= 0

    @invariant()
    def one_ghost_per_won_duel_and_ghosts_never_fight_again(self) -> None:
        ghosts = {f.id for f in self.state.fighters.values() if f.ghost}
        lost = []
        for number, played in enumerate(self.state.rounds):
            assert played.fighter_a not in lost and played.fighter_b not in lost, number
            if played.outcome == "A":
                lost.append(played.fighter_b)
            elif played.outcome == "B":
                lost.append(played.fighter_a)
        assert sorted(lost) == sorted(ghosts)

    @invariant()
    def over_exactly_when_the_rules_say(self) -> None:
        if self.state.phase != "finished":
            assert end_of_game(self.state) is None
            return
        result = self.state.result
        assert result is not None
        bets = self.state.bets
        if result.reason == "no_fighters":
            assert not self.state.standing("A") or not self.state.standing("B")
            best = max(bets.values())
            assert sorted(result.winners) == sorted(t for t in ("A", "B") if bets[t] == best)
        else:
            assert sorted(result.winners) == ["A", "B"]


GameMasterSession.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestGameMasterSession = GameMasterSession.TestCase
