"""A Killpower Ball match: the referee sheet, live (see `kind.py` for the map of the package)."""

from server.games.killpower.match.kind import KILLPOWER_MATCH, KillpowerMatch
from server.games.killpower.match.state import MatchSettings, MatchState, roster_of

__all__ = ["KILLPOWER_MATCH", "KillpowerMatch", "MatchSettings", "MatchState", "roster_of"]
