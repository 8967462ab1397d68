"""Ready-made demo games, one per kind that offers one (`python -m server demo KIND`)."""

from __future__ import annotations

from collections.abc import Callable

from server.models import Game
from server.platform.service import GameService, Registered

DemoMaker = Callable[[GameService, str], tuple[Game, Registered]]
DEMOS: dict[str, DemoMaker] = {}


def demo(kind: str) -> Callable[[DemoMaker], DemoMaker]:
    def register(maker: DemoMaker) -> DemoMaker:
        DEMOS[kind] = maker
        return maker

    return register
