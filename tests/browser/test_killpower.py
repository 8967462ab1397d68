"""Killpower Ball leagues on phones: a coach joins by the invitation link, builds a team with the wizard, the owner records a
match, and the public ranking page shows it live; no page fails an accessibility check."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from server.games.killpower.demo import wizard
from server.platform.service import GameService
from tests.browser.conftest import assert_accessible, shot
from tests.browser.test_platform_flow import PHONE
from tests.helpers import key, viewer_of

SPECIALIZATIONS = [
    "Archer (+1 HAB)",
    "Défenseur (+1 VIE)",
    "Guerrier (+1 PHY)",
    "Mentor (+1 POU)",
    "Tireur (+1 BAL)",
    "Guerrier (+1 PHY)",
    "Défenseur (+1 VIE)",
]


def test_a_coach_creates_a_team_and_the_ranking_shows_a_match(
    browser: Browser, live_server: Any
) -> None:
    service: GameService = live_server.app.state.service
    game, owner = service.create_game("kpb_league", "Ligue du jeudi", "Camille", idem_key=key())
    org = viewer_of(owner)
    service.set_invitation(game.id, org, open_it=True)
    invitation = service.invitation(service.load(game.id).game)
    basile = viewer_of(service.register(game.id, org, "coach", "Basile", idem_key=key()))
    service.perform(game.id, basile, wizard("Titanos"), idem_key=key())

    def phone(url: str) -> Page:
        page = browser.new_context(**PHONE).new_page()
        page.goto(url)
        return page

    # Alix joins by the league's invitation link, and lands on the wizard.
    coach = phone(f"{live_server.url}/g/{game.id}/join/{invitation}")
    assert_accessible(coach)
    coach.get_by_label("Votre nom").fill("Alix")
    coach.get_by_role("button", name="Rejoindre").tap()
    expect(coach.get_by_role("heading", name="Créer une équipe")).to_be_visible()
    assert_accessible(coach)
    coach.get_by_label("Nom de l’équipe").fill("Nabos")
    for i in range(1, 8):
        coach.locator(f"#w-name-{i}").fill(f"Glad {i}")
        coach.locator(f"#w-spec-{i}").select_option(label=SPECIALIZATIONS[i - 1])
    coach.locator("#w-equip-1").select_option("armour")
    coach.get_by_role("button", name="Créer l’équipe").tap()
    expect(coach.get_by_role("heading", name="Nabos · Alix")).to_be_visible()
    expect(coach.get_by_text("Bouclier 1").first).to_be_visible()
    assert_accessible(coach)
    shot(coach, "kpb-coach")

    board = phone(f"{live_server.url}/g/{game.id}/board")
    expect(board.get_by_role("row", name="Nabos")).to_be_visible()
    console = phone(f"{live_server.url}/t/{service.link_of(owner.person).token}")
    expect(console.get_by_role("heading", name="Enregistrer un match terminé")).to_be_visible()
    console.locator("#pick-a").select_option(label="Nabos")
    console.locator("#pick-b").select_option(label="Titanos")
    console.get_by_role("button", name="Choisir").tap()
    console.locator("#score-a").fill("3")
    console.locator("#score-b").fill("1")
    assert_accessible(console)
    console.get_by_role("button", name="Enregistrer le match et tirer les risques de mort").tap()
    expect(console.locator("#flash")).to_contain_text("Nabos : gagné")
    expect(console.locator("#score-a")).to_have_value("0")  # a fresh sheet for the next match
    shot(console, "kpb-console")

    # The ranking page follows by itself: Nabos first with 3 points.
    first = board.locator("tbody tr").first
    expect(first).to_contain_text("Nabos", timeout=5000)
    expect(first.locator("td").nth(1)).to_have_text("3")
    expect(board.get_by_text("Nabos 3 – 1 Titanos")).to_be_visible()
    assert_accessible(board)
    shot(board, "kpb-board")
