"""A change of a game, its live parts made once for all the phones that watch it (issue 21).

At a change, every page stream of the game wakes. The first one to ask starts one job for the
game at that change, on the live threads: the game is read once; its phones are grouped by
projection (`answers.projection`: the same page, role and copies of parts, hence the same part)
and language; the copies of parts are built once for all the groups, and each group's part is
fingerprinted once and rendered once, when one of its phones holds another one. Each stream then
takes its group's answer, an event made and compressed once for the group (`frames`):
"unchanged" with the fingerprint, or the part, which holds no one's secret: each page puts its
own cross-site token and idempotency keys where the part's marks say (`arbitre.js`).

A phone so costs a look-up and a write, not a read of the game and a render: a Serial Battle
assault renders its two players' parts, the staff's once and the board's once, whatever the
number of phones. A part is still its viewer's own projection, exactly as their refresh renders
it: phones share a render only when they share what they may see.

This process's phones only: with several server processes, each one makes its own phones'
parts (the nudge reaches it through the relay).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Hashable, MutableMapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio

from server import i18n
from server.errors import ArbitreError
from server.platform.kinds import PUBLIC, Viewer, project
from server.platform.service import GameService, Loaded
from server.web.answer_first import HeldNudges
from server.web.answers import projection
from server.web.frames import Frame
from server.web.parts import LiveParts, OneState

log = logging.getLogger("arbitre.stream")

# How long a job waits at most for the actions being answered: before it starts, on the event
# loop (`HeldNudges.calm`, holding no live thread), and after each slice of its work, on its
# thread (`HeldNudges.give_way`), so that an action answered meanwhile shares the processor with
# one slice at most. Before each projection instead, a Serial Battle change of 32
# phones waited up to 32 times while a busy server was always answering someone (`make bench`).
GIVE_WAY = 0.05
SLICE = 0.005


@dataclass(eq=False)
class Watcher:
    """A page's stream: who watches which page of which game, in which language, with which
    version of their link (None: the public's part, shown to anyone), and the fingerprint of the
    part their page holds (as far as this stream knows)."""

    game_id: str
    viewer: Viewer
    page: str
    language: str
    tag: str | None
    link: int | None = None


@dataclass(frozen=True)
class Shown:
    """One projection's live part at a change: its fingerprint, the event that says it is
    unchanged (`same`) and, when one of its phones needed it, the event that brings it
    (`part`: its HTML with marks where each phone puts its own cross-site token and keys),
    each compressed once for all the phones that get it."""

    seq: int
    tag: str
    status: str
    same: Frame
    part: Frame | None


class Revoked:
    """What a watcher is given once their link no longer opens the game: no part, the end."""


REVOKED = Revoked()

Made = dict[Watcher, Shown | Revoked | None]


@dataclass
class Job:
    """The parts of a game at one change, being made or made, for the watchers it was started
    with."""

    seq: int
    watchers: set[Watcher]
    task: asyncio.Future[tuple[int, Made]]


class Fanout:
    """The page streams of this process, by game, and the latest job of each game."""

    def __init__(
        self,
        service: GameService,
        parts: LiveParts,
        held: HeldNudges,
        limiter: anyio.CapacityLimiter,
        stats: MutableMapping[str, int],
    ) -> None:
        self.service, self.parts, self.held = service, parts, held
        self.limiter, self.stats = limiter, stats
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)
        self._jobs: dict[str, Job] = {}

    def watch(self, watcher: Watcher) -> None:
        self._watchers[watcher.game_id].add(watcher)

    def forget(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.game_id)
        if watchers is None:
            return
        watchers.discard(watcher)
        if not watchers:
            del self._watchers[watcher.game_id]
            self._jobs.pop(watcher.game_id, None)

    async def shown(self, watcher: Watcher, seq: int) -> Shown | Revoked | None:
        """This watcher's part at change `seq` or a later one; REVOKED when their link was revoked
        or re-issued (checked at every change, after the game is read: a change made after the
        revocation never reaches them, whatever the order their stream learns of the two); None
        when it cannot be said here (the page is not theirs, the game is gone, the job failed):
        their refresh says it."""
        job = self._jobs.get(watcher.game_id)
        if job is None or job.seq < seq:
            watchers = self._watchers.get(watcher.game_id, set()) | {watcher}
            job = self._start(watcher.game_id, seq, watchers)
            self._jobs[watcher.game_id] = job
        elif watcher not in job.watchers:  # a phone that came after the job began
            job = self._start(watcher.game_id, seq, {watcher})
        try:
            # Shielded: a phone that leaves does not cancel the others' parts.
            made_at, made = await asyncio.shield(job.task)
        except (
            Exception
        ):  # the game is gone, or the job failed (logged once): their refresh says it
            return None
        job.seq = max(job.seq, made_at)
        return made.get(watcher)

    def _start(self, game_id: str, seq: int, watchers: set[Watcher]) -> Job:
        task = asyncio.ensure_future(self._run(game_id, list(watchers)))
        task.add_done_callback(_log_failure)
        return Job(seq, set(watchers), task)

    async def _run(self, game_id: str, watchers: list[Watcher]) -> tuple[int, Made]:
        """A job: it gives way to the actions being answered before it takes a live thread
        (holding one while it waits kept every job behind it waiting too: a job took 40 ms of a
        thread for 8 ms of work at G = 200, `make bench`), then makes the parts on it."""
        await self.held.calm(GIVE_WAY)
        work = partial(self.make, game_id, watchers)
        return await anyio.to_thread.run_sync(work, limiter=self.limiter)

    def make(self, game_id: str, watchers: list[Watcher]) -> tuple[int, Made]:
        """The job itself (on a live thread): the game read once, each projection's part made
        once, each watcher given theirs."""
        loaded = self.service.load(game_id)
        # Read after the game: a link revoked before this state was written is seen revoked.
        held = self.service.links_held(
            game_id,
            {w.viewer.person_id for w in watchers if w.link is not None and w.viewer.person_id},
        )
        made: Made = {}
        by_language: dict[str, list[Watcher]] = defaultdict(list)
        for watcher in watchers:
            person_id = watcher.viewer.person_id
            if watcher.link is not None and (
                person_id is None or held.get(person_id) != watcher.link
            ):
                made[watcher] = REVOKED
            elif watcher.page != loaded.kind.page_for(watcher.viewer):
                made[watcher] = None  # not their page: their refresh says why
            else:
                by_language[watcher.language].append(watcher)
        for language, speaking in by_language.items():
            # Views may put words in the reader's language: each language builds its own.
            token = i18n.current_language.set(language)
            try:
                made.update(self._make_in(loaded, speaking, language))
            finally:
                i18n.current_language.reset(token)
        return loaded.game.seq, made

    def _make_in(self, loaded: Loaded, watchers: list[Watcher], language: str) -> Made:
        one = OneState()
        groups: dict[Hashable, list[Watcher]] = defaultdict(list)
        now = self.parts.clock.now()
        # Whose last action an undo would take back: a referee's undo button is their own.
        undo_actor = self.service.undo_actor(loaded.game.id)
        for watcher in watchers:
            copies = project(loaded.kind, loaded.state, watcher.viewer, now, one.built).copies
            shown = projection(loaded.kind, watcher.viewer, watcher.page, copies, undo_actor)
            groups[shown].append(watcher)
        made: Made = {}
        since = time.perf_counter()
        for members in groups.values():
            if time.perf_counter() - since > SLICE:
                self.held.give_way(GIVE_WAY)
                since = time.perf_counter()
            shown = self._render(loaded, members, language, one)
            for watcher in members:
                made[watcher] = shown
        return made

    def _render(
        self,
        loaded: Loaded,
        members: list[Watcher],
        language: str,
        one: OneState,
    ) -> Shown:
        """One projection's part (`LiveParts.make`, as a refresh makes it): fingerprinted, and
        rendered if one of its phones holds another one."""
        first = members[0]
        tags = {m.tag for m in members}
        held = next(iter(tags)) if len(tags) == 1 else None
        if first.page == "board" and first.viewer is PUBLIC:
            made = self.parts.board(loaded.game.id, language, loaded)
        else:
            made = self.parts.make(loaded, first.viewer, first.page, language, held=held, one=one)
        nudge = {"seq": made.seq, "now": made.now_ms, "tag": made.tag, "status": made.status}
        unchanged = sum(1 for m in members if m.tag == made.tag)
        self.stats["unchanged"] += unchanged
        part = None
        if unchanged < len(members) and made.html is not None and made.marks is not None:
            marks = {"csrf": made.marks.csrf, "keys": made.marks.keys}
            part = Frame.of("part", {**nudge, "marks": marks, "html": made.html}, made.seq)
            self.stats["bytes"] += len(part.packed) * (len(members) - unchanged)
        return Shown(made.seq, made.tag, made.status, Frame.of("changed", nudge, made.seq), part)


def _log_failure(task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, ArbitreError):
        log.error("making the live parts of a game failed", exc_info=error)
