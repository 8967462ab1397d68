"""A game's live part: made in this one place for the three ways it leaves the server (issue 32).

A page shows its viewer's live part; it is asked again by the page (the refresh, `/live/{page}`),
pushed on the page's stream at a change (`server.web.fanout`, once for every phone of the same
projection), and, for the public's board, kept once a change and language for every phone that
watches it. All three take it from `LiveParts.make`: the viewer's projection
(`answers.page_context`), its fingerprint (`answers.live_tag`) and, when the phone does not hold
it already, its HTML, rendered with marks where each phone's own cross-site token and form keys
go. A refresh fills the marks at once (`Part.filled`); a pushed part carries them, and the page
fills them (`arbitre.js`). So a viewer's part is the same bytes whichever way it reached them
(`tests/test_fanout.py` holds it for every scene, viewer and language).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from starlette.datastructures import QueryParams

from server import i18n
from server.errors import NotAllowed
from server.i18n import N_
from server.platform.kinds import PUBLIC, Built, GameKind, Viewer, personal_parts
from server.platform.service import GameService, Loaded
from server.web.answers import Digests, live_tag, page_context, shared_tag
from server.web.templating import Marks, Templates, key_base, shared_context

NOT_YOURS = N_("This page is not yours.")


@dataclass(frozen=True)
class Rest:
    """A live part outside its kind's personal block, rendered once for the viewers who share
    it: its HTML with `stand_in` where each viewer's own block goes (None: it cannot be made
    so, each of them is rendered whole), and its marks."""

    html: str | None
    marks: Marks
    stand_in: str


@dataclass
class OneState:
    """What the live parts of one state, made for many viewers, share: the copies of parts
    built, their fingerprints, and the rests of parts around a personal block, by shared
    fingerprint (`answers.shared_tag`)."""

    built: Built = field(default_factory=dict)
    digests: Digests = field(default_factory=dict)
    rests: dict[str, Rest] = field(default_factory=dict)


class NotApart(Exception):
    """What stops a part being made apart: its personal block asks for a form's key (they
    count through the whole part), or the rest reads what is withheld from it."""


def no_form() -> NoReturn:
    """A form's key asked for in a personal block."""
    raise NotApart


class Withheld:
    """What a viewer's parts of scope "person" hold, as the rest of their part sees it: there
    (a template may ask whether it is), never read: reading it fails the rest, and the part is
    rendered whole."""

    def __bool__(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # Python's own protocols (copies, pickles): not there
            raise AttributeError(name)
        raise NotApart

    def __getitem__(self, key: Any) -> Any:
        raise NotApart

    def __iter__(self) -> Any:
        raise NotApart

    def __str__(self) -> str:
        raise NotApart

    __html__ = __str__


WITHHELD = Withheld()


def withheld(kind: GameKind[Any], context: dict[str, Any]) -> dict[str, Any]:
    """The context the rest of a part is rendered from, for all who share it: the viewer by
    their role alone, and the keys of their parts of scope "person" withheld (`Withheld`).
    The rest cannot show one viewer's own to another: a template that reads them outside the
    personal block has its parts rendered whole, and one that shows the viewer's name there
    differs from their refresh (`tests/test_fanout.py`)."""
    personal = personal_parts(kind)
    shown = context["shown"]
    keys = {
        key
        for (name, _), made in zip(shown.copies, shown.made, strict=True)
        if name in personal
        for key in made
    }
    view = {key: WITHHELD if key in keys else value for key, value in context["view"].items()}
    return {**context, "view": view, "viewer": Viewer(context["viewer"].role), "shown": None}


@dataclass(frozen=True)
class Part:
    """A viewer's live part at a sequence number: its fingerprint, the game's status and the
    server's time (phones keep their countdowns by it), and its HTML with `marks` unless the
    phone held this part already."""

    seq: int
    tag: str
    status: str
    now_ms: int
    html: str | None = None
    marks: Marks | None = None

    def filled(self, csrf: str, keys: str | None = None) -> bytes:
        """The part as one phone holds it: its own cross-site token and a base of its own for
        its forms' idempotency keys where the marks are (what `arbitre.js` does)."""
        if self.html is None or self.marks is None:
            raise ValueError("an unchanged part has no HTML")
        keys = keys or key_base()
        return self.html.replace(self.marks.csrf, csrf).replace(self.marks.keys, keys).encode()


class LiveParts:
    """Makes live parts, and keeps the public board's newest one of each game and language."""

    def __init__(
        self,
        service: GameService,
        templates: Templates,
        clock: Any,
        stats: MutableMapping[str, int],
    ) -> None:
        self.service, self.templates, self.clock, self.stats = service, templates, clock, stats
        self.boards = SharedRenders()
        self.answered = SharedRenders()  # the part each game's last action answered with

    def make(
        self,
        loaded: Loaded,
        viewer: Viewer,
        page: str,
        language: str,
        *,
        held: str | None = None,
        one: OneState | None = None,
        query: QueryParams | None = None,
    ) -> Part:
        """`viewer`'s live part `page` of the game as `loaded`, in `language`; its HTML unless
        `held` is its fingerprint. `one`: what the parts already made of this state share (a
        change's parts, made for many phones). `query`: the page's address, as far as the part
        reads it (`GameKind.page_query`: a half-made action the phone keeps)."""
        extra = {"query": query} if query else None
        return self._made(loaded, viewer, page, language, held, one, extra)[0]

    def answer(
        self,
        loaded: Loaded,
        viewer: Viewer,
        page: str,
        language: str,
        query: QueryParams | None = None,
        **extra: Any,
    ) -> tuple[Part, dict[str, Any]]:
        """An action's answer: its sender's part, kept for the fan-out that follows it (the
        phones of the same projection get this render, not another one of the same bytes: a
        Serial Battle console is 100 KiB of HTML), and the page's context with `extra` (the
        action's sentence), for what the answer adds out of band (issue 38). `query`: the
        sender's page's address, its half-made action kept (then the part is theirs alone)."""
        if query:
            extra = {**extra, "query": query}
        part, context = self._made(loaded, viewer, page, language, None, None, extra)
        if not query:
            self.answered.keep(loaded.game.id, language, part)
        return part, context

    def _made(
        self,
        loaded: Loaded,
        viewer: Viewer,
        page: str,
        language: str,
        held: str | None,
        one: OneState | None,
        extra: dict[str, Any] | None = None,
    ) -> tuple[Part, dict[str, Any]]:
        if page != loaded.kind.page_for(viewer):
            raise NotAllowed(NOT_YOURS)
        built, digests = (one.built, one.digests) if one is not None else (None, None)
        token = i18n.current_language.set(language)
        try:
            context = page_context(
                self.service, self.clock, loaded, viewer, page, built=built, **(extra or {})
            )
            tag = live_tag(context, digests)
            game = loaded.game
            part = Part(game.seq, tag, game.status, context["now_ms"])
            if held == tag:
                return part, context
            answered = self.answered.get(game.id, language, game.seq)
            if answered is not None and answered.tag == tag:  # the same bytes, made for the
                self.stats["reused"] += 1  # answer of the action this change is
                return answered, context
            where = f"/g/{game.id}/board" if page == "board" else f"/g/{game.id}"
            made = self._apart(loaded, context, language, where, one) if one is not None else None
            if made is None:
                marks = Marks.fresh()
                shared = {**shared_context(language, where, marks), **context}
                made = self.templates.render(loaded.kind.template(page), shared, "live"), marks
        finally:
            i18n.current_language.reset(token)
        self.stats["rendered"] += 1
        return Part(part.seq, tag, part.status, part.now_ms, *made), context

    def _apart(
        self, loaded: Loaded, context: dict[str, Any], language: str, where: str, one: OneState
    ) -> tuple[str, Marks] | None:
        """The part as the rest shared by the viewers who differ only in the kind's personal
        block (rendered once for them all, from what they share: `withheld`) with this
        viewer's own block put in; None when it cannot be made so: the kind has no such block,
        the rest reads what is withheld from it or does not hold the block once, or the block
        asks for a form's key."""
        kind, page = loaded.kind, context["page"]
        block = kind.personal_block
        if block is None:
            return None
        shared = shared_tag(kind, context, one.digests)
        if shared is None:
            return None
        template = kind.template(page)
        rest = one.rests.get(shared)
        if rest is None:
            marks, stand_in = Marks.fresh(), "apart" + secrets.token_hex(16)
            around = {**shared_context(language, where, marks), **withheld(kind, context)}
            html: str | None
            try:
                html = self.templates.render_apart(template, around, "live", block, stand_in)
            except NotApart:
                html = None
            if html is not None and html.count(stand_in) != 1:
                html = None
            rest = one.rests[shared] = Rest(html, marks, stand_in)
            self.stats["rests"] += 1
        if rest.html is None:
            return None
        own = {**shared_context(language, where, rest.marks), **context, "new_key": no_form}
        try:
            mine = self.templates.render(template, own, block)
        except NotApart:
            return None
        self.stats["apart"] += 1
        return rest.html.replace(rest.stand_in, mine), rest.marks

    def board(self, game_id: str, language: str, loaded: Loaded | None = None) -> Part:
        """The public's board part: the game's state alone, the same for every phone, so made
        once a change and language, and rendered only when it shows something new (a match
        watched by a crowd costs one render a move; a phone that asks costs reading the game's
        sequence number)."""
        seq = loaded.game.seq if loaded is not None else self.service.seq_of(game_id)
        newest = self.boards.newest(game_id, language)
        if newest is not None and newest.seq == seq:
            return newest
        loaded = loaded or self.service.load(game_id)
        held = newest.tag if newest is not None else None
        part = self.make(loaded, PUBLIC, "board", language, held=held)
        if part.html is None and newest is not None:  # the same board at a later change
            part = replace(newest, seq=part.seq, now_ms=part.now_ms)
        self.boards.keep(game_id, language, part)
        return part


class SharedRenders:
    """The newest board part of each game and language, by sequence number."""

    LIMIT = 4000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[str, str], Part] = {}

    def newest(self, game_id: str, language: str) -> Part | None:
        with self._lock:
            return self._kept.get((game_id, language))

    def get(self, game_id: str, language: str, seq: int) -> Part | None:
        """The part kept at this sequence number."""
        kept = self.newest(game_id, language)
        return kept if kept is not None and kept.seq == seq else None

    def keep(self, game_id: str, language: str, part: Part) -> None:
        """Only ever called with a committed state's part; an older render never replaces a
        newer one."""
        with self._lock:
            newest = self._kept.get((game_id, language))
            if newest is not None and newest.seq > part.seq:
                return
            if len(self._kept) >= self.LIMIT:
                self._kept.clear()
            self._kept[(game_id, language)] = part
