"""The step engine, step by step: each keyword of chapter 4 with the book's sentence, the two
modifiers, the choices it stops for, the end of a turn (2.4, 2.5), losing and winning."""

from __future__ import annotations

import pytest

from server.games.battlefight import board
from server.games.battlefight.cards import Technique
from server.games.battlefight.engine import (
    Active,
    EngineError,
    Frame,
    Table,
    answer,
    new_table,
    playable,
    run,
    start_turn,
)
from server.i18n import Msg
from server.platform.data_import import slug
from server.platform.dice import CommandDice, ScriptedRolls

A, B, C = 1, 2, 3


def dice(*values: int) -> CommandDice:
    return CommandDice(ScriptedRolls(values))


def tech(title: str, kind: str, *steps: str) -> Technique:
    return Technique(key=slug(title), title=title, type=kind, steps=list(steps))


def table(*hands: list[Technique], players: int = 2, cells: tuple[str, ...] = ()) -> Table:
    """A table whose players hold these cards in hand (draw piles empty), A to play first; the
    pawns in the corners of 2.1.3, or on `cells`."""
    seats = [(i + 1, "ABCDEF"[i], list(hands[i]) if i < len(hands) else []) for i in range(players)]
    t = new_table(seats, dice(*([1] * 40)), first=0)
    for seat in t.seats:
        seat.hand, seat.draw = seat.draw, []
    for seat, label in zip(t.seats, cells, strict=False):
        seat.cell = board.parse_label(label)
    t.pending = None
    start_turn(t)  # offered again, from the hands just dealt
    return t


def play(
    t: Table, player: int, technique: str, *then: list[str], rolls: tuple[int, ...] = ()
) -> None:
    """The player chooses the technique (its key, or the first card of that title in hand), then
    answers what the engine asks next, in order."""
    seat = t.seat(player)
    key = next((c for c in seat.hand if t.cards[c].key == technique), technique)
    answer(t, player, [key], dice(*rolls))
    for chosen in then:
        assert t.pending is not None, "the engine asked nothing more"
        answer(t, t.pending.player, chosen, dice(*rolls))


def test_the_game_begins_with_empty_hands_and_twenty_life() -> None:  # 2.1, spec
    t = new_table([(A, "A", [tech("X", "attaque", "Blesser 1")] * 3), (B, "B", [])], dice(1, 1, 2))
    assert [s.life for s in t.seats] == [20, 20]
    assert t.seats[0].hand == [] and len(t.seats[0].draw) == 3
    assert [board.label(s.cell) for s in t.seats if s.cell] == ["A1", "G4"]
    assert t.turn == 1  # the first player drawn by lot: the die said 2
    assert t.pending is not None and t.pending.player == B and t.pending.kind == "technique"


def test_base_attack_hits_at_melee_range_only() -> None:  # 3.3.1, 4.4.4, 4.4.1
    far = table()
    play(far, A, "base-attack")
    assert far.seat(B).life == 20  # Corps à corps: distance 6, the execution fails
    near = table(cells=("D4", "D5"))
    play(near, A, "base-attack")
    assert near.seat(B).life == 19 and near.seat(B).damage == 1
    assert near.pending is not None and near.pending.player == B  # the turn passed


def test_force_and_protection_count_while_active() -> None:  # 4.4.1, 4.4.7, 4.4.12
    rage = tech("Rage", "concentration", "Force 2", "Stable")
    shield = tech("Bouclier", "defense", "Protection 1", "Stable")
    t = table([rage], [shield], cells=("D4", "D5"))
    play(t, A, "rage")
    play(t, B, "bouclier")
    assert t.points(A, "force") == 2 and t.points(B, "protection") == 1
    play(t, A, "base-attack")
    assert t.seat(B).life == 20 - (1 + 2 - 1)  # N + F - P


def test_protection_above_the_blow_does_no_damage() -> None:  # 2.5: "supérieur à zéro"
    wall = tech("Mur", "defense", "Protection 5", "Stable")
    t = table([], [wall], cells=("D4", "D5"))
    t.turn, t.pending = 1, None
    start_turn(t)
    play(t, B, "mur")
    play(t, A, "base-attack")
    assert t.seat(B).life == 20 and t.seat(B).damage == 0


def test_damage_points_reset_at_the_end_of_the_player_s_turn() -> None:  # 2.5
    t = table(cells=("D4", "D5"))
    play(t, A, "base-attack")
    assert t.seat(B).damage == 1
    play(t, B, "base-rhetoric")  # nothing Stable to destabilise: B's turn ends
    assert t.seat(B).damage == 0 and t.seat(B).life == 19


@pytest.mark.parametrize(("damage", "n", "life"), [(3, 1, 18), (3, 5, 20), (2, 2, 20)])
def test_block(damage: int, n: int, life: int) -> None:  # 4.4.2
    guard = tech("Garde", "defense", f"Bloquer {n}")
    t = table([guard], cells=("D4", "D5"))
    t.seat(A).life, t.seat(A).damage = 20 - damage, damage
    play(t, A, "garde")
    assert t.seat(A).life == life  # N back if N < damage, else all the damage back
    assert t.seat(A).damage == 0  # and the turn's end resets what is left (2.5)


def test_ranged_needs_the_distance() -> None:  # 4.4.6: "Si N est omis, N = 2"
    arrow = tech("Flèche", "attaque", "Distance", "Blesser 2")
    t = table([arrow, arrow], cells=("D4", "D5"))
    play(t, A, "fleche")
    assert t.seat(B).life == 20  # distance 1 < 2: fails
    assert len(t.seat(A).discard) == 1 and not t.active  # failed: deactivated, to the discard
    t2 = table([arrow], cells=("D4", "D6"))
    play(t2, A, "fleche")
    assert t2.seat(B).life == 18


def test_an_empty_draw_pile_halves_life_and_takes_the_discard() -> None:  # 4.4.10
    t = table([tech("Pioche", "concentration", "Piocher 2"), tech("Y", "attaque", "Blesser 1")])
    seat = t.seat(A)
    seat.life = 15
    card = next(c for c in seat.hand if t.cards[c].key == "y")
    seat.hand.remove(card)
    seat.discard = [card]
    play(t, A, "pioche", rolls=(1,) * 5)
    # 1st draw: the pile is empty, 15 / 2 rounded up = 8, the discard (Y) shuffled in, Y drawn;
    # 2nd draw: empty again, 8 / 2 = 4, nothing to shuffle nor draw. Read to the letter.
    assert seat.life == 4
    assert seat.hand == [card] and len(seat.discard) == 1  # Pioche itself went to the discard


def test_drawing_from_nothing_still_halves() -> None:
    t = table([tech("Pioche", "concentration", "Piocher 1")])
    t.seat(A).life = 7
    play(t, A, "pioche")
    assert t.seat(A).life == 4


def test_moving_asks_each_cell_and_speed_adds() -> None:  # 4.4.15, 4.4.19
    sprint = tech("Sprint", "deplacement", "Vitesse 1", "Se déplacer 1")
    t = table([sprint], cells=("D4", "A1"))
    play(t, A, "sprint")
    assert t.pending is not None and t.pending.kind == "cell"
    assert sorted(t.pending.options) == ["C3", "C4", "D3", "D4", "D5", "E3", "E4"]
    answer(t, A, ["D5"], dice())
    assert t.pending is not None and t.pending.kind == "cell"  # V + N = 2 moves
    with pytest.raises(EngineError):
        answer(t, A, ["A1"], dice())  # not adjacent (and taken)
    answer(t, A, ["D6"], dice())
    assert board.label(t.seat(A).cell) == "D6"  # type: ignore[arg-type]
    assert t.pending is not None and t.pending.player == B


def test_a_push_at_the_edge_may_put_off_the_board_and_that_loses() -> None:  # 4.4.11, spec
    shove = tech("Poussée", "attaque", "Pousser 1")
    t = table([shove, shove], cells=("D5", "D4"))
    play(t, A, "poussee", ["D3"])  # B on D4, pushed farther from A: C3, D3 or E3 offered
    assert board.label(t.seat(B).cell) == "D3"  # type: ignore[arg-type]
    play(t, B, "base-concentration")
    t.seat(A).cell = board.parse_label("D2")
    t.seat(B).cell = board.parse_label("D1")
    play(t, A, "poussee")
    assert t.pending is not None and t.pending.options == ["off", "stay"]
    answer(t, A, ["off"], dice())
    assert t.seat(B).lost and t.finished and t.winner == A


def test_the_opponent_modifier_acts_as_the_target() -> None:  # 4.4.1 (modifiers)
    gift = tech("Cadeau", "rhetorique", "L'adversaire a Piocher 1")
    t = table([gift], [tech("Z", "attaque", "Blesser 1")])
    b = t.seat(B)
    b.draw, b.hand = b.hand, []
    play(t, A, "cadeau")
    assert len(b.hand) == 1 and t.seat(A).life == 20


def test_everyone_acts_in_play_order_choosing_their_own_target() -> None:  # 4.4.2
    storm = tech("Tempête", "attaque", "Tout le monde a Blesser 1")
    t = table([storm], players=3)
    play(t, A, "tempete", ["2"])  # A's technique targets B
    assert t.pending is not None and t.pending.kind == "target" and t.pending.player == A
    answer(t, A, ["3"], dice())  # A's own blow: C
    assert t.pending is not None and t.pending.player == B
    answer(t, B, ["3"], dice())  # B hits C too
    answer(t, C, ["1"], dice())  # C hits A
    assert [t.seat(p).life for p in (A, B, C)] == [19, 20, 18]


def test_stable_stays_active_and_destabilise_pays_its_cost() -> None:  # 4.4.8, 4.4.9
    guard = tech("Garde haute", "defense", "Protection 2", "Stable 2", "Blesser 3")
    t = table([guard], [tech("W", "attaque", "Blesser 1")] * 3, cells=("D4", "D5"))
    play(t, A, "garde-haute")
    garde = next(a for a in t.active if a.owner == A)
    assert garde.stable and garde.cost == 2 and t.points(A, "protection") == 2
    # B destabilises it: 2 - 0 Charm = 2 cards of B's 3, then Garde haute resumes as A's.
    play(t, B, "base-rhetoric", [str(garde.uid)])
    assert t.pending is not None and t.pending.kind == "discard" and t.pending.count == 2
    answer(t, B, t.pending.options[:2], dice())
    assert len(t.seat(B).hand) == 1 and len(t.seat(B).discard) == 2
    assert t.seat(B).life == 20 - (3 - 0)  # "Blesser 3" from A, B has no protection
    assert all(a.uid != garde.uid for a in t.active)  # no step left: deactivated
    assert t.points(A, "protection") == 0


def test_destabilise_offers_only_what_the_hand_can_pay() -> None:
    guard = tech("Garde", "defense", "Stable 3")
    t = table([guard], [], cells=("D4", "D5"))
    play(t, A, "garde")
    play(t, B, "base-rhetoric")  # nothing affordable: the step does nothing
    assert t.pending is not None and t.pending.player == A


def test_forbidding_filters_what_may_be_played() -> None:  # 4.4.16, 4.4.17
    oath = tech("Serment", "rhetorique", "S'empêcher attaque", "S'empêcher carte", "Stable")
    t = table([oath, tech("V", "attaque", "Blesser 1")])
    play(t, A, "serment")
    play(t, B, "base-concentration")
    assert playable(t, A) == [
        "base-defence",
        "base-movement",
        "base-concentration",
        "base-rhetoric",
    ]


def test_play_again_nests_a_technique() -> None:  # 4.4.13
    combo = tech("Combo", "attaque", "Corps à corps", "Rejouer", "Blesser 1")
    t = table([combo], cells=("D4", "D5"))
    play(t, A, "combo", ["base-attack"])
    assert t.seat(B).life == 18  # the base attack's 1, then Combo's 1
    assert t.pending is not None and t.pending.player == B


def test_discarding_more_than_the_hand_fails() -> None:  # 4.4.5, 4.4.18
    purge = tech("Purge", "rhetorique", "Défausser 2", "Blesser 5")
    t = table([purge, tech("U", "attaque", "Blesser 1")], cells=("D4", "D5"))
    play(t, A, "purge")
    assert t.seat(B).life == 20 and t.seat(A).hand == []  # 1 card < 2: all discarded, fails
    said = [Msg.from_json(m).text for m in t.said]
    assert "{name} discards {cards}." in said  # the forced discard is in the journal too
    maybe = tech("Peut-être", "rhetorique", "Si possible défausser 2", "Blesser 5")
    t2 = table([maybe], cells=("D4", "D5"))
    play(t2, A, "peut-etre")
    assert t2.seat(B).life == 15  # the same, without failing


def test_a_player_at_zero_life_loses_and_the_last_one_wins() -> None:  # 2.4, 2.5, spec
    t = table(cells=("D4", "D5"))
    t.seat(B).life = 1
    play(t, A, "base-attack")
    assert t.seat(B).lost and t.finished and t.winner == A and t.pending is None


def test_only_the_player_asked_answers_and_only_an_offered_option() -> None:
    t = table()
    with pytest.raises(EngineError, match="another player"):
        answer(t, B, ["base-attack"], dice())
    with pytest.raises(EngineError, match="not one of the options"):
        answer(t, A, ["steal-the-win"], dice())


def test_the_state_is_plain_data() -> None:
    t = table(cells=("D4", "D5"))
    play(t, A, "base-attack")
    again = Table.model_validate_json(t.model_dump_json())
    assert again == t
    assert isinstance(again.active, list) and all(isinstance(a, Active) for a in again.active)


def test_a_push_with_nowhere_to_go_is_a_situation_the_book_does_not_settle() -> None:  # 0.2
    shove = tech("Poussée", "attaque", "Pousser 1")
    t = table([shove], players=3, cells=("D3", "D4", "D5"))
    t.seat(C).cell = None  # C is out of the way: put the pawns so that no cell is farther and free
    for label, seat in (("D3", A), ("D4", B)):
        t.seat(seat).cell = board.parse_label(label)
    blockers = ["C4", "D5", "E4"]  # every cell next to D4 farther from D3
    t.seats.extend(
        t.seats[0].model_copy(update={"id": 10 + i, "name": f"X{i}", "cell": board.parse_label(c)})
        for i, c in enumerate(blockers)
    )
    t.seat(C).lost = True
    play(t, A, "poussee", ["2"])
    assert t.unsettled is not None and "Pousser" in t.unsettled and t.pending is None


def test_steps_naming_an_eliminated_target_are_skipped() -> None:  # 2.4
    lasting = tech("Siège", "attaque", "Stable", "Blesser 1", "Piocher 1")
    t = table([lasting], players=3, cells=("D4", "D5", "A1"))
    play(t, A, "siege", ["2"])  # Stable at once, targeting B
    siege = next(a for a in t.active if a.owner == A)
    t.seat(B).lost = True
    t.stack.append(Frame(uid=siege.uid))  # as a "Déstabiliser" would resume it
    t.pending = None
    run(t, dice())
    assert t.seat(B).life == 20  # "Blesser 1" names B: ignored
    assert t.seat(A).life == 10  # "Piocher 1" is A's own: done (an empty pile halves)


def test_no_target_is_asked_when_no_step_names_the_opponent() -> None:  # 3.4.2, 3.4.3
    """3.4.3: "L'annonce de l'adversaire ciblé peut-être omise si ce choix n'a aucune influence":
    with three players, Bloquer or Piocher asks nobody whom; a blow, a push or a step the
    opponent makes ("L'adversaire a") does."""
    taunt = tech("Provocation", "rhétorique", "L'adversaire a Se déplacer 1")
    t = table([taunt], players=3)
    play(t, A, "base-defence")
    assert t.pending is not None and (t.pending.player, t.pending.kind) == (B, "technique")
    play(t, B, "base-attack")
    assert t.pending is not None and (t.pending.player, t.pending.kind) == (B, "target")
    answer(t, B, ["3"], dice())
    play(t, C, "base-concentration", rolls=(1,))
    assert t.pending is not None and t.pending.kind == "technique" and t.pending.player == A
    play(t, A, "provocation")
    assert t.pending is not None and t.pending.kind == "target"


def test_everyone_skips_a_player_who_lost_during_the_step() -> None:  # 4.4.2, 2.4
    """A's blow under "Tout le monde a" kills B: B is no longer a player, asked nothing; C acts
    next (found by an outside attack: the engine used to ask B for a target)."""
    storm = tech("Tempête", "attaque", "Tout le monde a Blesser 20")
    t = table([storm], players=4)
    play(t, A, "tempete", ["2"])
    answer(t, A, ["2"], dice())  # A's own blow: B, who loses
    assert t.seat(B).lost
    assert t.pending is not None and t.pending.player == C and t.pending.kind == "target"
    assert t.pending.options == [str(A), "4"]  # nobody may target B either
