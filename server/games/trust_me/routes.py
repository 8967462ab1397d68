"""Trust Me's own page: the box's data to download (public: passports, weapons, objects and the
objective cards are the printed game's, not who holds which)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from server.errors import NotFound
from server.games.trust_me.catalog import dump_box, dump_box_csv
from server.games.trust_me.state import TMState
from server.i18n import N_
from server.web.answers import download
from server.web.deps import PageViewerDep, ServiceDep

router = APIRouter(include_in_schema=False)


def box_of(service: Any, game_id: str) -> TMState:
    loaded = service.load(game_id)
    if loaded.game.kind != "trust_me":
        raise NotFound(N_("This game has no such page."))
    state = loaded.state
    assert isinstance(state, TMState)
    return state


@router.get("/g/{game_id}/trust_me/box.json")
def box_json(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    return download(dump_box(box_of(service, game_id).box), "application/json", "trust-me-box.json")


@router.get("/g/{game_id}/trust_me/box.csv")
def box_csv(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    body = dump_box_csv(box_of(service, game_id).box)
    return download(body, "text/csv; charset=utf-8", "trust-me-box.csv")
