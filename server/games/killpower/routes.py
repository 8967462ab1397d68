"""Killpower Ball's own pages: the league's power deck (import, export) and printable team sheets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from server.errors import ArbitreError, InvalidInput, NotAllowed, NotFound
from server.games.killpower.league import KILLPOWER_LEAGUE, sheet
from server.games.killpower.match import KILLPOWER_MATCH
from server.games.killpower.powers import dump_json_deck, parse_json_deck, sample_deck
from server.i18n import N_
from server.web.answers import download, page_context, refused
from server.web.deps import ClockDep, PageViewerDep, ServiceDep, TemplatesDep
from server.web.forms import idem_of, int_field, uploaded_text
from server.web.seats import take_seat

router = APIRouter(include_in_schema=False)


def league(service: Any, game_id: str) -> Any:
    loaded = service.load(game_id)
    if loaded.game.kind != KILLPOWER_LEAGUE.key:
        raise InvalidInput(N_("This page belongs to Killpower Ball leagues."))
    return loaded


@router.get("/g/{game_id}/killpower/deck")
def deck_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """The power cards, for the owner and the coaches (the deck is the league's box, not a
    secret; which gladiator holds which card is)."""
    loaded = league(service, game_id)
    if viewer.role == "public":
        raise NotAllowed(N_("This page is not yours."))
    page = KILLPOWER_LEAGUE.page_for(viewer)
    context = page_context(service, clock, loaded, viewer, page, hx_block=None)
    return templates.response(request, "killpower_league/deck.html", context)


@router.post("/g/{game_id}/killpower/deck")
async def import_deck(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """Replaces the power deck by a JSON one (pasted or uploaded), or by the sample deck."""
    if not viewer.is_organizer:
        raise NotAllowed(N_("Only the organizer can open this page."))
    form = await request.form()
    loaded = league(service, game_id)
    try:
        deck = sample_deck() if form.get("sample") else parse_json_deck(await uploaded_text(form))
        service.perform(
            game_id,
            viewer,
            {"type": "deck", "deck": deck.model_dump(mode="json")},
            idem_key=idem_of(form),
            seen_seq=int_field(form, "seq"),
        )
    except ArbitreError as error:
        return refused(
            request,
            templates,
            service,
            clock,
            loaded,
            viewer,
            error,
            page="staff",
            template="killpower_league/deck.html",
            field="deck",
            form={"text": form.get("text") or ""},
        )
    return RedirectResponse(f"/g/{game_id}/killpower/deck", status_code=303)


@router.get("/g/{game_id}/killpower/deck.json")
def export_deck(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    if viewer.role == "public":
        raise NotAllowed(N_("This page is not yours."))
    loaded = league(service, game_id)
    return download(dump_json_deck(loaded.state.deck), "application/json", "powers.json")


@router.get("/g/{game_id}/killpower/team/{team_id}")
def team_sheet(
    game_id: str,
    team_id: int,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """The printable team sheet (A4): for its coach and the staff."""
    loaded = league(service, game_id)
    team = loaded.state.teams.get(str(team_id))
    if team is None:
        raise NotFound(N_("No such team."))
    if not viewer.is_staff and team.coach != viewer.person_id:
        raise NotAllowed(N_("This team belongs to another coach."))
    page = KILLPOWER_LEAGUE.page_for(viewer)
    context = page_context(service, clock, loaded, viewer, page, hx_block=None)
    context["t"] = sheet(loaded.state, team)
    return templates.response(request, "killpower_league/sheet.html", context)


# ---------------------------------------------------------------------- matches with the live sheet


@router.post("/g/{game_id}/killpower/match")
async def open_match(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """Opens a match between two teams of the league: a game of its own holding both teams as
    they are now, one link per coach (and the organizer's, for a referee), then the coach who
    opened it goes straight to it."""
    form = await request.form()
    league(service, game_id)
    if viewer.role == "public":
        raise NotAllowed(N_("This page is not yours."))
    try:
        team_a, team_b = int_field(form, "team_a"), int_field(form, "team_b")
        request_ = {
            "team_a": team_a,
            "team_b": team_b,
            "mode": form.get("mode") or "self",
            "board": form.get("board") == "1",
        }
        match_id = service.open_linked(game_id, viewer, request_, idem_key=idem_of(form))
    except ArbitreError as error:
        return refused(request, templates, service, clock, service.load(game_id), viewer, error)
    return RedirectResponse(f"/g/{game_id}/killpower/matches/{match_id}", status_code=303)


@router.get("/g/{game_id}/killpower/matches/{match_id}")
def go_to_match(
    game_id: str, match_id: str, request: Request, viewer: PageViewerDep, service: ServiceDep
) -> Response:
    """From the league to the match: a coach of one of its teams arrives as that coach, the
    league's staff as the match's organizer, each by that person's own link; anyone else watches
    the board. Who is whom was recorded by the platform when it opened the match."""
    league(service, game_id)
    link = service.handoff(game_id, viewer, match_id)
    if link is None:
        return RedirectResponse(f"/g/{match_id}/board", status_code=303)
    # Their seat in the match, taken by this browser (its ticket never travels: issue 51).
    return take_seat(request, service, token=link.token)


@router.post("/g/{game_id}/killpower/resend")
async def resend_result(
    game_id: str, request: Request, viewer: PageViewerDep, service: ServiceDep
) -> Response:
    """Sends a finished match's result to its league again (after the league refused it)."""
    service.resend_followups(game_id, viewer)
    return RedirectResponse(f"/g/{game_id}", status_code=303)


@router.get("/g/{game_id}/killpower/sheet")
def match_sheet(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """The referee sheet, printable (3.4: kept with the league's matches)."""
    loaded = service.load(game_id)
    if loaded.game.kind != KILLPOWER_MATCH.key:
        raise InvalidInput(N_("This page belongs to Killpower Ball matches."))
    page = KILLPOWER_MATCH.page_for(viewer)
    context = page_context(service, clock, loaded, viewer, page, hx_block=None)
    context["log"] = service.log(game_id, viewer)
    return templates.response(request, "killpower_match/sheet.html", context)
