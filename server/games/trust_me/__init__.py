"""Trust Me (rule book 004, a prototype's rules): the table companion of a zombie-survival game
(see `kind.py` for the map of the package)."""

from server.games.trust_me.kind import TRUST_ME
from server.platform.kinds import register

register(TRUST_ME)

from server.games.trust_me import demo  # noqa: E402, F401  (registers the demo)
