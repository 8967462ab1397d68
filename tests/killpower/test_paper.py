"""Bringing a league from paper (spec): the league owner enters a team as its paper sheet
stands, every figure marked as entered by hand; the book's bounds still hold; the team then
plays like any other (a match opens with it, its ranking counts on from the sheet's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.errors import InvalidInput, NotAllowed, RuleError
from server.games.killpower.league.views import public, sheet
from server.i18n import current_language
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, opened
from tests.killpower.conftest import League, team_command
from tests.walker import Offers


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    token = current_language.set("en")
    yield
    current_language.reset(token)


FIGURES = {"DEP": 5, "PHY": 3, "HAB": 6, "POU": 4, "BAL": 7, "VIE": 5}


def paper_row(i: int, **extra: Any) -> dict[str, Any]:
    return {
        "name": f"Brute {i}",
        "number": i,
        "specialization": "warrior",
        "equipment": "gloves",
        "characteristics": dict(FIGURES),
        "exp": 25,
        "increases": 2,
        "matches": 5,
        **extra,
    }


def paper_team(name: str = "Les Brutes", **extra: Any) -> dict[str, Any]:
    """The issue's club: a PHY 3 gladiator, a magic armour of 6, a ranking and a record."""
    rows = [paper_row(1, equipment="armour", armour=6)]
    rows += [paper_row(2, equipment="powers", powers=["sommeil", "peur"])]
    rows += [paper_row(i) for i in range(3, 8)]
    return {
        "type": "paper_team",
        "name": name,
        "ranking": 14,
        "played": 6,
        "won": 4,
        "lost": 1,
        "drawn": 1,
        "abandoned": 0,
        "gladiators": rows,
        **extra,
    }


def test_a_team_entered_from_paper_keeps_every_figure_marked(
    service: GameService, rolls: ScriptedRolls
) -> None:
    league = League(service, rolls)
    nadia = league.coach("Nadia")
    said = league.act(league.owner, paper_team(coach=nadia.person_id))  # no die rolled
    assert "enters the team Les Brutes from its paper sheet" in said and "14 ranking" in said
    team = league.team("Les Brutes")
    assert team.paper and team.coach == nadia.person_id and team.ranking == 14
    assert (team.played, team.won, team.lost, team.drawn) == (6, 4, 1, 1)
    first, second = team.gladiators[0], team.gladiators[1]
    assert first.characteristics["PHY"] == 3 and first.shield == 6 and first.paper
    assert second.powers == ["sommeil", "peur"] and second.increases_left == 0
    assert team.total_exp == 7 * 25
    # Every coach sees that the team's figures came from paper; its sheet stays its coach's.
    row = next(r for r in public(league.state)["table"] if r["name"] == "Les Brutes")
    assert row["paper"] and row["ranking"] == 14 and row["played"] == 6
    assert sheet(league.state, team)["paper"]
    tomas = league.coach("Tomas")
    journal = service.log(league.id, tomas)
    assert any("from its paper sheet, every figure by hand" in e["summary"] for e in journal)
    # It plays on like any team: a draw (3 to 1 is short of the margin) counts on from the
    # sheet's 14 points and record.
    league.act(tomas, team_command("Titanos", ["gloves"] * 7))
    league.match("Les Brutes", "Titanos", (3, 1))
    team = league.team("Les Brutes")
    assert (team.played, team.drawn, team.ranking) == (7, 2, 14 + league.state.draw_points)


def test_a_tournament_team_from_paper_with_its_ranking(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """13.2: three of a kind at most; the armour left empty is rolled with the referee."""
    league = League(service, rolls, mode="tournament")
    command = paper_team(ranking=-3)
    command["gladiators"][0]["armour"] = None
    league.act(league.owner, command)
    team = league.team("Les Brutes")
    assert team.ranking == -3 and team.gladiators[0].armour is None
    league.act(league.owner, {"type": "roll_armour", "team": team.id}, 4)
    assert league.team("Les Brutes").gladiators[0].armour == 6 + 2  # 1D5 from a d10: 4 → 2
    too_many = paper_team(name="Les Mages")
    for row in too_many["gladiators"][2:6]:
        row.update(equipment="powers", powers=["sommeil", "aimant"])
    with pytest.raises(RuleError, match="“Sommeil” is chosen 5 times: 3 at most"):
        league.act(league.owner, too_many)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"characteristics": {**FIGURES, "DEP": 6}}, "DEP goes from 1 to 5, not 6"),
        ({"characteristics": {**FIGURES, "VIE": 16}}, "VIE goes from 1 to 15, not 16"),
        ({"characteristics": {**FIGURES, "PHY": 0}}, "PHY goes from 1 to 20, not 0"),
        ({"characteristics": {"DEP": 5}}, "enter every characteristic"),
        ({"exp": 19, "increases": 2}, "with 19 EXP, the increases taken are at most 1, not 2"),
        ({"armour": 8}, "magic armour's value goes with magic armour only"),
        ({"equipment": "powers", "powers": ["aimant"]}, "two different powers"),
        ({"equipment": "powers", "powers": ["aimant", "aimant"]}, "two different powers"),
        ({"powers": ["sommeil", "peur"]}, "powers go with the power cards equipment only"),
        ({"number": 2}, "same number"),
    ],
)
def test_what_the_book_bounds_is_still_checked(
    service: GameService, rolls: ScriptedRolls, change: dict[str, Any], message: str
) -> None:
    league = League(service, rolls)
    command = paper_team()
    command["gladiators"][3].update(change)
    with pytest.raises(RuleError, match=message):
        league.act(league.owner, command)
    assert league.state.teams == {}  # nothing half entered
    assert league.state.next_id == 1


def test_the_record_and_the_deck_are_checked(service: GameService, rolls: ScriptedRolls) -> None:
    league = League(service, rolls)
    with pytest.raises(RuleError, match="more than the 6 matches played"):
        league.act(league.owner, paper_team(won=6))
    # A championship team draws from its own pack: one Sommeil in the sample deck.
    command = paper_team()
    command["gladiators"][3].update(equipment="powers", powers=["sommeil", "aimant"])
    with pytest.raises(RuleError, match="“Sommeil”: the deck holds 1, the team asks for 2"):
        league.act(league.owner, command)
    with pytest.raises(InvalidInput):  # a card of no deck is no reference
        bad = paper_team()
        bad["gladiators"][1]["powers"] = ["sommeil", "no-such-power"]
        league.act(league.owner, bad)
    league.act(league.owner, paper_team())
    with pytest.raises(RuleError, match="already named"):
        league.act(league.owner, paper_team(name="les brutes"))


def test_only_the_league_owner_enters_a_team_from_paper(
    service: GameService, rolls: ScriptedRolls
) -> None:
    league = League(service, rolls)
    nadia = league.coach("Nadia")
    with pytest.raises(NotAllowed):
        league.act(nadia, paper_team(coach=nadia.person_id))


def test_no_match_opens_before_the_magic_armour_is_rolled(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """13.2: a tournament's magic armour is rolled with the referee before the first match; a
    match opened before it could never field that gladiator (found by an outside review)."""
    league = League(service, rolls, mode="tournament")
    command = paper_team()
    command["gladiators"][0]["armour"] = None
    league.act(league.owner, command)
    league.act(league.owner, paper_team(name="Les Autres"))
    league.act(league.owner, {"type": "bracket"}, 1)
    teams = {"team_a": league.team("Les Brutes").id, "team_b": league.team("Les Autres").id}
    with pytest.raises(RuleError, match="Roll the magic armour of Les Brutes first"):
        service.open_linked(league.id, league.owner, teams, idem_key=key())
    league.act(league.owner, {"type": "roll_armour", "team": teams["team_a"]}, 4)
    assert service.open_linked(league.id, league.owner, teams, idem_key=key())


def test_a_paper_team_has_seven_gladiators(service: GameService, rolls: ScriptedRolls) -> None:
    """3.4: « Une équipe doit comporter 7 gladiateurs obligatoirement »: a sheet of 6 (or of
    1) is refused, and nothing is entered."""
    league = League(service, rolls)
    for size in (6, 1):
        command = paper_team()
        command["gladiators"] = command["gladiators"][:size]
        with pytest.raises(
            RuleError, match=f"A team has seven gladiators, always \\(3.4\\): this sheet has {size}"
        ):
            league.act(league.owner, command)
    assert league.state.teams == {}


def test_a_championship_team_has_no_negative_ranking(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """13.1: « une équipe a au minimum 0 point de classement » in a championship; a
    tournament counts them as they come (`rules.new_ranking`)."""
    league = League(service, rolls)
    with pytest.raises(RuleError, match=r"never below 0 \(13\.1\), not -2"):
        league.act(league.owner, paper_team(ranking=-2))
    assert league.state.teams == {}
    league.act(league.owner, paper_team(ranking=0))
    assert league.team("Les Brutes").ranking == 0


def test_a_championship_paper_team_with_its_armour_blank_rolls_it_and_plays(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """An armour left blank, as the form invites, is rolled before the first match, in a
    championship as in a tournament: by the team's coach from their sheet, or the staff."""
    league = League(service, rolls)
    nadia = league.coach("Nadia")
    command = paper_team(coach=nadia.person_id)
    command["gladiators"][0]["armour"] = None
    league.act(league.owner, command)
    league.act(league.owner, paper_team(name="Les Autres"))
    brutes = league.team("Les Brutes")
    mine = sheet(league.state, brutes)
    assert mine["unrolled"] == ["Brute 1"]
    teams = {"team_a": brutes.id, "team_b": league.team("Les Autres").id}
    with pytest.raises(RuleError, match="Roll the magic armour of Les Brutes first"):
        service.open_linked(league.id, league.owner, teams, idem_key=key())
    other = league.coach("Tomas")
    with pytest.raises(NotAllowed, match="another coach"):
        league.act(other, {"type": "roll_armour", "team": brutes.id})
    league.act(nadia, {"type": "roll_armour", "team": brutes.id}, 4)
    assert league.team("Les Brutes").gladiators[0].armour == 6 + 2
    assert sheet(league.state, league.team("Les Brutes"))["unrolled"] == []
    with pytest.raises(RuleError, match="Every magic armour of Les Brutes is rolled"):
        league.act(nadia, {"type": "roll_armour", "team": brutes.id})
    assert service.open_linked(league.id, league.owner, teams, idem_key=key())


def test_a_gladiator_who_cannot_play_is_not_offered_as_having_played(
    client: Any, rolls: ScriptedRolls
) -> None:
    """2.1: only those equipped play; a magic armour left blank is rolled first. The form of a
    match played on paper offers no « a joué » box for its gladiator (the walker ticked it and
    was refused « L'armure magique de Brute 1 n'est pas encore tirée »), says why, and the form
    as offered is taken."""
    service: GameService = client.app.state.service
    league = League(service, rolls)
    command = paper_team()
    command["gladiators"][0]["armour"] = None
    league.act(league.owner, command)
    league.act(league.owner, paper_team(name="Les Autres"))
    a, b = league.team("Les Brutes"), league.team("Les Autres")
    owner = service.person(league.id, league.owner.person_id)  # type: ignore[arg-type]
    phone = opened(client, service.link_of(owner).token)
    page = phone.get(f"/g/{league.id}?a={a.id}&b={b.id}").text
    brute = a.gladiators[0]
    assert f'id="played-{brute.id}"' not in page
    assert "ne peut pas jouer : armure magique pas encore tirée" in page
    parser = Offers()
    parser.feed(page)
    (form,) = [o for o in parser.offers if o.type == "match"]
    boxes = {value for name, value, _ in form.boxes if name == "played_a[]"}
    assert boxes == {str(g.id) for g in a.gladiators[1:]}


def test_no_more_gladiators_take_power_cards_than_the_deck_can_deal(
    client: Any, rolls: ScriptedRolls
) -> None:
    """2.1: a championship team draws two power cards for each gladiator equipped with them; the
    team form offers power cards to as many gladiators as the deck can serve, said before the
    tap (the walker chose them for all seven and was refused « Le paquet de pouvoirs n'a plus de
    carte à tirer »)."""
    service: GameService = client.app.state.service
    league = League(service, rolls)
    cards = sum(p.copies for p in league.state.deck.powers)
    owner = service.person(league.id, league.owner.person_id)  # type: ignore[arg-type]
    page = opened(client, service.link_of(owner).token).get(f"/g/{league.id}").text
    copies = set(re.findall(r'<option value="powers" data-copies="(\d+)"', page))
    assert copies == {str(cards // 2)}
    parser = Offers()
    parser.feed(page)
    (form,) = [o for o in parser.offers if o.type == "team"]
    assert form.capped, "the equipment menus share their copies"
