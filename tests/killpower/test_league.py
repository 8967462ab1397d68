"""A Killpower Ball championship through the service: four teams, six matches, the table and the
team sheets checked after each; and what the league refuses."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import ArbitreError, NotAllowed, RuleError
from server.games.killpower.league import public, sheet
from server.games.killpower.league.teams import equipment_offered
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC, Viewer
from server.platform.service import GameService
from tests.conftest import key
from tests.killpower.conftest import League, team_command
from tests.killpower.scenes import SCENES


def test_a_championship_of_four_teams_over_six_matches(
    service: GameService, rolls: ScriptedRolls
) -> None:
    league = League(service, rolls)
    coaches = [league.coach(n) for n in ("Alix", "Basile", "Chloé", "Dany")]
    gloves = ["gloves"] * 7
    # Alix's team: two magic armours (1D5 = 3 and 5, the d10 showing 5 and 10: Tom's armour 9,
    # and 11) and a pair of power cards drawn from the 12-card sample deck (dice 1 then 1: the
    # 1st card, then the 1st left).
    said = league.act(
        coaches[0],
        team_command("Nabos", ["armour", "armour", "powers", *gloves[:4]]),
        5,
        10,
        1,
        1,
    )
    assert "Nabos" in said
    nabos = league.team("Nabos")
    assert nabos.coach == coaches[0].person_id and nabos.coach_name == "Alix"
    assert [g.shield for g in nabos.gladiators[:3]] == [9, 11, 1]
    assert nabos.gladiators[2].powers == ["fantome", "rayon-laser"]
    assert nabos.gladiators[0].characteristics["HAB"] == 5  # an archer
    for name, coach in (("Titanos", 1), ("Viking", 2), ("Zorgs", 3)):
        league.act(coaches[coach], team_command(name, gloves))
    assert [row[0] for row in league.table()] == ["Nabos", "Titanos", "Viking", "Zorgs"]

    # 1. Nabos 2 - 0 Titanos: both at power 0, a margin of 1 each. Nabos +3, Titanos -2 -> 0.
    said = league.match("Nabos", "Titanos", (2, 0))
    assert "Nabos" in said and league.team("Nabos").ranking == 3
    assert league.team("Titanos").ranking == 0  # never below 0 in a championship
    assert all(g.exp == 5 for g in league.team("Nabos").gladiators)
    assert league.table() == [
        ("Nabos", 3, 1, 1, 0, 0, 0),
        ("Titanos", 0, 1, 0, 1, 0, 0),  # ties: most wins, then most EXP, then the name
        ("Viking", 0, 0, 0, 0, 0, 0),
        ("Zorgs", 0, 0, 0, 0, 0, 0),
    ]
    # 2. Viking 1 - 1 Zorgs: a draw, +1 each (the league's setting).
    league.match("Viking", "Zorgs", (1, 1))
    assert (league.team("Viking").ranking, league.team("Zorgs").ranking) == (1, 1)
    assert [row[:2] for row in league.table()] == [
        ("Nabos", 3),
        ("Viking", 1),
        ("Zorgs", 1),
        ("Titanos", 0),
    ]
    # 3. Nabos (ranking 3 + 35 EXP / 10 rounded up = power 7, division 1) against Viking
    # (1 + 4 = 5, division 1): difference 2, a margin of 1 each. 3 - 3 is a draw.
    league.match("Nabos", "Viking", (3, 3))
    record = league.state.matches[-1]
    assert record.powers == (7, 5) and record.divisions == (1, 1) and record.margins == (1, 1)
    assert record.outcomes == ("drawn", "drawn")
    assert league.table()[:2] == [("Nabos", 4, 2, 1, 0, 1, 0), ("Viking", 2, 2, 0, 0, 2, 0)]
    # 4. Titanos surrenders against Zorgs: -3 for Titanos (kept at 0), +3 for Zorgs; a Zorgs
    # gladiator carried off at -12 rolls the head (1): dead; one at -13 rolls an arm (5): coma.
    zorgs = league.ids("Zorgs")
    said = league.match(
        "Titanos",
        "Zorgs",
        (0, 0),
        1,
        5,
        surrendered="A",
        risk={zorgs[0]: -12, zorgs[1]: -13},
    )
    record = league.state.matches[-1]
    assert record.outcomes == ("abandoned", "won")
    assert [(r.location, r.fate) for r in record.risks] == [("head", "dead"), ("left_arm", "coma")]
    zorgs_team = league.team("Zorgs")
    assert len(zorgs_team.gladiators) == 6 and zorgs_team.fallen[0].id == zorgs[0]
    assert zorgs_team.ranking == 1 + 3 and league.team("Titanos").abandoned == 1
    # Nabos and Zorgs at 4 points and one win each: Nabos has more EXP (70 against 60).
    assert league.table() == [
        ("Nabos", 4, 2, 1, 0, 1, 0),
        ("Zorgs", 4, 2, 1, 0, 1, 0),
        ("Viking", 2, 2, 0, 0, 2, 0),
        ("Titanos", 0, 2, 0, 1, 0, 1),
    ]
    # A team of six cannot play: the coach recruits through the wizard first.
    with pytest.raises(RuleError, match="7"):
        league.match("Zorgs", "Nabos", (0, 0))
    league.act(
        coaches[3],
        {
            "type": "replace",
            "team": zorgs_team.id,
            "recruit": {
                "name": "Zor8",
                "number": 8,
                "specialization": "shooter",
                "equipment": "gloves",
            },
        },
    )
    assert len(league.team("Zorgs").gladiators) == 7
    # 5. Zorgs eliminated by Nabos: a win for Nabos whatever the score.
    league.match("Nabos", "Zorgs", (0, 4), eliminated="B")
    assert league.state.matches[-1].outcomes == ("won", "lost")
    assert [row[:2] for row in league.table()] == [
        ("Nabos", 7),
        ("Zorgs", 2),  # more wins than Viking
        ("Viking", 2),
        ("Titanos", 0),
    ]
    # 6. Viking 5 - 0 Titanos.
    league.match("Viking", "Titanos", (5, 0))

    assert league.table() == [
        # name, ranking, played, won, lost, drawn, abandoned
        ("Nabos", 3 + 1 + 3, 3, 2, 0, 1, 0),
        ("Viking", 1 + 1 + 3, 3, 1, 0, 2, 0),
        ("Zorgs", 1 + 3 - 2, 3, 1, 1, 1, 0),
        ("Titanos", 0, 3, 0, 2, 0, 1),
    ]
    nabos = sheet(league.state, league.team("Nabos"))
    assert [h["outcome"] for h in nabos["history"]] == ["won", "drawn", "won"]
    assert nabos["exp"] == 7 * 15 and "105" in nabos["power_explained"]
    # 15 EXP: one increase each, within the race maxima.
    first = league.team("Nabos").gladiators[0]
    league.act(
        coaches[0],
        {
            "type": "improve",
            "team": league.team("Nabos").id,
            "gladiator": first.id,
            "characteristic": "PHY",
        },
    )
    assert league.team("Nabos").gladiators[0].characteristics["PHY"] == 5
    with pytest.raises(RuleError, match="10"):
        league.act(
            coaches[0],
            {
                "type": "improve",
                "team": league.team("Nabos").id,
                "gladiator": first.id,
                "characteristic": "PHY",
            },
        )


def test_what_the_league_refuses(service: GameService, rolls: ScriptedRolls) -> None:
    league = League(service, rolls)
    alix, basile = league.coach("Alix"), league.coach("Basile")
    league.act(alix, team_command("Nabos", ["gloves"] * 7))
    nabos = league.team("Nabos")
    before = league.state.model_dump()
    eighth = team_command("Titanos", ["gloves"] * 7)
    eighth["gladiators"].append({**eighth["gladiators"][0], "number": 8})
    attempts: list[tuple[Viewer, dict[str, Any], type[ArbitreError], str]] = [
        (basile, eighth, RuleError, "7"),  # an eighth gladiator
        (basile, team_command("nabos", ["gloves"] * 7), RuleError, "Nabos"),  # the name is taken
        (
            basile,
            {
                "type": "improve",
                "team": nabos.id,
                "gladiator": nabos.gladiators[0].id,
                "characteristic": "PHY",
            },
            NotAllowed,
            "",
        ),  # another coach's team
        (
            alix,
            {
                "type": "improve",
                "team": nabos.id,
                "gladiator": nabos.gladiators[0].id,
                "characteristic": "PHY",
            },
            RuleError,
            "10",
        ),  # an increase without 10 EXP
    ]
    for actor, command, error, message in attempts:
        with pytest.raises(error, match=message or None):
            league.act(actor, command)
        assert league.state.model_dump() == before


def test_tournament_teams_choose_their_powers(service: GameService, rolls: ScriptedRolls) -> None:
    league = League(service, rolls, mode="tournament")
    alix = league.coach("Alix")
    command = team_command("Nabos", ["powers"] * 4 + ["armour"] + ["gloves"] * 2)
    for i, g in enumerate(command["gladiators"][:4]):
        g["powers"] = ["fantome", ["sommeil", "peur", "aimant", "sprint-eclair"][i]]
    with pytest.raises(RuleError, match="3"):  # Fantôme four times
        league.act(alix, command)
    command["gladiators"][3]["powers"] = ["aimant", "peur"]
    league.act(alix, command)
    nabos = league.team("Nabos")
    assert nabos.gladiators[0].powers == ["fantome", "sommeil"]
    assert nabos.gladiators[4].armour is None  # rolled with the referee at the first match
    league.act(league.coach("Basile"), team_command("Titanos", ["gloves"] * 7))
    with pytest.raises(RuleError, match="armure"):
        league.match("Nabos", "Titanos", (1, 0))
    said = league.act(league.owner, {"type": "roll_armour", "team": nabos.id}, 4)  # 1D5: 4 / 2 = 2
    assert league.team("Nabos").gladiators[4].armour == 8
    # Who wears armour is on Nabos' sheet: the table reads that it was rolled, Alix reads for whom.
    armoured = nabos.gladiators[4].name
    assert armoured not in said
    basile = league.coaches["Basile"]
    for reader, sees in ((basile, False), (PUBLIC, False), (alix, True), (league.owner, True)):
        entry = league.service.log(league.id, reader)[-1]
        assert (armoured in str(entry)) is sees, (reader, entry)
    league.act(league.owner, {"type": "bracket"}, 1)
    league.match("Nabos", "Titanos", (0, 3))
    assert league.state.champion == league.team("Titanos").id
    assert league.team("Nabos").gladiators[4].armour == 8  # kept for the whole tournament


def test_a_tournament_bracket_with_a_bye_free_throws_and_a_champion(
    service: GameService, rolls: ScriptedRolls
) -> None:
    league = League(service, rolls, mode="tournament")
    for coach, team in (("Alix", "Titanos"), ("Basile", "Viking"), ("Chloé", "Zorgs")):
        league.act(league.coach(coach), team_command(team, ["gloves"] * 7))
    ids = {name: league.team(name).id for name in ("Titanos", "Viking", "Zorgs")}
    # Three teams: a bracket of four with one bye. The draw takes Titanos (1st of 3), then Zorgs
    # (2nd of the 2 left), then Viking: Titanos - bye, Zorgs - Viking.
    said = league.act(league.owner, {"type": "bracket"}, 1, 2)
    assert "Titanos – —" in said
    first = league.state.bracket[0]
    assert [(p.a, p.b, p.winner) for p in first] == [
        (ids["Titanos"], None, ids["Titanos"]),
        (ids["Zorgs"], ids["Viking"], None),
    ]
    with pytest.raises(RuleError, match="Titanos"):  # they do not meet in this round
        league.match("Titanos", "Viking", (1, 0))
    # Zorgs 0 - 0 Viking after 20 turns: free throws, still tied, then Viking 2 + 11 = 13 to 12.
    with pytest.raises(RuleError, match="lancers francs"):
        league.match("Zorgs", "Viking", (0, 0))
    with pytest.raises(RuleError, match="égalité"):
        league.match("Zorgs", "Viking", (0, 0), throws_a=[2, 2], throws_b=[2, 2])
    viking_before = [g.model_dump() for g in league.team("Viking").gladiators]
    said = league.match(
        "Zorgs",
        "Viking",
        (0, 0),
        throws_a=[0, 12],
        throws_b=[2, 11],
        risk={league.ids("Viking")[0]: -30},
    )
    assert "Viking" in said and league.state.matches[-1].outcomes == ("lost", "won")
    assert league.state.matches[-1].free_throws == ([0, 12], [2, 11])
    # The winner goes on with its team as it came: nobody died, no EXP.
    assert [g.model_dump() for g in league.team("Viking").gladiators] == viking_before
    assert [(p.a, p.b) for p in league.state.bracket[1]] == [(ids["Titanos"], ids["Viking"])]
    with pytest.raises(RuleError, match="tournoi"):
        league.act(league.owner, {"type": "bracket"}, 1, 1)  # it has begun
    said = league.match("Titanos", "Viking", (3, 0))
    assert league.state.champion == ids["Titanos"] and "Titanos" in said
    view = public(league.state)
    assert view["champion"] == "Titanos" and len(view["bracket"]) == 2


def test_the_mode_is_chosen_before_the_first_team(
    service: GameService, rolls: ScriptedRolls
) -> None:
    league = League(service, rolls)
    assert "tournoi" in league.act(league.owner, {"type": "mode", "mode": "tournament"})
    assert league.state.mode == "tournament"
    league.act(league.coach("Alix"), team_command("Nabos", ["gloves"] * 7))
    with pytest.raises(RuleError, match="avant"):
        league.act(league.owner, {"type": "mode", "mode": "championship"})
    with pytest.raises(NotAllowed):
        league.act(league.coaches["Alix"], {"type": "mode", "mode": "championship"})


def test_with_physical_dice_a_recruit_s_two_power_cards_are_each_asked_once(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 33, item 7: both draws of "2 pouvoirs" (2.1) asked for the die "power card for
    NAME"; a value entered served one roll and the form asked again, forever. Each draw now has
    its own name ("... #2"), and the team is made once every die is entered."""
    from server.platform.dice import MissingRoll

    rolls.endless = True  # the dice the server rolls (none here is the staff's to leave out)
    league = League(service, rolls, dice="physical")
    nadia = league.coach("Nadia")
    # The owner recruits for Nadia at the table, physical dice in hand (the staff enter any die).
    command = team_command("Nabos", ["powers"] + ["gloves"] * 6, coach=nadia.person_id)
    entered: dict[str, int] = {}
    asked = []
    for _ in range(20):
        try:
            service.perform(league.id, league.owner, command, idem_key=key(), rolls=entered)
            break
        except MissingRoll as missing:
            name = str(missing.field).removeprefix("roll_")
            assert name not in entered, f"asked again for {name!r}"
            asked.append(name)
            entered[name] = 1
    else:
        raise AssertionError(f"the team was never made: {asked}")
    assert asked[:2] == ["power card for Nab1", "power card for Nab1 #2"]
    gladiator = league.team("Nabos").gladiators[0]
    assert len(gladiator.powers) == 2
    # The log keeps each die's purpose, entered by hand.
    rolled = [r for e in service.log(league.id, league.owner) for r in e.get("rolls", [])]
    assert [r["manual"] for r in rolled if r["purpose"] == "power card for Nab1"] == [True, True]


def test_a_new_equipment_offers_powers_only_while_the_pack_holds_two(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """2.1: a team draws its powers from its own pack, without putting cards back; a new
    equipment offers power cards only while two are left to draw (the 50-seed walk's find,
    issue 53: « Le paquet de pouvoirs n'a plus de carte à tirer pour Nab4 »)."""
    scene = SCENES["killpower_league:played"](service, rolls)
    state = service.load(scene.game).state.model_copy(deep=True)  # type: ignore[attr-defined]
    team = next(iter(state.teams.values()))
    gladiator, other = team.gladiators[0], team.gladiators[1]
    for g in team.gladiators:
        g.powers = []
    assert "powers" in equipment_offered(state, team, gladiator)
    other.powers = state.deck.copies()  # every card of the pack held by another
    assert "powers" not in equipment_offered(state, team, gladiator)
    assert "armour" in equipment_offered(state, team, gladiator)
