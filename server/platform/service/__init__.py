"""The one place that changes games: load, check, apply the pure rules, append the event, commit.

Every write runs in one transaction that locks the game (BEGIN IMMEDIATE on SQLite, SELECT ...
FOR UPDATE on PostgreSQL), so actions on a game are serialized and the log and the stored state
can never disagree. Live phones are nudged only after the commit.

Split by job, each module one layer on the one below: `store` (the lock, the log, snapshots and
the cache), `reads` (no write), `replay` (rebuild and verify), `people` (games, people, links,
invitations), `actions` (perform, follow-ups, undo, the clock), `linked` (a match opened from its
league), `moves` (a game exported and imported). `inputs` checks text before any of them.
"""

from server.platform.service.actions import Performed
from server.platform.service.moves import Moves
from server.platform.service.people import Registered
from server.platform.service.reads import Loaded
from server.platform.service.store import DICE_MODES


class GameService(Moves):
    """Every job of the service on one object: what routes, the clock and the tests hold."""


__all__ = ["DICE_MODES", "GameService", "Loaded", "Performed", "Registered"]
