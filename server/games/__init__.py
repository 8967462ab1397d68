"""The game kinds Arbitre referees; importing this package registers them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.games import battlefight, killpower, rcb, serial_battle, trust_me  # noqa: F401

if TYPE_CHECKING:
    from fastapi import APIRouter


def routers() -> list[APIRouter]:
    """The pages a game has of its own (a card catalogue, a team sheet), for the app to mount:
    the rules never import the web, the web imports the rules."""
    from server.games.battlefight.routes import router as battlefight_pages
    from server.games.killpower.routes import router as killpower_pages
    from server.games.serial_battle.routes import router as serial_battle_pages
    from server.games.trust_me.routes import router as trust_me_pages

    return [serial_battle_pages, killpower_pages, battlefight_pages, trust_me_pages]
