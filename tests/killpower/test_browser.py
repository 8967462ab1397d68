"""Killpower Ball leagues on phones: a coach joins by the invitation link, builds a team with the wizard, the owner records a
match, and the public ranking page shows it live; no page fails an accessibility check."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from server.games.killpower.demo import wizard
from server.platform.service import GameService
from tests.browser.kit import PHONE, answer_confirm, assert_accessible, shot
from tests.conftest import key, viewer_of
from tests.killpower.browser_kit import two_coach_match

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
    game, owner = service.create_game(
        "killpower_league", "Ligue du jeudi", "Camille", idem_key=key()
    )
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
    # Her own link first, with its QR code, to come back from any phone.
    expect(coach.get_by_role("heading", name="Bienvenue, Alix")).to_be_visible()
    expect(coach.get_by_role("img", name="QR code de votre lien")).to_be_visible()
    assert_accessible(coach)
    coach.get_by_role("link", name="Continuer").tap()
    expect(coach.get_by_role("heading", name="Créer une équipe")).to_be_visible()
    assert_accessible(coach)
    coach.get_by_label("Nom de l’équipe").fill("Nabos")
    for i in range(1, 8):
        coach.locator(f"#w-name-{i}").fill(f"Glad {i}")
        coach.locator(f"#w-spec-{i}").select_option(label=SPECIALIZATIONS[i - 1])
    coach.locator("#w-equip-1").select_option("armour")
    for i in range(2, 8):  # nothing is pre-chosen (issue 35, class A)
        coach.locator(f"#w-equip-{i}").select_option(index=1)
    coach.get_by_role("button", name="Créer l’équipe").tap()
    expect(coach.get_by_role("heading", name="Nabos · Alix")).to_be_visible()
    expect(coach.get_by_text("Bouclier 1").first).to_be_visible()
    assert_accessible(coach)
    shot(coach, "kpb-coach")

    board = phone(f"{live_server.url}/g/{game.id}/board")
    expect(board.get_by_role("row", name="Nabos")).to_be_visible()
    console = phone(f"{live_server.url}/t/{service.link_of(owner.person).token}")
    # Folded away on the owner's page, no team pre-chosen (issue 35): opened on purpose.
    expect(console.locator("#pick-a")).not_to_be_visible()
    console.locator("summary", has_text="Enregistrer un match terminé").tap()
    console.locator("#pick-a").select_option(label="Nabos")
    console.locator("#pick-b").select_option(label="Titanos")
    console.get_by_role("button", name="Choisir").tap()
    console.locator("#score-a").fill("3")
    console.locator("#score-b").fill("1")
    # How it ended is chosen too: the form starts on no ending (issue 35, class A).
    console.locator("#end-how").select_option(value="score")
    assert_accessible(console)
    console.get_by_role("button", name="Enregistrer le match et tirer les risques de mort").tap()
    expect(console.locator("#flash")).to_contain_text("Nabos : victoire")
    # The match recorded, the form folds away again with no team chosen: the next match is
    # another one (issue 35: it opened on the match just recorded).
    expect(console.locator("#score-a")).to_have_count(0)
    expect(console.locator("#pick-a")).to_have_value("")
    shot(console, "killpower-console")

    # The ranking page follows by itself: Nabos first with 3 points.
    first = board.locator("tbody tr").first
    expect(first).to_contain_text("Nabos")
    expect(first.locator("td").nth(1)).to_have_text("3")
    expect(board.get_by_text("Nabos 3 – 1 Titanos")).to_be_visible()
    assert_accessible(board)
    shot(board, "kpb-board")


def test_two_coach_phones_play_the_first_three_turns(browser: Browser, live_server: Any) -> None:
    """A self-refereed match: each coach on their own phone, each sees the other's moves live."""

    service: GameService = live_server.app.state.service
    league_id, coaches, match_id = two_coach_match(service)
    phones: dict[str, Page] = {}
    for name in ("Alix", "Basile"):
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{live_server.url}/t/{coaches[name].link.token}")
        page.goto(f"{live_server.url}/g/{league_id}/killpower/matches/{match_id}")
        expect(page.get_by_role("heading", name="Nabos – Titanos")).to_be_visible()
        phones[name] = page
    alix, basile = phones["Alix"], phones["Basile"]
    assert_accessible(alix)
    alix.get_by_role("group", name="Cartes bluff").locator("label").first.tap()  # none pre-chosen
    alix.get_by_role("button", name="Tous jouent").tap()  # none ticked for them (3.2)
    alix.get_by_role("button", name="Donner la composition").tap()
    expect(basile.get_by_text("Nabos · prêt")).to_be_visible()
    basile.get_by_role("group", name="Cartes bluff").locator("label").first.tap()  # none pre-chosen
    basile.get_by_role("button", name="Tous jouent").tap()  # none ticked for them (3.2)
    basile.get_by_role("button", name="Donner la composition").tap()
    for page in (alix, basile):
        expect(page.locator("[data-turn]")).to_have_text("Tour 20")
    side_of = {"A": alix, "B": basile}
    own_team = {"A": "Nabos", "B": "Titanos"}
    for turn in (20, 19, 18):
        state = service.load(match_id).state
        for phase in (1, 2):
            side = state.hand if phase == 1 else ("B" if state.hand == "A" else "A")
            mover, watcher = side_of[side], side_of["B" if side == "A" else "A"]
            expect(mover.get_by_text("Votre phase de déplacement")).to_be_visible()
            givers = mover.get_by_role("group", name="Donner le ballon à")
            if givers.count():  # a button a gladiator who may take it, none chosen for the coach
                givers.get_by_role("button").first.tap()
                expect(mover.locator(".chip.ball").first).to_have_text("ballon")
            if turn == 20:
                mover.get_by_role("button", name="Entrer").first.tap()
                # The other phone sees the gladiator on the field, live.
                team = watcher.locator(f"section:has(h2:has-text('{own_team[side]}'))").last
                expect(team.get_by_text("sur le terrain").first).to_be_visible()
            mover.get_by_role("button", name="Fin de la phase de déplacement").tap()
            state = service.load(match_id).state
        for page in (alix, basile):
            expect(page.locator(".killpower-now")).to_contain_text("phase 3")
        if turn == 20:
            assert_accessible(alix)
            shot(alix, "kpb-match")
        for page in (alix, basile):  # both have a gladiator on the field: both let it pass
            button = page.get_by_role("button", name="Nos autres gladiateurs ne font rien")
            expect(button).to_be_visible()
            button.tap()
            answer_confirm(page, accept=True)  # giving up the rest is asked first
            expect(button).to_be_hidden()
        for page in (alix, basile):
            expect(page.locator("[data-turn]")).to_have_text(f"Tour {turn - 1}")
    assert service.load(match_id).state.turn == 17
