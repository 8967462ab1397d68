"""Roi / Chevalier / Bourreau on phones: the game master runs three rounds; the public board and a
fighter's page follow live; no page fails an accessibility check."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, assert_accessible, shot
from tests.conftest import key, viewer_of


def test_a_game_master_runs_three_rounds(browser: Browser, live_server: Any) -> None:
    service: GameService = live_server.app.state.service
    game, organizer = service.create_game("rcb", "Soirée jeux", "Maître", idem_key=key())
    gm = viewer_of(organizer)
    ids = {}
    for n, team in enumerate("AAABBB"):
        name = f"{'Rouge' if team == 'A' else 'Bleu'} {n}"
        ids[name] = viewer_of(
            service.register(game.id, gm, "fighter", name, idem_key=key())
        ).person_id
        service.perform(
            game.id, gm, {"type": "assign", "person": ids[name], "team": team}, idem_key=key()
        )
    service.perform(
        game.id, gm, {"type": "team_names", "a": "Rouges", "b": "Bleus"}, idem_key=key()
    )

    def phone(url: str) -> Page:
        page = browser.new_context(**PHONE).new_page()
        page.goto(url)
        return page

    console = phone(f"{live_server.url}/t/{service.link_of(organizer.person).token}")
    assert_accessible(console)
    shot(console, "rcb-setup")
    console.get_by_role("button", name="Distribuer les cartes Personnage").tap()
    expect(console.get_by_role("button", name="« Choisissez votre combattant ! »")).to_be_visible()

    fighter = phone(
        f"{live_server.url}/t/{service.link_of(service.person(game.id, ids['Rouge 0'])).token}"
    )
    board = phone(f"{live_server.url}/g/{game.id}/board")
    for page in (fighter, board):
        expect(page.locator("#stream")).to_have_attribute("data-connected", "1")
    expect(fighter.get_by_text("Votre carte")).to_be_visible()
    assert_accessible(fighter)
    assert_accessible(board)

    for number in (1, 2, 3):
        console.get_by_role("button", name="« Choisissez votre combattant ! »").tap()
        expect(board.locator(".countdown")).to_be_visible()  # the designation countdown, live
        expect(console.locator(".countdown")).to_have_count(1)  # once on the console (issue 35)
        # Issue 54: a round is six taps for the game master. No fighter is pre-chosen (but a
        # team's only one left): a chip each, and the pair goes with the second.
        taps = 1  # the call
        picks = [
            console.get_by_role("group", name=team, exact=True) for team in ("Rouges", "Bleus")
        ]
        for pick in picks:
            chips = pick.locator(".segmented input")
            if chips.count() > 1:
                pick.locator(".segmented label").first.tap()
                taps += 1
        if taps == 1:  # both had one fighter left, already chosen: the button sends them
            console.get_by_role("button", name="Ces deux-là s’affrontent").tap()
            taps += 1
        expect(board.locator(".duel-now")).to_be_visible()
        console.locator("fieldset").filter(has_text="Rouges").get_by_text("2", exact=True).tap()
        console.locator("fieldset").filter(has_text="Bleus").locator("label").first.tap()
        taps += 2  # the stakes go with the second
        expect(console.get_by_role("heading", name="Le duel")).to_be_visible()
        if number == 1:
            assert_accessible(console)
            shot(console, "rcb-duel")
        console.get_by_role("button", name="Régler le duel : son perdant devient fantôme").tap()
        taps += 1
        expect(console.locator("#flash")).to_contain_text(f"Tour {number}")
        assert taps <= 6, taps
        # The board and the fighter's page show the outcome without a reload.
        expect(board.locator(".history li")).to_have_count(number)
        expect(fighter.locator(".history li")).to_have_count(number)
        state = service.load(game.id).state
        expect(board.locator("#bank")).to_have_text(str(state.bank))  # type: ignore[attr-defined]
        if state.phase == "finished":  # type: ignore[attr-defined]
            break
    shot(board, "rcb-board")
    shot(fighter, "rcb-fighter")
    assert_accessible(board)
    assert_accessible(fighter)
