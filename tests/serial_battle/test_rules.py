"""Serial Battle's rules, one table row per case, with scripted dice (rule book sections cited)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from server.errors import RuleError
from server.games.serial_battle.assault import bare_hands_face, multiple_target_hit, strike_order
from server.games.serial_battle.cards import recovered
from server.games.serial_battle.catalog import Effect, Location
from server.games.serial_battle.ending import outcome
from server.games.serial_battle.kind import SERIAL_BATTLE
from server.games.serial_battle.state import SBState
from server.games.serial_battle.views import own
from server.platform.kinds import PersonInfo, Viewer
from server.platform.timers import Timer
from tests.serial_battle.conftest import DECK, Table, game


# ---------------------------------------------------------------- Initiative (lexique)
@pytest.mark.parametrize(
    ("touch", "attacker_level", "defender_level", "first"),
    [
        ("attacker", 0, 0, "attacker"),  # touched first: initiative to throw the dice
        ("defender", 0, 0, "defender"),
        ("simultaneous", 0, 0, "simultaneous"),  # touched together: simultaneous
        ("attacker", 0, 1, "defender"),  # a card with initiative strikes first
        ("simultaneous", 1, 0, "attacker"),
        ("attacker", 1, 1, "attacker"),  # two initiatives cancel: as the touch says
        ("simultaneous", 1, 1, "simultaneous"),
        ("defender", 2, 1, "attacker"),  # absolute initiative beats initiative
        ("attacker", 1, 2, "defender"),
        ("attacker", 2, 2, "attacker"),  # two absolute initiatives cancel
        ("simultaneous", 2, 2, "simultaneous"),
        ("defender", 2, 0, "attacker"),
    ],
)
def test_strike_order(touch: str, attacker_level: int, defender_level: int, first: str) -> None:
    assert strike_order(touch, attacker_level, defender_level) == first  # type: ignore[arg-type]


# ---------------------------------------------------------------- Mains nues
@pytest.mark.parametrize(
    ("die", "pv", "effect"),
    [
        (1, 0, None),
        (2, 0, None),
        (3, 1, None),
        (4, 1, None),
        (5, 2, Effect.KNOCKED_OUT),
        (6, 3, Effect.FRACTURED),
    ],
)
def test_bare_hands_table(die: int, pv: int, effect: Effect | None) -> None:
    assert bare_hands_face(die) == (pv, effect)


@pytest.mark.parametrize(("die", "kept"), [(1, True), (3, True), (5, True), (6, False)])
def test_recovery_and_multiple_target_rolls(die: int, kept: bool) -> None:
    assert recovered(die) is kept  # Récupération des munitions: 1-5 recovered, 6 lost
    assert multiple_target_hit(die) is kept  # Cible multiple: 1-5 hit, 6 spared


def duel(**extra: object) -> dict[str, object]:
    return {"type": "assault", "attacker": 1, "defenders": [2], "answer": False, **extra}


# ---------------------------------------------------------------- damage, location, effects
@pytest.mark.parametrize(
    ("card", "damage", "location", "pv_left", "wound", "fatal"),
    [
        ("blade", 1, 1, 35, None, False),
        ("blade", 3, 6, 33, None, False),
        ("blade", 4, 2, 32, Effect.SEVERED, False),  # severed arm: a wound
        ("blade", 4, 1, 0, Effect.SEVERED, True),  # severed trunk: fatal (Membre tranché)
        ("blade", 4, 6, 0, Effect.SEVERED, True),  # severed head: fatal
        ("blade", 6, 4, 0, None, True),  # critical: kills outright
        ("club", 2, 6, 34, Effect.FRACTURED, False),  # a fractured skull is not fatal
        ("club", 1, 1, 34, Effect.FRACTURED, False),  # nor fractured ribs
        ("bare", 6, 5, 33, Effect.FRACTURED, False),  # bare hands: 6 is a fracture
    ],
)
def test_damage_location_and_effects(
    card: str, damage: int, location: int, pv_left: int, wound: Effect | None, fatal: bool
) -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": [card]} if card != "bare" else {}))
    t.play(duel(card=card), damage, location)
    hugo = t.p(2)
    assert hugo.pv == pv_left
    assert hugo.wounds.get(Location(location)) == wound
    assert hugo.eliminated is fatal


def test_the_sentence_to_read_aloud() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"]}))
    t.play(duel(card="blade"), 4, 2)
    assert (
        t.said
        == "Léa frappe Hugo au bras droit avec la carte Blade : 4 PV, tranché. Hugo : 32 PV restants."
    )


def test_a_useless_card_fights_with_bare_hands() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["whistle"]}))
    t.play(duel(card="whistle"), 5, 1)
    assert t.p(2).pv == 34 and t.p(2).knocked_out


# ---------------------------------------------------------------- protections, complementary
@pytest.mark.parametrize(
    ("defender_cards", "damage", "location", "pv_left", "wound"),
    [
        (["helmet"], 3, 6, 36, None),  # helmet: -3 at the head
        (["helmet"], 5, 6, 34, None),  # 5 knocked out - 3 = 2, still knocked out
        (["helmet"], 3, 1, 33, None),  # not at the trunk
        (["armor"], 4, 1, 36, None),  # immune trunk: no PV, no severing
        (["armor"], 4, 2, 32, Effect.SEVERED),
    ],
)
def test_permanent_protections(
    defender_cards: list[str], damage: int, location: int, pv_left: int, wound: Effect | None
) -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"], "Hugo": defender_cards}))
    t.play(duel(card="blade"), damage, location)
    assert t.p(2).pv == pv_left and t.p(2).wounds.get(Location(location)) == wound
    assert not t.p(2).eliminated


def test_complementary_card_adds_to_a_blow_that_hurts() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade", "poison"]}))
    t.play(duel(card="blade"), 2, 1)
    assert t.p(2).pv == 36 - 2 - 2
    t.play(duel(card="bare"), 1, 1)  # 0 PV: the poison does not apply
    assert t.p(2).pv == 32


# ---------------------------------------------------------------- ammunition
def test_ammunition_runs_out_and_the_weapon_goes_back() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["gun"]}))
    t.play(duel(card="gun"), 1, 3)
    assert t.p(1).holds("gun").ammo == 1  # type: ignore[union-attr]
    t.play(duel(card="gun"), 1, 3)
    assert t.p(1).cards == [] and t.state.out == ["gun"]
    with pytest.raises(RuleError, match="ne détient pas"):
        t.play(duel(card="gun"), 1, 3)


@pytest.mark.parametrize(("recovery", "left"), [(1, 2), (5, 2), (6, 1)])
def test_recoverable_projectiles(recovery: int, left: int) -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["bow"]}))
    t.play(duel(card="bow"), 1, 3, recovery)
    assert t.p(1).holds("bow").ammo == left  # type: ignore[union-attr]
    assert t.rolls[-1] == {"purpose": "recovery", "sides": 6, "value": recovery, "manual": False}


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("cards", "wounds", "command", "message"),
    [
        (
            {"Léa": ["sword"]},
            {Location.LEFT_ARM: Effect.FRACTURED},
            duel(card="sword"),
            "deux mains",
        ),
        (
            {"Léa": ["sword"]},
            {Location.RIGHT_ARM: Effect.SEVERED},
            duel(card="sword"),
            "deux mains",
        ),
        ({"Léa": []}, {}, duel(card="gun"), "ne détient pas"),
        ({"Léa": ["blade"]}, {}, {**duel(card="blade"), "defenders": [2, 3]}, "un seul défenseur"),
        ({"Léa": ["blade"]}, {}, {**duel(card="blade"), "defenders": [1]}, "lui-même"),
        ({"Léa": ["blade"]}, {}, {**duel(card="blade"), "defenders": [9]}, "9"),
    ],
)
def test_assaults_the_rules_forbid(
    cards: dict[str, list[str]],
    wounds: dict[Location, Effect],
    command: dict[str, object],
    message: str,
) -> None:
    state = game("Léa", "Hugo", "Zoé", cards=cards)
    state.players["1"].wounds = wounds
    before = state.model_copy(deep=True)
    with pytest.raises(RuleError, match=message):
        Table(state).play(command, 1, 1)
    assert state == before


def test_an_eliminated_player_cannot_fight() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"]}))
    t.play(duel(card="blade"), 6, 1)  # critical
    assert t.p(2).eliminated
    with pytest.raises(RuleError, match="hors jeu"):
        t.play({"type": "assault", "attacker": 2, "defenders": [3]}, 1, 1)
    with pytest.raises(RuleError, match="hors jeu"):
        t.play({"type": "assault", "attacker": 3, "defenders": [2]}, 1, 1)


def test_a_die_outside_its_faces_changes_nothing() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"]}))
    before = t.state.model_copy(deep=True)
    with pytest.raises(RuleError, match="pas 7"):
        t.play(duel(card="blade"), entered={"damage": 7, "location": 1})
    assert t.state == before


# ---------------------------------------------------------------- the exchange
def test_the_defender_answers_if_still_standing() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["knife"], "Hugo": ["blade"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "knife"}, 1, 1, 3, 2)
    assert t.p(2).pv == 34 and t.p(1).pv == 33
    assert [r["purpose"] for r in t.rolls] == [
        "damage",
        "location",
        "answer_damage",
        "answer_location",
    ]


def test_a_defender_with_initiative_strikes_first_and_may_prevent_the_attack() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["knife"], "Hugo": ["saber"]}))
    # The saber's absolute initiative strikes first (20 PV); Léa still stands and strikes (2 PV),
    # and Hugo, who already struck, does not strike again.
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "knife"}, 1, 1, 1, 1)
    assert (t.p(1).pv, t.p(2).pv) == (16, 34)
    assert [r["purpose"] for r in t.rolls] == [
        "answer_damage",
        "answer_location",
        "damage",
        "location",
    ]
    # Next time the saber's 20 PV take Léa down before she can strike: two dice only.
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "knife"}, 1, 1)
    assert t.p(1).eliminated and t.p(2).pv == 34 and len(t.rolls) == 2
    assert t.state.phase == "running"


def test_long_range_gets_no_answer() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["bow"], "Hugo": ["gun"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "bow"}, 1, 1, 2)
    assert t.p(1).pv == 36 and t.p(2).pv == 33


def test_simultaneous_assaults_can_kill_both_and_nobody_wins() -> None:
    t = Table(game("Léa", "Hugo", cards={"Léa": ["blade"], "Hugo": ["blade"]}))
    t.play(
        {
            "type": "assault",
            "attacker": 1,
            "defenders": [2],
            "card": "blade",
            "touch": "simultaneous",
        },
        6,
        1,
        6,
        1,
    )
    assert t.p(1).eliminated and t.p(2).eliminated
    assert t.state.phase == "finished" and t.state.result.winner is None  # type: ignore[union-attr]
    assert t.state.result.reason == "no_survivor"  # type: ignore[union-attr]
    assert "Personne ne gagne" in t.said
    assert t.state.pool == ["blade", "blade"]  # nobody left to take them: back to the referee


def test_the_last_survivor_wins() -> None:
    t = Table(game("Léa", "Hugo", cards={"Léa": ["blade"]}))
    t.play(duel(card="blade"), 6, 1)
    assert t.state.result.winner == 1 and t.state.phase == "finished"  # type: ignore[union-attr]
    assert "Léa gagne" in t.said


# ---------------------------------------------------------------- several defenders
def test_multiple_targets_each_defender_rolls_to_be_hit() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", "Max", cards={"Léa": ["shotgun"]}))
    t.play(
        {
            "type": "assault",
            "attacker": 1,
            "defenders": [2, 3, 4],
            "card": "shotgun",
            "answer": False,
        },
        1,
        3,
        1,
        6,
        2,
        4,
        5,
    )
    # Hugo: hit (1), 4 PV at the left arm; Zoé: spared (6); Max: hit (2), 4 PV at the left leg.
    assert [t.p(i).pv for i in (2, 3, 4)] == [32, 36, 32]
    assert [r["purpose"] for r in t.rolls][:3] == ["hit_2", "2_damage", "2_location"]


def test_mass_damage_hits_every_defender() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", "Max", cards={"Léa": ["grenade"]}))
    t.play(
        {
            "type": "assault",
            "attacker": 1,
            "defenders": [2, 3, 4],
            "card": "grenade",
            "answer": False,
        },
        1,
        1,
        1,
        2,
        1,
        3,
    )
    assert [t.p(i).pv for i in (2, 3, 4)] == [30, 30, 30]
    assert t.p(1).cards == []  # one grenade, thrown


# ---------------------------------------------------------------- knocked out (Assommé)
def test_knocked_out_the_attacker_takes_a_card_and_leaves() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["rope"], "Hugo": ["gun", "knife"]}))
    assault = {"type": "assault", "attacker": 1, "defenders": [2], "card": "rope"}
    # Issue 33, item 16: Hugo holds two cards he could answer with; nobody chooses for him.
    with pytest.raises(RuleError) as unsaid:
        t.play(assault, 1, 1)
    assert unsaid.value.field == "defender_card" and t.p(2).pv == 36
    t.play({**assault, "defender_card": "gun"}, 1, 1)
    assert t.p(2).knocked_out and t.p(2).pv == 28 and t.p(1).pv == 36  # no answer
    pending = t.state.pending[0]
    assert (pending.kind, pending.winner, pending.loser) == ("knockout", 1, 2)
    with pytest.raises(RuleError, match="en attente"):
        t.play({"type": "assault", "attacker": 3, "defenders": [2], "card": "bare"}, 1, 1)
    t.play({"type": "knockout_take", "pending": pending.id, "card": "gun"})
    assert [h.copy_id for h in t.p(1).cards] == ["rope", "gun"] and not t.p(2).knocked_out


def test_knocked_out_with_no_card_to_take_the_attacker_may_still_leave() -> None:
    """Assommé: "Lui prendre la carte de votre choix et partir [...] - Porter un second assaut".
    With no card to take, leaving is still a choice (spec: Assault defaults and knockouts), and
    nothing holds the attacker back; with cards, leaving means taking one."""
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["rope"], "Zoé": ["gun"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "rope"}, 1, 1)
    pending = t.state.pending[0]
    assert t.p(2).knocked_out and t.p(2).cards == [] and pending.kind == "knockout"
    t.play({"type": "knockout_take", "pending": pending.id})
    assert t.state.pending == [] and not t.p(2).knocked_out and t.p(2).pv == 28
    assert [h.copy_id for h in t.p(1).cards] == ["rope"]
    assert t.said == "Léa s’en va : Hugo n’a aucune carte à prendre."
    t.play({"type": "assault", "attacker": 1, "defenders": [3], "card": "rope"}, 1, 1)
    with pytest.raises(RuleError, match="Choisissez la carte que Léa prend à Zoé") as taken:
        t.play({"type": "knockout_take", "pending": t.state.pending[0].id})
    assert taken.value.field == "card" and t.p(3).knocked_out


def test_knocked_out_a_second_assault_wakes_the_defender_who_answers() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"], "Hugo": ["knife"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "blade"}, 5, 1)
    pending = t.state.pending[0]
    t.play({"type": "knockout_again", "pending": pending.id}, 3, 1, 1, 1)
    assert t.p(2).pv == 36 - 5 - 3 and not t.p(2).knocked_out
    assert t.p(1).pv == 34  # Hugo woke up and struck back with his knife


# ---------------------------------------------------------------- taking cards (5 at most)
def test_the_winner_takes_cards_up_to_five_and_the_rest_goes_back() -> None:
    t = Table(
        game(
            "Léa",
            "Hugo",
            "Zoé",
            cards={
                "Léa": ["blade", "knife", "knife#2"],
                "Hugo": ["gun", "bow", "helmet", "knife#3"],
            },
        )
    )
    t.play(duel(card="blade", defender_card="gun"), 6, 1)
    pending = t.state.pending[0]
    assert pending.kind == "loot"
    # "Un joueur ne peut posséder plus de 5 cartes, les autres sont remises à l'arbitre."
    with pytest.raises(RuleError, match="5"):  # 3 + 3 = 6
        t.play({"type": "loot", "pending": pending.id, "take": ["gun", "bow", "helmet"]})
    with pytest.raises(RuleError, match=r"knife#3|Couteau"):  # not Léa's to give back
        t.play({"type": "loot", "pending": pending.id, "take": ["gun"], "give_back": ["knife#3"]})
    t.play(
        {
            "type": "loot",
            "pending": pending.id,
            "take": ["gun", "bow", "helmet"],
            "give_back": ["knife#2"],
        }
    )
    assert [h.copy_id for h in t.p(1).cards] == ["blade", "knife", "gun", "bow", "helmet"]
    assert sorted(t.state.pool) == ["knife#2", "knife#3"]
    assert t.p(1).holds("gun").ammo == 2  # type: ignore[union-attr]


@pytest.mark.parametrize("held", [5])
def test_nobody_holds_more_than_five_cards(held: int) -> None:
    cards = ["knife", "knife#2", "knife#3", "blade", "gun"][:held]
    t = Table(game("Léa", "Hugo", cards={"Léa": cards}))
    t.state.pool = ["sword"]
    with pytest.raises(RuleError, match="5 cartes"):
        t.play({"type": "give", "player": 1, "card": "sword"})


# ---------------------------------------------------------------- the zone
def test_plan_closes_sectors_when_the_clock_says_so() -> None:
    t = Table(game("Léa", "Hugo", sectors=("A", "B", "C", "D")))
    t.state.closing, t.state.plan = "plan", [["A"], ["B", "C"]]
    start = t.clock.now()
    t.state.zone = Timer.start(start, 600)
    assert SERIAL_BATTLE.due(t.state, start + timedelta(seconds=599)) == []
    due = SERIAL_BATTLE.due(t.state, start + timedelta(seconds=600))
    t.play(due[0].model_dump(mode="json"))
    assert [s.name for s in t.state.open_sectors()] == ["B", "C", "D"]
    assert t.state.zone.deadline == start + timedelta(seconds=1200)  # type: ignore[union-attr]
    t.play({"type": "zone_due", "deadline": (start + timedelta(seconds=1200)).isoformat()})
    assert [s.name for s in t.state.open_sectors()] == ["D"] and t.state.zone is None


def test_without_a_plan_the_referee_says_which_sectors_close() -> None:
    t = Table(game("Léa", "Hugo", sectors=("A", "B", "C")))
    t.state.zone = Timer.start(t.clock.now(), 600)
    t.state.players["2"].sector = "A"
    t.play({"type": "zone_due", "deadline": t.state.zone.deadline.isoformat()})  # type: ignore[union-attr]
    assert t.state.shrink_due and len(t.state.open_sectors()) == 3
    t.play({"type": "close", "sectors": ["A"]})
    assert not t.state.shrink_due and "Hugo" in t.said
    t.play({"type": "eliminate", "player": 2, "cause": "zone"})
    assert t.state.result.winner == 1  # type: ignore[union-attr]


def test_the_deal_gives_one_card_each_from_shuffle_dice() -> None:
    state = SBState(deck=DECK)
    for i, name in enumerate(["Léa", "Hugo", "Zoé"], start=1):
        state = SERIAL_BATTLE.add_person(state, PersonInfo(i, "player", name))
    state.sectors = game("x").sectors
    t = Table(state)
    copies = 17
    t.play({"type": "start"}, *[1] * (copies - 1))
    held = [h.copy_id for p in t.state.players.values() for h in p.cards]
    assert len(held) == 3 and len(t.state.pool) == copies - 3 and not set(held) & set(t.state.pool)
    assert all(r["purpose"].startswith("shuffle_") for r in t.rolls)


def test_outcome_is_none_while_two_stand() -> None:
    assert outcome(game("Léa", "Hugo")) is None


def test_tags_and_the_fighters_seen_last() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["knife"]}))
    t.play({"type": "tag", "player": 3, "tag": "12 rouge"})
    assert t.p(3).tag == "12 rouge"
    t.play(duel(card="knife"), 1, 1)
    assert (t.p(1).last_fight, t.p(2).last_fight, t.p(3).last_fight) == (1, 1, 0)


def test_the_referee_may_end_the_game_early() -> None:
    t = Table(game("Léa", "Hugo", "Zoé"))
    t.play({"type": "end"})
    assert t.state.phase == "finished"
    assert t.state.result.reason == "ended_by_referee" and t.state.result.winner is None  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="terminée"):
        t.play(duel(card="bare"), 1, 1)


# ---------------------------------------------------------------- corrections
@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"pv": 37}, "36"),  # no card heals: never above the start
        ({"card": "gun", "ammo": 3}, "3 coups au plus|2"),  # the gun holds 2
        ({"card": "blade", "ammo": 1}, "munitions"),
        ({}, "PV"),
    ],
)
def test_corrections_the_rules_refuse(command: dict[str, Any], message: str) -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade", "gun"]}))
    before = t.state.model_dump()
    with pytest.raises((RuleError, ValidationError), match=message):
        t.play({"type": "correct", "player": 1, "reason": "vu", **command})
    assert t.state.model_dump() == before


def test_a_correction_to_zero_eliminates_and_an_eliminated_player_is_not_corrected() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade", "gun"]}))
    t.play({"type": "correct", "player": 1, "pv": 0, "reason": "hors limites"})
    assert t.p(1).eliminated and t.p(1).cards == [] and sorted(t.state.pool) == ["blade", "gun"]
    with pytest.raises(RuleError, match="annulez"):
        t.play({"type": "correct", "player": 1, "pv": 12, "reason": "erreur"})


def test_the_last_kill_leaves_nobody_to_take_the_cards() -> None:
    t = Table(game("Léa", "Hugo", cards={"Léa": ["blade"], "Hugo": ["gun", "bow"]}))
    t.play(duel(card="blade", defender_card="gun"), 6, 1)
    assert t.state.phase == "finished" and t.state.pending == []
    assert t.p(2).cards == [] and sorted(t.state.pool) == ["bow", "gun"]


def test_a_winner_put_out_by_the_referee_leaves_the_loot_to_the_referee() -> None:
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"], "Hugo": ["gun", "bow"]}))
    t.play(duel(card="blade", defender_card="gun"), 6, 1)
    assert t.state.pending[0].kind == "loot" and t.p(2).cards
    t.play({"type": "eliminate", "player": 1, "cause": "zone"})
    assert t.state.pending == [] and t.p(2).cards == [] and t.p(1).cards == []
    assert sorted(t.state.pool) == ["blade", "bow", "gun"]
    assert t.state.result is not None and t.state.result.winner == 3


# ---------------------------------------------------------------- group fights (Secteur)
def test_the_kill_goes_to_the_blow_that_brought_the_player_to_zero() -> None:
    """Points de vie: "Si un joueur tombe à zéro PV, il est éliminé et le vainqueur peut prendre
    sa ou ses cartes". Léa (2 PV) challenges Hugo and Zoé, who both strike first (their fists
    have initiative): Hugo leaves her at 1, Zoé's blow takes her to 0. Zoé is the winner."""
    t = Table(
        game(
            "Léa",
            "Hugo",
            "Zoé",
            cards={"Léa": ["shotgun"], "Hugo": ["fist"], "Zoé": ["fist#2"]},
            pv={"Léa": 2},
        )
    )
    t.play(
        {"type": "assault", "attacker": 1, "defenders": [2, 3], "card": "shotgun"},
        1,
        1,  # Hugo's fist: 1 PV at the trunk
        1,
        1,  # Zoé's fist: 1 PV at the trunk
    )
    assert t.p(1).eliminated
    killer = next(e for e in t.state.eliminations if e.player == 1)
    assert killer.by == 3 and t.p(3).kills == 1 and t.p(2).kills == 0
    loot = next(p for p in t.state.pending if p.kind == "loot")
    assert (loot.winner, loot.loser) == (3, 1)  # Zoé takes the cards, not Hugo


def test_each_defender_of_a_group_assault_answers_with_the_card_chosen() -> None:
    """Comment se passe un affrontement: each player strikes "d'après sa carte"; in a group each
    defender (or the referee for them) picks theirs, the best usable one otherwise."""
    t = Table(
        game(
            "Léa",
            "Hugo",
            "Zoé",
            cards={"Léa": ["shotgun"], "Hugo": ["gun", "fist"], "Zoé": ["gun#2"]},
        )
    )
    t.play(
        {
            "type": "assault",
            "attacker": 1,
            "defenders": [2, 3],
            "card": "shotgun",
            "defender_cards": {"2": "fist"},
        },
        1,  # Hugo strikes first with his fist (initiative): 1 PV
        1,
        1,  # the shotgun hits Hugo (1-5) ...
        4,
        1,
        1,  # ... and Zoé: 4 PV each
        4,
        1,
        1,  # Zoé, not faster, answers after, with her gun (her best): 10 PV
        1,
    )
    blows = t.last.result["blows"]  # type: ignore[union-attr]
    answers = [(b["striker"], b["card"]) for b in blows if b["target"] == 1]
    assert answers == [(2, "fist"), (3, "gun")]
    assert t.p(2).holds("gun").ammo == 2  # type: ignore[union-attr]  # Hugo's gun stayed unused
    with pytest.raises(RuleError, match="Hugo"):
        t.play(
            {
                "type": "assault",
                "attacker": 1,
                "defenders": [2, 3],
                "card": "shotgun",
                "defender_cards": {"2": "gun#2"},  # Zoé's, not Hugo's
            }
        )


def test_a_group_challenged_with_a_one_target_card_strikes_first() -> None:
    """Secteur: "vous interpellez trois joueurs en même temps et vous ne possédez que la carte
    batte de base-ball, vous devrez alors choisir l'un de ces trois joueurs pour porter votre
    assaut, ce qui laissera aux deux autres joueurs l'occasion de vous attaquer en premier"."""
    t = Table(
        game(
            "Léa", "Hugo", "Zoé", "Max", cards={"Léa": ["club"], "Hugo": ["gun"], "Zoé": ["knife"]}
        )
    )
    with pytest.raises(RuleError, match=r"un seul défenseur|one defender"):
        t.play({"type": "assault", "attacker": 1, "defenders": [2, 3, 4], "card": "club"})
    # The two others attack first: two assaults where Léa defends; then hers on Max.
    t.play(
        {"type": "assault", "attacker": 2, "defenders": [1], "card": "gun", "answer": False}, 1, 1
    )
    t.play(
        {"type": "assault", "attacker": 3, "defenders": [1], "card": "knife", "answer": False}, 1, 1
    )
    assert t.p(1).pv == 36 - 10 - 2
    t.play(
        {"type": "assault", "attacker": 1, "defenders": [4], "card": "club", "answer": False}, 1, 1
    )
    assert t.p(4).pv == 34 and t.p(4).wounds  # the club's fracture


def test_a_long_range_second_assault_on_a_knocked_out_player_gets_no_answer() -> None:
    """Longue portée: "Permet d'infliger un assaut [...] sans que ceux-ci ne puissent répliquer";
    Assommé: a second assault "aura pour effet de le réveiller"."""
    t = Table(game("Léa", "Hugo", cards={"Léa": ["blade", "bow"], "Hugo": ["knife"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "blade"}, 5, 1)
    pending = t.state.pending[0]
    t.play({"type": "knockout_again", "pending": pending.id, "card": "bow"}, 3, 1, 2)
    assert t.p(1).pv == 36 and not t.p(2).knocked_out  # Hugo woke up, but a bow has no answer


def test_taking_a_card_from_a_knocked_out_player_with_a_full_hand() -> None:
    """Assommé: "Lui prendre la carte de votre choix"; Points de vie: "Un joueur ne peut posséder
    plus de 5 cartes, les autres sont remises à l'arbitre": one of one's own goes back."""
    full = ["blade", "knife", "knife#2", "bow", "helmet"]
    t = Table(game("Léa", "Hugo", cards={"Léa": full, "Hugo": ["gun"]}))
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "blade"}, 5, 1)
    pending = t.state.pending[0]
    with pytest.raises(RuleError, match="5"):
        t.play({"type": "knockout_take", "pending": pending.id, "card": "gun"})
    t.play({"type": "knockout_take", "pending": pending.id, "card": "gun", "give_back": "knife#2"})
    assert [h.copy_id for h in t.p(1).cards] == ["blade", "knife", "bow", "helmet", "gun"]
    assert "knife#2" in t.state.pool


def test_an_arm_lost_in_the_assault_leaves_a_bare_handed_answer() -> None:
    """Membre tranché: "vous ne pouvez plus vous servir des armes comme l'arc [...] qui
    nécessitent d'avoir deux mains". Hugo's arm goes to Léa's blow; his answer cannot be with
    the two-handed sword he was holding: he answers bare-handed (a playtest found the sword)."""
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["blade"], "Hugo": ["sword"]}))
    t.play(duel(card="blade", defender_card="sword", answer=True), 4, 2, 3, 1)
    assert t.said.startswith("Léa frappe Hugo au bras droit avec la carte Blade : 4 PV, tranché.")
    assert "Hugo ne peut plus tenir la carte Sword avec un seul bras : riposte à mains nues." in (
        t.said
    )
    assert "Hugo frappe Léa" in t.said and "à mains nues" in t.said
    assert t.p(1).pv == 36 - 1  # bare hands, face 3: 1 PV (not the sword's 5)


def test_a_players_cards_show_the_deck_as_it_is_once_a_new_deck_replaces_it() -> None:
    """Cards are dumped to JSON once per card (the live parts of 6,400 phones), never changed in
    place: a deck replaced whole shows its new cards, and a card's dump is not shared with
    another card of the same key."""
    state = game("Léa", cards={"Léa": ["blade#1"]})
    before = own(state, state.players["1"])["cards"][0]["card"]
    assert before["name"] == "Blade"
    assert own(state, state.players["1"])["cards"][0]["card"] is before  # made once
    renamed = [c.model_copy(update={"name": "Dague"}) if c.key == "blade" else c for c in DECK]
    state.deck = renamed
    assert own(state, state.players["1"])["cards"][0]["card"]["name"] == "Dague"
    assert before["name"] == "Blade"


def test_who_put_a_player_out_is_the_referee_whose_action_did() -> None:
    """Issue 50: another referee holding an assault on a player put out meanwhile is told by
    whom; a later action on that player (the loot) does not change who."""
    t = Table(game("Léa", "Hugo", "Zoé", cards={"Léa": ["rope"], "Zoé": ["knife"]}, pv={"Zoé": 2}))
    south, north = Viewer("referee", 101, "Arbitre Sud"), Viewer("referee", 102, "Arbitre Nord")
    t.play({"type": "assault", "attacker": 1, "defenders": [2], "card": "rope"}, 1, 1, actor=south)
    assert t.p(2).knocked_out and t.p(2).put_out_by == "Arbitre Sud"
    assert t.said.endswith(
        "Léa choisit : partir (Hugo n’a aucune carte à prendre), ou un second assaut."
    )
    t.play({"type": "knockout_take", "pending": t.state.pending[0].id}, actor=south)
    t.play({"type": "assault", "attacker": 1, "defenders": [3], "card": "rope"}, 1, 1, actor=north)
    assert t.p(3).eliminated and t.p(3).put_out_by == "Arbitre Nord"
    t.play({"type": "loot", "pending": t.state.pending[-1].id, "take": ["knife"]}, actor=south)
    assert t.p(3).put_out_by == "Arbitre Nord" and t.p(1).put_out_by == ""


def test_a_correction_says_what_changed_only() -> None:
    t = Table(game("Léa", "Hugo", cards={"Léa": ["gun"]}))
    t.play(
        {
            "type": "correct",
            "player": 1,
            "pv": 30,
            "card": "gun",
            "ammo": t.p(1).cards[0].ammo,
            "reason": "r",
        }
    )
    assert t.said == "Correction pour Léa : PV 36 → 30 (r)."
