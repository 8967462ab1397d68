"""The board (1.2): a hexagonal grid of 4 by 4 by 4 hexagonal cells, 37 in all; two cells are
adjacent when they share a side; the distance is the number of cell changes from one to the other.

Cells are in axial coordinates (q, r), the third cube coordinate being s = -q - r (Red Blob Games,
"Hexagonal Grids": axial and cube coordinates, distances, neighbours, rings). The board is the
hexagon of radius 3 around (0, 0). Drawn with pointy-top cells, r grows downwards and q to the
right; rows are lettered A to G from the top and cells numbered from the left ("D4" is the centre).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache

Cell = tuple[int, int]

RADIUS = 3  # 4 cells a side
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ROWS = "ABCDEFG"


def ring_of(cell: Cell) -> int:
    """How far from the centre: 0 for the centre, 3 on the edge."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def on_board(cell: Cell) -> bool:
    return ring_of(cell) <= RADIUS


@cache
def cells() -> tuple[Cell, ...]:
    """The 37 cells, row by row from the top, left to right."""
    return tuple(
        (q, r)
        for r in range(-RADIUS, RADIUS + 1)
        for q in range(-RADIUS, RADIUS + 1)
        if on_board((q, r))
    )


def distance(a: Cell, b: Cell) -> int:
    """1.2.3: the number of changes of cell from a to b."""
    return ring_of((a[0] - b[0], a[1] - b[1]))


def neighbours(cell: Cell) -> list[Cell]:
    """1.2.2: the cells sharing a side with this one, on the board."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS if on_board((q + dq, r + dr))]


def on_edge(cell: Cell) -> bool:
    """A cell with fewer than six neighbours: from there, a push may put a pawn off (4.4.11)."""
    return ring_of(cell) == RADIUS


def corners() -> list[Cell]:
    """The six corners, clockwise as drawn, from the top-left one."""
    return [(0, -3), (3, -3), (3, 0), (0, 3), (-3, 3), (-3, 0)]


# 2.1.3: pawns in corners, as far from each other as possible; assigned clockwise in play order
# (spec, "Starting corners"): opposite corners for 2, every other corner for 3, two opposite
# pairs for 4, five of the six for 5, all for 6.
CORNER_CHOICE = {
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}


def starting_cells(players: int) -> list[Cell]:
    if players not in CORNER_CHOICE:
        raise ValueError(f"BattleFight is played by 2 to 6 players, not {players}")
    return [corners()[i] for i in CORNER_CHOICE[players]]


def smallest_gap(placed: Sequence[Cell]) -> int:
    """The smallest distance between two of these cells."""
    return min(distance(a, b) for i, a in enumerate(placed) for b in placed[i + 1 :])


def label(cell: Cell) -> str:
    """ "D4": the row's letter from the top, the cell's number in its row from the left."""
    q, r = cell
    first_q = max(-RADIUS, -RADIUS - r)
    return f"{ROWS[r + RADIUS]}{q - first_q + 1}"


@cache
def _by_label() -> dict[str, Cell]:
    return {label(c): c for c in cells()}


def parse_label(text: str) -> Cell | None:
    """The cell a label names ("d4" as well as "D4"), or None."""
    return _by_label().get(text.strip().upper())


def free_steps(cell: Cell, occupied: Iterable[Cell]) -> list[Cell]:
    """4.4.15: where one move may go: one's own cell or an adjacent one, unoccupied."""
    taken = set(occupied) - {cell}
    return [cell, *(n for n in neighbours(cell) if n not in taken)]


def push_cells(pusher: Cell, pushed: Cell, occupied: Iterable[Cell]) -> list[Cell]:
    """4.4.11: the cells a push may put the opponent on: adjacent to them, unoccupied, and
    farther from the pusher than the opponent is now."""
    taken = set(occupied)
    gap = distance(pusher, pushed)
    return [n for n in neighbours(pushed) if n not in taken and distance(pusher, n) > gap]


def centre(cell: Cell, size: float = 1.0) -> tuple[float, float]:
    """Where a cell's centre is drawn (pointy-top cells of circumradius `size`)."""
    q, r = cell
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def outline(cell: Cell, size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a cell as drawn (pointy top), for an SVG polygon."""
    x, y = centre(cell, size)
    return [
        (
            x + size * math.cos(math.radians(60 * i - 30)),
            y + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]
