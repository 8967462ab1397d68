"""Random referee sessions through Serial Battle's rules, checking what must always hold.

Hypothesis drives assaults (legal or not), the choices they leave pending, cards given and taken,
corrections, placements, eliminations and shrinks, with random dice. After every step: no PV above
the start, nobody standing at 0 PV, never more than 5 cards in a hand, every card copy in exactly
one place (a hand, the referee's pile or out of the game) and none created or lost, ammunition
within the card's capacity, eliminated players empty-handed, and the game over exactly when at most
one player stands. A refused command leaves the state exactly as it was."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from pydantic import ValidationError

from server.errors import ArbitreError
from server.games.serial_battle.catalog import key_of
from server.games.serial_battle.kind import SERIAL_BATTLE
from server.games.serial_battle.state import MAX_CARDS, START_PV, SBState
from server.platform.clock import FakeClock
from server.platform.dice import CommandDice
from server.platform.kinds import Context
from tests.serial_battle.conftest import DECK, REFEREE, game

NAMES = ("Léa", "Hugo", "Inès", "Malo", "Zoé", "Yann")
HANDS = {
    "Léa": ["blade", "helmet"],
    "Hugo": ["gun", "poison"],
    "Inès": ["shotgun"],
    "Malo": ["bow", "armor", "fist"],
    "Zoé": ["grenade", "knife#1"],
    "Yann": ["saber", "club"],
}
POOL = ["sword", "rope", "whistle", "knife#2", "knife#3"]
TOUCH = ("attacker", "defender", "simultaneous")


def copies(state: SBState) -> Counter[str]:
    held = [h.copy_id for p in state.players.values() for h in p.cards]
    return Counter(held + state.pool + state.out)


class RefereeSession(RuleBasedStateMachine):
    state: SBState

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.applied = 0
        self.refused = 0

    @initialize(pv=st.lists(st.integers(1, START_PV), min_size=len(NAMES), max_size=len(NAMES)))
    def deal(self, pv: list[int]) -> None:
        """Players met earlier in the game: any PV left, the cards of HANDS."""
        self.state = game(*NAMES, cards=HANDS, pv=dict(zip(NAMES, pv, strict=True)))
        self.state.pool = list(POOL)
        self.all_copies = copies(self.state)

    # -- helpers

    def ids(self, standing: bool = True) -> list[int]:
        return [p.id for p in self.state.players.values() if not (standing and p.eliminated)]

    def send(self, command: dict[str, Any], seed: int) -> None:
        before = self.state.model_dump()
        rng = random.Random(seed)
        dice = CommandDice(lambda sides: rng.randint(1, sides))
        try:
            parsed = SERIAL_BATTLE.parse(command)
            outcome = SERIAL_BATTLE.apply(
                self.state, parsed, Context(REFEREE, dice, self.clock.now())
            )
        except (ArbitreError, ValidationError) as refusal:
            assert str(refusal)  # a message to show
            assert self.state.model_dump() == before, "a refused command changed the state"
            self.refused += 1
            return
        assert outcome.summary.render()
        self.state = outcome.state
        self.applied += 1

    def a_card_of(self, data: st.DataObject, player_id: int) -> str:
        held = [h.copy_id for h in self.state.players[str(player_id)].cards]
        return data.draw(st.sampled_from([*held, "bare", "sword", "nonsense"]))

    # -- what a referee does

    @precondition(lambda self: self.state.phase == "running")
    @rule(data=st.data(), seed=st.integers(0, 2**32))
    def assault(self, data: st.DataObject, seed: int) -> None:
        everyone = self.ids(standing=False)
        attacker = data.draw(st.sampled_from(everyone))
        defenders = data.draw(st.lists(st.sampled_from(everyone), min_size=1, max_size=3))
        command = {
            "type": "assault",
            "attacker": attacker,
            "defenders": defenders,
            "touch": data.draw(st.sampled_from(TOUCH)),
            "card": self.a_card_of(data, attacker),
            "answer": data.draw(st.booleans()),
        }
        self.send(command, seed)

    @precondition(lambda self: bool(self.state.pending))
    @rule(data=st.data(), seed=st.integers(0, 2**32))
    def settle_a_choice(self, data: st.DataObject, seed: int) -> None:
        pending = data.draw(st.sampled_from(self.state.pending))
        loser = self.state.players[str(pending.loser)]
        theirs = [h.copy_id for h in loser.cards]
        if pending.kind == "loot":
            winner = self.state.players[str(pending.winner)]
            mine = [h.copy_id for h in winner.cards]
            take = data.draw(st.lists(st.sampled_from([*theirs, "sword"]), max_size=6))
            give_back = data.draw(st.lists(st.sampled_from([*mine, "sword"]), max_size=3))
            command: dict[str, Any] = {
                "type": "loot",
                "pending": pending.id,
                "take": take,
                "give_back": give_back,
            }
        elif data.draw(st.booleans()) and theirs:
            card = data.draw(st.sampled_from(theirs))
            command = {"type": "knockout_take", "pending": pending.id, "card": card}
        else:
            command = {"type": "knockout_again", "pending": pending.id}
        self.send(command, seed)

    @rule(data=st.data())
    def give_or_take(self, data: st.DataObject) -> None:
        fullest = max(self.state.players.values(), key=lambda p: len(p.cards)).id
        player = data.draw(st.sampled_from([fullest, *self.ids(standing=False)]))
        if data.draw(st.booleans()):
            card = data.draw(st.sampled_from([*self.state.pool, "sword#9"]))
            self.send({"type": "give", "player": player, "card": card}, 0)
        else:
            card = self.a_card_of(data, player)
            self.send({"type": "take", "player": player, "card": card}, 0)

    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        player = data.draw(st.sampled_from(self.ids(standing=False)))
        command: dict[str, Any] = {"type": "correct", "player": player, "reason": "vu"}
        if data.draw(st.booleans()):
            command["pv"] = data.draw(st.integers(-1, 40))
        else:
            command["card"] = self.a_card_of(data, player)
            command["ammo"] = data.draw(st.integers(-1, 8))
        self.send(command, 0)

    @rule(data=st.data())
    def place_close_or_eliminate(self, data: st.DataObject) -> None:
        sectors = [s.name for s in self.state.sectors] + ["Nowhere"]
        choice = data.draw(st.sampled_from(["place", "close", "eliminate", "pause", "resume"]))
        if choice == "place":
            players = data.draw(st.lists(st.sampled_from(self.ids(False)), min_size=1, max_size=3))
            sector = data.draw(st.sampled_from(sectors))
            self.send({"type": "place", "players": players, "sector": sector}, 0)
        elif choice == "close":
            closing = data.draw(st.lists(st.sampled_from(sectors), min_size=1, max_size=2))
            self.send({"type": "close", "sectors": closing}, 0)
        elif choice == "eliminate":
            player = data.draw(st.sampled_from(self.ids(False)))
            cause = data.draw(st.sampled_from(["zone", "out_of_bounds", "referee"]))
            self.send({"type": "eliminate", "player": player, "cause": cause}, 0)
        else:
            self.send({"type": choice}, 0)
        self.clock.advance(30)

    def teardown(self) -> None:
        if not hasattr(self, "state"):
            return
        standing = sum(not p.eliminated for p in self.state.players.values())
        event(f"{self.state.phase}, {standing} standing")
        event(f"{self.applied} applied, {self.refused} refused")

    # -- what always holds

    @invariant()
    def hit_points(self) -> None:
        for p in self.state.players.values():
            assert p.pv <= START_PV, f"{p.name} has {p.pv} PV, above the start"
            assert p.eliminated or p.pv > 0, f"{p.name} stands at {p.pv} PV"

    @invariant()
    def hands(self) -> None:
        for p in self.state.players.values():
            assert len(p.cards) <= MAX_CARDS, f"{p.name} holds {len(p.cards)} cards"
            looted = any(q.kind == "loot" and q.loser == p.id for q in self.state.pending)
            assert looted or not (p.eliminated and p.cards), f"{p.name} is out, holds cards"
            for held in p.cards:
                card = next(c for c in DECK if c.key == key_of(held.copy_id))
                if held.ammo is not None:
                    assert 0 <= held.ammo <= (card.ammo or 0), f"{held.copy_id}: {held.ammo}"

    @invariant()
    def every_copy_in_one_place(self) -> None:
        assert copies(self.state) == self.all_copies

    @invariant()
    def over_exactly_when_at_most_one_stands(self) -> None:
        standing = [p for p in self.state.players.values() if not p.eliminated]
        finished = self.state.phase == "finished"
        assert finished == (len(standing) <= 1)
        assert (self.state.result is not None) == finished
        if finished:
            assert self.state.result is not None
            winner = self.state.result.winner
            assert winner == (standing[0].id if standing else None)
            assert not self.state.pending
        eliminated = {e.player for e in self.state.eliminations}
        assert eliminated == {p.id for p in self.state.players.values() if p.eliminated}


RefereeSession.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRefereeSession = RefereeSession.TestCase
