"""The Killpower Ball board (issue 22): geometry by tables (chapter 1, 5, 7, TABLES 4, 5, 9), then
a self-refereed match played with the board on, where moves are checked and a throw is offered
for interception to exactly the gladiators whose action zone its path crosses."""

from __future__ import annotations

import pytest

from server.errors import InvalidInput, NotAllowed, RuleError
from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.board import distance, name, parse
from server.games.killpower.match.field import legal_moves
from server.games.killpower.match.kind import KILLPOWER_MATCH
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.killpower.conftest import Match


@pytest.mark.parametrize(
    ("text", "square"),
    [("H1", (1, 8)), ("H27", (27, 8)), ("H14", (14, 8)), ("A1", (1, 1)), ("o27", (27, 15))],
)
def test_squares_are_named_as_the_book_names_them(text: str, square: board.Square) -> None:
    # 1: "cases H1 et H27" (the baskets); 3.2: "au centre du terrain, sur la case H14".
    assert parse(text) == square and name(square) == text.upper()


@pytest.mark.parametrize("text", ["P1", "A0", "A28", "H", "14H", "", "Z9"])
def test_what_is_not_a_square(text: str) -> None:
    assert parse(text) is None


@pytest.mark.parametrize(
    ("a", "b", "squares", "malus"),
    [
        # 5.1: a diagonal step costs one DEP, so a distance counts it as one square.
        ("H24", "H27", 3, 0),
        ("A14", "H27", 13, 4),
        ("G26", "H27", 1, 0),
        # 13.2, the free throws of the book's example: 10, 2, 12 and 11 squares.
        ("H17", "H27", 10, 3),
        ("H25", "H27", 2, 0),
        ("H15", "H27", 12, 3),
        ("H16", "H27", 11, 3),
        ("A1", "O27", 26, 8),
    ],
)
def test_distances_and_their_malus(a: str, b: str, squares: int, malus: int) -> None:
    sa, sb = parse(a), parse(b)
    assert sa and sb
    assert distance(sa, sb) == squares and mr.ball_malus(squares) == malus


def test_action_zones_halves_and_basket_zones() -> None:
    # 1: "la case qu'il occupe et des 8 cases autour de lui", cut by the walls.
    assert len(board.zone((14, 8))) == 9 and len(board.zone((1, 1))) == 4
    assert len(board.zone((1, 8))) == 6
    # 1: "La ligne 14 délimite la ligne de séparation des 2 camps".
    assert [board.half_of((c, 8)) for c in (13, 14, 15)] == ["A", None, "B"]
    # 1: "3 cases de long sur 5 de large", the basket in it.
    zone_a = board.basket_zone("A")
    assert len(zone_a) == 15 and (1, 8) in zone_a and parse("F3") in zone_a
    assert parse("E1") not in zone_a and parse("H4") not in zone_a
    assert (27, 8) in board.basket_zone("B")


@pytest.mark.parametrize(
    ("a", "b", "through"),
    [
        ("H14", "C14", ["H14", "G14", "F14", "E14", "D14", "C14"]),
        # A diagonal touches only corners of the squares beside it: it crosses none of them.
        ("A1", "D4", ["A1", "B2", "C3", "D4"]),
        ("H1", "I5", ["H1", "H2", "H3", "I3", "I4", "I5"]),
    ],
)
def test_the_path_of_a_ball(a: str, b: str, through: list[str]) -> None:
    sa, sb = parse(a), parse(b)
    assert sa and sb
    assert [name(s) for s in board.path(sa, sb)] == through


def test_sight_and_who_a_throw_passes_by() -> None:
    a, b = (2, 8), (10, 8)
    # 4.2, A VUE: an occupied square on the line hides; the two ends do not.
    assert board.in_sight(a, b, [a, b, (5, 9)])
    assert not board.in_sight(a, b, [(6, 8)])
    # 7: those whose action zone the path crosses, nearest first; TABLE 6 (5): not on the
    # thrower's own square.
    zones = {1: (6, 10), 2: (6, 9), 3: (12, 8), 4: (3, 9), 5: (1, 8)}
    assert board.crossed_zones(a, b, zones) == [4, 2]


def test_reachable_squares() -> None:
    # 5.1: DEP squares in any of the 8 directions, never through an occupied square.
    free = board.reachable((5, 5), 1, [], [])
    assert len(free) == 8 and set(free.values()) == {1}
    walled = board.reachable((5, 5), 3, [(6, 4), (6, 5), (6, 6)], [])
    assert (6, 5) not in walled and (7, 5) not in walled  # around the wall: 4 steps
    assert walled[(7, 4)] == 3 and walled[(6, 3)] == 2
    # 5.2: entering an enemy's action zone ends the move; starting in one, no move at all.
    enemy = board.zone((8, 5))
    stopped = board.reachable((5, 5), 5, [(8, 5)], enemy)
    assert (7, 5) in stopped and (9, 5) not in stopped and (10, 4) in stopped  # around it
    assert board.reachable((7, 5), 5, [(8, 5)], enemy) == {}
    assert (9, 5) in board.reachable((7, 5), 5, [(8, 5)], enemy, free=True)


@pytest.mark.parametrize(
    ("aimed", "away", "way", "landing"),
    [
        ((14, 8), 2, 2, (14, 6)),  # TABLE 4, 2: up
        ((14, 8), 3, 8, (17, 11)),  # 8: down and right
        ((2, 2), 5, 1, (1, 1)),  # 7: "placé sur une case au sol adjacente au mur"
        ((26, 14), 4, 8, (27, 15)),
        # 7 « il s'écrase [...] il ne rebondit pas »: E17 aimed at C10, 3 squares off in
        # direction 1 (up and left) meets the wall at A8, not A7 slid along it.
        ((10, 3), 3, 1, (8, 1)),
        ((5, 1), 4, 1, (5, 1)),  # already at the wall: it stops there
    ],
)
def test_where_a_missed_ball_lands(
    aimed: board.Square, away: int, way: int, landing: board.Square
) -> None:
    assert board.scattered(aimed, away, way) == landing


def test_a_landing_behind_the_thrower_is_out_of_view() -> None:
    thrower, aimed = (5, 8), (10, 8)
    assert board.in_view(thrower, aimed, (12, 8))
    assert board.in_view(thrower, aimed, (5, 3))  # beside: still in front of the thrower
    assert not board.in_view(thrower, aimed, (3, 8))


# ------------------------------------------------------------------------ a match on the board


@pytest.fixture
def on_board(service: GameService, rolls: ScriptedRolls) -> Match:
    match = Match(service, rolls, board=True)
    match.act(
        "A", {"type": "lineup", "gladiators": match.ids["A"][:6], "bluff": 2}, 10, 8, 6, 4, 2, 1
    )
    match.act("B", {"type": "lineup", "gladiators": match.ids["B"][:2], "bluff": 1}, 9, 7)
    return match


def move(match: Match, side: str, number: int, to: str) -> str:
    return match.act(side, {"type": "move", "gladiator": match.g(side, number), "to": to})


def test_a_match_on_the_board(on_board: Match) -> None:
    m, A, B = on_board, "A", "B"
    s = m.state
    assert s.board and (s.hand, s.ball, s.phase) == (B, "zt:B", 1)
    # Turn 20, phase 1 (Titanos): the ball to no. 1, who enters from the side-line zone along
    # row O and walks up column 17; no. 2 beside.
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    m.fails(B, {"type": "enter", "gladiator": m.g(B, 1)}, RuleError)  # a square is tapped
    m.fails(B, {"type": "move", "gladiator": m.g(B, 1), "to": "J17"}, RuleError)  # 6 DEP
    m.fails(B, {"type": "move", "gladiator": m.g(B, 1), "to": "O10"}, RuleError)  # A's half
    m.fails(A, {"type": "move", "gladiator": m.g(A, 1), "to": "A3"}, RuleError)  # not A's phase
    assert "K17" in move(m, B, 1, "K17")
    m.fails(B, {"type": "move", "gladiator": m.g(B, 1), "to": "J17"}, RuleError)  # DEP spent
    m.fails(B, {"type": "move", "gladiator": m.g(B, 2), "to": "K17"}, RuleError)  # taken
    move(m, B, 2, "N20")
    assert m.state.at[str(m.g(B, 1))] == (17, 11)
    m.act(B, {"type": "end_phase"})
    # Phase 2 (Nabos): no. 1 in front of the throw's path, no. 2 away from it.
    move(m, A, 1, "E16")
    move(m, A, 2, "B12")
    m.act(A, {"type": "end_phase"})
    assert m.state.phase == 3
    # Phase 3: A1 (RAP 10) waits; B1 throws to C17, 8 squares (BAL + 5 - 2), on target: only
    # A1's zone is on the path, so only A1 is offered the interception.
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "wait"})
    m.act(B, {"type": "throw", "gladiator": m.g(B, 1), "at": "C17"}, 1)
    s = m.state
    assert s.pending is not None and s.pending.kind == "intercept"
    assert s.pending.data["who"] == [m.g(A, 1)]
    # What A's coach is offered is what the engine accepts (issue 33, item 3): A2 is able, but
    # the ball's path crosses no square of A2's action zone.
    assert [w["id"] for w in m.view(A)["pending"]["who"]] == [m.g(A, 1)]
    m.fails(A, {"type": "answer", "yes": True, "gladiator": m.g(A, 2)}, RuleError)
    m.act(A, {"type": "answer", "yes": True, "gladiator": m.g(A, 1)}, 10)  # missed
    s = m.state
    assert s.pending is None and s.ball == "ground" and s.ball_at == (17, 3)
    # Picking up needs the ball in one's action zone: A2 at B12 is far from C17.
    m.fails(A, {"type": "pick", "gladiator": m.g(A, 2)}, RuleError)
    # The board is public: both coaches see every square and the ball.
    for side in (A, B):
        view = m.view(side)
        assert view["board"]["ball"] == "C17"
        assert {p["square"] for p in view["board"]["pieces"]} == {"K17", "N20", "E16", "B12"}


def test_bad_squares_are_refused_with_nothing_changed(on_board: Match) -> None:
    m = on_board
    m.act("B", {"type": "give_ball", "gladiator": m.g("B", 1)})
    for bad in ("P3", "Z", "K100", "  "):
        m.fails("B", {"type": "move", "gladiator": m.g("B", 1), "to": bad}, InvalidInput)
    message = m.fails("B", {"type": "move", "gladiator": m.g("B", 1), "to": "K99"}, RuleError)
    assert "K99" in message
    m.fails("B", {"type": "move", "gladiator": m.g("A", 1), "to": "O20"}, NotAllowed)


def test_without_the_board_a_move_is_refused_and_distances_are_said(
    service: GameService, rolls: ScriptedRolls
) -> None:
    m = Match(service, rolls)
    m.act("A", {"type": "lineup", "gladiators": m.ids["A"][:2], "bluff": 1}, 5, 4)
    m.act("B", {"type": "lineup", "gladiators": m.ids["B"][:2], "bluff": 1}, 3, 2)
    side = m.state.hand
    m.act(side, {"type": "give_ball", "gladiator": m.g(side, 1)})
    message = m.fails(side, {"type": "move", "gladiator": m.g(side, 1), "to": "O20"}, RuleError)
    assert "sans le plateau" in message
    m.act(side, {"type": "enter", "gladiator": m.g(side, 1)})
    message = m.fails(side, {"type": "shot", "gladiator": m.g(side, 1)}, RuleError)
    assert "cases" in message


def test_from_the_side_line_zone_the_ball_is_only_put_down_in_front(on_board: Match) -> None:
    """7: "il peut lâcher le ballon (1A) sur la case qui se situe devant lui" (found by an
    outside attack: a shot from the side-line zone crashed, a drop there lost the ball)."""
    m, B = on_board, "B"
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    for command in (
        {"type": "shot", "gladiator": m.g(B, 1)},
        {"type": "throw", "gladiator": m.g(B, 1), "at": "H20"},
        {"type": "drop", "gladiator": m.g(B, 1)},
        {"type": "drop", "gladiator": m.g(B, 1), "at": "O5"},  # not in front of B's zone
        {"type": "drop", "gladiator": m.g(B, 1), "at": "N20"},  # not on the edge
    ):
        m.fails(B, command, RuleError)
    m.act(B, {"type": "drop", "gladiator": m.g(B, 1), "at": "O20"})
    assert (m.state.ball, m.state.ball_at) == ("ground", (20, 15))
    move(m, B, 2, "N20")
    m.act(B, {"type": "pick", "gladiator": m.g(B, 2)})
    assert m.state.carrier is not None and m.state.carrier.id == m.g(B, 2)


def test_leaving_the_field_and_the_hab_roll(on_board: Match) -> None:
    m, A, B = on_board, "A", "B"
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    move(m, B, 1, "L20")
    move(m, B, 2, "O22")
    # 5.1: back to the side-line zone only from the edge in front of it, one DEP.
    m.fails(B, {"type": "leave", "gladiator": m.g(B, 1)}, RuleError)
    m.act(B, {"type": "leave", "gladiator": m.g(B, 2)})
    m.act(B, {"type": "end_phase"})
    # 5.2: a HAB roll frees a move only in an enemy's action zone: outside any, it frees nothing.
    move(m, A, 1, "E13")
    m.act(A, {"type": "check", "gladiator": m.g(A, 1), "characteristic": "HAB"}, 1)
    assert m.state.free == []


def test_a_basket_sends_everyone_back_with_all_their_dep(on_board: Match) -> None:
    m, B = on_board, "B"
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    move(m, B, 1, "K26")
    assert m.state.spent
    # Into their own basket (H27, 3 squares): the point goes to Nabos, and the field resets.
    m.act(B, {"type": "shot", "gladiator": m.g(B, 1), "own": True}, 1)
    s = m.state
    assert s.team("A").score == 3 and s.at == {} and s.spent == {} and s.free == []


def test_a_blind_gladiator_walks_on_table_4(on_board: Match) -> None:
    """5.1, AVEUGLE: one TABLE 4 die per square announced; an obstacle ends the walk."""
    m, B = on_board, "B"
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    move(m, B, 2, "N20")  # 2 DEP of 5
    move(m, B, 1, "L20")
    m.act(B, {"type": "condition", "gladiator": m.g(B, 2), "condition": "blind"})
    m.fails(B, {"type": "blind_move", "gladiator": m.g(B, 2), "steps": 4}, RuleError)  # 3 left
    # 2 (up) to M20, then 2 again: L20 is taken, the walk ends on M20; 9 is rolled again.
    said = m.act(B, {"type": "blind_move", "gladiator": m.g(B, 2), "steps": 3}, 2, 9, 2)
    assert m.state.at[str(m.g(B, 2))] == (20, 13) and "M20" in said


def test_no_sprint_from_inside_an_enemy_action_zone(on_board: Match) -> None:
    """5.2: « un gladiateur peut SPRINTER (1A), sauf s'il est dans l'un des cas suivants : Il est
    dans une ou plusieurs ZA » (issue 33, item 2): accepted before, now refused; outside any
    enemy zone, the sprint is still taken."""
    m, A, B = on_board, "A", "B"
    m.act(B, {"type": "give_ball", "gladiator": m.g(B, 1)})
    move(m, B, 1, "K17")
    move(m, B, 2, "N20")
    m.act(B, {"type": "end_phase"})
    move(m, A, 1, "E16")
    m.act(A, {"type": "end_phase"})
    m.end_phase()  # phase 3: both let the rest pass
    # Turn 19: B1 walks up to F17, beside A1 (E16): inside A1's action zone.
    while m.state.phase != 3:
        if m.state.moving == B:
            move(m, B, 1, "F17")
        m.end_phase()
    assert m.state.at[str(m.g(B, 1))] == (17, 6)
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "wait"})  # RAP 10 first
    fighters = {f["id"]: f for f in m.view(B)["teams"][B]["fighters"]}
    assert not fighters[m.g(B, 1)]["may_sprint"] and fighters[m.g(B, 2)]["may_sprint"]  # the page
    with pytest.raises(Exception, match=r"ZA|zone") as refused:
        m.act(B, {"type": "act", "gladiator": m.g(B, 1), "action": "sprint"})
    assert "5.2" in str(refused.value)
    m.act(B, {"type": "act", "gladiator": m.g(B, 1), "action": "pass"})
    assert "sprint" in m.act(B, {"type": "act", "gladiator": m.g(B, 2), "action": "sprint"})
    # 5.2 « Cela lui permet de se déplacer une seconde fois durant la phase d'action » (item 1):
    # the sprinter moves again within its DEP (a square of A1's action zone is never lit), and
    # only the sprinter.
    lit = {board.name(sq) for sq in legal_moves(m.state, m.fighter(B, 2))}
    assert "N18" in lit and not lit & {"D15", "E17", "F15"}
    assert "N18" in move(m, B, 2, "N18")
    assert m.state.at[str(m.g(B, 2))] == (18, 14)
    m.fails(B, {"type": "move", "gladiator": m.g(B, 1), "to": "G17"}, RuleError)


def face_off(m: Match) -> None:
    """Tit1 with the ball to K17, Nab1 to E10: phase 3, Nab1 (RAP 10) and Tit1 on the field."""
    m.act("B", {"type": "give_ball", "gladiator": m.g("B", 1)})
    move(m, "B", 1, "K17")
    m.act("B", {"type": "end_phase"})
    move(m, "A", 1, "E10")
    m.act("A", {"type": "end_phase"})


def test_a_sprint_is_its_coach_s_turn_until_the_move(on_board: Match) -> None:
    """Issue 35 (review): after "Sprinter", the game waits for the sprinter's move (5.2: it moves
    a second time before the next gladiator acts, which ends the sprint). The sprinter's coach
    is told it is theirs, the other coach to wait, whoever is next in the RAP order."""
    m, A, B = on_board, "A", "B"
    face_off(m)
    assert m.state.phase == 3
    due = m.view(A)["due"]
    side = A if due["id"] == m.g(A, 1) else B
    other = B if side == A else A
    m.act(side, {"type": "act", "gladiator": due["id"], "action": "sprint"})
    assert m.state.sprinting == due["id"]
    mine = KILLPOWER_MATCH.now(m.view(side), m.coach[side])
    theirs = KILLPOWER_MATCH.now(m.view(other), m.coach[other])
    assert mine.yours and not theirs.yours
    assert "sprints" in mine.where.text and mine.to == f"play-{side}"


def test_a_sprint_ends_where_its_coach_says(on_board: Match) -> None:
    """5.2: the sprint « permet de se déplacer une seconde fois »: as far as its coach wants,
    within its DEP. A newcomer's find (issue 54): a sprinter moved one square could not stop,
    the other team told to wait until its whole DEP was walked. Its coach ends it, with the
    others' actions if any remain; the next gladiator's coach is told it is theirs."""
    m, A, B = on_board, "A", "B"
    face_off(m)
    m.act(A, {"type": "act", "gladiator": m.g(A, 1), "action": "sprint"})
    move(m, A, 1, "F10")  # one square of five
    assert m.state.sprinting == m.g(A, 1)
    assert not KILLPOWER_MATCH.now(m.view(B), m.coach[B]).yours
    said = m.act(A, {"type": "end_phase"})
    assert "Nab1 (#1)" in said and m.state.sprinting is None
    assert m.state.phase == 3 and KILLPOWER_MATCH.now(m.view(B), m.coach[B]).yours
    assert not m.fighter(A, 2).acted  # Nab2, not on the field, is nobody's business yet
