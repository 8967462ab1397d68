"""Killpower Ball: leagues with their teams, power cards, results and championship table."""

from server.games.killpower.league import KILLPOWER_LEAGUE
from server.platform.kinds import register

register(KILLPOWER_LEAGUE)

from server.games.killpower import demo  # noqa: E402, F401  (registers the demo)
