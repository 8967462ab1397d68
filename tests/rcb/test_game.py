"""A whole Roi / Chevalier / Bourreau game through the service, checked round by round."""

from __future__ import annotations

import pytest

from server.errors import RuleError
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of


def test_a_whole_game_round_by_round(service: GameService, rolls: ScriptedRolls) -> None:
    game, organizer = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(organizer)
    f = {
        n: viewer_of(service.register(game.id, gm, "fighter", f"F{n}", idem_key=key())).person_id
        for n in range(1, 9)
    }

    def act(command: dict[str, object], *dice: int) -> str:
        rolls.push(*dice)
        return service.perform(game.id, gm, command, idem_key=key()).summary.render()

    def state():  # type: ignore[no-untyped-def]
        return service.load(game.id).state

    for n, team in ((1, "A"), (3, "A"), (6, "A"), (7, "A"), (2, "B"), (4, "B"), (5, "B"), (8, "B")):
        act({"type": "assign", "person": f[n], "team": team})
    act({"type": "team_names", "a": "Rouges", "b": "Bleus"})
    # 8 fighters: 11 cards; with every shuffle die at 1 the deck K K K Kn Kn Kn E E E W D deals
    # King, King, Knight, Knight, Knight, Executioner x3 to F1..F8 and sets W, D, K aside.
    act({"type": "deal"}, *[1] * 10)
    roles = {n: state().fighters[str(f[n])].role for n in f}
    assert roles == {
        1: "king",
        2: "king",
        3: "knight",
        4: "knight",
        5: "knight",
        6: "executioner",
        7: "executioner",
        8: "executioner",
    }
    assert sorted(state().set_aside) == ["dragon", "king", "witch"]

    def round_(a: int, b: int, sa: int, sb: int) -> str:
        act({"type": "round"})
        act({"type": "fighters", "a": f[a], "b": f[b]})
        act({"type": "stakes", "a": sa, "b": sb})
        return act({"type": "duel"})

    def score() -> tuple[int, int, int]:
        s = state()
        return s.bets["A"], s.bets["B"], s.bank

    def ghosts() -> set[int]:
        return {n for n in f if state().fighters[str(f[n])].ghost}

    assert "Rouges gagne" in round_(1, 4, 3, 2)  # King beats Knight
    assert score() == (18, 13, 14) and ghosts() == {4}

    # A wrong stake typed by the game master, undone and placed again.
    act({"type": "round"})
    act({"type": "fighters", "a": f[3], "b": f[2]})
    act({"type": "stakes", "a": 4, "b": 1})
    service.undo(game.id, gm, idem_key=key())
    assert state().phase == "stakes" and score() == (18, 13, 14)
    act({"type": "stakes", "a": 5, "b": 1})
    assert "Bleus gagne" in act({"type": "duel"})  # King beats Knight
    assert score() == (13, 14, 18) and ghosts() == {3, 4}

    said = round_(6, 8, 2, 4)  # Executioner against Executioner
    assert "égalité" in said and score() == (11, 10, 18) and state().carry == {"A": 2, "B": 4}
    round_(6, 2, 1, 1)  # the Executioner beheads the King: stakes 3 against 5
    assert score() == (16, 9, 20) and ghosts() == {2, 3, 4}
    round_(7, 5, 4, 5)  # the Knight beats the Executioner
    assert score() == (12, 14, 19) and ghosts() == {2, 3, 4, 7}
    round_(1, 5, 5, 5)  # King beats Knight
    assert score() == (17, 9, 19) and ghosts() == {2, 3, 4, 5, 7}
    round_(6, 8, 1, 1)  # tie again
    said = round_(1, 8, 2, 1)  # the Executioner beheads the King: stakes 3 against 2
    assert ghosts() == {1, 2, 3, 4, 5, 7}
    # Only two Executioners remain, one on each side: no duel can be won any more.
    assert "Égalité parfaite" in said
    final = state()
    assert final.phase == "finished" and final.result.winners == ["A", "B"]
    assert final.result.reason == "perfect_tie"
    assert score() == (14, 11, 20) and final.total_cards() == 45
    assert [r.outcome for r in final.rounds] == ["A", "B", "tie", "A", "B", "A", "tie", "B"]
    act({"type": "reveal"})
    public = service.load(game.id).kind.view(
        state(), viewer_of(organizer).__class__("public"), service.clock.now()
    )
    assert {r["name"]: r["role"] for r in public["revealed"]}["F6"] == "executioner"
    assert service.verify(game.id)


def test_a_random_draw_places_the_team_phones_and_a_phone_left_out_is_placed_later(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 50: "Tirer les équipes au hasard" left the team phone out of every team, with no way
    to place it after the deal. The draw places each phone not yet in a team (one a team); a
    phone registered after the draw is placed after the deal too, once: a phone already in a
    team keeps it (its holder has read that team's roles), and a fighter's team is settled."""
    rolls.endless = True
    game, organizer = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(organizer)
    fighters = [
        viewer_of(service.register(game.id, gm, "fighter", f"F{n}", idem_key=key())).person_id
        for n in range(1, 7)
    ]
    phone_a = viewer_of(service.register(game.id, gm, "team", "Tél 1", idem_key=key()))
    service.perform(game.id, gm, {"type": "random_teams"}, idem_key=key())
    phones = service.load(game.id).state.phones  # type: ignore[attr-defined]
    assert phones[str(phone_a.person_id)].team == "A"
    late = viewer_of(service.register(game.id, gm, "team", "Tél 3", idem_key=key()))
    service.perform(game.id, gm, {"type": "deal"}, idem_key=key())
    for moved, team in ((phone_a.person_id, "B"), (fighters[0], "B"), (late.person_id, "")):
        with pytest.raises(RuleError, match="avant la distribution"):
            service.perform(
                game.id, gm, {"type": "assign", "person": moved, "team": team}, idem_key=key()
            )
    said = service.perform(
        game.id, gm, {"type": "assign", "person": late.person_id, "team": "B"}, idem_key=key()
    )
    assert "Tél 3" in said.summary.render()
    state = service.load(game.id).state
    assert state.phones[str(late.person_id)].team == "B"  # type: ignore[attr-defined]
    with pytest.raises(RuleError):  # placed: it keeps its team
        service.perform(
            game.id, gm, {"type": "assign", "person": late.person_id, "team": "A"}, idem_key=key()
        )
