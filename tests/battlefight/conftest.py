"""BattleFight's pages: who may open what (the authorization matrix `tests/test_authorization.py`
checks is complete)."""

from __future__ import annotations

from typing import Any

ROLES = ("org", "lea", "public", "stranger")


EVERYONE = set(ROLES)


# (method, route, concrete path, form, who may)
BF_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/g/{game_id}/battlefight/cards.json", "/g/{g}/battlefight/cards.json", None, EVERYONE),
    ("GET", "/g/{game_id}/battlefight/cards.csv", "/g/{g}/battlefight/cards.csv", None, EVERYONE),
]
