"""The Killpower Ball board (chapter 1, 5, 7, TABLES 4, 5, 9), pure geometry: squares and their
names, distances, action zones, halves and basket zones, the path of a ball and the line of sight,
the squares a gladiator may reach, and where a missed ball lands.

Squares are (column, row): columns 1 to 27 along the length, rows 1 to 15 (A to O) across it, as
the book names them ("cases H1 et H27", the baskets; "H14", the centre). The board's picture was
lost in extraction: what it showed is read in `docs/readings.md` (Killpower Ball, the board).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from itertools import pairwise

Square = tuple[int, int]  # (column 1-27, row 1-15)

COLUMNS, ROWS = 27, 15  # 1: "27 mètres de long sur 15 de large"
LETTERS = "ABCDEFGHIJKLMNO"
HALFWAY = 14  # 1: "La ligne 14 délimite la ligne de séparation des 2 camps"
CENTRE: Square = (14, 8)  # 3.2: "au centre du terrain, sur la case H14"
BASKETS: dict[str, Square] = {"A": (1, 8), "B": (27, 8)}  # the basket each side defends
_NAME = re.compile(r"^([A-Oa-o])(\d{1,2})$")


def name(square: Square) -> str:
    """(14, 8) -> "H14"."""
    column, row = square
    return f"{LETTERS[row - 1]}{column}"


def parse(text: str) -> Square | None:
    """ "H14" -> (14, 8); None for what is not a square of the board."""
    found = _NAME.match(text.strip())
    if not found:
        return None
    square = (int(found[2]), LETTERS.index(found[1].upper()) + 1)
    return square if on_board(square) else None


def on_board(square: Square) -> bool:
    return 1 <= square[0] <= COLUMNS and 1 <= square[1] <= ROWS


def distance(a: Square, b: Square) -> int:
    """5.1: "une case dans n'importe quelle direction [...] diagonale" for one DEP point, so a
    distance counts diagonal steps as one (TABLE 9.H counts the squares to the target)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def near(a: Square | None, b: Square | None, reach: int = 1) -> bool:
    """Within `reach` squares (1: in the action zone)."""
    return a is not None and b is not None and distance(a, b) <= reach


def zone(square: Square) -> set[Square]:
    """1: an action zone, "la case qu'il occupe et des 8 cases autour de lui" (on the board)."""
    column, row = square
    return {
        (c, r)
        for c in range(column - 1, column + 2)
        for r in range(row - 1, row + 2)
        if on_board((c, r))
    }


def half_of(square: Square) -> str | None:
    """The side whose half a square is in (each defends the basket of its half); the halfway
    column is neither's."""
    if square[0] < HALFWAY:
        return "A"
    if square[0] > HALFWAY:
        return "B"
    return None


def basket_zone(side: str) -> set[Square]:
    """1: "3 cases de long sur 5 de large" in front of the basket, the basket in it: rows F to J,
    the three columns at the side's end."""
    columns = range(1, 4) if side == "A" else range(COLUMNS - 2, COLUMNS + 1)
    return {(c, r) for c in columns for r in range(6, 11)}


def path(a: Square, b: Square) -> list[Square]:
    """The squares a straight line between the centres of `a` and `b` passes through, "même d'un
    millimètre" (4.2, A VUE; 7, ATTRAPER LE BALLON: "tracez la trajectoire [...] entre le centre
    de la case du lanceur et le centre du lieu visé"), in order from `a` to `b`, both included.
    A line that only touches a corner crosses nothing of the squares beside it."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    if dx == dy == 0:
        return [a]
    # Where the line crosses a square's edge (square c spans c - 0.5 to c + 0.5): between two
    # crossings it is inside one square, found at the middle of the stretch.
    cuts = {0.0, 1.0}
    for start, delta in ((x0, dx), (y0, dy)):
        if delta:
            for k in range(min(start, start + delta), max(start, start + delta)):
                cuts.add((k + 0.5 - start) / delta)
    times = sorted(cuts)
    found: list[Square] = []
    for t0, t1 in pairwise(times):
        if t1 - t0 < 1e-12:
            continue
        middle = (t0 + t1) / 2
        square = (round(x0 + dx * middle), round(y0 + dy * middle))
        if not found or found[-1] != square:
            found.append(square)
    return found


def in_sight(a: Square, b: Square, occupied: Iterable[Square]) -> bool:
    """4.2, A VUE: "Si ce trait traverse une case occupée, même d'un millimètre", not seen; the
    two ends do not hide each other."""
    blocking = set(occupied) - {a, b}
    return not any(square in blocking for square in path(a, b))


def crossed_zones(a: Square, b: Square, zones: dict[int, Square]) -> list[int]:
    """7, ATTRAPER LE BALLON: those (by id, at their squares) whose action zone the ball's path
    crosses, nearest the thrower first; TABLE 6 (5): not on the thrower's own square."""
    line = [s for s in path(a, b) if s != a]
    order: list[tuple[int, int]] = []
    for who, square in zones.items():
        around = zone(square)
        first = next((i for i, s in enumerate(line) if s in around), None)
        if first is not None:
            order.append((first, who))
    return [who for _, who in sorted(order)]


# TABLE 4, the lost drawing read from its arrows (match_rules.DIRECTIONS): (column, row) steps.
STEPS: dict[int, Square] = {
    1: (-1, -1),
    2: (0, -1),
    3: (1, -1),
    4: (-1, 0),
    5: (1, 0),
    6: (-1, 1),
    7: (0, 1),
    8: (1, 1),
}


# The same directions as drawn on the phones' upright board (columns down, rows across): TABLE 4's
# "up" (towards row A) is drawn to the left.
UPRIGHT_ARROWS = {1: "↖", 2: "←", 3: "↙", 4: "↑", 5: "↓", 6: "↗", 7: "→", 8: "↘"}


def clamp(square: Square) -> Square:
    """7: a ball that would leave the field "doit être placé sur une case au sol adjacente au mur
    sur lequel il s'est écrasé"."""
    return (min(max(square[0], 1), COLUMNS), min(max(square[1], 1), ROWS))


def scattered(aimed: Square, away: int, way: int) -> Square:
    """TABLE 9.E: `away` squares from the aimed square in TABLE 4's direction `way`; 7: « s'il
    rencontre un obstacle, il s'écrase [...] il ne rebondit pas »: a ball that would fly off the
    field stops where its flight meets the wall, never slid along it (issue 33, item 4)."""
    dc, dr = STEPS[way]
    square = clamp(aimed)
    for _ in range(away):
        ahead = (square[0] + dc, square[1] + dr)
        if not on_board(ahead):
            break
        square = ahead
    return square


def in_view(thrower: Square, aimed: Square, landing: Square) -> bool:
    """7: "Si le résultat ne correspond pas à une case de l'angle de vision du tireur, rejetez
    le 1D10": the book gives gladiators no facing; Arbitre reads the view as the half-plane in
    front of the thrower, looking at the aimed square (a landing behind the thrower is rolled
    again)."""
    looking = (aimed[0] - thrower[0], aimed[1] - thrower[1])
    landing_way = (landing[0] - thrower[0], landing[1] - thrower[1])
    return looking[0] * landing_way[0] + looking[1] * landing_way[1] >= 0


def reachable(
    start: Square,
    allowance: int,
    occupied: Iterable[Square],
    enemy_zones: Iterable[Square],
    *,
    free: bool = False,
) -> dict[Square, int]:
    """5.1, 5.2: the squares a gladiator may end its move on, with the DEP each costs: one per
    step in any of the 8 directions, never onto or through an occupied square; entering an enemy
    action zone ends the move (going on takes a HAB roll: `free` once it succeeded, "sans plus
    tenir compte des ZA jusqu'à la fin du tour"), and one who starts in one does not move."""
    blocked = set(occupied) - {start}
    zones = set() if free else set(enemy_zones)
    if start in zones:
        return {}
    costs: dict[Square, int] = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        cost = costs[here]
        if cost == allowance or (here != start and here in zones):
            continue
        for dc, dr in STEPS.values():
            step = (here[0] + dc, here[1] + dr)
            if on_board(step) and step not in blocked and step not in costs:
                costs[step] = cost + 1
                queue.append(step)
    del costs[start]
    return costs
