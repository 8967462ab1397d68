"""A golden test for each power card of the sample deck (4, issue 33 item 8): placed and
activated, each does what its text says, as card engines test a card by playing it. The teams
come from paper sheets (every power chosen): Nabos no. 1 holds Sommeil and Peur, no. 2 Rayon
laser and Sprint éclair, no. 3 Main de fer and Fantôme, no. 4 Œil de lynx and Peau de pierre,
no. 5 Aimant and Dernière chance, no. 6 Bouclier humain and Téléportation; every gladiator is a
human of DEP 5 and 4 everywhere else, armour 1. Every die is scripted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.errors import ArbitreError
from server.games.killpower.match import KILLPOWER_MATCH
from server.games.killpower.powers import sample_deck
from server.i18n import current_language
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key
from tests.killpower.conftest import League

A, B = "A", "B"
POWERS = [
    ["sommeil", "peur"],
    ["rayon-laser", "sprint-eclair"],
    ["main-de-fer", "fantome"],
    ["oeil-de-lynx", "peau-de-pierre"],
    ["aimant", "derniere-chance"],
    ["bouclier-humain", "teleportation"],
    [],
]
FIGURES = {"DEP": 5, "PHY": 4, "HAB": 4, "POU": 4, "BAL": 4, "VIE": 4}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    token = current_language.set("en")
    yield
    current_language.reset(token)


def paper(name: str, powers: list[list[str]]) -> dict[str, Any]:
    rows = []
    for i, held in enumerate(powers, start=1):
        row = {
            "name": f"{name[:3]}{i}",
            "number": i,
            "specialization": "archer",
            "equipment": "powers" if held else "gloves",
            "characteristics": dict(FIGURES),
            "powers": held,
        }
        rows.append(row)
    return {"type": "paper_team", "name": name, "gladiators": rows}


class Golden:
    def __init__(self, service: GameService, rolls: ScriptedRolls, board: bool = False) -> None:
        self.service, self.rolls = service, rolls
        self.league = League(service, rolls)
        nadia, tomas = self.league.coach("Nadia"), self.league.coach("Tomas")
        self.league.act(self.league.owner, {**paper("Nabos", POWERS), "coach": nadia.person_id})
        titanos = {**paper("Titanos", [[]] * 7), "coach": tomas.person_id}
        self.league.act(self.league.owner, titanos)
        self.id = service.open_linked(
            self.league.id,
            nadia,
            {
                "team_a": self.league.team("Nabos").id,
                "team_b": self.league.team("Titanos").id,
                "board": board,
            },
            idem_key=key(),
        )
        live = self.league.state.live[0]
        self.coach = {
            A: Viewer("coach", live.coaches[0], "N"),
            B: Viewer("coach", live.coaches[1], "T"),
        }
        self.ids = {A: self.league.ids("Nabos"), B: self.league.ids("Titanos")}

    def g(self, side: str, number: int) -> int:
        return self.ids[side][number - 1]

    def act(self, side: str, command: dict[str, Any], *dice: int) -> str:
        self.rolls.push(*dice)
        done = self.service.perform(self.id, self.coach[side], command, idem_key=key())
        assert not self.rolls.values, f"dice left over: {self.rolls.values}"
        return done.summary.render()

    def fails(self, side: str, command: dict[str, Any]) -> str:
        before = self.service.load(self.id).game.seq
        with pytest.raises(ArbitreError) as caught:
            self.service.perform(self.id, self.coach[side], command, idem_key=key())
        self.rolls.values.clear()
        assert self.service.load(self.id).game.seq == before
        return caught.value.message

    @property
    def state(self) -> Any:
        return self.service.load(self.id).state

    def fighter(self, side: str, number: int) -> Any:
        return self.state.fighter(self.g(side, number))

    def start(
        self, mine: list[int], theirs: list[int], squares: dict[str, str] | None = None
    ) -> None:
        """Both lineups (Nabos the faster: RAP 10, 9...; Titanos 2, 1...), then phases 1 and 2
        with everyone entered (with the board, onto `squares`: "A1": "H10"), to phase 3."""
        ids = [self.g(A, n) for n in mine]
        self.act(A, {"type": "lineup", "gladiators": ids}, *range(10, 10 - len(ids), -1))
        ids = [self.g(B, n) for n in theirs]
        self.act(B, {"type": "lineup", "gladiators": ids}, *range(len(ids), 0, -1))
        while self.state.phase != 3:
            side = self.state.moving
            if self.state.ball == f"zt:{side}":
                first = (mine if side == A else theirs)[0]
                self.act(side, {"type": "give_ball", "gladiator": self.g(side, first)})
            for n in mine if side == A else theirs:
                if squares is None:
                    self.act(side, {"type": "enter", "gladiator": self.g(side, n)})
                else:
                    to = squares[f"{side}{n}"]
                    self.act(side, {"type": "move", "gladiator": self.g(side, n), "to": to})
            self.act(side, {"type": "end_phase"})

    def due(self) -> int | None:
        from server.games.killpower.match import KILLPOWER_MATCH

        view = KILLPOWER_MATCH.view(self.state, self.coach[A], self.service.clock.now())
        return view["due"]["id"] if view["due"] else None

    def power(self, n: int, card: str, *dice: int, **extra: Any) -> str:
        return self.act(
            A, {"type": "power", "gladiator": self.g(A, n), "card": card, **extra}, *dice
        )


@pytest.fixture
def golden(service: GameService, rolls: ScriptedRolls) -> Golden:
    return Golden(service, rolls)


@pytest.fixture
def on_board(service: GameService, rolls: ScriptedRolls) -> Golden:
    return Golden(service, rolls, board=True)


def test_every_card_of_the_sample_deck_has_its_effect() -> None:
    assert all(card.effect is not None for card in sample_deck().powers)


def test_sommeil(golden: Golden) -> None:
    """« Si le pouvoir est activé, une cible à vue s'endort pour 2 tours sauf si elle réussit un
    jet de résistance sous POU (0A). »"""
    golden.start([1], [1, 2])
    b1 = golden.g(B, 1)
    assert "aims at" in golden.fails(
        A, {"type": "power", "gladiator": golden.g(A, 1), "card": "sommeil"}
    )
    said = golden.power(1, "sommeil", 2, 9, target=b1)  # POU 4: 2 activates; B1 rolls 9
    assert "fails to resist (9)" in said and "is asleep for 2 turns" in said
    b1_state = golden.fighter(B, 1)
    assert b1_state.has("asleep") and b1_state.causes == {"asleep": "sommeil"}
    assert golden.fighter(A, 1).uses == {"sommeil": 1}
    # 4.3 « une fois en moins à fonctionner »: its only use is spent.
    golden.act(
        A, {"type": "power", "gladiator": golden.g(A, 1), "card": "sommeil", "deactivate": True}
    )
    assert "no use left" in golden.fails(
        A, {"type": "power", "gladiator": golden.g(A, 1), "card": "sommeil", "target": b1}
    )


def test_sommeil_resisted_and_peur(golden: Golden) -> None:
    """Peur: « une cible à vue fuit vers sa zone de touche pour 12 tours sauf si elle réussit un
    jet de résistance sous POU ». A resisted power still counts as used (4.3)."""
    golden.start([1], [1, 2])
    said = golden.power(1, "sommeil", 2, 3, target=golden.g(B, 1))  # B1 resists: 3 for POU 4
    assert "resists (3): nothing happens" in said and not golden.fighter(B, 1).has("asleep")
    assert golden.fighter(A, 1).uses == {"sommeil": 1}
    golden.act(B, {"type": "end_phase"})  # let phase 3 pass: next turn
    golden.act(A, {"type": "end_phase"})
    while golden.state.phase != 3:
        golden.act(golden.state.moving, {"type": "end_phase"})
    said = golden.power(1, "peur", 1, 10, target=golden.g(B, 2))
    assert "is afraid, fleeing for 12 turns" in said
    assert golden.fighter(B, 2).causes == {"afraid": "peur"}


def test_rayon_laser(golden: Golden) -> None:
    """« le premier gladiateur ennemi qui passe la ligne 14 subit 1D10 points de blessure, sauf
    s'il réussit un jet de résistance sous VIE » (4.3: read only at that moment)."""
    golden.start([2], [1])
    golden.power(2, "rayon-laser", 3)  # armed, nothing read
    trigger = {"type": "trigger", "gladiator": golden.g(A, 2), "card": "rayon-laser"}
    assert "enemy" in golden.fails(A, {**trigger, "target": golden.g(A, 2)})
    said = golden.act(A, {**trigger, "target": golden.g(B, 1)}, 8, 6)  # fails VIE 4, 6 damage
    # VIE 4 + armour 1 - 6 = -1: badly wounded (then the gift point of 3.4 resets the field).
    assert "1D10" in said and "takes 6 damage: badly wounded" in said


def test_rayon_laser_is_taken_back_on_a_pou_roll(golden: Golden) -> None:
    """Its deactivation: « Jet de POU réussi par le porteur »; taken back, it no longer fires."""
    golden.start([2], [1])
    golden.power(2, "rayon-laser", 3)
    back = {"type": "power", "gladiator": golden.g(A, 2), "card": "rayon-laser", "deactivate": True}
    assert "fails to take a power card back" in golden.act(A, back, 9)  # POU 4
    assert [a.card for a in golden.state.armed] == ["rayon-laser"]
    assert "takes a power card back" in golden.act(A, back, 2)
    assert golden.state.armed == [] and "rayon-laser" not in golden.fighter(A, 2).active
    trigger = {"type": "trigger", "gladiator": golden.g(A, 2), "card": "rayon-laser"}
    assert "waits for its moment" in golden.fails(A, {**trigger, "target": golden.g(B, 1)})


def test_a_sprint_by_the_last_to_act_lets_them_move(on_board: Golden) -> None:
    """5.2: the sprinter moves a second time in phase 3: the phase waits for them even when
    nobody else is left to act (found by an outside review: the turn ended at once)."""
    g = on_board
    g.start([2], [1], squares={"A2": "A5", "B1": "N20"})
    g.act(A, {"type": "act", "gladiator": g.g(A, 2), "action": "pass"})
    g.act(B, {"type": "act", "gladiator": g.g(B, 1), "action": "sprint"})
    assert g.state.phase == 3 and g.state.sprinting == g.g(B, 1)
    g.act(B, {"type": "move", "gladiator": g.g(B, 1), "to": "N24"})
    assert g.state.at[str(g.g(B, 1))] == (24, 14)


def test_sprint_eclair(on_board: Golden) -> None:
    """« le porteur ajoute 3 cases à son déplacement de la phase » (DEP 5: 8 squares)."""
    g = on_board
    g.act(A, {"type": "lineup", "gladiators": [g.g(A, 2)]}, 10)
    g.act(B, {"type": "lineup", "gladiators": [g.g(B, 1)]}, 1)
    while g.state.moving != A:
        side = g.state.moving
        if g.state.ball == f"zt:{side}":
            g.act(side, {"type": "give_ball", "gladiator": g.g(side, 1)})
        g.act(side, {"type": "move", "gladiator": g.g(B, 1), "to": "N20"})
        g.act(side, {"type": "end_phase"})
    g.act(A, {"type": "move", "gladiator": g.g(A, 2), "to": "A5"})  # onto the field, 1 DEP
    assert "cannot reach" in g.fails(A, {"type": "move", "gladiator": g.g(A, 2), "to": "A13"})
    said = g.power(2, "sprint-eclair", 5)  # DEP 5: activated, 0A
    assert "moves 3 squares more this phase" in said
    g.act(A, {"type": "move", "gladiator": g.g(A, 2), "to": "A12"})  # 4 + 3 squares
    assert g.state.at[str(g.g(A, 2))] == (12, 1)


def test_main_de_fer(golden: Golden) -> None:
    """« Si le porteur touche, la cible lâche le ballon et tombe à terre ; on ne fait pas les
    dégâts. » Placed for 0A (4.2: « pas de jet d'activation (noté généralement 0A/-) »): the
    blow is the action."""
    golden.start([3], [1])
    assert golden.state.carrier.id == golden.g(B, 1)
    said = golden.power(3, "main-de-fer", 7)  # its die, read as nothing
    assert "places a power card face down" in said and not golden.fighter(A, 3).acted
    assert "Read to the other coach" not in said  # 4.2: the hit is its activation
    attack = {"type": "attack", "attackers": [golden.g(A, 3)], "target": golden.g(B, 1)}
    golden.act(A, attack, 2)  # PHY 4: 2 lands
    said = golden.act(B, {"type": "answer", "yes": False})
    assert "Read to the other coach: “La cible lâche le ballon" in said
    assert "drops the ball and falls, no damage" in said
    b1 = golden.fighter(B, 1)
    assert b1.has("on_ground") and b1.where == "field" and golden.state.ball == "ground"


def test_fantome(golden: Golden) -> None:
    """« Tant que le pouvoir est actif, le porteur traverse les cases occupées et ne peut être ni
    touché ni intercepté. » Deactivated « s'il [...] tombe à terre »."""
    golden.start([3], [1])
    golden.power(3, "fantome", 4)  # POU 4, 1A
    attack = {"type": "attack", "attackers": [golden.g(B, 1)], "target": golden.g(A, 3)}
    assert "ghost" in golden.fails(B, attack)
    # Knocked down by the table: the card leaves the table, the blows land again.
    golden.act(A, {"type": "condition", "gladiator": golden.g(A, 3), "condition": "on_ground"})
    assert "fantome" not in golden.fighter(A, 3).active


def test_oeil_de_lynx(golden: Golden) -> None:
    """« le porteur ne subit pas le malus de distance pour ses tirs au panier de plus de 8
    cases »: from 10 squares BAL 4 needs 4 or less, not 4 - 3 (TABLE 9.H)."""
    golden.start([4], [1])
    golden.power(4, "oeil-de-lynx", 9)  # automatic: on the table, whatever its die
    golden.act(A, {"type": "take", "gladiator": golden.g(A, 4)}, 1)
    golden.act(B, {"type": "answer", "yes": False})
    assert golden.state.ball == f"f:{golden.g(A, 4)}"
    for side in (A, B):
        golden.act(side, {"type": "end_phase"})
    while golden.state.phase != 3:
        golden.act(golden.state.moving, {"type": "end_phase"})
    shot = {"type": "shot", "gladiator": golden.g(A, 4), "distance": 10}
    said = golden.act(A, shot, 4)
    assert "shoots from 10 squares: 4, in!" in said


def test_peau_de_pierre(golden: Golden) -> None:
    """« Tant que le pouvoir est actif, le porteur ajoute 3 à son armure » (7 damage: VIE 4 +
    armour 1 + 3 - 7 = 1, unhurt; without it -2, badly wounded)."""
    golden.start([4], [1])
    golden.power(4, "peau-de-pierre", 4)  # VIE 4, 0A
    said = golden.act(A, {"type": "hurt", "gladiator": golden.g(A, 4), "points": 7})
    assert "takes 7 damage: no effect" in said
    golden.act(
        A,
        {
            "type": "power",
            "gladiator": golden.g(A, 4),
            "card": "peau-de-pierre",
            "deactivate": True,
        },
    )
    said = golden.act(A, {"type": "hurt", "gladiator": golden.g(A, 4), "points": 7})
    assert "badly wounded" in said


def test_aimant(golden: Golden) -> None:
    """« le ballon libre à vue et à 6 cases au plus vient dans les mains du porteur »."""
    golden.start([5], [1])
    assert "not free" in golden.fails(
        A, {"type": "power", "gladiator": golden.g(A, 5), "card": "aimant"}
    )
    golden.act(B, {"type": "condition", "gladiator": golden.g(B, 1), "condition": "on_ground"})
    assert golden.state.ball == "ground"
    said = golden.power(5, "aimant", 3)  # BAL 4, 1A
    assert "The ball flies into" in said and golden.state.ball == f"f:{golden.g(A, 5)}"


def test_bouclier_humain(golden: Golden) -> None:
    """« le porteur prend à sa place les dégâts visant un ami adjacent »."""
    golden.start([1, 6], [1])
    assert golden.due() == golden.g(A, 1)  # RAP 10
    golden.act(A, {"type": "act", "gladiator": golden.g(A, 1), "action": "pass"})
    assert "friend" in golden.fails(
        A,
        {
            "type": "power",
            "gladiator": golden.g(A, 6),
            "card": "bouclier-humain",
            "target": golden.g(B, 1),
        },
    )
    said = golden.power(6, "bouclier-humain", 4, target=golden.g(A, 1))  # PHY 4, 1A
    assert "shields" in said and golden.fighter(A, 6).guards == golden.g(A, 1)
    attack = {"type": "attack", "attackers": [golden.g(B, 1)], "target": golden.g(A, 1)}
    said = golden.act(B, attack, 1, 3)  # lands (A1 has passed: no evasion); gloves 4 + 3 = 7
    assert "takes the blows aimed at" in said
    assert golden.fighter(A, 6).where == "bg" and golden.fighter(A, 1).where == "field"
    assert golden.fighter(A, 6).guards is None


def test_teleportation(on_board: Golden) -> None:
    """« le porteur se place sur une case libre de son choix dans sa moitié de terrain »."""
    g = on_board
    g.start([6], [1], squares={"A6": "A5", "B1": "N20"})
    power = {"type": "power", "gladiator": g.g(A, 6), "card": "teleportation"}
    assert "half" in g.fails(A, {**power, "to": "H20"})
    said = g.act(A, {**power, "to": "H7"}, 4)
    assert "appears on H7" in said and g.state.at[str(g.g(A, 6))] == (7, 8)


def test_derniere_chance(golden: Golden) -> None:
    """« à la fin du match, le porteur peut relancer un jet de risque de mort raté » (TABLE 8:
    at -12 a head is death, 1 on the location die)."""
    league = golden.league
    nabos, titanos = league.team("Nabos"), league.team("Titanos")
    a5 = golden.g(A, 5)
    record = {
        "type": "match",
        "team_a": nabos.id,
        "team_b": titanos.id,
        "played_a": [g.id for g in nabos.gladiators],
        "played_b": [g.id for g in titanos.gladiators],
        "score_a": 0,
        "score_b": 0,
        "risk": {str(a5): -12, str(golden.g(B, 1)): -12},
    }
    league.act(league.owner, record, 1, 3, 1)  # A5: head, then trunk; B1: head
    risks = {r.gladiator: r for r in league.state.matches[-1].risks}
    assert (risks[a5].location, risks[a5].fate) == ("trunk", "coma")
    assert (risks[golden.g(B, 1)].location, risks[golden.g(B, 1)].fate) == ("head", "dead")


def test_on_the_board_a_blow_is_offered_within_reach_only(on_board: Golden) -> None:
    """8: « Elle doit être dans sa ZA » (issue 35, class A: the attack form listed every
    gladiator of both teams, then said « n'est pas à côté »): with the board, a coach's view
    says whom each of their gladiators can reach."""
    g = on_board
    g.start([2, 3], [1], squares={"A2": "A5", "A3": "A6", "B1": "N20"})
    view = KILLPOWER_MATCH.view(g.state, g.coach[A], g.service.clock.now())
    fighters = {f["id"]: f for f in view["teams"][A]["fighters"]}
    assert set(fighters[g.g(A, 3)]["reach"]) == {g.g(A, 2), g.g(A, 3)}  # not B1, far away
    assert "reach" not in view["teams"][B]["fighters"][0]  # the other side's stay theirs
