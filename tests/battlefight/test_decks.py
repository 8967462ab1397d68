"""Decks (1.1.2, 1.1.3) and the sample collection, read and written as JSON."""

from __future__ import annotations

from collections import Counter

import pytest

from server.errors import InvalidInput
from server.games.battlefight.cards import TYPES, CardError
from server.games.battlefight.decks import (
    booster,
    chosen_deck,
    dump_collection,
    random_deck,
    read_collection,
    sample_collection,
    sealed_pool,
    within,
)
from server.platform.dice import CommandDice, ScriptedRolls


def dice() -> CommandDice:
    return CommandDice(ScriptedRolls.cycle())


def test_the_sample_collection_reads_and_round_trips() -> None:
    cards = sample_collection()
    assert len(cards) == 30 and Counter(c.type for c in cards) == dict.fromkeys(TYPES, 6)
    assert all(c.parsed for c in cards)  # every step of every card is one of the book's
    again = read_collection(dump_collection(cards, sample=True))
    assert again == cards


def test_a_booster_holds_two_of_each_type() -> None:  # 1.1.2
    opened = booster(sample_collection(), dice(), "player:1")
    assert len(opened) == 10 and Counter(c.type for c in opened) == dict.fromkeys(TYPES, 2)
    for kind in TYPES:  # two different cards of a type when the collection has them
        assert len({c.key for c in opened if c.type == kind}) == 2


def test_a_random_deck_is_two_boosters() -> None:  # 1.1.3.1
    deck = random_deck(sample_collection(), dice(), "player:1")
    assert len(deck) == 20 and Counter(c.type for c in deck) == dict.fromkeys(TYPES, 4)


def test_a_constructed_deck_takes_four_of_each_type_repeats_allowed() -> None:  # 1.1.3.2
    cards = sample_collection()
    first = {kind: next(c.key for c in cards if c.type == kind) for kind in TYPES}
    chosen = [first[k] for k in TYPES for _ in range(4)]
    assert len(chosen_deck(chosen, cards)) == 20
    with pytest.raises(CardError) as refused:
        chosen_deck(chosen[:-1], cards)
    assert refused.value.msg.params["count"] == 3
    with pytest.raises(CardError):
        chosen_deck([*chosen[:-1], "carte-inconnue"], cards)


def test_a_sealed_deck_keeps_to_its_boosters() -> None:  # 1.1.3.3
    pool = sealed_pool(sample_collection(), dice(), "player:1")
    assert len(pool) == 30
    chosen = [c.key for kind in TYPES for c in [c for c in pool if c.type == kind][:4]]
    within(chosen, pool)
    assert len(chosen_deck(chosen, pool)) == 20
    rare = next(k for k, n in Counter(c.key for c in pool).items() if n == 1)
    with pytest.raises(CardError):
        within([rare, rare], pool)


def test_an_import_names_the_card_and_step_it_cannot_read() -> None:
    text = '{"cards": [{"title": "Vol", "type": "attaque", "steps": ["Voler 2"]}]}'
    with pytest.raises(InvalidInput) as refused:
        read_collection(text)
    assert "Vol" in refused.value.message and "Voler 2" in refused.value.message


def test_a_collection_needs_every_type() -> None:
    only_attacks = '[{"title": "Coup", "type": "attaque", "steps": ["Blesser 1"]}]'
    with pytest.raises(CardError):
        read_collection(only_attacks)


def test_a_collection_travels_as_csv_too() -> None:
    from server.games.battlefight.decks import dump_collection_csv, read_any

    cards = sample_collection()
    text = dump_collection_csv(cards)
    assert text.splitlines()[0] == "title,type,steps"
    assert read_any(text) == cards == read_any(dump_collection(cards))
    with pytest.raises(InvalidInput):
        read_any("name,kind\nX,attaque\n")  # the columns are named
    with pytest.raises(InvalidInput) as refused:
        read_any("title,type,steps\nVol,attaque,Voler 2\n")
    assert "Voler 2" in refused.value.message
