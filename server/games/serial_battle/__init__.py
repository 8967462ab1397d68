"""Serial Battle (outdoor): the referee console, from the deal to the last survivor."""

from server.games.serial_battle.kind import SERIAL_BATTLE
from server.platform.kinds import register

register(SERIAL_BATTLE)

from server.games.serial_battle import demo  # noqa: E402, F401  (registers the demo)
