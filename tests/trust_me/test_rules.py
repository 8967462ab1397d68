"""Trust Me's rules as tables, each row quoting the book (rule book 004): the wound table and the
zombies' attack (10.4, 12), the sheet's places and what a wound does (1, 4, 5, 6), the victory
points (3.3, 13); and the box read from JSON with the card that is wrong named."""

from __future__ import annotations

import json

import pytest

from server.errors import InvalidInput, RuleError
from server.games.trust_me.catalog import dump_box, read_box, sample_box
from server.games.trust_me.combat import outcome, zombies_killed
from server.games.trust_me.ending import points, times_met
from server.games.trust_me.setup import new_item
from server.games.trust_me.sheet import has_skill, mark, place_problem, put, token_places
from server.games.trust_me.state import WOUND_SLOTS, Fight, Survivor, TMState


def four() -> TMState:
    state = TMState(box=sample_box())
    for i, name in enumerate(("Léa", "Hugo", "Ana", "Tom"), start=1):
        state.survivors[str(i)] = Survivor(id=i, name=name)
    state.order = [1, 2, 3, 4]
    return state


def holding(state: TMState, person: int, key: str, slot: str) -> int:
    item = new_item(state, key)
    put(state, state.survivor(person), item, slot)
    return item


# 10.4: the sample wound table (the organizer's own replaces it): below 1 nothing; "Sur un
# résultat compris entre 1 et 3, le défenseur choisit de recevoir un pion Fatigue ou Blessure".
@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (-5, ("none", 0)),
        (0, ("none", 0)),
        (1, ("fatigue_or_wound", 0)),
        (3, ("fatigue_or_wound", 0)),
        (4, ("wounds", 1)),
        (7, ("wounds", 1)),
        (8, ("wounds", 2)),
        (12, ("wounds", 3)),
        (40, ("wounds", 3)),
    ],
)
def test_the_wound_table(difference: int, expected: tuple[str, int]) -> None:
    assert outcome(four(), difference) == expected


# 12: "La valeur d'attaque d'un zombie est de 8 [...] et on ajoute +2 pour chaque zombie au
# contact [...] Si trois zombies sont au corps à corps contre un survivant, le survivant est
# attaqué à 12 car 8+2+2."
@pytest.mark.parametrize(("zombies", "attack"), [(1, 8), (2, 10), (3, 12), (5, 16)])
def test_the_zombies_attack(zombies: int, attack: int) -> None:
    assert Fight(attacker=None, target=1, zombies=zombies, stage="defence").attack_total == attack


# 12: "il tue un zombie par tranche de cinq à son résultat de dé, ainsi un joueur qui réalise un
# score de 11 avec ses dés abattra deux zombies."
@pytest.mark.parametrize(("total", "killed"), [(4, 0), (5, 1), (9, 1), (11, 2), (15, 3), (-2, 0)])
def test_one_zombie_per_five_points(total: int, killed: int) -> None:
    state = four()
    fight = Fight(attacker=1, target=None, stage="attack_reroll", attack_bonus=total)
    zombies_killed(state, fight)
    assert state.survivor(1).zombies_killed == killed and fight.stage == "usage"


def test_a_free_cell_gives_its_skill_a_covered_one_does_not() -> None:
    """1: "Tant qu'une case est libre, votre survivant profite du bonus écrit mais si la case est
    recouverte par un pion, le bonus est annulé"."""
    state = four()
    lea = state.survivor(1)
    assert has_skill(state, lea, "melee_die")
    holding(state, 1, "eau", "c1")
    assert not has_skill(state, lea, "melee_die")


def test_a_wound_drops_what_it_covers_and_the_third_kills() -> None:
    """6: "Si la blessure est posée sur un emplacement contenant un objet, posez cet objet sur le
    sol"; 4: "Si une blessure est placée dans l'une des deux mains, l'arme tombe au sol"; 6: "Un
    survivant décède lorsqu'il reçoit sa troisième blessure"."""
    state = four()
    lea = state.survivor(1)
    axe = holding(state, 1, "hache", "hands")
    water = holding(state, 1, "eau", "c2")
    assert mark(state, lea, "left", "wound") == [axe]  # two-handed, in both hands: it falls
    assert mark(state, lea, "c2", "infection") == [water]
    assert not lea.dead
    mark(state, lea, "c3", "wound")
    with pytest.raises(RuleError):
        mark(state, lea, "c3", "wound")  # a place already wounded
    mark(state, lea, "c4", "wound")
    assert lea.dead


def test_a_backpack_falls_with_what_it_holds() -> None:
    """5, Sac à dos: "Si vous posez le pion Sac à dos au sol, vous posez également tous les pions
    se trouvant à l'intérieur"."""
    state = four()
    lea = state.survivor(1)
    bag = holding(state, 1, "sac-a-dos", "backpack")
    food = holding(state, 1, "nourriture", "b1")
    from server.games.trust_me.sheet import fall

    assert fall(state, lea, bag) == [bag, food] and lea.items == {}


@pytest.mark.parametrize(
    ("key", "slot", "problem"),
    [
        ("hache", "hands", None),
        ("surin", "hands", "two-handed"),  # 4: the two-handed logo only
        ("hache", "right", None),  # 4: "peut être utilisée à une seule main" (at −4)
        ("eau", "outfit", "outfit"),  # 5: "Placez un pion Tenue visible ici"
        ("basket", "outfit", None),
        ("nourriture", "b1", "backpack"),  # 1: no backpack, no cell in it
        ("bandage", "passport", None),  # 5: "Placez ce pion sur le passeport"
        ("eau", "passport", "passport"),
        ("sacoche", "backpack", "backpack"),
    ],
)
def test_what_goes_where(key: str, slot: str, problem: str | None) -> None:
    state = four()
    item = new_item(state, key)
    found = place_problem(state, state.survivor(1), item, slot)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found.render().lower()


def test_tokens_go_on_free_cells_the_sneakers_or_beside() -> None:
    """9.1: "pose l'un de ses pions Action ou Fatigue dans l'une des neuf cases de son
    inventaire"; 5, Basket: "Vous pouvez placer un pion Action ou Fatigue sur ce pion"."""
    state = four()
    lea = state.survivor(1)
    assert token_places(state, lea) == [f"c{i}" for i in range(1, 10)]
    holding(state, 1, "basket", "outfit")
    for i in range(1, 10):
        holding(state, 1, "vide", f"c{i}")
    assert token_places(state, lea) == ["sneakers"]
    lea.tokens[0].slot = "sneakers"
    assert token_places(state, lea) == ["aside"]  # Arbitre's reading: beside the sheet


def test_points_resources_copies_deaths() -> None:
    """13.1: a resource token held, one point; 3.3: "Le joueur a deux fois la carte Ramener 1
    Matériaux [...] il remplira la condition des deux cartes en ayant un seul pion Matériaux et
    gagnera donc deux points"; "Rapporter 2 ressources au choix [...] remplie si le joueur possède
    deux fois la même ressource"; 13.3: "tous les autres joueurs gagnent 1 point"."""
    state = four()
    lea = state.survivor(1)
    lea.objectives = ["ramener-materiaux", "ramener-materiaux", "deux-ressources"]
    holding(state, 1, "materiaux", "c1")
    assert points(state, lea)["total"] == 1 + 2  # the token, two copies met once
    holding(state, 1, "materiaux", "c2")
    # two tokens: 2 points; two copies met twice: 4; two resources, even the same: 1
    assert points(state, lea)["total"] == 2 + 4 + 1
    holding(state, 1, "ressource-speciale", "c3")  # 5: "ne vous rapporte pas de point"
    assert points(state, lea)["total"] == 7
    state.survivor(3).dead = True
    assert points(state, lea)["total"] == 8
    assert points(state, state.survivor(3))["deaths"] == 0  # the others' deaths only


@pytest.mark.parametrize(("dead", "left", "right"), [(2, 1, 0), (4, 0, 1), (3, 0, 0)])
def test_the_left_and_right_neighbours(dead: int, left: int, right: int) -> None:
    """3.3: "Le survivant du joueur à votre gauche/droite est décédé" is met once that player is
    dead, "même si vous ne l'avez pas tué vous même"; 9: play passes "au joueur de gauche"."""
    state = four()
    state.survivor(dead).dead = True
    box = state.box
    lea = state.survivor(1)
    assert times_met(state, lea, box.objective("gauche-decede")) == left  # type: ignore[arg-type]
    assert times_met(state, lea, box.objective("droite-decede")) == right  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the box as data


def sample() -> dict:  # type: ignore[type-arg]
    return json.loads(dump_box(sample_box()))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda b: b["weapons"][1].pop("die"), "“weapons”: Card 2"),
        (lambda b: b["weapons"][0].update(die="purple"), "die"),
        (lambda b: b["passports"][2].update(melee="x"), "Card 3"),
        (lambda b: b["things"][0].update(effect="teleport"), "effect"),
        (lambda b: b["objectives"][0].update(resource="gold"), "gold"),
        (lambda b: b.update(cells=b["cells"][:8]), "cells"),
        (lambda b: b["cells"][0].update(skill="hidden"), "hidden"),
        (lambda b: b["wound_table"].reverse(), "wound table"),
        (lambda b: b.pop("things"), "things"),
        (lambda b: b["weapons"].append(dict(b["weapons"][0])), "Two cards"),
    ],
)
def test_a_wrong_box_names_what_is_wrong(change, words: str) -> None:  # type: ignore[no-untyped-def]
    data = sample()
    change(data)
    with pytest.raises(InvalidInput, match=words):
        read_box(json.dumps(data))


def test_the_box_round_trips_and_is_marked_a_sample() -> None:
    box = sample_box()
    assert box.sample and read_box(dump_box(box)) == box
    with pytest.raises(InvalidInput, match="Line 1"):
        read_box("{not json")


@pytest.mark.parametrize(
    ("wounds_before", "wounds", "infections", "covered", "expected"),
    [
        (0, 2, 2, 0, ["wound", "wound", "infection", "infection"]),
        (2, 3, 3, 0, ["wound"]),  # 6: the third wound kills: nothing is placed after it
        (1, 2, 2, 0, ["wound", "wound"]),
        (0, 1, 1, 10, ["wound"]),  # one free place left
    ],
)
def test_the_markers_placed(
    wounds_before: int, wounds: int, infections: int, covered: int, expected: list[str]
) -> None:
    """Found by a playtest: the form asked for more places than the sheet had, or than a dying
    survivor needed, and could never be sent."""
    from server.games.trust_me.combat import markers_to_place
    from server.games.trust_me.state import Placement

    state = four()
    lea = state.survivor(1)
    lea.wounds = ["c1", "c2"][:wounds_before]
    places = [p for p in WOUND_SLOTS if p not in lea.wounds]
    lea.infections = places[:covered]
    placement = Placement(placer=2, survivor=1, wounds=wounds, infections=infections)
    assert markers_to_place(state, placement) == expected


def test_a_group_of_zombies_loses_no_more_than_it_holds() -> None:
    state = four()
    fight = Fight(attacker=1, target=None, zombies=2, stage="attack_reroll", attack_bonus=19)
    zombies_killed(state, fight)
    assert state.survivor(1).zombies_killed == 2  # 19 would be three, the group held two


def test_the_book_s_skills_read_in_the_reader_s_language() -> None:
    from server.games.trust_me.views import slot_title
    from server.i18n import current_language

    state = four()
    token = current_language.set("en")
    try:
        assert slot_title(state, "c1") == "1 · +1 yellow die in melee"
        assert "échantillon" in slot_title(state, "c7")  # a sample skill: the box's words
    finally:
        current_language.reset(token)


def test_the_box_as_csv_round_trips() -> None:
    """Spec: the box is entered or imported "JSON/CSV, with line-by-line errors"."""
    from server.games.trust_me.catalog import dump_box_csv, read_box_csv

    box = sample_box()
    again = read_box_csv(dump_box_csv(box))
    assert again.model_dump() == box.model_copy(update={"sample": False}).model_dump()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda rows: rows.__setitem__(8, rows[8].replace(",red,", ",purple,")), "Line 9: die"),
        (
            lambda rows: rows.__setitem__(2, "dragons" + rows[2][rows[2].index(",") :]),
            "Line 3: no section",
        ),
        (lambda rows: rows.__setitem__(0, rows[0].replace("section", "part")), "Line 1"),
    ],
)
def test_a_wrong_csv_box_names_its_line(change, words: str) -> None:  # type: ignore[no-untyped-def]
    from server.games.trust_me.catalog import dump_box_csv, read_box_csv

    rows = dump_box_csv(sample_box()).splitlines()
    assert rows[8].startswith("weapons,machette")
    change(rows)
    with pytest.raises(InvalidInput, match=words):
        read_box_csv("\n".join(rows))


@pytest.mark.parametrize(("drawn", "racket"), [(3, "racket"), (1, None)])
def test_the_noisy_military_vehicle_makes_a_racket_from_the_start(
    drawn: int, racket: str | None
) -> None:
    """p. 8 « L'alarme du véhicule est bloquée ! Ce véhicule produit en permanence le marqueur
    "Vacarme" » (issue 33, item 12): drawn among the spare sheets, the racket is in play from
    the deal, for the zombies' second movement priority; the other sheets make none."""
    from server.games.trust_me.setup import SPECIALS, specials
    from server.platform.dice import CommandDice, ScriptedRolls

    state = TMState(box=sample_box())
    for i, name in enumerate(("Léa", "Hugo", "Zoé"), start=1):  # three players: one spare sheet
        state.survivors[str(i)] = Survivor(id=i, name=name)
    dice = CommandDice(ScriptedRolls([drawn]), {})
    specials(state, dice)
    assert (state.specials[0] == "vehicle") is (list(SPECIALS)[drawn - 1] == "vehicle")
    assert state.racket == racket
