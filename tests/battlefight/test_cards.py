"""Steps read as the rule book writes them (4.1 to 4.4), table by table."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from server.games.battlefight.cards import (
    BASE_TECHNIQUES,
    KEYWORDS,
    CardError,
    Step,
    Technique,
    check_deck,
    parse_step,
)


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("Blesser 1", Step("wound", n=1)),  # 4.4.1
        ("Bloquer 1", Step("block", n=1)),  # 4.4.2
        ("Charme 2", Step("charm", n=2)),  # 4.4.3
        ("Corps à Corps", Step("melee")),  # 4.4.4, as in 3.3.1
        ("Corps à corps", Step("melee")),
        ("Défausser 2", Step("discard", n=2)),  # 4.4.5
        ("Distance", Step("ranged", n=2)),  # 4.4.6: "Si N est omis, N = 2"
        ("Distance 3", Step("ranged", n=3)),
        ("Force 1", Step("force", n=1)),  # 4.4.7
        ("Déstabiliser", Step("destabilise")),  # 4.4.8
        ("Stable", Step("stable", n=0)),  # 4.4.9: "Si N est omis, N = 0"
        ("Stable 1", Step("stable", n=1)),
        ("Piocher 1", Step("draw", n=1)),  # 4.4.10
        ("Pousser 2", Step("push", n=2)),  # 4.4.11
        ("Protection 1", Step("protection", n=1)),  # 4.4.12
        ("Rejouer", Step("play_again")),  # 4.4.13
        ("Se Blesser 2", Step("wound_self", n=2)),  # 4.4.14, the book's capital
        ("Se déplacer 1", Step("move", n=1)),  # 4.4.15
        ("Se déplacer -1", Step("move", n=-1)),  # "Si V + N est supérieur à zéro"
        ("S'empêcher attaque", Step("forbid_type", type="attack")),  # 4.4.16
        ("S’empêcher Rhétorique", Step("forbid_type", type="rhetoric")),
        ("S'empêcher carte", Step("forbid_card")),  # 4.4.17: "Si T est omis"
        ("S'empêcher carte défense", Step("forbid_card", type="defence")),
        ("Si possible défausser 1", Step("discard_if_possible", n=1)),  # 4.4.18
        ("Vitesse 1", Step("speed", n=1)),  # 4.4.19
        ("L'adversaire a Pousser 1", Step("push", "opponent", n=1)),  # 4.4.1 (modifiers)
        ("L’adversaire a Piocher 2", Step("draw", "opponent", n=2)),
        ("Tout le monde a Se déplacer 1", Step("move", "everyone", n=1)),  # 4.4.2 (modifiers)
        # 4.3 « un mot ou un nombre »: the book bounds no number (issue 33, item 11).
        ("Blesser 25", Step("wound", n=25)),
        ("Piocher 21", Step("draw", n=21)),
        ("Se déplacer -999", Step("move", n=-999)),
        ("  tout  le monde a  Défausser 1 ", Step("discard", "everyone", n=1)),
    ],
)
def test_a_step_reads_into_keyword_modifier_and_parameter(text: str, step: Step) -> None:
    assert parse_step(text) == step


def test_all_nineteen_keywords_are_read() -> None:
    assert len(KEYWORDS) == 19
    assert len({keyword for keyword, _kind, _default in KEYWORDS.values()}) == 19


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Voler 2", "is not a step of the rule book"),
        ("", "empty step"),
        ("Blesser", "needs a number"),  # no default for Blesser
        ("Blesser deux", "needs a number"),
        ("Corps à corps 2", "takes no parameter"),
        ("Rejouer 1", "takes no parameter"),
        ("S'empêcher", "needs a technique type"),
        ("S'empêcher magie", "needs a technique type"),
        ("L'adversaire a", "is not a step"),
        # Past Arbitre's guard against typos, said as such (not "needs a number").
        ("Blesser 1000", "Arbitre reads numbers from {low} to {high}"),
        ("Piocher -1", "Arbitre reads numbers from {low} to {high}"),
        ("Blesser " + "9" * 40, "Arbitre reads numbers from {low} to {high}"),
    ],
)
def test_a_step_it_cannot_read_is_refused_with_why(text: str, problem: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_step(text)
    assert problem in refused.value.msg.text


def test_the_five_base_techniques() -> None:  # 3.3
    # 3.3.1 writes « Corps à Corps », 4.4.4 and the cards « Corps à corps »: one keyword, shown
    # one way (the step reads either).
    assert [(t.title, t.type, t.steps) for t in BASE_TECHNIQUES] == [
        ("Attaque de base", "attack", ["Corps à corps", "Blesser 1"]),
        ("Défense de base", "defence", ["Bloquer 1"]),
        ("Déplacement de base", "movement", ["Se déplacer 1"]),
        ("Concentration de base", "concentration", ["Piocher 1"]),
        ("Rhétorique de base", "rhetoric", ["Déstabiliser"]),
    ]
    assert all(t.base for t in BASE_TECHNIQUES)


def test_a_card_names_the_step_it_cannot_read() -> None:
    with pytest.raises(ValidationError, match=r"(step|étape) 2 ?: .*Voler 2"):  # reader’s language
        Technique(key="x", title="X", type="attaque", steps=["Corps à corps", "Voler 2"])
    card = Technique(key="x", title="X", type="Rhétorique", steps=["Stable 1"])
    assert card.type == "rhetoric" and card.parsed == [Step("stable", n=1)]


def card(kind: str, n: int) -> Technique:
    return Technique(key=f"{kind}-{n}", title=f"{kind} {n}", type=kind, steps=["Stable"])


def test_a_deck_holds_four_of_each_type() -> None:  # 1.1.3
    kinds = ["attack", "defence", "movement", "concentration", "rhetoric"]
    deck = [card(k, i) for k in kinds for i in range(4)]
    assert check_deck(deck) == deck
    same = [card("attack", 0)] * 4 + deck[4:]  # the same card more than once is allowed
    assert check_deck(same) == same
    for wrong, count in ((deck[1:], 3), ([*deck, card("attack", 9)], 5)):
        with pytest.raises(CardError) as refused:
            check_deck(wrong)
        assert refused.value.msg.params["count"] == count
    # Every wrong type is said at once.
    with pytest.raises(CardError) as refused:
        check_deck(deck[1:-1])
    said = refused.value.msg.render()
    assert "3 de type attaque, 3 de type rhétorique" in said  # the default language: French


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Défausser -1", False),  # N cards: a count
        ("Piocher 1000000000000", False),  # N times: bounded by Arbitre, not by the book
        ("Piocher 1000", False),
        ("Piocher 999", True),
        ("Piocher 21", True),  # 4.3: no rule caps it (issue 33, item 11)
        ("Se déplacer -1", True),  # V + N: a malus is a reading the book allows
        ("Se déplacer -21", True),
        ("Se déplacer -1000", False),
        ("Blesser 0", True),
    ],
)
def test_numbers_are_bounded(text: str, ok: bool) -> None:
    if ok:
        parse_step(text)
    else:
        with pytest.raises(CardError):
            parse_step(text)
