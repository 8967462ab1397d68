"""The one place that changes games: load, check, apply the pure rules, append the event, commit.

Every write runs in one transaction that locks the game (BEGIN IMMEDIATE on SQLite, SELECT ...
FOR UPDATE on PostgreSQL), so actions on a game are serialized and the log and the stored state
can never disagree. Live phones are nudged only after the commit.

Small jobs over one store, each given the others it needs (composition, not a chain of
subclasses): `store` (the unit of work: the lock, the log, snapshots and the cache), `reads` (no
write), `replay` (rebuild and verify), `people` (games, people, links, invitations), `actions`
(perform, follow-ups, undo, the clock), `linked` (a match opened from its league), `moves` (a
game exported and imported; `replaying` replays an import). `inputs` checks text before any of
them. `GameService` is what routes, the clock and the tests hold: each job's public methods,
under one name.
"""

from __future__ import annotations

from server.db import Database
from server.platform.clock import Clock
from server.platform.dice import DiceSource
from server.platform.live import Broker
from server.platform.service.actions import Actions, Performed
from server.platform.service.linked import Linked
from server.platform.service.moves import Moves
from server.platform.service.people import People, Registered
from server.platform.service.reads import Loaded, Reads
from server.platform.service.replay import Replay
from server.platform.service.store import DICE_MODES, Publish, Store


class GameService:
    """The service's jobs, composed over one store; their public methods, under one name."""

    def __init__(
        self,
        db: Database,
        secret: str,
        clock: Clock,
        dice: DiceSource,
        broker: Broker,
        *,
        trusted_servers: str = "",
        publish: Publish | None = None,
    ) -> None:
        """`publish`: what hears of each commit (the broker's `publish` unless said)."""
        self.store = store = Store(db, secret, clock, dice, trusted_servers=trusted_servers)
        store.committed.subscribe(publish or broker.publish)
        self.db, self.clock, self.dice, self.broker = db, clock, dice, broker
        reads = self.reads = Reads(store)
        replay = self.replay = Replay(store)
        roster = self.roster = People(store)
        actions = self.actions = Actions(store, replay)
        linked = self.linked = Linked(store, reads, roster, actions)
        moves = self.moves = Moves(store, roster, replay)

        # Reading a game, its people and its log.
        self.load, self.seq_of, self.viewer = reads.load, reads.seq_of, reads.viewer
        self.person_by_token, self.person_by_code = reads.person_by_token, reads.person_by_code
        self.token_viewer = reads.token_viewer
        self.people, self.person, self.links_held = reads.people, reads.person, reads.links_held
        self.log, self.recent_summaries = reads.log, reads.recent_summaries
        self.step_lines = reads.step_lines
        self.last_undoable = reads.last_undoable
        self.undo_actor = reads.undo_actor
        # The log replayed.
        self.rebuild, self.verify = replay.rebuild, replay.verify
        self.state_at, self.steps = replay.state_at, replay.steps
        # Games, people and links.
        self.create_game, self.register = roster.create_game, roster.register
        self.invitation, self.set_invitation = roster.invitation, roster.set_invitation
        self.game_by_invitation = roster.game_by_invitation
        self.join_by_invitation = roster.join_by_invitation
        self.reissue, self.revoke, self.link_of = roster.reissue, roster.revoke, roster.link_of
        self.claim, self.ticket = roster.claim, roster.ticket
        # Actions.
        self.perform, self.answer, self.proposals = (
            actions.perform,
            actions.answer,
            actions.proposals,
        )
        self.undo, self.undo_asks, self.try_out = actions.undo, actions.undo_asks, actions.try_out
        self.subjects_of, self.replayed = actions.subjects_of, actions.replayed
        self.run_due, self.resend_followups = actions.run_due, actions.resend_followups
        # A game opened from another.
        self.open_linked, self.handoff = linked.open_linked, linked.handoff
        # Moved between servers.
        self.export_game, self.exports_in_clear = moves.export_game, moves.exports_in_clear
        self.new_ticket, self.import_game = moves.new_ticket, moves.import_game


__all__ = [
    "DICE_MODES",
    "Actions",
    "GameService",
    "Linked",
    "Loaded",
    "Moves",
    "People",
    "Performed",
    "Reads",
    "Registered",
    "Replay",
    "Store",
]
