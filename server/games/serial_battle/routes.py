"""Serial Battle's own pages: the assault builder, the card catalogue, ammunition cards."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from server.errors import ArbitreError, InvalidInput, NotAllowed
from server.games.serial_battle.catalog import (
    dump_csv_deck,
    dump_json_deck,
    parse_csv_deck,
    parse_json_deck,
    sample_deck,
)
from server.i18n import N_
from server.platform.kinds import Viewer
from server.web.answers import download, page_context, refused
from server.web.deps import ClockDep, PageViewerDep, ServiceDep, TemplatesDep
from server.web.forms import idem_of, int_field, uploaded_text
from server.web.templating import is_htmx

router = APIRouter(include_in_schema=False)


def staff_only(viewer: Viewer) -> None:
    if not viewer.is_staff:
        raise NotAllowed(N_("Only referees can open this page."))


def serial_battle_game(service: Any, game_id: str) -> Any:
    loaded = service.load(game_id)
    if loaded.game.kind != "serial_battle":
        raise InvalidInput(N_("This page belongs to Serial Battle games."))
    return loaded


@router.get("/g/{game_id}/serial_battle/assault")
def assault_builder(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """Step by step: the two players first, then their cards on one screen."""
    staff_only(viewer)
    loaded = serial_battle_game(service, game_id)
    context = page_context(service, clock, loaded, viewer, "staff", query=request.query_params)
    if not is_htmx(request):
        return RedirectResponse(f"/g/{game_id}?{request.url.query}", status_code=303)
    return templates.response(request, "serial_battle/staff.html", context, block="assault")


@router.get("/g/{game_id}/serial_battle/deck")
def deck_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    staff_only(viewer)
    loaded = serial_battle_game(service, game_id)
    context = page_context(service, clock, loaded, viewer, "staff", hx_block=None)
    return templates.response(request, "serial_battle/deck.html", context)


@router.post("/g/{game_id}/serial_battle/deck")
async def import_deck(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """Replaces the deck by a JSON or CSV one (pasted or uploaded), or by the sample deck."""
    staff_only(viewer)
    form = await request.form()
    loaded = serial_battle_game(service, game_id)
    try:
        if form.get("sample"):
            cards, sample = sample_deck(), True
        else:
            text = await uploaded_text(form)
            stripped = text.lstrip("\ufeff \n\t")
            cards = parse_json_deck(text) if stripped[:1] in "[{" else parse_csv_deck(text)
            sample = False
        service.perform(
            game_id,
            viewer,
            {"type": "deck", "cards": [c.model_dump(mode="json") for c in cards], "sample": sample},
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
            template="serial_battle/deck.html",
            field="deck",
            form={"text": form.get("text") or ""},
        )
    return RedirectResponse(f"/g/{game_id}/serial_battle/deck", status_code=303)


@router.get("/g/{game_id}/serial_battle/deck.json")
def export_json(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    staff_only(viewer)
    loaded = serial_battle_game(service, game_id)
    return download(
        dump_json_deck(loaded.state.deck), "application/json", "serial-battle-deck.json"
    )


@router.get("/g/{game_id}/serial_battle/deck.csv")
def export_csv(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    staff_only(viewer)
    loaded = serial_battle_game(service, game_id)
    return download(
        dump_csv_deck(loaded.state.deck), "text/csv; charset=utf-8", "serial-battle-deck.csv"
    )


@router.get("/g/{game_id}/serial_battle/ammo")
def ammunition_cards(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
) -> Response:
    """Printable ammunition cards (Munition, à photocopier): one per counted weapon."""
    staff_only(viewer)
    loaded = serial_battle_game(service, game_id)
    context = page_context(service, clock, loaded, viewer, "staff", hx_block=None)
    context["key"] = uuid.uuid4().hex
    return templates.response(request, "serial_battle/ammo.html", context)
