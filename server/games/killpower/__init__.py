"""Killpower Ball: leagues with their teams, power cards, results and championship table."""

from server.games.killpower.league import KILLPOWER_LEAGUE
from server.games.killpower.match import KILLPOWER_MATCH
from server.platform.kinds import register

register(KILLPOWER_LEAGUE)
register(KILLPOWER_MATCH)

from server.games.killpower import demo  # noqa: E402, F401  (registers the demo)
