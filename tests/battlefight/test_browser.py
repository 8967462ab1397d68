"""BattleFight on phones at 390 px: two players open their boosters, the organizer starts, each
plays from their own phone (a technique tapped, a cell tapped), the other phone and the public
board follow live; no page fails an accessibility check."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from server.platform.service import GameService
from tests.browser.kit import PHONE, assert_accessible, shot
from tests.conftest import key, viewer_of


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


def test_the_organizer_runs_a_table_of_physical_cards(browser: Browser, live_server: Any) -> None:
    """One phone at the table: the organizer types each deck (the count of each type said as it is
    typed), starts, then enters the card a player drew and the cell another moves to; the public
    board follows; the hands show on the console only."""
    service: GameService = live_server.app.state.service
    game, organizer = service.create_game(
        "battlefight", "Table", "Orga", idem_key=key(), settings={"cards": "table"}
    )
    org = viewer_of(organizer)
    for name in ("Léa", "Hugo"):
        service.register(game.id, org, "player", name, idem_key=key())
    console = browser.new_context(**PHONE).new_page()
    console.goto(f"{live_server.url}/t/{organizer.link.token}")
    board = browser.new_context(**PHONE).new_page()
    board.goto(f"{live_server.url}/g/{game.id}/board")
    state: Any = service.load(game.id).state
    for name in ("Léa", "Hugo"):
        # the first player without a deck is open; the others, a tap away
        expect(console.locator("details[open] summary")).to_contain_text(name)
        form = console.locator("details", has_text=name).locator("form")
        kinds = ("attack", "defence", "movement", "concentration", "rhetoric")
        firsts = [next(t for t in state.collection if t.type == kind) for kind in kinds]
        counts = form.locator("[data-deck-count]")
        if name == "Léa":  # typed
            for card in firsts:
                form.locator(f'input[name="count_{card.key}"]').fill("3")
        else:  # a card a tap, with the − and + beside each count
            for card in firsts:
                for _ in range(3):
                    form.get_by_role("button", name=f"Une carte {card.title} de plus").tap()
            first = form.locator(f'input[name="count_{firsts[0].key}"]')
            expect(first).to_have_value("3")
            form.get_by_role("button", name=f"Une carte {firsts[0].title} de moins").tap()
            expect(counts.first).to_have_text("2")
            form.get_by_role("button", name=f"Une carte {firsts[0].title} de plus").tap()
            shot(console, "bf-deck-form")
        expect(counts.first).to_have_text("3")
        expect(counts.first).to_have_class("off")  # 3 of 4: said wrong before it is sent
        for card in firsts:
            form.locator(f'input[name="count_{card.key}"]').fill("4")
        expect(counts.first).to_have_text("4")
        form.get_by_role("button", name=f"Enregistrer le deck de {name}").tap()
        expect(console.locator("summary", has_text=name)).to_contain_text("deck prêt")
    assert_accessible(console)
    console.get_by_role("button", name="Lancer la partie").tap()
    expect(console.locator("#bf-choice-title")).to_contain_text("saisissez son choix")
    table: Any = service.load(game.id).state.table  # type: ignore[attr-defined]
    first = table.seats[table.turn].name
    expect(
        console.get_by_role("heading", name=f"Au tour de {first} : saisissez son choix")
    ).to_be_visible()
    console.get_by_role("button", name="Concentration de base").tap()
    # The pile holds five different cards: the organizer taps the one drawn on the table.
    expect(console.locator(".decision p").first).to_contain_text(
        f"{first} pioche une carte : laquelle ?"
    )
    assert_accessible(console)
    attack = next(t for t in state.collection if t.type == "attack")
    console.get_by_role("button", name=attack.title, exact=False).first.tap()
    expect(console.locator("#bf-hands-title + ul")).to_contain_text(attack.title)
    expect(board.get_by_text("Main 1")).to_be_visible()
    expect(board.locator("body")).not_to_contain_text(attack.title)  # the card, on the console only
    second = next(n for n in ("Léa", "Hugo") if n != first)
    expect(
        console.get_by_role("heading", name=f"Au tour de {second} : saisissez son choix")
    ).to_be_visible()
    console.get_by_role("button", name="Déplacement de base").tap()
    expect(console.locator(".bf-cell.option")).to_have_count(4)  # a corner: itself and 3 cells
    cell = console.locator(".decision form.action button").nth(1).inner_text()
    console.locator(f'.bf-cell[data-choose="{cell}"]').click()
    expect(board.locator(".bf-said")).to_contain_text(f"{second} va en {cell}")
    assert_accessible(board)
    shot(console, "battlefight-table-console")
