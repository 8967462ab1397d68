"""The event stream of a game: at each change, the new sequence number, and for a page's stream
the page's live part itself when it changed for this viewer (issue 21: one trip, not two).

A part is this stream's viewer's own projection, exactly as their refresh renders it, made and
compressed once for all the phones of the same projection (`server.web.fanout`,
`server.web.frames`); when what they see did not change, the nudge says so with the part's
fingerprint, and nothing is fetched. The stream is gzip-encoded for a client that takes it. The
board's stream is shown the public's part, whoever watches. An API stream (bearer token) gets
nudges only. A stream listens before its credentials are checked, checks them again whenever
links change, and ends at once for a revoked or re-issued link; a page's stream also ends at the
first change it is told of once its link is dead, whichever of the two it hears of first.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request

from server import i18n
from server.errors import ArbitreError, TooManyAttempts, Unavailable
from server.i18n import N_
from server.platform.kinds import PUBLIC, Viewer
from server.platform.limits import StreamBudget
from server.platform.live import Broker, Subscription
from server.platform.service import GameService
from server.web.deps import ApiCaller, ServiceDep, api_caller, session_links, session_viewer
from server.web.fanout import Revoked, Shown, Watcher
from server.web.frames import PING, Encoder, Frame, takes_gzip
from server.web.streaming import LiveStream

router = APIRouter(include_in_schema=False)

REVOKED_FRAME = Frame.of("revoked", "revoked")  # the last event of a stream whose link died
TOO_MANY_STREAMS = N_(
    "Too many live pages are open from your network or on this game: close one, or wait "
    "{seconds} s."
)
STREAM_RETRY_SECONDS = 10
SERVER_STOPPING = N_("The server is stopping: live updates come back once it runs again.")


@router.get("/g/{game_id}/events")
async def events(
    game_id: str,
    request: Request,
    service: ServiceDep,
    part: str | None = None,
    tag: str | None = None,
) -> LiveStream:
    broker: Broker = request.app.state.broker
    caller = await api_caller(request, game_id)
    budget: StreamBudget = request.app.state.streams
    address = request.client.host if request.client else "?"

    def opening() -> tuple[Viewer, int]:
        """Who watches (a bearer token, else this browser's link), and from which change: one
        trip to a worker thread."""
        if caller.token is not None:
            viewer = caller.viewer(service)
        else:
            viewer = session_viewer(request, game_id, service)
        return viewer, service.seq_of(game_id)

    # Subscribed before the credentials are checked: a link revoked before the check fails it,
    # one revoked after reaches this subscription (and the stream checks again). A stop that
    # came before is said; one that comes after ends this subscription with the others.
    if broker.stopping:
        raise Unavailable(SERVER_STOPPING)
    subscription = broker.subscribe(game_id, 0)
    try:
        viewer, current = await asyncio.to_thread(opening)
    except BaseException:
        broker.unsubscribe(subscription)
        raise
    # The version of the link this browser was let in with (its session says it, as checked a
    # moment ago): a link re-issued since is not taken for this one.
    held_link = session_links(request).get(game_id) if caller.token is None else None
    link = int(held_link[1]) if held_link and viewer.person_id is not None else None
    # A budget of streams per address, per game for the public's and per person for its people
    # (`STREAMS_PER_ADDRESS`, `STREAMS_PER_GAME`), given back when the stream ends.
    if not budget.open(address, game_id, viewer.person_id):
        broker.unsubscribe(subscription)
        raise TooManyAttempts(TOO_MANY_STREAMS, seconds=STREAM_RETRY_SECONDS)
    watching = Watching(
        request.app.state, service, caller, viewer, link, address, subscription, None
    )
    # From here, what the stream holds is given back by its events' `finally`, or here if
    # anything fails before they start (a budget slot kept by a stream that never was).
    try:
        subscription.latest = max(subscription.latest, current)
        if part is not None and caller.token is None and part != "people":
            language = i18n.current_language.get()
            short_tag = (tag or "")[:64] or None
            if part == "board":  # everyone's: whoever watches it is shown the public's part
                watching.watcher = Watcher(game_id, PUBLIC, part, language, short_tag)
            else:
                watching.watcher = Watcher(game_id, viewer, part[:40], language, short_tag, link)
            request.app.state.fanout.watch(watching.watcher)
        gzip = takes_gzip(request.headers.get("accept-encoding", ""))
        headers = {
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
            "Vary": "Accept-Encoding",
        }
        if gzip:
            headers["Content-Encoding"] = "gzip"
        # Nothing of ours awaits between here and the events' start (`LiveStream.__call__`
        # takes the first event before anything else).
        return LiveStream(
            watching.events(current, Encoder(gzip)), left=subscription.end, headers=headers
        )
    except BaseException:
        watching.let_go()
        raise


@dataclass(eq=False, slots=True)
class Watching:
    """A phone's stream once let in: what it holds, given back when it ends. One object rather
    than closures over a route's locals (a cell each): thousands are open at once, and a full
    garbage collection walks all they hold (`server.web.streaming`)."""

    state: Any  # the app's: its broker, budget of streams, fan-out, clock and settings
    service: GameService
    caller: ApiCaller
    viewer: Viewer
    link: int | None  # the version of the link the browser was let in with
    address: str
    subscription: Subscription
    watcher: Watcher | None  # a page's part, pushed at each change; None: nudges only

    async def events(self, current: int, encoder: Encoder) -> AsyncGenerator[bytes, None]:
        subscription, watcher, fanout = self.subscription, self.watcher, self.state.fanout
        ping_seconds = self.state.settings.sse_ping_seconds
        try:
            yield encoder.write(Frame.of("hello", {"seq": current, "now": self.now_ms()}, current))
            sent = current
            while True:
                woke = await subscription.wait(ping_seconds)
                if subscription.ended:  # the phone left, or the server stops
                    yield encoder.end()
                    return
                if subscription.access_changed:
                    subscription.access_changed = False
                    if not await asyncio.to_thread(self.opens):
                        yield encoder.write(REVOKED_FRAME) + encoder.end()
                        return
                if not woke:
                    yield encoder.write(PING)  # keeps proxies and phones from closing it
                elif subscription.latest > sent:
                    sent = subscription.latest
                    if watcher is None:
                        # The server's time rides along, so phones keep their countdowns right.
                        nudge = {"seq": sent, "now": self.now_ms()}
                        yield encoder.write(Frame.of("changed", nudge, sent))
                        continue
                    shown = await fanout.shown(watcher, sent)
                    if isinstance(shown, Revoked):
                        yield encoder.write(REVOKED_FRAME) + encoder.end()
                        return
                    frame = pushed(watcher, shown, sent, self.now_ms())
                    if shown is not None:
                        sent = max(sent, shown.seq)  # the part may be newer
                    yield encoder.write(frame)
        finally:
            self.let_go()

    def let_go(self) -> None:
        """What the stream holds given back: its subscription, its place in the budget, its
        part's watcher. By the route if the events never start, else by their end."""
        self.state.broker.unsubscribe(self.subscription)
        game_id = self.subscription.game_id
        self.state.streams.close(self.address, game_id, self.viewer.person_id)
        if self.watcher is not None:
            self.state.fanout.forget(self.watcher)

    def opens(self) -> bool:
        """Whether what let this stream in still opens the game as the same person (a worker
        thread: it reads the database)."""
        person_id = self.viewer.person_id
        if person_id is None:
            return True
        if self.caller.token is not None:
            try:
                return self.caller.viewer(self.service).person_id == person_id
            except ArbitreError:
                return False
        game_id = self.subscription.game_id
        return (
            self.link is not None and self.service.viewer(game_id, person_id, self.link) is not None
        )

    def now_ms(self) -> int:
        return int(self.state.clock.now().timestamp() * 1000)


def pushed(watcher: Watcher, shown: Shown | Revoked | None, seq: int, now: int) -> Frame:
    """What a page's stream says at a change: its part when it changed for its viewer; "changed"
    with the part's fingerprint when it did not (nothing to fetch); a bare "changed" when it
    cannot be said here (the page refreshes, and learns why). The first two are the same for
    every phone of the projection, made and compressed once."""
    if not isinstance(shown, Shown):
        return Frame.of("changed", {"seq": seq, "now": now}, seq)
    changed = shown.tag != watcher.tag
    watcher.tag = shown.tag
    if not changed or shown.part is None:
        return shown.same
    return shown.part
