"""Roi / Chevalier / Bourreau: the game master console, with secrets that never leak."""

from server.games.rcb.kind import RCB
from server.platform.kinds import register

register(RCB)

from server.games.rcb import demo  # noqa: E402, F401  (registers the demo)
