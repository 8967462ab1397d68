"""What a newcomer met at 390 px (issue 17), tapped through in Chromium, in a Killpower Ball
league: the waiting match comes first, a phase ended with the ball in the side-line zone is
warned and asked, a surrender asks first."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from server.games.killpower.demo import wizard
from server.platform.service import GameService
from tests.browser.kit import answer_confirm, assert_accessible, live, opened, shot
from tests.conftest import key, viewer_of


def test_a_coach_sees_the_waiting_match_first_and_is_warned_before_an_expulsion(
    browser: Browser, live_server: Any
) -> None:
    """Items 3, 13, 14: the open match is a banner at the top of the coach's league page;
    ending a phase with the ball in the side-line zone is warned on the form and asked;
    surrendering asks first."""
    service: GameService = live_server.app.state.service
    league, owner = service.create_game("killpower_league", "Ligue", "Camille", idem_key=key())
    org = viewer_of(owner)
    coaches = {
        name: service.register(league.id, org, "coach", name, idem_key=key())
        for name in ("Alix", "Basile")
    }
    for name, team in (("Alix", "Nabos"), ("Basile", "Titanos")):
        service.perform(league.id, viewer_of(coaches[name]), wizard(team), idem_key=key())
    teams = {t.name: t.id for t in service.load(league.id).state.teams.values()}
    # Alix's league page is open when Basile opens the match: the banner comes by a push (a
    # newcomer had to reload for it, issue 54).
    alix = opened(browser, f"{live_server.url}/t/{coaches['Alix'].link.token}")
    live(alix)
    match_id = service.open_linked(
        league.id,
        viewer_of(coaches["Basile"]),
        {"team_a": teams["Titanos"], "team_b": teams["Nabos"], "mode": "self"},
        idem_key=key(),
    )
    banner = alix.get_by_role("heading", name="Votre match est ouvert")
    expect(banner).to_be_in_viewport()
    assert_accessible(alix)
    alix.get_by_role("link", name="Aller au match Titanos – Nabos").tap()
    expect(alix.get_by_role("heading", name="Titanos – Nabos")).to_be_visible()
    live(alix)
    basile = opened(browser, f"{live_server.url}/t/{coaches['Basile'].link.token}")
    basile.goto(f"{live_server.url}/g/{league.id}/killpower/matches/{match_id}")
    live(basile)
    alix.get_by_role("group", name="Cartes bluff").locator("label").first.tap()  # none pre-chosen
    alix.get_by_role("button", name="Tous jouent").tap()  # none ticked for them (3.2)
    alix.get_by_role("button", name="Donner la composition").tap()
    expect(basile.get_by_text("Nabos · prêt")).to_be_visible()
    basile.get_by_role("group", name="Cartes bluff").locator("label").first.tap()  # none pre-chosen
    basile.get_by_role("button", name="Tous jouent").tap()  # none ticked for them (3.2)
    basile.get_by_role("button", name="Donner la composition").tap()
    for page in (alix, basile):
        expect(page.locator("[data-turn]")).to_have_text("Tour 20")

    state = service.load(match_id).state
    mover = alix if state.hand == "B" else basile
    # A button a gladiator who may take it: one tap, none chosen for the coach.
    mover.get_by_role("group", name="Donner le ballon à").get_by_role("button").first.tap()
    warning = mover.get_by_role("alert").filter(has_text="La balle est encore en zone de touche")
    expect(warning).to_be_visible()
    mover.get_by_role("button", name="Fin de la phase de déplacement").tap()
    asked = answer_confirm(mover, accept=False)
    expect(warning).to_be_visible()
    assert "Terminer la phase quand même ?" in asked
    assert service.load(match_id).state.phase == 1  # nothing ended, nobody expelled

    mover.get_by_role("button", name="Abandonner").tap()
    assert answer_confirm(mover, accept=False) == "Abandonner le match ?"
    # Issue 50: a tap whose confirmation is declined is no action waiting: never listed as sent
    # without an answer, nor sent after a reload.
    kept = "Object.keys(localStorage).filter(k => k.startsWith('arbitre-queue'))"
    assert mover.evaluate(kept) == []
    expect(mover.locator("#conn")).to_be_hidden()
    assert service.load(match_id).state.stage == "running"
    shot(mover, "killpower-warning")
