"""The board kept by a match (an option at its start): each gladiator's square and the ball's,
moves checked against the book (5.1, 5.2), and what the paper game measures by eye computed from
the squares (`board`): distances, action zones, the HAB divisor, sight, who a throw passes by, where
a missed ball lands, basket-zone offences (TABLE 5). Positions are public; nothing secret is here.

Without the board a match is played on the sheet alone and none of this runs.
"""

from __future__ import annotations

from typing import Any

from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.board import Square
from server.games.killpower.match import effects
from server.games.killpower.match.commands import BlindMove, Move
from server.games.killpower.match.play import Play, Refused
from server.games.killpower.match.state import Fighter, MatchState
from server.games.killpower.match_rules import Side, other
from server.i18n import N_, P_

# Arbitre's reading of the lost drawing (docs/readings.md): each team's side-line zone runs along
# a long side of the field in its own half, A's along row A, B's along row O; one DEP steps from it
# onto the field's edge square in front.
ENTRY_ROW = {"A": 1, "B": board.ROWS}


def square_of(s: MatchState, f: Fighter) -> Square | None:
    return s.square_of(f)


def on_field(s: MatchState) -> list[tuple[Fighter, Square]]:
    return [(f, sq) for f in s.fighters.values() if (sq := square_of(s, f)) is not None]


def occupied(s: MatchState) -> set[Square]:
    return {sq for _, sq in on_field(s)}


def has_zone(f: Fighter) -> bool:
    """5.1: an inert gladiator, or one on the ground, has no action zone."""
    return f.where == "field" and not f.inert and not f.has("on_ground")


def enemy_zones(s: MatchState, side: Side) -> list[Square]:
    """The squares of every action zone of `side`'s enemies on the field (one per zone: a square
    in two zones is listed twice)."""
    return [z for f, sq in on_field(s) if f.side != side and has_zone(f) for z in board.zone(sq)]


def zones_on(s: MatchState, f: Fighter) -> int:
    """5.2: the number of enemy action zones a gladiator stands in (HAB is divided by it)."""
    here = square_of(s, f)
    return sum(1 for z in enemy_zones(s, f.side) if z == here) if here else 0


def ball_square(s: MatchState) -> Square | None:
    carrier = s.carrier
    if carrier is not None:
        return square_of(s, carrier)
    return (s.ball_at[0], s.ball_at[1]) if s.ball_at is not None else None


def _this_phase(s: MatchState) -> list[int]:
    return [s.turn, s.phase]


def allowance(s: MatchState, f: Fighter) -> int:
    return s.dep_left(f)


def is_free(s: MatchState, f: Fighter) -> bool:
    """5.2: a HAB roll passed lets one move "sans plus tenir compte des ZA jusqu'à la fin du tour"."""
    return s.free_in == s.turn and f.id in s.free


def legal_moves(s: MatchState, f: Fighter) -> dict[Square, int]:
    """Where a gladiator of the moving team may go now, with the DEP each square costs; from the
    side-line zone, one DEP onto a free edge square of its half first."""
    sprint = s.phase == 3 and s.sprinting == f.id
    if s.stage != "running" or s.pending is not None:
        return {}
    if not sprint and (s.phase == 3 or f.side != s.moving):
        return {}
    if f.inert or f.has("immobile") or f.has("on_ground") or f.has("held"):
        return {}
    left = allowance(s, f)
    taken = occupied(s)
    zones = enemy_zones(s, f.side)
    here = square_of(s, f)
    if sprint:
        # 5.2: « Il n'a pas le droit d'entrer dans une ZA durant ou à la fin de son sprint »;
        # « Il doit être sur le terrain tout le temps du sprint ».
        if here is None or f.where != "field":
            return {}
        reach = board.reachable(here, left, taken, zones)
        return {sq: cost for sq, cost in reach.items() if sq not in zones}
    if here is not None and f.where == "field":
        if effects.is_ghost(s, f):  # Fantôme: « traverse les cases occupées », stops on none
            through = board.reachable(here, left, set(), zones, free=is_free(s, f))
            return {sq: cost for sq, cost in through.items() if sq not in taken}
        return board.reachable(here, left, taken, zones, free=is_free(s, f))
    if f.where != "zt" or f.has("afraid") or left < 1:
        return {}
    found: dict[Square, int] = {}
    for column in range(1, board.COLUMNS + 1):
        edge = (column, ENTRY_ROW[f.side])
        if board.half_of(edge) != f.side or edge in taken:
            continue
        found[edge] = min(found.get(edge, 99), 1)
        if edge in zones and not is_free(s, f):
            continue  # entering an enemy's zone ends the move
        for square, cost in board.reachable(
            edge, left - 1, taken, zones, free=is_free(s, f)
        ).items():
            found[square] = min(found.get(square, 99), cost + 1)
    return found


def on_move(p: Play, c: Move) -> None:
    s = p.s
    need_board(s)
    f = p.own(c.gladiator)
    sprint = s.phase == 3 and s.sprinting == f.id
    if s.stage != "running" or (not sprint and (s.phase == 3 or f.side != s.moving)):
        raise Refused(
            N_("{name} moves in their team's movement phase, or in phase 3 by sprinting (5.2)."),
            field="gladiator",
            name=f.label,
        )
    to = board.parse(c.to)
    if to is None:
        raise Refused(N_("“{square}” is not a square of the board."), field="to", square=c.to)
    options = legal_moves(s, f)
    if to not in options:
        raise Refused(
            N_("{name} cannot reach {square} now ({left} DEP left)."),
            field="to",
            name=f.label,
            square=board.name(to),
            left=allowance(s, f),
        )
    if f.where == "zt":
        s.entries += 1
        f.where, f.entered = "field", s.entries
    spend(s, f, options[to])
    s.at[str(f.id)] = to
    p.say(N_("{name} moves to {square}."), name=f.label, square=board.name(to))
    if sprint:
        # TABLE 5 (6): « En phase 3, il est interdit d'aller dans sa ZP (par exemple [...] en
        # sprintant) sous peine d'expulsion, sauf si on est dans l'un des 3 cas du 1/ ».
        if in_own_basket_zone(s, f):
            p.say(N_("{name} sprinted into their own basket zone (TABLE 5)."), name=f.label)
            p.expel(f, "basket_zone", "")
            s.sprinting = None
        return
    s.moved = True
    basket_zone_warning(p, f)


def on_blind_move(p: Play, c: BlindMove) -> None:
    """5.1, AVEUGLE: the coach says how many squares; each is a TABLE 4 die; a wall, a gladiator
    or an enemy's action zone ends the move."""
    s = p.s
    need_board(s)
    f = p.own(c.gladiator)
    here = square_of(s, f)
    if not f.has("blind") or here is None:
        raise Refused(N_("{name} is not blind on the field."), field="gladiator", name=f.label)
    if c.steps > allowance(s, f) or not legal_moves(s, f):
        raise Refused.counted(
            P_("{name} cannot move {steps} square now.", "{name} cannot move {steps} squares now."),
            "steps",
            field="steps",
            name=f.label,
            steps=c.steps,
        )
    taken = occupied(s) - {here}
    zones = set(enemy_zones(s, f.side))
    walked = 0
    for _ in range(c.steps):
        way = board_direction(p)
        dc, dr = board.STEPS[way]
        step = (here[0] + dc, here[1] + dr)
        if not board.on_board(step) or step in taken:
            p.say(N_("{name} bumps into an obstacle and stops."), name=f.label)
            break
        here, walked = step, walked + 1
        if here in zones:
            break
    spend(s, f, c.steps)
    s.at[str(f.id)] = here
    s.moved = True
    p.say_counted(
        P_(
            "{name} stumbles {walked} square blind and stops on {square}.",
            "{name} stumbles {walked} squares blind and stops on {square}.",
        ),
        "walked",
        name=f.label,
        walked=walked,
        square=board.name(here),
    )
    basket_zone_warning(p, f)


def board_direction(p: Play) -> int:
    return mr.direction(p.dice)


def need_board(s: MatchState) -> None:
    if not s.board:
        raise Refused(N_("This match is played without the board."), field="type")


def basket_zone_warning(p: Play, f: Fighter) -> None:
    """TABLE 5: one's own basket zone is forbidden in the movement phases unless the ball or an
    enemy is in it; "Il est possible de traverser sa ZP si on ne s'y arrête pas"."""
    s = p.s
    if in_own_basket_zone(s, f):
        p.say(
            N_(
                "{name} stands in their own basket zone: expelled at the end of the phase unless "
                "they leave it (TABLE 5)."
            ),
            name=f.label,
        )


def in_own_basket_zone(s: MatchState, f: Fighter) -> bool:
    here = square_of(s, f)
    zone = board.basket_zone(f.side)
    if here is None or here not in zone:
        return False
    ball = ball_square(s)
    if ball is not None and ball in zone:
        return False
    return not any(g.side != f.side and sq in zone for g, sq in on_field(s))


def offenders(s: MatchState) -> list[Fighter]:
    """TABLE 5 at the end of a movement phase: the moving team's gladiators still in their own
    basket zone with no exception."""
    return [f for f, _ in on_field(s) if f.side == s.moving and in_own_basket_zone(s, f)]


def on_the_board(s: MatchState, f: Fighter) -> None:
    """With the board, a ball is shot or thrown from a square of the field: from the side-line
    zone it may only be put down in front (7)."""
    if s.board and square_of(s, f) is None:
        raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)


def edge_of(side: Side) -> set[Square]:
    """The field's squares in front of a team's side-line zone (its half of its long side)."""
    row = ENTRY_ROW[side]
    return {(c, row) for c in range(1, board.COLUMNS + 1) if board.half_of((c, row)) == side}


def drop_square(s: MatchState, f: Fighter, at: str | None) -> Square | None:
    """7: "Si le porteur du ballon reste dans sa ZT, il peut lâcher le ballon (1A) sur la case qui
    se situe devant lui, sur le terrain": with the board, that square is tapped; None when the
    carrier is on the field (the ball falls on their square)."""
    if not s.board or f.where != "zt":
        return None
    square = board.parse(at or "")
    if square is None or square not in edge_of(f.side):
        raise Refused(
            N_("Tap the square in front of {name}, on the field's edge, where the ball goes."),
            field="at",
            name=f.label,
        )
    return square


def leave(p: Play, f: Fighter) -> None:
    """5.1: back to the side-line zone from the edge square in front of it, one DEP (as
    entering)."""
    s = p.s
    if not s.board:
        return
    here = square_of(s, f)
    if here not in edge_of(f.side) or allowance(s, f) < 1:
        raise Refused(
            N_("{name} leaves the field from the edge in front of their side-line zone."),
            field="gladiator",
            name=f.label,
        )
    spend(s, f, 1)


def spend(s: MatchState, f: Fighter, dep: int) -> None:
    if s.spent_in != _this_phase(s):
        s.spent, s.spent_in = {}, _this_phase(s)
    s.spent[str(f.id)] = s.spent.get(str(f.id), 0) + dep


def hab_rolled(s: MatchState, f: Fighter, ok: bool) -> None:
    """5.2: a HAB roll in an enemy's action zone, in one's movement phase: passed, the zones
    no longer stop the gladiator this turn; failed, "son déplacement s'arrête"."""
    if not (s.board and s.phase in (1, 2) and f.side == s.moving and zones_on(s, f) > 0):
        return
    if ok:
        if s.free_in != s.turn:
            s.free, s.free_in = [], s.turn
        s.free.append(f.id)
    else:
        spend(s, f, allowance(s, f))


def ball_drops(s: MatchState, f: Fighter) -> None:
    """A carrier who falls, is hurt off the field or lets go: the ball on their square."""
    if s.board:
        s.ball_at = square_of(s, f)


# ------------------------------------------------------------------------- the ball's flight


def shot_geometry(s: MatchState, f: Fighter, own: bool) -> dict[str, Any]:
    """7, TIR AU PANIER from the shooter's square: the distance (the basket counted), near (on
    its square or in the action zone: 1 point, no roll), from the other half (refused), and
    whether the basket is seen (a gladiator standing between hides it; one lying on the basket
    square does not)."""
    here = square_of(s, f)
    assert here is not None
    basket = board.BASKETS[f.side if own else other(f.side)]
    target_half = board.half_of(basket)
    standing = {sq for g, sq in on_field(s) if not g.has("on_ground")}
    distance = board.distance(here, basket)
    return {
        "distance": distance,
        "near": distance <= 1,
        "other_half": board.half_of(here) not in (target_half, None),
        "blind": not board.in_sight(here, basket, standing),
        "basket": basket,
    }


def throw_geometry(s: MatchState, f: Fighter, target: Square) -> dict[str, Any]:
    here = square_of(s, f)
    assert here is not None
    standing = {sq for g, sq in on_field(s) if not g.has("on_ground")}
    return {
        "distance": max(1, board.distance(here, target)),
        "blind": not board.in_sight(here, target, standing),
    }


def interceptors_on_path(
    s: MatchState, thrower: Fighter, landing: Square, candidates: list[Fighter]
) -> list[int]:
    """7, ATTRAPER LE BALLON: of those who could try, the ones whose action zone the ball's path
    crosses (not on the thrower's square), nearest the thrower first."""
    start = square_of(s, thrower)
    if start is None:
        return []
    squares = {f.id: sq for f in candidates if (sq := square_of(s, f)) is not None and has_zone(f)}
    return board.crossed_zones(start, landing, squares)


def landing_of_miss(p: Play, thrower: Fighter, aimed: Square, away: int) -> tuple[Square, int]:
    """TABLE 9.E and TABLE 4: `away` squares from the aimed square; a direction that would land
    outside the thrower's view is rolled again (7)."""
    here = square_of(p.s, thrower) or aimed
    way = board_direction(p)
    for _ in range(20):
        landing = board.scattered(aimed, away, way)
        if board.in_view(here, aimed, landing):
            break
        p.say(N_("Direction {way}: behind the thrower, rolled again."), way=way)
        way = board_direction(p)
    return board.scattered(aimed, away, way), way


near = board.near
