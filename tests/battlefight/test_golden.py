"""Golden tests: the five base techniques (3.3) and the sample cards, each played from a position
written out by hand, with the choices it asks, and the position after it, reckoned from the book's
sentences (chapter 4) rather than from the engine. A row fails on a choice it did not script."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.games.battlefight import board, engine
from server.games.battlefight.cards import BASE_TECHNIQUES, Technique
from server.games.battlefight.decks import sample_collection
from server.games.battlefight.engine import Table
from server.platform.dice import CommandDice, ScriptedRolls

A, B = 1, 2
CARDS = {t.title: t for t in [*sample_collection(), *BASE_TECHNIQUES]}


def dice() -> CommandDice:
    return CommandDice(ScriptedRolls.cycle())


@dataclass
class Row:
    """`play`: the title A plays; `answers`: what is asked next, in order (a cell, "off", "none",
    a target's letter, or "#Title" for a card of that title); `after`: per letter, the points and
    zones expected (only those given are compared), "active": titles still active, "asks": who is
    asked what next."""

    play: str
    after: dict[str, Any]
    cells: tuple[str, str] = ("D4", "D5")
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    draws: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    before: Callable[[Table], None] | None = None
    answers: tuple[str, ...] = ()
    then: tuple[tuple[str, str], ...] = ()  # then these players play these titles (and no more)
    id: str = field(default="")


def position(row: Row) -> Table:
    """A plays first; hands and piles as written (a pile's first title on top)."""
    decks: list[list[Technique]] = []
    for n in range(2):
        titles = [row.play] if n == 0 and row.play in CARDS and not CARDS[row.play].base else []
        titles += [*row.hands[n], *row.draws[n]]
        decks.append([CARDS[t] for t in titles])
    t = engine.new_table([(A, "A", decks[0]), (B, "B", decks[1])], dice(), first=0)
    for n, seat in enumerate(t.seats):
        copies = [c for c in t.cards if c.startswith(f"{seat.id}:")]
        copies.sort(key=lambda c: int(c.split(":")[1]))
        in_hand = len(decks[n]) - len(row.draws[n])
        seat.hand, seat.draw = copies[:in_hand], copies[in_hand:]
        seat.cell = board.parse_label(row.cells[n])
    t.pending = None
    engine.start_turn(t)  # asked again, from the hands just dealt
    if row.before:
        row.before(t)
    return t


def resolve(t: Table, value: str) -> str:
    assert t.pending is not None, f"nothing is asked, yet the row answers {value}"
    if value.startswith("#"):
        return next(o for o in t.pending.options if o in t.cards and t.cards[o].title == value[1:])
    if value in "AB" and t.pending.kind == "target":
        return str(A if value == "A" else B)
    return value


def choose(t: Table, player: int, title: str) -> None:
    seat = t.seat(player)
    key = next((c for c in seat.hand if t.cards[c].title == title), None)
    key = key or next(b.key for b in BASE_TECHNIQUES if b.title == title)
    assert t.pending is not None and t.pending.kind == "technique" and t.pending.player == player
    engine.answer(t, player, [key], dice())


def snapshot(t: Table, letter: str) -> dict[str, Any]:
    seat = t.seat(A if letter == "A" else B)
    points = {k: t.points(seat.id, k) for k in ("force", "protection", "speed", "charm")}  # type: ignore[arg-type]
    return {
        "life": seat.life,
        "damage": seat.damage,
        "cell": board.label(seat.cell) if seat.cell else None,
        "hand": sorted(t.technique(c).title for c in seat.hand),
        "discard": sorted(t.technique(c).title for c in seat.discard),
        "draw": len(seat.draw),
        "lost": seat.lost,
        **{k: v for k, v in points.items()},
    }


def hurt(letter: str, life: int, damage: int) -> Callable[[Table], None]:
    def set_up(t: Table) -> None:
        seat = t.seat(A if letter == "A" else B)
        seat.life, seat.damage = life, damage

    return set_up


def stable_for_b(title: str) -> Callable[[Table], None]:
    """B has played `title` before, and it stayed active (Stable)."""

    def set_up(t: Table) -> None:
        technique = CARDS[title]
        t.cards["2:99"] = technique
        t.seat(B).hand.append("2:99")
        t.pending = None
        t.turn = 1
        engine.start_turn(t)
        engine.answer(t, B, ["2:99"], dice())
        assert t.pending is not None and t.pending.player == A, "B's technique should be Stable"

    return set_up


ROWS = [
    # 3.3.1 Attaque de base: Corps à corps, Blesser 1 (4.4.4, 4.4.1)
    Row(
        "Attaque de base",
        {"B": {"life": 19, "damage": 1}, "A": {"damage": 0}, "asks": ("B", "technique")},
        id="base attack, adjacent",
    ),
    Row(
        "Attaque de base",
        {"B": {"life": 20, "damage": 0}},
        cells=("D4", "D6"),
        id="base attack, too far: fails",
    ),
    # 3.3.2 Défense de base: Bloquer 1 (4.4.2): N < damage: +N life, -N damage
    Row(
        "Défense de base",
        {"A": {"life": 18, "damage": 0}},
        before=hurt("A", 17, 2),
        id="base defence, blocks 1 of 2 (the rest reset at the turn's end)",
    ),
    Row("Défense de base", {"A": {"life": 20, "damage": 0}}, id="base defence, nothing to block"),
    # 3.3.3 Déplacement de base: Se déplacer 1 (4.4.15): one's own cell or a free adjacent one
    Row(
        "Déplacement de base",
        {"A": {"cell": "C4"}, "asks": ("B", "technique")},
        answers=("C4",),
        id="base movement",
    ),
    Row("Déplacement de base", {"A": {"cell": "D4"}}, answers=("D4",), id="base movement, staying"),
    # 3.3.4 Concentration de base: Piocher 1 (4.4.10)
    Row(
        "Concentration de base",
        {"A": {"hand": ["Parade"], "draw": 1}},
        draws=(("Parade", "Course"), ()),
        id="base concentration",
    ),
    Row(
        "Concentration de base",
        {"A": {"life": 10, "hand": ["Parade"], "discard": [], "draw": 0}},
        before=lambda t: (t.seat(A).discard.extend(t.seat(A).hand), t.seat(A).hand.clear()),
        hands=(("Parade",), ()),
        id="base concentration, empty pile: life halved, discard shuffled in",
    ),
    Row(
        "Concentration de base",
        {"A": {"life": 8, "hand": []}},
        before=hurt("A", 15, 0),
        id="empty pile and discard: 15 halved up to 8",
    ),
    # 3.3.5 Rhétorique de base: Déstabiliser (4.4.8), nothing Stable: nothing happens
    Row(
        "Rhétorique de base",
        {"A": {"life": 20}, "active": [], "asks": ("B", "technique")},
        id="base rhetoric, nothing to destabilise",
    ),
    # Sample cards
    Row(
        "Coup de poing",
        {"B": {"life": 18}, "A": {"discard": ["Coup de poing"], "hand": []}},
        id="Coup de poing",
    ),
    Row(
        "Frappe lourde",
        {"B": {"life": 17}, "A": {"force": 0, "discard": ["Frappe lourde"]}},
        id="Frappe lourde: Force 1 counts, then ends",
    ),
    Row("Tir à l'arc", {"B": {"life": 18}}, cells=("D4", "D6"), id="Tir à l'arc at distance 2"),
    Row(
        "Tir à l'arc",
        {"B": {"life": 20}, "A": {"discard": ["Tir à l'arc"]}},
        id="Tir à l'arc adjacent: fails",
    ),
    Row(
        "Balayage",
        {"B": {"life": 19, "cell": "D6"}},
        answers=("D6",),
        id="Balayage: push to a farther free cell",
    ),
    Row(
        "Balayage",
        {"B": {"life": 19, "lost": True}, "asks": None},
        cells=("D6", "D7"),
        answers=("off",),
        id="Balayage at the edge: off the board, B loses",
    ),
    Row(
        "Assaut furieux",
        {"B": {"life": 17}, "A": {"life": 19, "damage": 0}},
        id="Assaut furieux: hurts both; A's damage reset at the turn's end",
    ),
    Row(
        "Lame tournoyante",
        {"A": {"life": 19}, "B": {"life": 17}},
        cells=("A1", "G4"),
        id="Lame tournoyante: everyone hurts themselves, then 2 at any distance",
    ),
    Row(
        "Parade",
        {"A": {"life": 19, "damage": 0}},
        before=hurt("A", 17, 3),
        id="Parade blocks 2 of 3",
    ),
    Row(
        "Parade",
        {"A": {"life": 18, "damage": 0}},
        before=hurt("A", 17, 1),
        id="Parade with 1 damage: gives back 1",
    ),
    Row(
        "Bouclier",
        {"A": {"protection": 1, "life": 20}, "active": ["Bouclier"]},
        then=(("B", "Attaque de base"),),
        id="Bouclier: stays, and its Protection stops a blow of 1",
    ),
    Row(
        "Garde de fer",
        {"A": {"protection": 2}, "active": ["Garde de fer"], "forbidden": ("A", "Attaque de base")},
        then=(("B", "Défense de base"),),
        id="Garde de fer: no attack while active",
    ),
    Row(
        "Esquive",
        {"A": {"cell": "C3", "life": 19, "damage": 0}},
        before=hurt("A", 18, 2),
        answers=("C3",),
        id="Esquive: moves, then blocks 1",
    ),
    Row(
        "Repli",
        {"A": {"life": 15, "damage": 0}},
        before=hurt("A", 15, 5),
        id="Repli adjacent: fails before blocking",
    ),
    Row(
        "Repli",
        {"A": {"life": 18, "damage": 0}},
        cells=("D4", "D6"),
        before=hurt("A", 15, 5),
        id="Repli at distance 2: blocks 3",
    ),
    Row("Course", {"A": {"cell": "B3"}}, answers=("C3", "B3"), id="Course: two steps"),
    Row(
        "Bond",
        {"A": {"cell": "B3", "speed": 0}},
        answers=("C3", "B3"),
        id="Bond: Vitesse 1 makes one step two",
    ),
    Row(
        "Charge",
        {"B": {"life": 19}},
        cells=("D2", "D5"),
        answers=("D3", "D4"),
        id="Charge: closes in, then hits",
    ),
    Row(
        "Pas de côté",
        {"A": {"cell": "C4"}, "B": {"life": 19}},
        answers=("C4",),
        then=(("A", "Attaque de base"),),
        id="Pas de côté: a step, then plays again",
    ),
    Row(
        "Poursuite",
        {"A": {"speed": 1}, "active": ["Poursuite"]},
        id="Poursuite stays Stable with its Speed",
    ),
    Row(
        "Croc-en-jambe",
        {"B": {"cell": "D6"}},
        answers=("D6",),
        id="Croc-en-jambe: the opponent's Se déplacer -1 does nothing, then a push",
    ),
    Row(
        "Méditation",
        {"A": {"hand": ["Course", "Parade"], "draw": 1}},
        draws=(("Parade", "Course", "Bond"), ()),
        id="Méditation draws 2",
    ),
    Row(
        "Souffle",
        {"A": {"hand": ["Parade"], "life": 18, "damage": 0}},
        draws=(("Parade",), ()),
        before=hurt("A", 17, 2),
        id="Souffle: draws, blocks 1",
    ),
    Row(
        "Étude",
        {"A": {"hand": ["Course", "Parade"], "discard": ["Bond", "Étude"]}},
        draws=(("Parade", "Course", "Bond"), ()),
        answers=("#Bond",),
        id="Étude: draws 3, discards the one chosen",
    ),
    Row(
        "Transe",
        {"A": {"charm": 1, "hand": ["Parade"]}, "active": ["Transe"]},
        draws=(("Parade",), ()),
        id="Transe: Charme 1 while Stable",
    ),
    Row(
        "Sacrifice",
        {"A": {"life": 18, "hand": ["Bond", "Course", "Parade"]}},
        draws=(("Parade", "Course", "Bond"), ()),
        id="Sacrifice: 2 damage, 3 cards",
    ),
    Row(
        "Provocation",
        {"B": {"hand": ["Bond"], "discard": ["Parade"]}},
        hands=((), ("Parade", "Bond")),
        answers=("#Parade",),
        id="Provocation: the opponent discards their choice",
    ),
    Row(
        "Provocation",
        {"B": {"hand": [], "discard": []}, "asks": ("B", "technique")},
        id="Provocation, empty hand: fails, nothing to discard",
    ),
    Row(
        "Sermon",
        {"A": {"hand": [], "discard": ["Sermon"]}, "B": {"hand": [], "discard": ["Parade"]}},
        hands=((), ("Parade",)),
        id="Sermon: each discards 1 if they can",
    ),
    Row(
        "Charisme",
        {"A": {"charm": 2}, "active": ["Charisme"]},
        id="Charisme: Charme 2 while Stable",
    ),
    Row(
        "Intimidation",
        {"active": ["Intimidation"], "forbidden": ("B", "Attaque de base")},
        id="Intimidation: the opponent may not attack",
    ),
    Row(
        "Diversion",
        {"active": ["Diversion"], "forbidden": ("B", "Parade")},
        hands=((), ("Parade",)),
        id="Diversion: the opponent may play no card",
    ),
    Row(
        "Sophisme",
        {
            "A": {"hand": [], "discard": ["Parade", "Sophisme"]},
            "B": {"protection": 0, "discard": ["Bouclier"]},
            "active": [],
            "asks": ("B", "technique"),
        },
        hands=(("Parade",), ()),
        before=stable_for_b("Bouclier"),
        answers=("1",),
        then=(("A", "Défense de base"),),
        id="Sophisme: pays 1 card to end B's Bouclier, then plays again",
    ),
]


def uid_of(t: Table, title: str) -> str:
    return next(str(a.uid) for a in t.active if t.technique(a.technique).title == title)


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_a_technique_from_a_written_position(row: Row) -> None:
    t = position(row)
    choose(t, A, row.play)
    for value in row.answers:
        assert t.pending is not None, f"nothing more is asked, yet the row answers {value}"
        if t.pending.kind == "destabilise" and value.isdigit():
            value = uid_of(t, "Bouclier")
        engine.answer(t, t.pending.player, [resolve(t, value)], dice())
    for letter, title in row.then:
        choose(t, A if letter == "A" else B, title)
    for letter in ("A", "B"):
        got = snapshot(t, letter)
        for key, value in row.after.get(letter, {}).items():
            assert got[key] == value, f"{letter}.{key}: {got[key]!r}, expected {value!r}"
    if "active" in row.after:
        assert sorted(t.technique(a.technique).title for a in t.active) == row.after["active"]
    # Strict: once the row's answers are given, the next turn begins; nothing else is asked.
    last = row.then[-1][0] if row.then else "A"
    expected = row.after.get("asks", ("B" if last == "A" else "A", "technique"))
    asked = t.pending and ("A" if t.pending.player == A else "B", t.pending.kind)
    assert asked == expected, t.pending
    if "forbidden" in row.after:
        letter, title = row.after["forbidden"]
        player = A if letter == "A" else B
        titles = {t.technique(k).title for k in engine.playable(t, player)}
        assert title not in titles and titles, titles
