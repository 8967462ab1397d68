"""The board of 1.2, by tables: 37 cells, adjacency, distance, edges and corners (2.1.3)."""

from __future__ import annotations

from itertools import combinations

import pytest

from server.games.battlefight import board
from server.games.battlefight.board import (
    cells,
    distance,
    free_steps,
    label,
    neighbours,
    on_edge,
    parse_label,
    push_cells,
    smallest_gap,
    starting_cells,
)


def test_a_hexagon_of_four_by_four_by_four_cells_has_37() -> None:  # 1.2.1
    assert len(cells()) == len(set(cells())) == 37
    assert [sum(1 for c in cells() if c[1] == r) for r in range(-3, 4)] == [4, 5, 6, 7, 6, 5, 4]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("D4", "D4", 0),
        ("D4", "D5", 1),  # 1.2.3: adjacent cells are at distance 1
        ("D4", "C4", 1),
        ("D4", "E3", 1),
        ("D1", "D7", 6),  # across the middle row
        ("A1", "G4", 6),  # opposite corners
        ("A1", "A4", 3),  # along an edge
        ("A1", "D7", 6),
        ("B2", "F3", 4),
        ("C1", "E5", 5),  # two rows down cover one cell sideways, three more along the row
    ],
)
def test_distance_counts_the_changes_of_cell(a: str, b: str, expected: int) -> None:
    ca, cb = parse_label(a), parse_label(b)
    assert ca is not None and cb is not None
    assert distance(ca, cb) == distance(cb, ca) == expected


def test_adjacent_means_sharing_a_side() -> None:  # 1.2.2
    centre = parse_label("D4")
    assert centre is not None
    assert sorted(label(c) for c in neighbours(centre)) == ["C3", "C4", "D3", "D5", "E3", "E4"]
    for cell in cells():
        assert all(distance(cell, n) == 1 for n in neighbours(cell))
        assert len(neighbours(cell)) == sum(1 for o in cells() if distance(cell, o) == 1)


@pytest.mark.parametrize(("name", "count"), [("D4", 6), ("A1", 3), ("A2", 4), ("D1", 3), ("C2", 6)])
def test_edges_and_corners_have_fewer_neighbours(name: str, count: int) -> None:
    cell = parse_label(name)
    assert cell is not None
    assert len(neighbours(cell)) == count
    assert on_edge(cell) == (count < 6)


def test_eighteen_cells_on_the_edge_six_corners() -> None:
    assert sum(on_edge(c) for c in cells()) == 18
    assert [label(c) for c in board.corners()] == ["A1", "A4", "D7", "G4", "G1", "D1"]
    assert all(len(neighbours(c)) == 3 for c in board.corners())


@pytest.mark.parametrize(
    ("players", "labels", "gap"),
    [
        (2, ["A1", "G4"], 6),
        (3, ["A1", "D7", "G1"], 6),
        (4, ["A1", "A4", "G4", "G1"], 3),
        (5, ["A1", "A4", "D7", "G4", "G1"], 3),
        (6, ["A1", "A4", "D7", "G4", "G1", "D1"], 3),
    ],
)
def test_pawns_start_in_corners_as_far_apart_as_possible(
    players: int, labels: list[str], gap: int
) -> None:  # 2.1.3
    placed = starting_cells(players)
    assert [label(c) for c in placed] == labels
    assert smallest_gap(placed) == gap
    best = max(smallest_gap(list(c)) for c in combinations(board.corners(), players))
    assert gap == best


def test_a_seventh_player_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        starting_cells(7)


def test_labels_name_every_cell_once() -> None:
    assert len({label(c) for c in cells()}) == 37
    assert all(parse_label(label(c)) == c for c in cells())
    assert parse_label("d4") == (0, 0) and parse_label("H1") is None and parse_label("A5") is None


def test_a_move_goes_to_one_s_own_cell_or_a_free_neighbour() -> None:  # 4.4.15
    me, other = parse_label("D4"), parse_label("D5")
    assert me is not None and other is not None
    steps = free_steps(me, [me, other])
    assert me in steps and other not in steps and len(steps) == 6


def test_a_push_goes_farther_from_the_pusher() -> None:  # 4.4.11
    pusher, pushed = parse_label("D3"), parse_label("D4")
    assert pusher is not None and pushed is not None
    assert sorted(label(c) for c in push_cells(pusher, pushed, [pusher, pushed])) == [
        "C4",
        "D5",
        "E4",
    ]
    blocked = parse_label("D5")
    assert blocked is not None
    assert blocked not in push_cells(pusher, pushed, [pusher, pushed, blocked])
