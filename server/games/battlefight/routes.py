"""BattleFight's own pages: the collection's cards to download, as JSON or CSV (the collection is
public: everyone at the table reads the cards)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from server.errors import NotFound
from server.games.battlefight.decks import dump_collection, dump_collection_csv
from server.i18n import N_
from server.web.answers import download
from server.web.deps import PageViewerDep, ServiceDep

router = APIRouter(include_in_schema=False)


def battlefight_game(service: Any, game_id: str) -> Any:
    loaded = service.load(game_id)
    if loaded.game.kind != "battlefight":
        raise NotFound(N_("This game has no such page."))
    return loaded


@router.get("/g/{game_id}/battlefight/cards.json")
def cards_json(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    state = battlefight_game(service, game_id).state
    body = dump_collection(state.collection, sample=state.sample)
    return download(body, "application/json", "battlefight-cards.json")


@router.get("/g/{game_id}/battlefight/cards.csv")
def cards_csv(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    state = battlefight_game(service, game_id).state
    return download(
        dump_collection_csv(state.collection), "text/csv; charset=utf-8", "battlefight-cards.csv"
    )
