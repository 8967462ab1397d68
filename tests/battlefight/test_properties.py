"""Properties of the step engine over random games with random legal choices: every game ends or
reaches the test's turn limit without an error; every card is in exactly one zone; life and damage
follow 2.5 and 4.4; replaying the recorded answers and dice rebuilds the state; and the options
offered are exactly the legal ones, checked against a brute-force enumeration of the book's
sentences (every cell of the board, every card of the hand, every technique)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.battlefight import board, engine
from server.games.battlefight.cards import TYPES, Technique
from server.games.battlefight.decks import random_deck, sample_collection
from server.games.battlefight.engine import BASE, Choice, Table
from server.platform.dice import CommandDice, ReplayDice

COLLECTION = sample_collection()
TURN_LIMIT = 150

# A few cards beyond the sample, so that every keyword and both modifiers come up.
EXTRA = [
    Technique(key="ruee", title="Ruée", type="movement", steps=["Vitesse 1", "Se déplacer 1"]),
    Technique(
        key="tous-pioches",
        title="Tous pioches",
        type="concentration",
        steps=["Tout le monde a Piocher 1"],
    ),
    Technique(
        key="bousculade",
        title="Bousculade",
        type="attack",
        steps=["Corps à corps", "Pousser 2", "Blesser 1"],
    ),
    Technique(
        key="mur",
        title="Mur",
        type="defence",
        steps=["Protection 2", "S'empêcher attaque", "Stable 2"],
    ),
    Technique(
        key="provocation",
        title="Provocation",
        type="rhetoric",
        steps=["L'adversaire a Se déplacer 1", "Charme 1", "Rejouer"],
    ),
    Technique(
        key="sacrifice",
        title="Sacrifice",
        type="attack",
        steps=["Se blesser 2", "Force 2", "Distance", "Blesser 2", "Si possible défausser 2"],
    ),
    Technique(
        key="silence",
        title="Silence",
        type="rhetoric",
        steps=["S'empêcher carte", "Défausser 1", "Stable 1", "Déstabiliser"],
    ),
]


@dataclass
class Recorder:
    """The dice of a game: the server's own source, every roll kept for the replay."""

    rng: random.Random
    rolls: list[dict[str, Any]] = field(default_factory=list)

    def dice(self) -> CommandDice:
        dice = CommandDice(source=lambda sides: self.rng.randint(1, sides))
        return dice

    def keep(self, dice: CommandDice) -> None:
        self.rolls.extend(dice.rolls)


def deal(rng: random.Random, players: int, recorder: Recorder, physical: bool = False) -> Table:
    collection = COLLECTION + EXTRA
    seats = []
    for n in range(players):
        dice = recorder.dice()
        deck = random_deck(collection, dice, f"p{n}")
        seats.append((n + 1, "ABCDEF"[n], deck))
    dice = recorder.dice()
    table = engine.new_table(seats, dice, physical=physical)
    recorder.keep(dice)
    return table


# ---------------------------------------------------------------------------- brute force


def legal_options(table: Table, choice: Choice) -> set[str]:
    """The book's sentences, enumerated over everything there is, not the engine's shortcuts."""
    player = table.seat(choice.player)
    occupied = {s.cell for s in table.seats if not s.lost and s.cell is not None}
    if choice.kind == "technique":  # 3.4.1, 4.4.16, 4.4.17
        candidates = [(k, False) for k in BASE] + [(c, True) for c in player.hand]
        return {k for k, card in candidates if not forbidden(table, player.id, k, card)}
    if choice.kind == "target":  # 3.4.2: one of the opponents, never oneself or one who lost
        return {str(s.id) for s in table.seats if s.id != player.id and not s.lost}
    if choice.kind == "cell":  # 4.4.15: one's own cell or an adjacent one, unoccupied
        here = player.cell
        assert here is not None
        return {
            board.label(c)
            for c in board.cells()
            if board.distance(c, here) <= 1 and (c == here or c not in occupied)
        }
    if choice.kind == "push":  # 4.4.11
        frame = table.stack[-1]
        assert frame.aim is not None and frame.actor is not None
        pushed, pusher = table.seat(frame.aim).cell, table.seat(frame.actor).cell
        assert pushed is not None and pusher is not None
        if any(board.distance(pushed, c) == 1 for c in outside_ring()):
            return {"off", "stay"}
        gap = board.distance(pusher, pushed)
        return {
            board.label(c)
            for c in board.cells()
            if board.distance(c, pushed) == 1
            and c not in occupied
            and board.distance(c, pusher) > gap
        }
    if choice.kind == "discard":  # 4.4.5, 4.4.18, 4.4.8: any card of the hand
        return set(player.hand)
    if choice.kind == "drawn":  # physical cards: one copy of each different card of the pile
        keys = Counter(table.technique(c).key for c in player.draw)
        assert len(keys) > 1, "a pile of one kind of card asks nothing"
        first = {k: next(c for c in player.draw if table.technique(c).key == k) for k in keys}
        return set(first.values())
    if choice.kind == "destabilise":  # 4.4.8: a Stable technique the hand can pay, or none
        charm = sum(
            e.n
            for a in table.active
            for e in a.effects
            if e.player == player.id and e.keyword == "charm"
        )
        return {"none"} | {
            str(a.uid) for a in table.active if a.stable and len(player.hand) >= a.cost - charm
        }
    raise AssertionError(choice.kind)


def outside_ring() -> list[tuple[int, int]]:
    """The cells just off the board: a cell is at the edge when one of its sides touches them."""
    inside = set(board.cells())
    return [
        (q, r)
        for q in range(-5, 6)
        for r in range(-5, 6)
        if (q, r) not in inside and any(board.distance((q, r), c) == 1 for c in inside)
    ]


def forbidden(table: Table, player: int, key: str, card: bool) -> bool:
    kind = table.technique(key).type
    for a in table.active:
        for e in a.effects:
            if e.player != player:
                continue
            if e.keyword == "forbid_type" and e.type == kind:
                return True
            if e.keyword == "forbid_card" and card and (e.type is None or e.type == kind):
                return True
    return False


# ---------------------------------------------------------------------------- invariants


def check(table: Table, decks: dict[int, Counter[str]]) -> None:
    for seat in table.seats:
        zones = seat.draw + seat.hand + seat.discard
        zones += [
            a.technique for a in table.active if a.owner == seat.id and a.technique in table.cards
        ]
        assert Counter(zones) == Counter({c: 1 for c in decks[seat.id]}), (
            "a card is in two zones or none"
        )
        assert seat.damage >= 0
        # 2.5 and 4.4.2: damage moves life onto damage points and back; halving and the end of a
        # turn only take away. Nothing gives life beyond the 20 of 2.1.5.
        assert seat.life + seat.damage <= engine.STARTING_LIFE
        assert seat.lost == (seat.id in table.out)
        if not seat.lost:
            assert seat.life > 0 and seat.cell is not None
    cells = [s.cell for s in table.seats if not s.lost]
    assert len(cells) == len(set(cells)), "two pawns on one cell (1.2.4)"
    assert all(c is None or board.on_board(c) for c in cells)
    assert not any(table.seat(a.owner).lost for a in table.active), (
        "2.4: an eliminated player's technique is still active"
    )
    if table.finished:
        playing = [s.id for s in table.seats if not s.lost]
        assert table.winner == (playing[0] if len(playing) == 1 else None)
        assert table.pending is None
    elif table.unsettled is None:
        assert table.pending is not None
        assert not table.seat(table.pending.player).lost
        offered = set(table.pending.options)
        assert len(offered) == len(table.pending.options), "an option offered twice"
        assert offered == legal_options(table, table.pending)
        if table.pending.kind == "technique" and not table.stack:
            # 2.5: at the start of a turn, the previous player's damage is back to 0
            previous = table.seats[(table.turn - 1) % len(table.seats)]
            if table.turns and not previous.lost:
                assert previous.damage == 0 or previous.id == table.pending.player


def pick(rng: random.Random, table: Table, choice: Choice) -> list[str]:
    """A random legal answer, leaning towards a fight: cards before base techniques, and cells
    nearer the others, so that pushes, blows and losses come up in short games."""
    if choice.kind == "discard":
        return rng.sample(choice.options, choice.count)
    if choice.kind == "technique" and rng.random() < 0.6:
        cards = [o for o in choice.options if o in table.cards]
        if cards:
            return [rng.choice(cards)]
    if choice.kind == "cell" and rng.random() < 0.8:
        others = [s.cell for s in table.seats if s.id != choice.player and not s.lost and s.cell]

        def nearest(label: str) -> int:
            cell = board.parse_label(label)
            assert cell is not None
            return min(board.distance(cell, o) for o in others)

        return [min(choice.options, key=nearest)]
    return [rng.choice(choice.options)]


Answer = tuple[int, list[str], list[dict[str, Any]]]  # who, what, and the dice it rolled


def play_out(seed: int, players: int, physical: bool = False) -> tuple[Table, Table, list[Answer]]:
    rng = random.Random(seed)
    recorder = Recorder(rng)
    table = deal(rng, players, recorder, physical)
    start = table.model_copy(deep=True)
    decks = {s.id: Counter(c for c in table.cards if c.startswith(f"{s.id}:")) for s in table.seats}
    answers: list[Answer] = []
    check(table, decks)
    while not table.finished and table.unsettled is None and table.turns < TURN_LIMIT:
        assert table.pending is not None
        chosen = pick(rng, table, table.pending)
        player = table.pending.player
        dice = recorder.dice()
        engine.answer(table, player, chosen, dice)
        answers.append((player, chosen, dice.rolls))
        check(table, decks)
    return start, table, answers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), physical=st.booleans())
def test_random_games_keep_every_rule(seed: int, players: int, physical: bool) -> None:
    play_out(seed, players, physical)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), physical=st.booleans())
def test_replaying_the_answers_and_dice_rebuilds_the_state(
    seed: int, players: int, physical: bool
) -> None:
    start, end, answers = play_out(seed, players, physical)
    table = Table.model_validate_json(start.model_dump_json())  # from stored data, as the log is
    for player, chosen, rolls in answers:
        replay = ReplayDice(rolls)
        engine.answer(table, player, chosen, replay)
        assert not replay.pending, "a recorded die was not asked again"
    assert table == end


def test_the_enumeration_catches_a_missing_or_an_illegal_option() -> None:
    """The brute force is not the engine in disguise: an option taken away or added is seen."""
    start, _, _ = play_out(7, 2)
    pending = start.pending
    assert pending is not None and pending.kind == "technique"
    assert set(pending.options) == legal_options(start, pending)
    fewer = pending.model_copy(update={"options": pending.options[1:]})
    more = pending.model_copy(update={"options": [*pending.options, "1:1"]})
    assert set(fewer.options) != legal_options(start, fewer)
    assert (
        set(more.options) != legal_options(start, more) or "1:1" in start.seat(pending.player).hand
    )


def test_the_random_games_meet_every_choice_and_ending() -> None:
    """The properties above are only worth the games they see: across a fixed set of seeds, every
    kind of choice is asked and games end in each way the engine knows."""
    kinds: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        recorder = Recorder(rng)
        table = deal(rng, 2 + seed % 3, recorder, physical=seed % 2 == 1)
        while not table.finished and table.unsettled is None and table.turns < TURN_LIMIT:
            assert table.pending is not None
            kinds[table.pending.kind] += 1
            engine.answer(
                table, table.pending.player, pick(rng, table, table.pending), recorder.dice()
            )
        endings["won" if table.finished else "unsettled" if table.unsettled else "limit"] += 1
    assert set(kinds) == {
        "technique",
        "target",
        "cell",
        "push",
        "discard",
        "destabilise",
        "drawn",
    }, kinds
    assert endings["won"] > 0 and endings["limit"] > 0, endings
    assert all(t in TYPES for t in {t.type for t in COLLECTION + EXTRA})
