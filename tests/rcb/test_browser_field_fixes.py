"""What a newcomer met at 390 px (issue 17), tapped through in Chromium, in Roi / Chevalier /
Bourreau: the people page keeps the role chosen and forgets an old success."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from server.platform.service import GameService
from tests.browser.kit import assert_accessible, opened
from tests.conftest import key


def test_the_people_page_keeps_the_role_and_forgets_an_old_success(
    browser: Browser, live_server: Any
) -> None:
    """Items 2 and 18: fighters were registered as team phones (twice); a refused name showed
    the previous success above the error."""
    service: GameService = live_server.app.state.service
    game, organizer = service.create_game("rcb", "Soirée", "Maître", idem_key=key())
    page = opened(browser, f"{live_server.url}/t/{service.link_of(organizer.person).token}")
    page.goto(f"{live_server.url}/g/{game.id}/people")
    expect(page.get_by_label("combattant", exact=True)).to_be_checked()
    page.get_by_label("Nom").fill("Alice")
    page.get_by_role("button", name="Inscrire").tap()
    expect(page.locator("#flash")).to_contain_text("Alice rejoint la partie.")
    expect(page.get_by_label("combattant", exact=True)).to_be_checked()
    page.get_by_label("téléphone d’équipe").check()
    page.get_by_label("Nom").fill("Table rouge")
    page.get_by_role("button", name="Inscrire").tap()
    expect(page.locator("#flash")).to_contain_text("Table rouge rejoint la partie.")
    page.reload()
    expect(page.get_by_label("téléphone d’équipe")).to_be_checked()  # the last choice, kept
    page.get_by_label("combattant", exact=True).check()
    page.get_by_label("Nom").fill("alice")
    page.get_by_role("button", name="Inscrire").tap()
    expect(page.get_by_text("Quelqu’un s’appelant « alice » est déjà inscrit.")).to_be_visible()
    expect(page.get_by_text("Table rouge rejoint la partie.")).to_have_count(0)
    assert_accessible(page)
