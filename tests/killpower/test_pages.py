"""Killpower Ball league pages through the app: who may open what, the wizard and the match form
as a phone sends them, and no coach ever reads another team's power cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import ArbitreError
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key, viewer_of
from tests.killpower.conftest import HTMX, KPB_MATRIX, ROLES, wizard_form


@pytest.mark.parametrize("entry", KPB_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_league_pages_give_each_role_exactly_what_it_may(
    killpower: dict[str, Any], entry: Any
) -> None:
    method, _route, path, form, allowed = entry
    url = path.replace("{g}", killpower["game"]).replace(
        "{nabos}", str(killpower["teams"]["Nabos"].id)
    )
    for role in ROLES:
        phone = killpower["phones"][role]
        if method == "GET":
            response = phone.get(url)
        else:
            response = phone.post(url, data={**(form or {}), "idem": key()})
        assert (200 <= response.status_code < 400) == (role in allowed), (
            role,
            url,
            response.status_code,
        )


def test_the_wizard_built_seven_gladiators_with_their_powers(killpower: dict[str, Any]) -> None:
    nabos = killpower["teams"]["Nabos"]
    assert nabos.coach == killpower["people"]["alix"].person_id
    assert [g.number for g in nabos.gladiators] == list(range(1, 8))
    assert [len(g.powers) for g in nabos.gladiators] == [2] * 5 + [0] * 2
    assert len({p for g in nabos.gladiators for p in g.powers}) == 10  # never the same card twice
    assert all(g.characteristics["PHY"] == 5 for g in nabos.gladiators)  # warriors
    # A broken wizard comes back with the message and what was typed.
    form = wizard_form("Zorgs")
    del form["name_7"], form["number_7"], form["specialization_7"], form["equipment_7"]
    answer = killpower["phones"]["basile"].post(
        f"/g/{killpower['game']}/act", data={**form, "idem": key()}
    )
    assert answer.status_code == 422
    assert "exactement 7 gladiateurs" in answer.text and 'value="Zor 6"' in answer.text


def test_a_match_recorded_from_the_form_updates_the_table(killpower: dict[str, Any]) -> None:
    nabos, titanos = killpower["teams"]["Nabos"], killpower["teams"]["Titanos"]
    ref = killpower["phones"]["ref"]
    page = ref.get(f"/g/{killpower['game']}?a={nabos.id}&b={titanos.id}").text
    assert "Enregistrer un match terminé" in page
    data: dict[str, Any] = {
        "type": "match",
        "team_a": nabos.id,
        "team_b": titanos.id,
        "played_a[]": [g.id for g in nabos.gladiators],
        "played_b[]": [g.id for g in titanos.gladiators],
        "score_a": "0",
        "score_b": "3",
        f"risk_{nabos.gladiators[0].id}": "-20",
        "ending": "",
        "idem": key(),
    }
    # A state above -11 is not a risk of death: refused, nothing recorded.
    wrong = {**data, f"risk_{nabos.gladiators[1].id}": "-5", "idem": key()}
    answer = ref.post(f"/g/{killpower['game']}/act", data=wrong, headers=HTMX)
    assert answer.status_code == 422 and "risque de mort" in answer.text
    assert killpower["service"].load(killpower["game"]).state.matches == []

    killpower["rolls"].push(4)  # TABLE 8: 4 is the trunk; at -20, dead
    answer = ref.post(f"/g/{killpower['game']}/act", data=data, headers=HTMX)
    assert answer.status_code == 200, answer.text
    assert "Titanos : victoire" in answer.text
    board = killpower["phones"]["stranger"].get(f"/g/{killpower['game']}/board").text
    rows = re.findall(r"<th scope=\"row\">(\w+)", board)
    assert rows == ["Titanos", "Nabos"]
    assert "Risque de mort : Nab 1, -20, tronc : mort" in board
    # Nabos now has six gladiators: Alix's page asks her to recruit.
    assert (
        "recrutez pour revenir à 7"
        in killpower["phones"]["alix"].get(f"/g/{killpower['game']}").text
    )


def test_no_coach_reads_another_teams_sheet(killpower: dict[str, Any]) -> None:
    """Which gladiator holds which power card (and their armour, their characteristics) is on the
    team sheet, seen by its coach and the staff only. The league's deck itself is no secret."""
    game = killpower["game"]
    service: GameService = killpower["service"]
    nabos = killpower["teams"]["Nabos"]
    private = [g.name for g in nabos.gladiators]
    alix_page = killpower["phones"]["alix"].get(f"/g/{game}").text
    assert all(name in alix_page for name in private)  # her own sheet shows them
    for role in ("basile", "stranger", "other_coach"):
        phone: TestClient = killpower["phones"][role]
        bearer = {}
        if role == "basile":
            record = service.person(game, killpower["people"][role].person_id)
            bearer = {"Authorization": f"Bearer {service.link_of(record).token}"}
        answers = [
            phone.get(f"/g/{game}").text,
            phone.get(f"/g/{game}/live/player").text,
            phone.get(f"/g/{game}/board").text,
            phone.get(f"/g/{game}/log").text,
            phone.get(f"/g/{game}/log.json").text,
            phone.get(f"/g/{game}/log.csv").text,
            phone.get(f"/g/{game}/killpower/team/{nabos.id}").text,
            phone.get(f"/api/v1/games/{game}").text,
            phone.get(f"/api/v1/games/{game}/state", headers=bearer).text,
            phone.get(f"/api/v1/games/{game}/log", headers=bearer).text,
        ]
        for text in answers:
            for name in private:
                assert name not in text, (role, name)
    state = killpower["phones"]["basile"].get(
        f"/api/v1/games/{game}/state",
        headers={
            "Authorization": "Bearer "
            + service.link_of(service.person(game, killpower["people"]["basile"].person_id)).token
        },
    )
    assert state.status_code == 200
    assert [t["name"] for t in state.json()["state"]["teams"]] == ["Titanos"]


def test_a_tournament_from_the_owners_phone(client: TestClient, rolls: ScriptedRolls) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game(
        "killpower_league", "Coupe", "Camille", idem_key=key(), settings={"mode": "tournament"}
    )
    org = viewer_of(owner)
    for coach, team in (("Alix", "Nabos"), ("Basile", "Titanos")):
        person = viewer_of(service.register(game.id, org, "coach", coach, idem_key=key()))
        form = wizard_form(team)
        command: dict[str, Any] = {"type": "team", "name": team, "gladiators": []}
        for i in range(1, 8):
            command["gladiators"].append(
                {
                    "name": form[f"name_{i}"],
                    "number": i,
                    "specialization": "archer",
                    "equipment": "armour" if i == 1 else "gloves",
                }
            )
        service.perform(game.id, person, command, idem_key=key())
    phone = Phone(client, follow_redirects=False)
    assert phone.get(f"/t/{service.link_of(owner.person).token}").status_code == 303
    phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
    page = phone.get(f"/g/{game.id}").text
    assert "Tirer les armures magiques" in page and "Tirer le tableau" in page
    assert "Enregistrer un match terminé" not in page  # no bracket yet
    for team in service.load(game.id).state.teams.values():
        rolls.push(3)
        answer = phone.post(
            f"/g/{game.id}/act",
            data={"type": "roll_armour", "team": team.id, "idem": key()},
            headers=HTMX,
        )
        assert answer.status_code == 200
    rolls.push(1)
    answer = phone.post(f"/g/{game.id}/act", data={"type": "bracket", "idem": key()}, headers=HTMX)
    assert answer.status_code == 200 and "Tableau tiré" in answer.text
    page = phone.get(f"/g/{game.id}").text
    assert "Enregistrer un match terminé" in page and "Lancers francs après une égalité" in page
    board = Phone(client).get(f"/g/{game.id}/board").text
    assert "Tableau" in board and "Nabos" in board and "Titanos" in board


def test_coaches_join_the_league_by_its_invitation_link(killpower: dict[str, Any]) -> None:
    game, service = killpower["game"], killpower["service"]
    org = killpower["phones"]["org"]
    people = org.get(f"/g/{game}/people").text
    url = re.search(r'value="(http://testserver/g/[^"]+/join/[^"]+)"', people)
    assert url is not None
    path = url.group(1).removeprefix("http://testserver")
    newcomer = TestClient(
        killpower["phones"]["org"].app, base_url="http://testserver", follow_redirects=False
    )
    page = newcomer.get(path)
    assert page.status_code == 200 and "entraîneur" in page.text
    newcomer.headers["X-CSRF-Token"] = csrf_of(page.text)
    answer = newcomer.post(path, data={"name": "Chloé", "idem": key()})
    assert answer.status_code == 303 and answer.headers["location"] == f"/g/{game}/welcome"
    # Their own link and its QR code, to keep (issue: it was promised, never shown). Who joins
    # takes the seat they make (issue 51): its link is that seat's key, with no join code.
    welcome = newcomer.get(f"/g/{game}/welcome").text
    chloe = next(p for p in service.people(game) if p.name == "Chloé")
    link = service.link_of(chloe)
    assert chloe.claimed_at is not None
    assert link.token in welcome and f"/people/{chloe.id}/qr.svg" in welcome
    assert link.code not in welcome
    assert newcomer.get(f"/g/{game}/people/{chloe.id}/qr.svg").status_code == 200
    home = newcomer.get(f"/g/{game}").text
    assert "Créer une équipe" in home  # a coach, on their own page
    chloe = next(p for p in service.people(game) if p.name == "Chloé")
    assert chloe.role == "coach"
    # A taken name is said so, and nothing is registered.
    again = newcomer.post(path, data={"name": "chloé", "idem": key()})
    assert again.status_code == 422 and "déjà inscrit" in again.text
    # A renewed invitation kills the old link; a closed one too; only the organizer decides.
    assert (
        killpower["phones"]["alix"]
        .post(f"/g/{game}/invitation/open", data={"idem": key()})
        .status_code
        == 403
    )
    assert org.post(f"/g/{game}/invitation/open", data={"idem": key()}).status_code < 400
    assert newcomer.get(path).status_code == 404
    assert org.post(f"/g/{game}/invitation/close", data={"idem": key()}).status_code < 400
    assert "Ouvrir un lien d’invitation" in org.get(f"/g/{game}/people").text
    assert newcomer.post(path, data={"name": "Dany", "idem": key()}).status_code == 404


def test_games_without_an_open_role_have_no_invitation(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, organizer = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    with pytest.raises(ArbitreError):
        service.set_invitation(game.id, viewer_of(organizer), open_it=True)
    assert service.invitation(service.load(game.id).game) is None


def test_the_owner_chooses_the_mode_on_a_new_league(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, owner = service.create_game("killpower_league", "Coupe", "Camille", idem_key=key())
    phone = Phone(client, follow_redirects=False)
    assert phone.get(f"/t/{service.link_of(owner.person).token}").status_code == 303
    phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
    page = phone.get(f"/g/{game.id}").text
    assert 'name="mode" value="tournament"' in page
    answer = phone.post(
        f"/g/{game.id}/act",
        data={"type": "mode", "mode": "tournament", "idem": key()},
        headers=HTMX,
    )
    assert answer.status_code == 200 and "La ligue joue en tournoi" in answer.text
    # No team yet: the bracket is not offered (the rule would refuse it), and the page says why.
    page = phone.get(f"/g/{game.id}").text
    assert "Tirer le tableau" not in page
    assert "Un tournoi demande au moins deux équipes de 7 gladiateurs." in page


def test_a_team_from_paper_entered_on_the_owners_phone(killpower: dict[str, Any]) -> None:
    """Bringing a league from paper (spec): the owner's form, one row per gladiator; every
    choice starts empty; the team then shows its marks to every coach."""
    game, phones, alix = killpower["game"], killpower["phones"], killpower["people"]["alix"]
    page = phones["org"].get(f"/g/{game}").text
    assert 'id="paper-title"' not in page and "?paper=1" in page  # asked for: its own address
    page = phones["org"].get(f"/g/{game}?paper=1").text
    form_html = page[page.index('id="paper-title"') :]
    assert 'name="DEP_1"' in form_html and 'name="armour_7"' in form_html
    for select in re.findall(r"<select[^>]*>.*?</select>", form_html, flags=re.S):
        # A choice that decides something never starts pre-filled.
        assert not re.search(r'<option value="[^"]+"[^>]*selected', select), select[:80]
        if "multiple" not in select:
            assert re.search(r'<select[^>]*><option value=""', select), select[:80]
    assert 'id="paper-title"' not in phones["alix"].get(f"/g/{game}?paper=1").text
    data: dict[str, Any] = {
        "type": "paper_team",
        "name": "Les Anciens",
        "coach": str(alix.person_id),
        "ranking": "9",
        "played": "4",
        "won": "3",
        "lost": "1",
        "drawn": "0",
        "abandoned": "0",
        "idem": key(),
    }
    figures = {"DEP": "5", "PHY": "3", "HAB": "4", "POU": "4", "BAL": "4", "VIE": "4"}
    for i in range(1, 8):
        data.update({f"name_{i}": f"Ancien {i}", f"number_{i}": str(i + 10)})
        data.update({f"specialization_{i}": "archer", f"exp_{i}": "20", f"increases_{i}": "1"})
        data.update({f"{c}_{i}": v for c, v in figures.items()})
        data[f"equipment_{i}"] = "gloves"
    data.update({"equipment_1": "armour", "armour_1": "6"})
    data.update({"equipment_2": "powers", "powers_2": ["sommeil", "peur"]})
    wrong = {**data, "VIE_3": "16", "idem": key()}
    answer = phones["org"].post(f"/g/{game}/act", data=wrong, headers=HTMX)
    assert answer.status_code == 422 and "VIE va de 1 à 15, pas 16" in answer.text
    answer = phones["org"].post(f"/g/{game}/act", data=data, headers=HTMX)
    assert answer.status_code == 200, answer.text
    team = next(t for t in killpower["service"].load(game).state.teams.values() if t.paper)
    assert team.coach == alix.person_id and team.gladiators[0].shield == 6
    assert team.gladiators[0].characteristics["PHY"] == 3
    assert team.gladiators[1].powers == ["sommeil", "peur"]
    # Every coach sees the marks on the table; the sheet stays its coach's.
    basile = phones["basile"].get(f"/g/{game}").text
    assert "Les Anciens" in basile and "✍" in basile and "Sommeil" not in basile
    sheet = phones["alix"].get(f"/g/{game}").text
    assert "Saisie à la main par l’organisateur de la ligue" in sheet or "✍" in sheet


def test_opening_a_match_starts_on_no_choice(killpower: dict[str, Any]) -> None:
    """Issue 35, class A: « Contre » started on the opener's own team, which the server then
    refused. A coach with one team is offered the others only, and nothing that decides the
    match starts chosen: the opponent and the refereeing are picked."""
    game, phones = killpower["game"], killpower["phones"]
    page = phones["alix"].get(f"/g/{game}").text
    against = re.search(r'<select id="live-b".*?</select>', page, flags=re.S)
    assert against is not None
    assert re.match(r'<select[^>]*required><option value="" disabled selected>', against.group(0))
    assert "Nabos" not in against.group(0) and "Titanos" in against.group(0)
    modes = re.findall(r'<input type="radio" name="mode"[^>]*>', page)
    assert len(modes) == 2 and not any("checked" in m for m in modes)


def test_a_paper_team_s_blank_armour_is_rolled_from_its_coach_s_page(
    killpower: dict[str, Any], rolls: ScriptedRolls
) -> None:
    """A team entered from paper with its magic armour left blank, in a championship: its
    coach's page says it cannot play yet and why, and offers the roll, which the server takes;
    the owner's page offers it on top. Once rolled, the offer goes."""
    game, phones, alix = killpower["game"], killpower["phones"], killpower["people"]["alix"]
    service: GameService = killpower["service"]
    row = {
        "specialization": "archer",
        "equipment": "gloves",
        "characteristics": {"DEP": 5, "PHY": 3, "HAB": 4, "POU": 4, "BAL": 4, "VIE": 4},
    }
    gladiators = [{**row, "name": f"Ancien {i}", "number": i + 10} for i in range(1, 8)]
    gladiators[0] = {**gladiators[0], "equipment": "armour"}  # its value left blank
    command = {
        "type": "paper_team",
        "name": "Les Anciens",
        "coach": alix.person_id,
        "gladiators": gladiators,
    }
    service.perform(game, killpower["people"]["org"], command, idem_key=key())
    mine = phones["alix"].get(f"/g/{game}").text
    assert "Pas encore tirée" in mine and "Ancien 1" in mine
    assert re.search(r"À vous[^<]*armure magique des Anciens", mine)  # « de Les » said right
    assert "Armure magique à tirer" in phones["org"].get(f"/g/{game}").text
    assert "Armure magique à tirer" not in phones["basile"].get(f"/g/{game}").text
    form = next(
        f
        for f in re.findall(r"<form[^>]*>.*?</form>", mine, flags=re.S)
        if 'value="roll_armour"' in f
    )
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    rolls.push(4)
    answer = phones["alix"].post(f"/g/{game}/act", data=fields, headers=HTMX)
    assert answer.status_code == 200, answer.text
    team = next(t for t in service.load(game).state.teams.values() if t.name == "Les Anciens")
    assert team.gladiators[0].armour == 6 + 2
    assert 'value="roll_armour"' not in phones["alix"].get(f"/g/{game}").text
    assert "Armure magique à tirer" not in phones["org"].get(f"/g/{game}").text
