"""BattleFight (rule book 001, official rules v0.2): an arbiter that executes every technique
step by step (see `kind.py` for the map of the package)."""

from server.games.battlefight.kind import BATTLEFIGHT
from server.platform.kinds import register

register(BATTLEFIGHT)

from server.games.battlefight import demo  # noqa: E402, F401  (registers the demo)
