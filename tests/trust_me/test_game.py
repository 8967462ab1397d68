"""A four-survivor Trust Me game through the platform, from the setup to the end with scripted
dice: a spent weapon, a death, zombies killed, a zombie wound and its infection, a double spawn,
an exit with 5 points, the end three rounds later and the final reveal; then what each viewer
reads along the way, and bad input refused with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import InvalidInput, NotAllowed, RuleError
from server.games.trust_me.setup import DECOR_POINTS
from server.games.trust_me.sheet import mark, wound_places
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.trust_me.conftest import NAMES, STARTING, TM, dealt


def view(t: TM, who: str | None) -> dict[str, Any]:
    viewer = t.people[who] if who else PUBLIC
    return t.service.load(t.game).kind.view(t.state, viewer, None)


def test_the_deal(service: GameService, rolls: ScriptedRolls) -> None:
    """12.5 to 12.9: three objectives each, four starting tokens seen by their player only, a
    Community direction each, two zombie directions, the first player; 12.4: the search tokens
    (one of each resource, 8 more and one per player)."""
    t = dealt(service, rolls, keep=False)
    s = t.state
    assert s.phase == "preparing" and s.order == [t.id(n) for n in NAMES]
    assert s.search_tokens == 4 + 8 + 4 and s.specials == []  # 8: no spare sheet at four
    for name in NAMES:
        me = t.sheet(name)
        assert len(me.objectives) == 3 and me.community == 1
        assert tuple(s.items[str(i)].key for i in me.offered) == STARTING[name]
    assert s.zombie_starts == [1, 1]
    # The four tokens offered are their player's secret until kept.
    hugo_sees = view(t, "Hugo")
    assert "unitions" not in str(view(t, None)) and "unitions" not in str(
        hugo_sees["me"]["offered"]
    )
    assert "Munitions" in str(view(t, "Léa")["me"]["offered"])


def test_keeping_two_of_the_four(service: GameService, rolls: ScriptedRolls) -> None:
    """12.6: "Il choisit 2 pions sur les 4 [...] et défausse le reste"; 12.5: one redraw, before."""
    t = dealt(service, rolls, keep=False)
    offered = t.sheet("Léa").offered
    with pytest.raises(RuleError, match="two"):
        t.act(
            "Léa",
            {
                "type": "keep",
                "items": [
                    {"item": offered[0], "slot": "right"},
                    {"item": offered[0], "slot": "left"},
                ],
            },
        )
    other = t.sheet("Hugo").offered[0]
    with pytest.raises(RuleError, match="two"):
        t.act(
            "Léa",
            {
                "type": "keep",
                "items": [{"item": offered[0], "slot": "right"}, {"item": other, "slot": "left"}],
            },
        )
    with pytest.raises(RuleError, match="outfit"):
        t.act(
            "Léa",
            {
                "type": "keep",
                "items": [
                    {"item": offered[0], "slot": "outfit"},
                    {"item": offered[3], "slot": "c1"},
                ],
            },
        )
    before = list(t.sheet("Léa").objectives)
    t.dice()  # no die: the deck is already shuffled
    t.act("Léa", {"type": "redraw", "objective": 0})
    after = t.sheet("Léa").objectives
    assert after[:2] == before[1:] and len(after) == 3
    with pytest.raises(RuleError, match="once"):
        t.act("Léa", {"type": "redraw", "objective": 0})
    t.act(
        "Léa",
        {
            "type": "keep",
            "items": [{"item": offered[0], "slot": "right"}, {"item": offered[3], "slot": "c3"}],
        },
    )
    assert set(t.sheet("Léa").items) == {str(offered[0]), str(offered[3])}
    assert str(offered[1]) not in t.state.items  # back in the box
    hugo = t.sheet("Hugo").offered
    with pytest.raises(NotAllowed):  # the organizer keeps nobody's tokens
        t.act(
            None,
            {
                "type": "keep",
                "items": [{"item": hugo[0], "slot": "right"}, {"item": hugo[3], "slot": "c3"}],
            },
        )


def test_a_whole_game(service: GameService, rolls: ScriptedRolls) -> None:
    t = dealt(service, rolls)
    s = t.state
    assert s.phase == "players" and s.round == 1 and s.turn == t.id("Léa")

    # Léa (Tank: Mêlée +3) stabs Hugo with her shiv: yellow d6 + the free "+1 yellow in melee"
    # cell + 3 + the sample "+1" cell; she may roll one die again (the free re-roll cell) and
    # keeps them. Hugo (Doc: Survie +2) rolls yellow + the free blue cell, +2 +1.
    surin = t.item("Léa", "surin")
    t.dice(6, 6)
    said = t.act(
        "Léa",
        {"type": "attack", "slot": "c9", "weapon": surin, "target": t.id("Hugo"), "malus": [0]},
    )
    assert "16 (6 + 6 + 4)" in said
    with pytest.raises(RuleError, match="waits for Léa"):
        t.act("Hugo", {"type": "defend"})  # Léa's re-roll first
    t.act("Léa", {"type": "reroll"})
    t.dice(1, 1)
    said = t.act("Hugo", {"type": "defend"})
    assert "5 (1 + 1 + 3)" in said and "difference of 11" in said and "2 wounds" in said
    # 6: "c'est [l'attaquant] qui choisit où sont placées les blessures"; the machete in Hugo's
    # hand falls to the ground.
    with pytest.raises(NotAllowed):
        t.act("Hugo", {"type": "wounds", "slots": ["c1", "right"]})
    said = t.act("Léa", {"type": "wounds", "slots": ["c1", "right"]})
    assert "Machette" in said and t.sheet("Hugo").wounds == ["c1", "right"]
    assert t.sheet("Hugo").item_in("right") is None
    # 4: the green die, +1 for the free green cell: 2, at or under the shiv's limit 2: spent.
    t.dice(1)
    said = t.act("Léa", {"type": "usage"})
    assert "breaks" in said and surin not in [int(i) for i in t.sheet("Léa").items]
    assert t.state.turn == t.id("Hugo")

    # Hugo moves: 5 cm, +5 while the "+5 cm" cell is free.
    assert "10 cm" in t.act("Hugo", {"type": "act", "action": "move", "slot": "c9"})

    # Ana (Marcus: Mêlée +2) swings her two-handed bat at a group of zombies: 8 + 5 + 2 + 1 = 16,
    # three zombies (12: "un zombie par tranche de cinq"); her lucky charm offers a re-roll.
    bat = t.item("Ana", "batte")
    t.dice(8, 5)
    t.act("Ana", {"type": "attack", "slot": "c9", "weapon": bat, "malus": [0]})
    said = t.act("Ana", {"type": "reroll"})
    assert "kills 3 zombies" in said
    t.dice(12)
    t.act("Ana", {"type": "usage"})
    assert t.sheet("Ana").zombies_killed == 3

    # Tom searches: water, visible on his sheet.
    said = t.act("Tom", {"type": "search", "slot": "c9", "found": "eau", "to": "c2"})
    assert "Eau" in said

    # Léa searches twice (materials, food): hidden "?" cell first.
    said = t.act("Léa", {"type": "search", "slot": "c8", "found": "materiaux", "to": "c7"})
    assert "Matériaux" in said

    # Hugo aims at Tom; Tom's next action waits for him.
    t.act("Hugo", {"type": "act", "action": "aim", "slot": "c8", "target": t.id("Tom")})
    assert t.sheet("Hugo").aiming == t.id("Tom")

    # Ana then: zombies in contact attack her at 8 + 2 = 10 (no die for them); she defends with
    # yellow + blue, her charm offers a re-roll; a difference of 6: one wound, with its infection,
    # both placed by Ana herself (6).
    t.act("Ana", {"type": "act", "action": "move", "slot": "c8"})
    t.act(None, {"type": "zombies", "survivor": t.id("Ana"), "count": 2})
    t.dice(1, 1)
    t.act("Ana", {"type": "defend"})
    said = t.act("Ana", {"type": "reroll"})
    assert "10 against 3" in said and "1 wound" in said  # her "+1 defence" cell is covered
    with pytest.raises(NotAllowed):
        t.act("Léa", {"type": "wounds", "slots": ["c6", "c7"]})
    t.act("Ana", {"type": "wounds", "slots": ["c6", "c7"]})
    assert t.sheet("Ana").wounds == ["c6"] and t.sheet("Ana").infections == ["c7"]

    # Tom declares a shot at Hugo; Hugo, aiming at him, fires first? He holds.
    pistol = t.item("Tom", "pistolet")
    said = t.act(
        "Tom",
        {"type": "attack", "slot": "c8", "weapon": pistol, "target": t.id("Hugo"), "malus": [1]},
    )
    assert "attack first" in said
    # Tom (Lena: Distance +2): red 8 + yellow 6 + 2 + 1 − 1 = 16 against 1 + 1 + 2 + 1 = 5: 11,
    # two wounds: the third kills Hugo, the second is not placed.
    # 10.2 « L'attaquant lance ses dés d'attaque »: once Hugo holds, Tom rolls, from his phone.
    said = t.act("Hugo", {"type": "aimed", "answer": "hold"})
    assert "Tom does an attack now, rolling their own dice" in said
    with pytest.raises(RuleError, match="Nobody fired"):
        t.act("Tom", {"type": "aimed", "answer": "stop"})
    with pytest.raises(NotAllowed):
        t.act("Hugo", {"type": "aimed", "answer": "go_on"})
    t.dice(8, 6)
    said = t.act("Tom", {"type": "aimed", "answer": "go_on"})
    assert "16 (8 + 6 + 3 − 1)" in said
    t.act("Tom", {"type": "reroll"})
    t.dice(1, 1)
    t.act("Hugo", {"type": "defend"})
    said = t.act("Tom", {"type": "wounds", "slots": ["c2"]})
    assert "Hugo is dead" in said and t.sheet("Hugo").dead
    t.dice(6)
    said = t.act("Tom", {"type": "usage"})
    assert "racket" in said and t.state.racket == "racket"

    # Léa's third token: food. Her objectives: "Ramener 1 Matériaux" twice and "Ramener 1
    # Nourriture": 3.3's example, two copies met by one token, two points.
    t.act("Léa", {"type": "search", "slot": t.free("Léa"), "found": "nourriture", "to": "c5"})
    points = view(t, "Léa")["me"]["points"]
    assert points["resources"] == 2 and points["deaths"] == 1 and points["total"] == 6
    t.nothing_until_zombies()

    # The zombie phase: Ana's infection, green 2 (her green cell is covered: no +1): a wound.
    assert t.state.phase == "zombies"
    with pytest.raises(RuleError, match="infection"):
        t.act(None, {"type": "spawn"})
    t.dice(2)
    said = t.act("Tom", {"type": "infections"})
    assert "one more wound" in said
    t.act("Ana", {"type": "wounds", "slots": ["c4"]})
    assert len(t.sheet("Ana").wounds) == 2
    # Spawn: 19, roll again: two zombies towards 7; then one towards 12.
    t.dice(19, 7, 12)
    said = t.act(None, {"type": "spawn"})
    assert "2 zombies towards 7" in said and "1 zombie towards 12" in said
    for name in ("Léa", "Ana", "Tom"):
        t.act(name, {"type": "recover", "take": "actions"})
    s = t.state
    assert s.phase == "players" and s.round == 2 and s.racket == "echo"

    # Round 2: Léa reaches her Community token with 6 points and leaves; her secrets are shown.
    with pytest.raises(RuleError, match="their turn"):  # 14: by their own move
        t.act("Tom", {"type": "leave"})
    said = t.act("Léa", {"type": "leave"})
    assert "6 points" in said
    board = view(t, None)
    lea = next(s for s in board["survivors"] if s["name"] == "Léa")
    assert lea["revealed"] and 'Ramener 1 "Matériaux".' in lea["objective_texts"]
    assert t.state.first_exit == 2

    # Three rounds after the first exit the game ends (14), infections rolling high.
    for _ in range(4):
        if t.state.phase == "finished":
            break
        t.nothing_until_zombies()
        t.zombie_phase(infections=(12,))
    s = t.state
    assert s.phase == "finished" and s.round == 5
    assert t.id("Léa") in s.winners and t.id("Hugo") not in s.winners
    board = view(t, None)
    assert all(sv["revealed"] for sv in board["survivors"])
    assert board["scores"]["Léa"] == 6 and set(board["scores"]) == set(NAMES)
    with pytest.raises(RuleError, match="over"):
        t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})


def test_bad_input_changes_nothing(service: GameService, rolls: ScriptedRolls) -> None:
    """Out of turn, a covered cell, a fourth token, a weapon not in hand, a dead survivor's attack,
    a die outside its faces, a slot taken: refused with a message, the state as it was."""
    t = dealt(service, rolls)
    before = t.state.model_dump()
    cases: list[tuple[str | None, dict[str, Any], type[Exception], str]] = [
        ("Hugo", {"type": "act", "action": "move", "slot": "c1"}, NotAllowed, "turn"),
        ("Léa", {"type": "act", "action": "move", "slot": "c3"}, RuleError, "covered"),
        ("Léa", {"type": "act", "action": "rest", "slot": "c1"}, RuleError, "Fatigue"),
        (
            "Léa",
            {"type": "act", "action": "aim", "slot": "c1", "target": t.id("Léa")},
            RuleError,
            "another",
        ),
        (
            "Léa",
            {"type": "attack", "slot": "c1", "weapon": t.item("Léa", "trousse-de-soin")},
            RuleError,
            "hand",
        ),
        (
            "Léa",
            {"type": "search", "slot": "c1", "found": "eau", "to": "b1"},
            RuleError,
            "backpack",
        ),
        (
            "Léa",
            {"type": "search", "slot": "c1", "found": "tank", "to": "c2"},
            RuleError,
            "weapon or object",
        ),
        (
            "Léa",
            {"type": "search", "slot": "c1", "found": "eau", "to": "outfit"},
            RuleError,
            "outfit",
        ),
        (
            "Léa",
            {"type": "use", "slot": "c1", "item": t.item("Léa", "trousse-de-soin")},
            RuleError,
            "nothing",
        ),
        ("Léa", {"type": "defend"}, RuleError, "fight"),
        ("Léa", {"type": "wounds", "slots": ["c1"]}, RuleError, "wound"),
        (None, {"type": "deal"}, RuleError, "before"),
        ("Léa", {"type": "leave"}, RuleError, "5 or more"),
        ("Léa", {"type": "act", "action": "fly", "slot": "c1"}, InvalidInput, "action"),
        ("Léa", {"type": "zombies", "survivor": t.id("Ana"), "count": 0}, InvalidInput, "count"),
    ]
    for who, command, error, words in cases:
        with pytest.raises(error) as refused:
            t.act(who, command)
        # Said, or the field it is about (a page shows it there): no path in a player's words.
        assert words in refused.value.message or words == refused.value.field, command
        assert t.state.model_dump() == before, command
    # A die entered by hand outside its faces: refused too.
    with pytest.raises(RuleError, match="between 1 and 6"):
        t.service.perform(
            t.game,
            t.people["Léa"],
            {
                "type": "attack",
                "slot": "c1",
                "weapon": t.item("Léa", "surin"),
                "target": t.id("Hugo"),
            },
            idem_key="die-seven",
            rolls={"Léa: attack die": 7},
        )
    assert t.state.model_dump() == before
    # Three tokens each, then no fourth: the turn passes on, then the zombies come.
    t.nothing_until_zombies()
    assert all(not t.sheet(n).free_tokens() for n in NAMES)
    with pytest.raises(RuleError, match="No survivor"):
        t.act("Léa", {"type": "act", "action": "move", "slot": "c1"})


def test_a_dead_survivor_does_not_attack(service: GameService, rolls: ScriptedRolls) -> None:
    t = dealt(service, rolls)
    t.dice(6, 6)
    t.act(
        "Léa",
        {"type": "attack", "slot": "c9", "weapon": t.item("Léa", "surin"), "target": t.id("Hugo")},
    )
    t.act("Léa", {"type": "reroll"})
    t.dice(1, 1)
    t.act("Hugo", {"type": "defend"})
    t.act("Léa", {"type": "wounds", "slots": ["c1", "c2"]})
    t.dice(12)
    t.act("Léa", {"type": "usage"})
    # Hugo's turn: five zombies finish him (8 + 2 × 4 = 16 against 1 + 1 + 3 = 5: 11, 2 wounds)
    t.act(None, {"type": "zombies", "survivor": t.id("Hugo"), "count": 5})
    t.dice(1, 1)
    t.act("Hugo", {"type": "defend"})
    t.act("Hugo", {"type": "wounds", "slots": ["c3", "c4"]})
    assert t.sheet("Hugo").dead and t.state.turn == t.id("Ana")
    with pytest.raises(RuleError, match="dead"):
        t.act(None, {"type": "zombies", "survivor": t.id("Hugo"), "count": 1})
    with pytest.raises(NotAllowed, match="Ana"):  # a dead survivor's turn never comes
        t.act("Hugo", {"type": "act", "action": "move", "slot": "c5"})
    with pytest.raises(RuleError, match="dead"):
        t.act("Hugo", {"type": "leave"})


def test_a_declared_action_made_impossible_meanwhile_is_lost(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Found by an outside attack: Léa declares an attack while Hugo aims at her; zombies then
    knock her weapon from her hand. When Hugo holds, her attack can no longer be made: its token
    stays, the turn passes (the game used to wait for an answer nobody could give)."""
    t = dealt(service, rolls)
    t.act("Léa", {"type": "act", "action": "move", "slot": "c1"})
    t.act("Hugo", {"type": "act", "action": "aim", "slot": "c1", "target": t.id("Léa")})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    surin = t.item("Léa", "surin")
    said = t.act("Léa", {"type": "attack", "slot": "c2", "weapon": surin, "target": t.id("Ana")})
    assert "attack first" in said
    with pytest.raises(RuleError, match="waits"):  # nothing else while the aimer decides
        t.act("Ana", {"type": "drop", "items": [t.item("Ana", "batte")]})
    # The zombies that touch her strike at once (9.4: the table saw them): 10 against 3, a wound.
    t.act(None, {"type": "zombies", "survivor": t.id("Léa"), "count": 2})
    t.dice(1, 1)
    t.act("Léa", {"type": "defend"})
    places = ["right", "c3", "c4"][: t.state.placements[0].wounds]
    t.act("Léa", {"type": "wounds", "slots": places + ["c5", "c6", "c7"][: len(places)]})
    assert t.sheet("Léa").item_in("right") is None  # her shiv fell
    said = t.act("Hugo", {"type": "aimed", "answer": "hold"})
    assert "can no longer be done" in said
    s = t.state
    assert s.declared is None and s.turn == t.id("Hugo")
    assert sum(1 for tok in s.survivor(t.id("Léa")).tokens if tok.slot) == 2  # the token stays


def test_a_backpack_given_goes_with_what_it_holds(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """5, Sac à dos: the tokens inside go with it (found by an outside attack: they vanished)."""
    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "sac-a-dos", "to": "backpack"})
    t.act("Hugo", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Léa", {"type": "search", "slot": "c2", "found": "eau", "to": "b1"})
    t.act("Hugo", {"type": "act", "action": "nothing", "slot": "c2"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c2"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c2"})
    said = t.act("Léa", {"type": "act", "action": "exchange", "slot": "c4", "target": t.id("Hugo")})
    assert "exchange" in said
    bag, water = t.item("Léa", "sac-a-dos"), t.item("Léa", "eau")
    said = t.act("Léa", {"type": "give", "item": bag, "to": "backpack"})
    assert "Eau" not in said  # still face down, in the bag
    hugo = t.sheet("Hugo")
    assert hugo.slot_of(bag) == "backpack" and hugo.slot_of(water) == "b1"
    assert str(water) in t.state.items
    t.act("Hugo", {"type": "end_exchange"})


def test_table_moves_and_refusals_tell_nothing(service: GameService, rolls: ScriptedRolls) -> None:
    """An id given back to the box is refused like another's (found by an outside attack: the
    refusal told which starting tokens were kept); a drop names what went down; a spawn rolled
    again twice asks each die by its own name; a survivor out of play no longer moves zombies."""
    t = dealt(service, rolls)
    lea_kept = set(t.sheet("Léa").items)
    gone = next(i for i in range(1, 5) if str(i) not in lea_kept)  # put back in the box
    kept = next(int(i) for i in lea_kept)
    refusals = []
    for item in (gone, kept):
        with pytest.raises(RuleError) as refused:
            t.act("Hugo", {"type": "drop", "items": [item]})
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1]
    assert "Surin" in t.act("Léa", {"type": "drop", "items": [t.item("Léa", "surin")]})
    t.nothing_until_zombies()
    t.act("Tom", {"type": "infections"}) if not t.state.zombies.infections_rolled else None
    t.dice(19, 20, 7, 12)
    said = t.act("Tom", {"type": "spawn"})
    assert "2 zombies towards 7" in said and "1 zombie towards 12" in said
    rolls_logged = [r["purpose"] for r in t.service.log(t.game, t.org)[-1]["rolls"]]  # type: ignore[arg-type]
    assert rolls_logged == [
        "zombie spawn 1",
        "zombie spawn 1, again 1",
        "zombie spawn 1, again 2",
        "zombie spawn 2",
    ]
    # A survivor out of play watches: no zombie, spawn or table die from their phone.
    for name in ("Léa", "Ana", "Tom"):
        if t.sheet(name).playing:
            t.act(name, {"type": "recover", "take": "actions"})
    t.act(None, {"type": "zombies", "survivor": t.id("Hugo"), "count": 5})
    t.dice(1, 1)
    t.act("Hugo", {"type": "defend"})
    while t.state.placements:  # as many zombie attacks as it takes
        p = t.state.placements[0]
        t.act(
            "Hugo",
            {"type": "wounds", "slots": wound_places(t.sheet("Hugo"))[: p.wounds + p.infections]},
        )
        if not t.sheet("Hugo").dead:
            t.act(None, {"type": "zombies", "survivor": t.id("Hugo"), "count": 5})
            t.dice(1, 1)
            t.act("Hugo", {"type": "defend"})
    assert t.sheet("Hugo").dead
    with pytest.raises(NotAllowed, match="still in play"):
        t.act("Hugo", {"type": "zombies", "survivor": t.id("Léa"), "count": 3})


def test_firing_from_the_aim_marker(service: GameService, rolls: ScriptedRolls) -> None:
    """9.2, 6: Hugo aims at Léa; when she declares a move he removes the marker and attacks at
    once; after the fight she goes on with her move. Every phone's view is built at each step
    (found by a playtest: the views failed once the aimer had fired)."""
    t = dealt(service, rolls)

    def every_view() -> None:
        for who in (*NAMES, None):
            view(t, who)
        t.service.load(t.game).kind.view(t.state, t.org, None)

    t.act("Léa", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Hugo", {"type": "act", "action": "aim", "slot": "c1", "target": t.id("Léa")})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Léa", {"type": "act", "action": "move", "slot": "c9"})
    every_view()
    assert view(t, "Hugo")["me"]["aim_decision"] and not view(t, "Léa")["me"]["aim_decision"]
    machete = t.item("Hugo", "machette")
    with pytest.raises(RuleError, match="beside"):
        t.act("Hugo", {"type": "attack", "weapon": machete, "target": t.id("Ana")})
    t.dice(4, 4)
    said = t.act("Hugo", {"type": "attack", "weapon": machete, "target": t.id("Léa")})
    assert "Hugo attacks Léa" in said and t.sheet("Hugo").aiming is None  # the marker is spent
    every_view()
    t.act("Hugo", {"type": "reroll"})
    every_view()
    t.dice(1, 1)
    t.act("Léa", {"type": "defend"})
    every_view()
    while t.state.placements or (t.state.fight and t.state.fight.stage == "endure"):
        if t.state.placements:
            p = t.state.placements[0]
            t.act("Hugo", {"type": "wounds", "slots": wound_places(t.sheet("Léa"))[: p.wounds]})
        else:
            t.act("Léa", {"type": "endure", "take": "fatigue"})
    t.dice(12)
    t.act("Hugo", {"type": "usage"})
    every_view()
    assert view(t, "Léa")["me"]["go_on_decision"]
    with pytest.raises(NotAllowed):
        t.act("Hugo", {"type": "aimed", "answer": "go_on"})
    said = t.act("Léa", {"type": "aimed", "answer": "go_on"})
    assert "moves up to" in said and t.state.turn == t.id("Hugo")
    every_view()


def test_a_rearrangement_lays_tokens_out_again(service: GameService, rolls: ScriptedRolls) -> None:
    """11, Réorganisation: "Récupérez tous vos pions Objet, Action et Fatigue et redisposez-les"
    (found by a playtest: only the objects moved). The token paying for it stays where it went."""
    from server.games.trust_me.forms import from_form

    t = dealt(service, rolls)
    t.act("Léa", {"type": "act", "action": "run", "slot": "c1"})  # a Fatigue on her melee cell
    for name in ("Hugo", "Ana", "Tom"):
        t.act(name, {"type": "act", "action": "nothing", "slot": "c1"})
    items = {str(i): slot for i, slot in t.sheet("Léa").items.items()}
    form = {
        "type": "arrange",
        "slot": "c2",
        "token_0": "c5",
        **{f"slot_{i}": s for i, s in items.items()},
    }
    command = from_form(form)
    assert command["tokens"] == ["c5"]
    t.act("Léa", command)
    tokens = {tok.slot: tok.face for tok in t.sheet("Léa").tokens if tok.slot}
    assert tokens == {"c5": "fatigue", "c2": "action"}


def test_a_rearrangement_picks_everything_up_before_laying_it_out(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """11: every object and token picked up, then laid out: an object may go where a token lay
    (the walker of issue 53 found it refused: the tokens were still down as the objects went)."""
    t = dealt(service, rolls)
    t.act("Léa", {"type": "act", "action": "run", "slot": "c1"})  # a Fatigue on c1
    for name in ("Hugo", "Ana", "Tom"):
        t.act(name, {"type": "act", "action": "nothing", "slot": "c1"})
    item = next(int(i) for i, slot in t.sheet("Léa").items.items() if slot in ("left", "right"))
    items = [{"item": int(i), "slot": slot} for i, slot in t.sheet("Léa").items.items()]
    items = [p if p["item"] != item else {"item": item, "slot": "c1"} for p in items]
    t.act("Léa", {"type": "arrange", "slot": "c2", "items": items, "tokens": ["c5"]})
    assert t.sheet("Léa").items[str(item)] == "c1"
    assert {tok.slot for tok in t.sheet("Léa").tokens if tok.slot} == {"c5", "c2"}


def physical_game(service: GameService) -> tuple[str, dict[str, Any], int]:
    """A game of physical dice, Léa and Hugo dealt and kept, the table's dice entered by the
    organizer: the game, the players, and the weapon Léa keeps in her right hand."""
    from tests.conftest import key, viewer_of

    game, owner = service.create_game("trust_me", "Cave", "Orga", dice="physical", idem_key=key())
    org = viewer_of(owner)
    people = {
        n: viewer_of(service.register(game.id, org, "player", n, idem_key=key()))
        for n in ("Léa", "Hugo")
    }
    for name, passport in (("Léa", "tank"), ("Hugo", "doc")):
        pid = people[name].person_id
        service.perform(
            game.id, org, {"type": "passport", "player": pid, "passport": passport}, idem_key=key()
        )
        service.perform(
            game.id, org, {"type": "decor", "player": pid, "pieces": ["car"]}, idem_key=key()
        )
    entered = {
        "Community of Léa": 4,
        "Community of Hugo": 15,
        "zombie 1": 7,
        "zombie 2": 20,
        "first player": 1,
    }
    service.perform(game.id, org, {"type": "deal"}, idem_key=key(), rolls=entered)
    state: Any = service.load(game.id).state
    assert [s.community for s in state.survivors.values()] == [4, 15] and state.zombie_starts == [
        7,
        20,
    ]
    for name in ("Léa", "Hugo"):
        offered = state.survivor(people[name].person_id).offered
        keep = [{"item": offered[0], "slot": "right"}, {"item": offered[3], "slot": "c8"}]
        service.perform(game.id, people[name], {"type": "keep", "items": keep}, idem_key=key())
    return game.id, people, state.survivor(people["Léa"].person_id).offered[0]


def test_physical_dice_each_player_enters_their_own(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """4 (I.): dice by colour, rolled at the table: in a game of physical dice the organizer
    enters the table's (Communities, zombies, first player), each player their own survivor's on
    their own phone; the server still shuffles and draws what nobody rolls by hand."""
    from tests.conftest import key

    rolls.endless = True
    game_id, people, weapon = physical_game(service)
    attack = {"type": "attack", "slot": "c9", "weapon": weapon, "target": people["Hugo"].person_id}
    mine = {"Léa: attack die": 1, "Léa: attack, cell die": 1}  # both cells for an extra die free
    with pytest.raises(RuleError, match="Enter the die"):
        service.perform(game_id, people["Léa"], attack, idem_key=key())
    said = service.perform(
        game_id, people["Léa"], attack, idem_key=key(), rolls=mine
    ).summary.render()
    assert "Léa attacks Hugo" in said and "(1 + 1 " in said
    assert service.load(game_id).state.fight.attack_dice[0].value == 1  # type: ignore[attr-defined]
    if service.load(game_id).state.fight.stage == "attack_reroll":  # type: ignore[attr-defined]
        service.perform(game_id, people["Léa"], {"type": "reroll"}, idem_key=key())
    # Hugo's defence is his to enter, on his phone.
    with pytest.raises(RuleError, match="Enter the die"):
        service.perform(game_id, people["Hugo"], {"type": "defend"}, idem_key=key())
    theirs = {"Hugo: defence die 1": 2, "Hugo: defence, cell die": 3}
    said = service.perform(
        game_id, people["Hugo"], {"type": "defend"}, idem_key=key(), rolls=theirs
    ).summary.render()
    assert "(2 + 3 " in said


def test_an_attack_declared_under_aim_is_rolled_by_the_attacker(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """10.2 « L'attaquant lance ses dés d'attaque »: Hugo aims at Léa; she declares an attack
    (9.1); Hugo holds (9.2). With physical dice her dice are hers to enter, on her phone: the
    server rolls none of them inside Hugo's answer (it used to)."""
    from tests.conftest import key

    rolls.endless = True
    game_id, people, weapon = physical_game(service)
    lea, hugo = people["Léa"], people["Hugo"]
    service.perform(
        game_id, lea, {"type": "act", "action": "nothing", "slot": "c1"}, idem_key=key()
    )
    aim = {"type": "act", "action": "aim", "slot": "c1", "target": lea.person_id}
    service.perform(game_id, hugo, aim, idem_key=key())
    attack = {"type": "attack", "slot": "c9", "weapon": weapon, "target": hugo.person_id}
    said = service.perform(game_id, lea, attack, idem_key=key()).summary.render()
    assert "Hugo aims at Léa: attack first" in said
    held = service.perform(game_id, hugo, {"type": "aimed", "answer": "hold"}, idem_key=key())
    assert "Léa does an attack now, rolling their own dice" in held.summary.render()
    state: Any = service.load(game_id).state
    assert state.fight is None and state.declared.ready
    go = {"type": "aimed", "answer": "go_on"}
    with pytest.raises(RuleError, match="Enter the die"):
        service.perform(game_id, lea, go, idem_key=key())
    mine = {"Léa: attack die": 5}  # her token on c1 covers the cell of the extra die
    said = service.perform(game_id, lea, go, idem_key=key(), rolls=mine).summary.render()
    assert "Léa attacks Hugo" in said and "(5 " in said
    journal = service.log(game_id, lea)
    rolled = [r for e in journal for r in e.get("rolls", [])]
    assert {r["purpose"] for r in rolled if r.get("manual")} >= set(mine)


def test_a_medical_kit_takes_off_the_wound_chosen(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """5, Trousse de Soin: "enlevez 1 pion Blessure ou Infection": the player says which, so a
    skill's cell comes free again."""
    t = dealt(service, rolls)
    lea = t.state.survivor(t.id("Léa"))
    assert lea.item_in("c3") is not None  # her medical kit
    t.dice(6, 6)
    t.act("Léa", {"type": "act", "action": "nothing", "slot": "c9"})
    t.act(
        "Hugo",
        {
            "type": "attack",
            "slot": "c9",
            "weapon": t.item("Hugo", "machette"),
            "target": t.id("Léa"),
        },
    )
    t.act("Hugo", {"type": "reroll"})
    t.dice(1, 1)
    t.act("Léa", {"type": "defend"})
    p = t.state.placements[0]
    t.act("Hugo", {"type": "wounds", "slots": ["c1", "c5"][: p.wounds]})
    t.dice(12)
    t.act("Hugo", {"type": "usage"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c9"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c9"})
    kit = t.item("Léa", "trousse-de-soin")
    with pytest.raises(RuleError, match="cell 7"):
        t.act("Léa", {"type": "use", "slot": "c8", "item": kit, "at": "c7"})
    t.dice(12)  # the kit's green die
    t.act("Léa", {"type": "use", "slot": "c8", "item": kit, "at": "c1"})
    assert "c1" not in t.sheet("Léa").wounds


def test_the_cible_marker_moves_for_free_on_one_s_own_turn(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """11, Viser: « Une fois votre marqueur sur le plateau de jeu, vous pouvez gratuitement,
    durant votre tour, déplacer votre marqueur sur une autre cible valide » (issue 33, item 14:
    no command did it)."""
    t = dealt(service, rolls)
    # Léa has no marker down yet: moving it is not free, aiming costs an action.
    with pytest.raises(RuleError):
        t.act("Léa", {"type": "retarget", "target": t.id("Ana")})
    t.act("Léa", {"type": "act", "action": "aim", "slot": t.free("Léa"), "target": t.id("Hugo")})
    assert t.sheet("Léa").aiming == t.id("Hugo")
    # Not her turn now: it waits for it.
    with pytest.raises(RuleError):
        t.act("Léa", {"type": "retarget", "target": t.id("Ana")})
    while t.state.turn != t.id("Léa") or t.state.declared is not None:
        if t.state.declared is not None:  # Hugo acts under her aim: she holds
            t.act("Léa", {"type": "aimed", "answer": "hold"})
            continue
        name = next(n for n in NAMES if t.id(n) == t.state.turn)
        t.act(name, {"type": "act", "action": "nothing", "slot": t.free(name)})
    assert t.sheet("Léa").aiming == t.id("Hugo")  # still down
    tokens = [tok.model_dump() for tok in t.sheet("Léa").tokens]
    # Her page offers it: every survivor but herself and Hugo, none chosen beforehand.
    view = service.load(t.game).kind.view(t.state, t.people["Léa"], service.clock.now())
    assert {o["name"] for o in view["me"]["retargets"]} == {"Ana", "Tom"}
    said = t.act("Léa", {"type": "retarget", "target": t.id("Ana")})
    assert "Ana" in said and t.sheet("Léa").aiming == t.id("Ana")
    assert [tok.model_dump() for tok in t.sheet("Léa").tokens] == tokens  # free: no token
    assert t.state.turn == t.id("Léa")  # and her turn goes on
    with pytest.raises(RuleError):  # herself, or the one she already aims at
        t.act("Léa", {"type": "retarget", "target": t.id("Léa")})
    with pytest.raises(RuleError):
        t.act("Léa", {"type": "retarget", "target": t.id("Ana")})


def test_the_reroll_cell_and_the_lucky_charm_each_give_a_reroll(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """1: the free cell, « Lors de vos attaques, vous pouvez relancer l'un de vos dés »; 5,
    Porte-Bonheur: « Relancez l'un de vos dés si le résultat ne vous convient pas ». Each gives
    its own: Ana, wearing the charm with the cell free, rolls one die again, then one again (Léa,
    with the cell alone, once: `test_a_game_of_four`); Hugo, defending with neither, none."""
    t = dealt(service, rolls)
    lea = t.state.survivor(t.id("Léa"))
    assert t.sheet("Ana").slot_of(t.item("Ana", "porte-bonheur")) is not None
    assert lea.item_in("c4") is None  # the re-roll cell is free for both
    t.act("Léa", {"type": "act", "action": "nothing", "slot": "c9"})
    t.act("Hugo", {"type": "act", "action": "nothing", "slot": "c9"})
    t.dice(8, 5)
    bat = t.item("Ana", "batte")
    t.act("Ana", {"type": "attack", "slot": "c9", "weapon": bat, "target": t.id("Hugo")})
    t.dice(2)
    said = t.act("Ana", {"type": "reroll", "die": 0})
    assert "8 becomes 2" in said and "Ana may roll one die again" in said
    assert t.state.fight.stage == "attack_reroll"  # type: ignore[union-attr]
    t.dice(4)
    said = t.act("Ana", {"type": "reroll", "die": 1})
    assert "5 becomes 4" in said and "Attack: " in said
    assert t.state.fight.stage == "defence"  # type: ignore[union-attr]
    t.dice(1, 1)
    said = t.act("Hugo", {"type": "defend"})
    assert "9 against 5" in said and "Hugo takes 1 wound" in said  # no re-roll for Hugo
    # 6: the wound « se place dans l'une des deux cases mains ou dans l'une des neuf cases »:
    # the cell Hugo's Action token covers too; the token stays, taken back as any other.
    assert any(tok.slot == "c9" for tok in t.sheet("Hugo").tokens)
    t.act("Ana", {"type": "wounds", "slots": ["c9"]})
    assert t.sheet("Hugo").wounds == ["c9"]
    with pytest.raises(RuleError, match="free hand or cell"):  # one marker a place
        wound_again = t.state.model_copy(deep=True)
        mark(wound_again, wound_again.survivor(t.id("Hugo")), "c9", "infection")


def test_the_deal_draws_the_passports_and_decor_the_organizer_left_to_chance(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 35: "deal everything at random". Léa is given hers; Hugo and Ana nothing, and Ana's
    décor set then cleared (none: drawn at the deal). The deal gives each a passport no other
    survivor has and 2 to 4 points of décor (12.3), and keeps Léa's as given."""
    t = TM(service, rolls)
    game, owner = service.create_game("trust_me", "Ville", "Orga", idem_key=key())
    t.game, t.org = game.id, viewer_of(owner)
    for name in ("Léa", "Hugo", "Ana"):
        t.people[name] = viewer_of(service.register(game.id, t.org, "player", name, idem_key=key()))
    t.act(None, {"type": "passport", "player": t.id("Léa"), "passport": "doc"})
    t.act(None, {"type": "decor", "player": t.id("Léa"), "pieces": ["bus"]})
    t.act(None, {"type": "decor", "player": t.id("Ana"), "pieces": ["car"]})
    said = t.act(None, {"type": "decor", "player": t.id("Ana"), "pieces": []})
    assert said == "Ana’s décor will be drawn at the deal."
    assert t.sheet("Ana").decor == []
    rolls.endless = True
    t.act(None, {"type": "deal"})
    passports = [t.sheet(n).passport for n in ("Léa", "Hugo", "Ana")]
    assert passports[0] == "doc" and None not in passports and len(set(passports)) == 3
    assert t.sheet("Léa").decor == ["bus"]
    for name in ("Hugo", "Ana"):
        assert 2 <= sum(DECOR_POINTS[p] for p in t.sheet(name).decor) <= 4
