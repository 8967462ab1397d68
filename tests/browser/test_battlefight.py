"""BattleFight on phones at 390 px: two players open their boosters, the organizer starts, each
plays from their own phone (a technique tapped, a cell tapped), the other phone and the public
board follow live; no page fails an accessibility check."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from server.platform.service import GameService
from tests.browser.conftest import assert_accessible, shot
from tests.browser.test_platform_flow import PHONE
from tests.helpers import key, viewer_of


def test_two_players_play_from_their_phones(browser: Browser, live_server: Any) -> None:
    service: GameService = live_server.app.state.service
    game, organizer = service.create_game("battlefight", "Duel", "Orga", idem_key=key())
    org = viewer_of(organizer)
    players = {
        name: service.register(game.id, org, "player", name, idem_key=key())
        for name in ("Léa", "Hugo")
    }

    def phone(url: str) -> Page:
        page = browser.new_context(**PHONE).new_page()
        page.goto(url)
        return page

    phones = {name: phone(f"{live_server.url}/t/{r.link.token}") for name, r in players.items()}
    console = phone(f"{live_server.url}/t/{organizer.link.token}")
    board = phone(f"{live_server.url}/g/{game.id}/board")
    for page in phones.values():
        expect(page.get_by_role("heading", name="Votre deck")).to_be_visible()
        page.get_by_role("button", name="Ouvrir mes boosters").tap()
        expect(page.get_by_text("Prêt : 20 cartes.")).to_be_visible()
    assert_accessible(phones["Léa"])
    expect(console.get_by_text("deck prêt")).to_have_count(2)  # live on the organizer's console
    assert_accessible(console)
    console.get_by_role("button", name="Lancer la partie").tap()
    expect(board.locator(".bf-board")).to_be_visible()

    state: Any = service.load(game.id).state
    first = state.table.seats[state.table.turn].name
    second = next(n for n in phones if n != first)
    mover, waiter = phones[first], phones[second]
    expect(mover.get_by_role("heading", name="À vous de choisir")).to_be_visible()
    expect(waiter.get_by_role("heading", name="À vous de choisir")).to_have_count(0)
    expect(waiter.locator(".bf-pending")).to_contain_text(first)
    assert_accessible(mover)
    # A move: the technique, then a cell of the board among those offered (highlighted).
    mover.get_by_role("button", name="Déplacement de base").tap()
    expect(mover.locator(".bf-cell.option")).to_have_count(4)  # a corner: itself and 3 cells
    cell = mover.locator("form.action button").nth(1).inner_text()
    mover.locator(f'.bf-cell[data-choose="{cell}"]').click()  # the cell itself, on the board
    expect(board.locator(".bf-pawn", has_text=first[:2])).to_be_visible()
    expect(board.locator(".bf-said")).to_contain_text(f"{first} va en {cell}")
    expect(waiter.get_by_role("heading", name="À vous de choisir")).to_be_visible()
    # The second draws a card: it shows on their phone only.
    waiter.get_by_role("button", name="Concentration de base").tap()
    expect(waiter.get_by_role("heading", name="Votre main (1)")).to_be_visible()
    card = service.load(game.id).state.table.seats  # type: ignore[attr-defined]
    drawn = next(s for s in card if s.name == second).hand[0]
    title = service.load(game.id).state.table.technique(drawn).title  # type: ignore[attr-defined]
    expect(waiter.locator("#bf-hand-title + ul")).to_contain_text(title)
    expect(mover.locator("#bf-hand-title + ul")).to_have_count(0)  # the mover's hand is empty
    expect(board.get_by_text("Main 1")).to_be_visible()  # the count, never the card
    shot(waiter, "battlefight-player")
    shot(board, "battlefight-board")
    assert_accessible(board)
    assert_accessible(waiter)
