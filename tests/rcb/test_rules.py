"""Roi / Chevalier / Bourreau rules, as tables (rule book paragraphs cited in the rules module)."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import RuleError
from server.games.rcb.ending import end_of_game
from server.games.rcb.kind import RCB
from server.games.rcb.round import pay_out, taxes
from server.games.rcb.setup import cards_for
from server.games.rcb.state import DEFAULT_BEATS, ROLES, Fighter, Matrix, RCBState
from server.platform.clock import FakeClock
from server.platform.dice import CommandDice, ScriptedRolls
from server.platform.kinds import Context, Viewer

GM = Viewer("organizer", 1, "MJ")


@pytest.mark.parametrize(
    ("fighters", "witch", "dragon", "executioner", "knight", "king"),
    [
        (6, 1, 1, 2, 2, 2),
        (7, 1, 1, 2, 2, 2),
        (8, 1, 1, 3, 3, 3),
        (9, 1, 1, 3, 3, 3),
        (10, 1, 1, 3, 3, 3),
        (11, 1, 1, 4, 4, 4),
        (12, 1, 1, 4, 4, 4),
        (13, 1, 1, 4, 4, 4),
        (14, 1, 1, 5, 5, 5),
        (15, 1, 1, 5, 5, 5),
        (16, 1, 1, 5, 5, 5),
        (17, 1, 1, 5, 5, 5),
    ],
)
def test_deal_table(
    fighters: int, witch: int, dragon: int, executioner: int, knight: int, king: int
) -> None:
    assert cards_for(fighters) == {
        "witch": witch,
        "dragon": dragon,
        "executioner": executioner,
        "knight": knight,
        "king": king,
    }
    assert sum(cards_for(fighters).values()) >= fighters


@pytest.mark.parametrize("fighters", [0, 5, 18, 30])
def test_no_deal_outside_6_to_17(fighters: int) -> None:
    with pytest.raises(RuleError, match=str(fighters)):
        cards_for(fighters)


BEATS_TABLE = [
    ("king", "king", "tie"),
    ("king", "knight", "A"),
    ("king", "executioner", "B"),
    ("king", "witch", "B"),
    ("king", "dragon", "B"),
    ("knight", "king", "B"),
    ("knight", "knight", "tie"),
    ("knight", "executioner", "A"),
    ("knight", "witch", "B"),
    ("knight", "dragon", "B"),
    ("executioner", "king", "A"),
    ("executioner", "knight", "B"),
    ("executioner", "executioner", "tie"),
    ("executioner", "witch", "A"),
    ("executioner", "dragon", "A"),
    ("witch", "king", "A"),
    ("witch", "knight", "A"),
    ("witch", "executioner", "B"),
    ("witch", "witch", "tie"),
    ("witch", "dragon", "tie"),
    ("dragon", "king", "A"),
    ("dragon", "knight", "A"),
    ("dragon", "executioner", "B"),
    ("dragon", "witch", "tie"),
    ("dragon", "dragon", "tie"),
]


@pytest.mark.parametrize(("a", "b", "outcome"), BEATS_TABLE)
def test_every_pair_of_the_default_matrix(a: str, b: str, outcome: str) -> None:
    assert Matrix().duel(a, b) == outcome  # type: ignore[arg-type]


def test_the_table_covers_every_pair() -> None:
    assert {(a, b) for a, b, _ in BEATS_TABLE} == {(a, b) for a in ROLES for b in ROLES}
    assert Matrix().beats == DEFAULT_BEATS


def test_a_matrix_cannot_let_two_characters_beat_each_other() -> None:
    with pytest.raises(ValueError):
        Matrix.model_validate({"beats": {"king": ["knight"], "knight": ["king"]}})


@pytest.mark.parametrize(
    ("winner_stake", "loser_stake", "bank", "back", "bank_after"),
    [
        (3, 2, 15, 6, 14),  # the loser's 2 go to the bank, the winner's 3 are doubled
        (5, 1, 0, 6, 0),  # an empty bank: the loser's card is all it can pay
        (4, 1, 2, 7, 0),  # the bank is short: it pays what it has (2 + 1)
        (5, 5, 0, 10, 0),
        (1, 5, 10, 2, 14),
    ],
)
def test_the_bank_pays_the_winner_or_what_it_has(
    winner_stake: int, loser_stake: int, bank: int, back: int, bank_after: int
) -> None:
    assert pay_out(winner_stake, loser_stake, bank) == (back, bank_after)


@pytest.mark.parametrize(("a", "b", "ta", "tb"), [(28, 17, 9, 5), (2, 3, 0, 1), (30, 0, 10, 0)])
def test_taxes_a_third_rounded_down(a: int, b: int, ta: int, tb: int) -> None:
    assert taxes(a, b) == (ta, tb)  # the rule book's example: 28 and 17 pay 9 and 5


class Table:
    def __init__(self, roles_a: list[str], roles_b: list[str], **state: Any) -> None:
        fighters = {}
        for team, roles in (("A", roles_a), ("B", roles_b)):
            for role in roles:
                fid = len(fighters) + 10
                fighters[str(fid)] = Fighter(id=fid, name=f"{team}{fid}", team=team, role=role)
        self.state = RCBState(fighters=fighters, phase="ready", bets={"A": 15, "B": 15}, bank=15)
        for key, value in state.items():
            setattr(self.state, key, value)
        self.clock = FakeClock()

    def play(self, command: dict[str, Any], *rolls: int) -> str:
        outcome = RCB.apply(
            self.state,
            RCB.parse(command),
            Context(GM, CommandDice(ScriptedRolls(rolls)), self.clock.now()),
        )
        self.state = outcome.state
        return outcome.summary.render()

    def team_ids(self, team: str) -> list[int]:
        return [f.id for f in self.state.fighters.values() if f.team == team and not f.ghost]

    def round(self, a: int, b: int, stake_a: int, stake_b: int) -> str:
        self.play({"type": "round"})
        self.play({"type": "fighters", "a": a, "b": b})
        self.play({"type": "stakes", "a": stake_a, "b": stake_b})
        return self.play({"type": "duel"})


def test_a_won_duel_makes_a_ghost_and_moves_the_bet_cards() -> None:
    t = Table(["king", "knight"], ["executioner", "king"])
    king_a, _ = t.team_ids("A")
    executioner_b = t.team_ids("B")[0]
    said = t.round(king_a, executioner_b, 3, 2)
    assert "B" in said and t.state.fighters[str(king_a)].ghost
    assert (t.state.bets["A"], t.state.bets["B"], t.state.bank) == (12, 17, 16)
    assert t.state.total_cards() == 45


def test_a_tie_leaves_the_stakes_in_the_middle_for_the_next_round() -> None:
    t = Table(["king", "knight"], ["king", "executioner"])
    king_a, knight_a = t.team_ids("A")
    king_b, executioner_b = t.team_ids("B")
    t.round(king_a, king_b, 2, 4)
    assert t.state.carry == {"A": 2, "B": 4} and t.state.total_cards() == 45
    assert not any(f.ghost for f in t.state.fighters.values())
    # The Knight beats the Executioner: A gets back 2 + 1 staked, doubled; B loses 4 + 1.
    t.round(knight_a, executioner_b, 1, 1)
    assert t.state.rounds[1].carried_a == 2 and t.state.rounds[1].carried_b == 4
    assert (t.state.bets["A"], t.state.bets["B"], t.state.bank) == (12 + 6, 10, 15 + 5 - 3)
    assert t.state.carry == {"A": 0, "B": 0} and t.state.total_cards() == 45


def test_taxes_when_the_bank_ends_a_round_empty() -> None:
    t = Table(["king", "knight"], ["knight", "executioner"], bank=1)
    king_a = t.team_ids("A")[0]
    knight_b = t.team_ids("B")[0]
    said = t.round(king_a, knight_b, 5, 1)  # bank 1 + 1 = 2 pays 2 of 5: empty
    assert (t.state.rounds[0].bank_paid, t.state.rounds[0].taxes_a, t.state.rounds[0].taxes_b) == (
        2,
        5,
        4,
    )
    assert (t.state.bets["A"], t.state.bets["B"], t.state.bank) == (12, 10, 9)
    assert "impôts de 5 cartes et 4 cartes" in said


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"type": "stakes", "a": 0, "b": 1}, "de 1 à 5"),
        ({"type": "stakes", "a": 3, "b": 2}, None),
    ],
)
def test_stakes_are_1_to_5(command: dict[str, Any], message: str | None) -> None:
    t = Table(["king"], ["knight"])
    t.play({"type": "round"})
    t.play({"type": "fighters", "a": t.team_ids("A")[0], "b": t.team_ids("B")[0]})
    if message:
        with pytest.raises(RuleError, match=message):
            t.play(command)
    else:
        t.play(command)


def test_stakes_never_above_what_a_team_holds_and_nothing_when_it_holds_none() -> None:
    t = Table(["king", "knight"], ["knight", "king"], bets={"A": 3, "B": 0})
    t.play({"type": "round"})
    t.play({"type": "fighters", "a": t.team_ids("A")[0], "b": t.team_ids("B")[0]})
    with pytest.raises(RuleError, match="de 1 à 3 cartes Pari, pas 4"):
        t.play({"type": "stakes", "a": 4, "b": 0})
    with pytest.raises(RuleError, match="ne mise rien"):
        t.play({"type": "stakes", "a": 1, "b": 1})
    t.play({"type": "stakes", "a": 3, "b": 0})


def test_fighters_must_stand_in_their_own_team_and_one_duel_at_a_time() -> None:
    t = Table(["king", "knight"], ["executioner", "king"])
    a1, a2 = t.team_ids("A")
    b1, _b2 = t.team_ids("B")
    with pytest.raises(RuleError, match="Commencez un tour"):
        t.play({"type": "fighters", "a": a1, "b": b1})
    t.round(a1, b1, 1, 1)  # the Executioner beats the King: a1 is a ghost
    t.play({"type": "round"})
    with pytest.raises(RuleError, match="fantôme"):
        t.play({"type": "fighters", "a": a1, "b": b1})
    with pytest.raises(RuleError, match="pas dans l’équipe"):
        t.play({"type": "fighters", "a": b1, "b": a2})
    t.play({"type": "fighters", "a": a2, "b": b1})
    with pytest.raises(RuleError, match="pas encore réglé"):
        t.play({"type": "round"})


@pytest.mark.parametrize(
    ("standing_a", "standing_b", "bets", "result"),
    [
        ([], ["king"], (20, 25), (["B"], "no_fighters")),
        ([], ["king"], (30, 15), (["A"], "no_fighters")),  # most bet cards wins, fighters or not
        (["knight"], [], (20, 20), (["A", "B"], "no_fighters")),
        (["king", "king"], ["king"], (10, 30), (["A", "B"], "perfect_tie")),
        (["witch"], ["dragon"], (10, 30), (["A", "B"], "perfect_tie")),
        (["witch", "dragon"], ["witch"], (1, 1), (["A", "B"], "perfect_tie")),
        (["king"], ["king", "knight"], (1, 1), None),
    ],
)
def test_the_end_of_the_game(
    standing_a: list[str],
    standing_b: list[str],
    bets: tuple[int, int],
    result: tuple[list[str], str] | None,
) -> None:
    t = Table(standing_a, standing_b, bets={"A": bets[0], "B": bets[1]})
    end = end_of_game(t.state)
    assert (end.winners, end.reason) == result if result else end is None  # type: ignore[union-attr]


def test_the_game_ends_by_itself_on_a_perfect_tie() -> None:
    t = Table(["king", "knight"], ["king", "king"])
    _king_a, knight_a = t.team_ids("A")
    king_b = t.team_ids("B")[0]
    said = t.round(knight_a, king_b, 1, 1)  # the King beats the Knight: only Kings remain
    assert t.state.phase == "finished" and t.state.result.reason == "perfect_tie"  # type: ignore[union-attr]
    assert "Égalité parfaite" in said


def test_the_deal_follows_the_shuffle_dice() -> None:
    state = RCBState(
        fighters={
            str(i): Fighter(id=i, name=f"F{i}", team="A" if i % 2 else "B") for i in range(1, 7)
        }
    )
    t = Table([], [])
    t.state = state
    t.play({"type": "deal"}, *[1] * 7)  # 8 cards, 7 swaps
    roles = [t.state.fighters[str(i)].role for i in range(1, 7)]
    assert len(roles) == 6 and len(t.state.set_aside) == 2
    assert sorted([*roles, *t.state.set_aside]) == sorted(
        ["witch", "dragon", "executioner", "executioner", "knight", "knight", "king", "king"]
    )
    assert t.state.bets == {"A": 15, "B": 15} and t.state.bank == 15 and t.state.phase == "ready"


def test_no_deal_with_fewer_than_six_fighters() -> None:
    state = RCBState(
        fighters={
            str(i): Fighter(id=i, name=f"F{i}", team="A" if i % 2 else "B") for i in range(1, 6)
        }
    )
    t = Table([], [])
    t.state = state
    with pytest.raises(RuleError, match="6 à 17 combattants, pas 5"):
        t.play({"type": "deal"})


def fighters_in(teams: str) -> RCBState:
    """A game in setup whose fighters are in the teams `teams` spells ("A", "B", "-": none)."""
    state = RCBState()
    for i, team in enumerate(teams, start=1):
        state.fighters[str(i)] = Fighter(id=i, name=f"F{i}", team=None if team == "-" else team)
    return state


@pytest.mark.parametrize(
    ("teams", "refused"),
    [
        ("AAABBB", None),
        ("AAABB-", "Mettez d’abord chaque combattant dans une équipe : F6."),
        ("AAAAAA", "Chaque équipe a besoin d’au moins un combattant."),
        ("AABB", "La distribution demande de 6 à 17 combattants, pas 4."),
    ],
)
def test_the_deal_is_offered_where_it_is_taken(teams: str, refused: str | None) -> None:
    """Steps 1-4: one judgement of whether the cards can be dealt, read by the deal and by the
    game master's page (the walker of issue 53 met the button refused)."""
    from server.games.rcb.setup import deal_refusal
    from server.games.rcb.views import gm_view

    state = fighters_in(teams)
    refusal = deal_refusal(state)
    assert (refusal.message if refusal else None) == refused
    assert gm_view(state)["deal_refusal"] == refused
