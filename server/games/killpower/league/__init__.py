"""A Killpower Ball league: teams, power cards, matches and the championship table (see `kind.py`
for the map of the package)."""

from server.games.killpower.league.kind import KILLPOWER_LEAGUE, KillpowerLeague
from server.games.killpower.league.state import LeagueState
from server.games.killpower.league.views import public, sheet

__all__ = ["KILLPOWER_LEAGUE", "KillpowerLeague", "LeagueState", "public", "sheet"]
