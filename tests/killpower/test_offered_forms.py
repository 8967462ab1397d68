"""What a Killpower Ball coach's page offers, the engine takes (issue 53): the 50-seed walk's
finds on the match page, each a form that could not say the rule before the tap. The page is
read as the walker reads it (`tests.walker.Offers`: each form, its menus and what limits them),
then the engine is asked both ways."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from server.errors import RuleError
from server.platform.dice import ScriptedRolls
from tests.killpower.conftest import Coaches, Match
from tests.killpower.scenes import board_move, lined_up, on_the_board
from tests.walker import Offer, Offers


def offers(client: TestClient, match: Match, side: str, kind: str) -> list[Offer]:
    parser = Offers()
    parser.feed(Coaches(client, match).page(side))
    return [o for o in parser.offers if o.type == kind]


def menu(offer: Offer, name: str) -> list[str]:
    return next(values for n, values, _multiple in offer.menus if n == name)


def hidden(offer: Offer, name: str) -> str:
    return next(v for k, v in offer.hidden if k == name)


@pytest.fixture
def face_to_face(client: TestClient, rolls: ScriptedRolls) -> Match:
    """On the board, turn 19, phase 3: Nab1 (J15) beside both Tit1 (K14) and Tit2 (K16); Nab2
    (J17) beside Tit2 only. Both Nabos waited for their turn; both Titanos passed."""
    m = on_the_board(client.app.state.service, rolls)  # type: ignore[attr-defined]
    board_move(m, "B", 1, "K14")
    board_move(m, "B", 2, "K16")
    m.act("B", {"type": "end_phase"})
    board_move(m, "A", 1, "E15")
    board_move(m, "A", 2, "E17")
    m.act("A", {"type": "end_phase"})
    for side in "AB":  # turn 20 ends: no one acts
        m.act(side, {"type": "end_phase"})
    board_move(m, "A", 1, "J15")  # turn 19: Nabos have the hand
    board_move(m, "A", 2, "J17")
    m.act("A", {"type": "end_phase"})
    m.act("B", {"type": "end_phase"})
    for side, number, action in (("A", 1, "wait"), ("B", 1, "pass"), ("A", 2, "wait")):
        m.act(side, {"type": "act", "gladiator": m.g(side, number), "action": action})
    m.act("B", {"type": "act", "gladiator": m.g("B", 2), "action": "pass"})
    assert (m.state.turn, m.state.phase) == (19, 3)
    return m


def test_a_group_attack_is_joined_only_on_a_target_in_the_joiner_s_action_zone(
    client: TestClient, face_to_face: Match
) -> None:
    """8: « Elle doit être dans sa ZA », each attacker's (8.2, the group attack): Nab2's box on
    Nab1's attack counts only while the target is Tit2, the one Nab2 stands beside."""
    m = face_to_face
    nab1, nab2, tit1, tit2 = m.g("A", 1), m.g("A", 2), m.g("B", 1), m.g("B", 2)
    attack = next(
        o for o in offers(client, m, "A", "attack") if hidden(o, "attackers[]") == str(nab1)
    )
    assert set(attack.radios["target"]) >= {str(tit1), str(tit2)}
    (box,) = [i for i, (name, value, _) in enumerate(attack.boxes) if value == str(nab2)]
    assert attack.enabled_when[("box", box)] == ("target", {str(tit2)})
    group = {"type": "attack", "attackers": [nab1, nab2]}
    said = m.fails("A", {**group, "target": tit1}, RuleError)
    assert "Nab2 (#2) n’est pas à côté de Tit1 (#1)" in said.replace("'", "’")
    said = m.act("A", {**group, "target": tit2})
    assert said.startswith("Attaque de Nab1 (#1), Nab2 (#2) sur Tit2 (#2)")


def test_the_ball_is_handed_only_to_a_friend_who_may_take_it(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """7, PASSER LE BALLON DE LA MAIN: « le receveur le récupère (1A) »: a friend whose action is
    spent is not offered to be handed the ball; the passer reaching out spends their own (« cela
    lui coûte 1A »), and so may still give it to them."""
    m = lined_up(client.app.state.service, rolls)  # type: ignore[attr-defined]
    side = m.state.moving
    one, two = m.g(side, 1), m.g(side, 2)
    m.act(side, {"type": "give_ball", "gladiator": one})
    for g in (one, two):
        m.act(side, {"type": "enter", "gladiator": g})
    m.act(side, {"type": "check", "gladiator": two, "characteristic": "PHY", "action": True})
    assert m.state.fighter(two).acted
    handing = offers(client, m, side, "handoff")
    plain = [o for o in handing if not any(k == "reach" for k, _ in o.hidden)]
    reaching = [o for o in handing if any(k == "reach" for k, _ in o.hidden)]
    assert all(str(two) not in menu(o, "to") for o in plain)
    assert [menu(o, "to") for o in reaching] == [[str(two)]]
    m.fails(side, {"type": "handoff", "gladiator": one, "to": two}, RuleError)
    m.act(side, {"type": "handoff", "gladiator": one, "to": two, "reach": True})
    assert m.state.carrier is not None and m.state.carrier.id == two


def test_a_blind_walk_announces_no_more_squares_than_the_dep_left(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """5.1, AVEUGLE: the coach announces the squares, within the DEP left: the blind gladiator's
    option allows 1 to 3 after 2 DEP of 5 spent; a fourth is refused."""
    m = on_the_board(client.app.state.service, rolls)  # type: ignore[attr-defined]
    tit2 = m.g("B", 2)
    board_move(m, "B", 2, "N20")  # 2 DEP of 5
    m.act("B", {"type": "condition", "gladiator": tit2, "condition": "blind"})
    (walk,) = offers(client, m, "B", "blind_move")
    ((other, allows),) = walk.limits.values()
    assert other == "steps" and allows == {str(tit2): {"1", "2", "3"}}
    assert menu(walk, "steps") == ["1", "2", "3"]
    m.fails("B", {"type": "blind_move", "gladiator": tit2, "steps": 4}, RuleError)


def test_a_carrier_who_flees_is_offered_no_shot_nor_throw(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """4, Peur: « est en fuite et n'agit plus »: a shot or a throw spends the carrier's action
    (7), so one who flees is offered neither; the ball may still be put down (0A)."""
    m = lined_up(client.app.state.service, rolls)  # type: ignore[attr-defined]
    side = m.state.moving
    one = m.g(side, 1)
    m.act(side, {"type": "give_ball", "gladiator": one})
    m.act(side, {"type": "enter", "gladiator": one})
    assert offers(client, m, side, "shot") and offers(client, m, side, "throw")
    m.act(side, {"type": "condition", "gladiator": one, "condition": "afraid"})
    assert offers(client, m, side, "shot") == offers(client, m, side, "throw") == []
    m.fails(side, {"type": "throw", "gladiator": one, "distance": 5}, RuleError)
    assert [hidden(o, "gladiator") for o in offers(client, m, side, "drop")] == [str(one)]


def test_an_action_s_sentence_is_said_once_on_the_answer(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """A newcomer's find (issue 54): the answer to a tap said its long sentence twice, above and
    again as the now-line's « last action », 300 px before the controls. The answer says it
    once; the page opened afresh gives the last action on the now-line."""
    m = lined_up(client.app.state.service, rolls)  # type: ignore[attr-defined]
    side = m.state.moving
    coaches = Coaches(client, m)
    status, text = coaches.send("htmx", side, {"type": "give_ball", "gladiator": m.g(side, 1)})
    assert status == 200 and 'class="flash"' in text and 'class="now-last"' not in text
    assert 'class="now-last"' in coaches.page(side)
