"""Jinja2 with translations, versioned static URLs and single-block rendering for htmx."""

from __future__ import annotations

import gzip
import hashlib
import itertools
import re
import secrets
import threading
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import brotli
import jinja2
from calmjs.parse import es5
from calmjs.parse.unparsers.es5 import minify_print
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from server import i18n
from server.config import ROOT
from server.platform.timers import Timer

STATIC_DIR = ROOT / "static"
TEMPLATES_DIR = ROOT / "templates"


@cache
def static_version(path: str) -> str:
    file = STATIC_DIR / path
    return hashlib.sha256(file.read_bytes()).hexdigest()[:10] if file.exists() else "0"


def static_url(path: str) -> str:
    return f"/static/{path}?v={static_version(path)}"


# One script and one style sheet a page, so a first visit costs one request for each: htmx
# (vendored, pinned), Arbitre's own few lines and styles, and on a game's pages that game's own
# (`static/<kind>/<kind>.js` and `.css`, where the game has them): no page ships another game's
# code or styles. The pages of no game's, and those around a game (its people, slips, a
# ticket: `around` in their template), take the styles of the pages around (`css/around.css`),
# which a game's console does without.
SHARED_PARTS = {
    "js": (
        "vendor/htmx-4.0.1.min.js",
        "js/arbitre.js",
        "js/field.js",
        "js/rules.js",
    ),
    "css": ("css/arbitre.css",),
}
APP = "app"  # the bundle of the pages of no game
AROUND = {"css": "css/around.css", "js": "js/around.js"}


# Asked by every page's render (the static folder does not change while serving); bounded: an
# asset's name in an address is anyone's to type.
@lru_cache(maxsize=64)
def own_part(name: str, ext: str = "js") -> str | None:
    """A game's own script or styles, where it has them (its kind's key names its folder); the
    pages around a game's, for the pages of no game."""
    if name == APP:
        return AROUND.get(ext)
    part = f"{name}/{name}.{ext}"
    return part if (STATIC_DIR / part).is_file() else None


def has_bundle(name: str, ext: str) -> bool:
    """Whether `/assets/<name>.<ext>` is a bundle: the pages of no game's, or a game's own (a
    kind's key: lower-case letters and underscores, never a path)."""
    if ext not in SHARED_PARTS or not re.fullmatch(r"[a-z_]{1,40}", name):
        return False
    return name == APP or own_part(name, ext) is not None


# A bundle is made once (minified, compressed: a second or more for them all), at start-up
# (`app.for_serving`: `every_bundle`) and else at its first asking, by one thread: without the
# lock, the first pages of a crowd arriving at once each made it again, every page waiting,
# and 1,600 phones took 13 s to open their pages instead of 1 (`make bench`'s storm, issue 55).
_MAKING = threading.Lock()


def bundle(name: str = APP, ext: str = "js") -> tuple[bytes, str]:
    """The script (`js`) or styles (`css`) of the pages of the game kind `name` (or of no
    game's): what it holds, and its version."""
    with _MAKING:
        return _bundle(name, ext)


@cache
def _bundle(name: str, ext: str) -> tuple[bytes, str]:
    own = own_part(name, ext)
    parts = SHARED_PARTS[ext] + ((own,) if own else ())
    body = (b";\n" if ext == "js" else b"\n").join(shipped(part) for part in parts)
    return body, hashlib.sha256(body).hexdigest()[:10]


def compressed(name: str, ext: str, encoding: str) -> bytes:
    """A bundle compressed once, at the best level (it is asked by every first visit): Brotli
    (a fifth smaller than gzip for a script) or gzip."""
    with _MAKING:
        return _compressed(name, ext, encoding)


@cache
def _compressed(name: str, ext: str, encoding: str) -> bytes:
    body = _bundle(name, ext)[0]
    if encoding == "br":
        return brotli.compress(body, quality=11)
    return gzip.compress(body, compresslevel=9, mtime=0)


def every_bundle(kinds: Iterable[str]) -> None:
    """Every bundle made and compressed now: the pages of no game's and each kind's."""
    for name in (APP, *kinds):
        for ext in SHARED_PARTS:
            if name == APP or own_part(name, ext):
                for encoding in ("br", "gzip"):
                    compressed(name, ext, encoding)


@cache
def shipped(part: str) -> bytes:
    """A part of a bundle as phones get it: Arbitre's own script minified (written to be read
    here, not downloaded on a field's hotspot); styles with their comments and indentation
    left out; the vendored parts as they come."""
    text = (STATIC_DIR / part).read_bytes()
    if part.endswith(".min.js"):
        return text
    if part.endswith(".css"):
        css = re.sub(r"/\*.*?\*/", "", text.decode(), flags=re.S)
        return "\n".join(line.strip() for line in css.splitlines() if line.strip()).encode()
    # Local names shortened too (a kilobyte compressed): the first load's budget is 30 KB.
    return minify_print(es5(text.decode()), obfuscate=True, obfuscate_globals=False).encode()


@cache
def icon_url() -> str:
    """The page's icon in the page itself (a few hundred bytes): a first visit asks for no
    file of it, and the manifest still names `static/icon.svg`."""
    svg = (STATIC_DIR / "icon.svg").read_text(encoding="utf-8").strip()
    # "#" starts a fragment and "<", ">" and quotes are not a URL's: encoded, the rest kept.
    return "data:image/svg+xml," + urllib.parse.quote(svg, safe=" =:/',.-")


def bundle_url(kind: str | None = None, ext: str = "js") -> str:
    name = kind if kind and kind != APP and own_part(kind, ext) else APP
    return f"/assets/{name}.{ext}?v={bundle(name, ext)[1]}"


def make_environment(extra_dirs: Iterable[Path] = ()) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([TEMPLATES_DIR, *extra_dirs]),
        autoescape=jinja2.select_autoescape(default=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext,
        i18n.ngettext,
        newstyle=True,
        pgettext=i18n.pgettext,
        npgettext=i18n.npgettext,
    )
    # Sentences with their names in, put right for the reader (`i18n.polish`): "Carte d’Alice".
    env.globals.update(_=_gettext, gettext=_gettext, ngettext=_ngettext)
    env.globals.update(
        static=static_url,
        bundle_url=bundle_url,
        icon_url=icon_url,
        languages=i18n.LANGUAGE_NAMES,
        colon=i18n.colon,
        quoted=i18n.quoted,
        new_key=lambda: uuid.uuid4().hex,
        timer_of=lambda data: Timer.model_validate(data) if data else None,
    )
    env.filters["msg"] = lambda m: m.render() if isinstance(m, i18n.Msg) else m
    env.filters["signed"] = signed
    env.filters["capfirst"] = lambda text: str(text)[:1].upper() + str(text)[1:]
    return env


def signed(number: int) -> str:
    """A bonus or a malus as it is printed: "+3", "−2" (a minus sign, as the rule books set it,
    not a hyphen), "0"."""
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


def _finish(value: Any, autoescape: bool) -> Any:
    if autoescape:
        return Markup(i18n.polish(str(value)))  # polish adds letters and apostrophes only
    return i18n.polish(value)


@jinja2.pass_context
def _gettext(context: Any, string: str, **variables: Any) -> Any:
    """jinja2's new-style gettext (escaping the values it puts in), then `i18n.polish`."""
    value: Any = i18n.gettext(string)
    autoescape = context.eval_ctx.autoescape
    if autoescape:
        value = Markup(value)
    if variables:
        value = value % variables
    return _finish(value, autoescape)


@jinja2.pass_context
def _ngettext(context: Any, singular: str, plural: str, num: int, **variables: Any) -> Any:
    variables.setdefault("num", num)
    value: Any = i18n.ngettext(singular, plural, num)
    autoescape = context.eval_ctx.autoescape
    if autoescape:
        value = Markup(value)
    return _finish(value % variables, autoescape)


class Macros:
    """`m` (templates/_macros.html) bound to one render's context, made when first used: a
    fighter's own card, rendered alone at a change for each of 16 fighters, uses none."""

    def __init__(self, env: jinja2.Environment, context: dict[str, Any]) -> None:
        self._env, self._context = env, context
        self._module: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # its own fields before they are set (a copy), not macros
            raise AttributeError(name)
        if self._module is None:
            self._module = self._env.get_template("_macros.html").make_module(self._context)
        return getattr(self._module, name)


class Templates:
    def __init__(self, env: jinja2.Environment) -> None:
        self.env = env

    def render(self, name: str, context: Mapping[str, Any], block: str | None = None) -> str:
        """The whole page, or one block of it. `m` (templates/_macros.html) is there in both,
        bound to the request's context (its cross-site token, its idempotency keys)."""
        template, context = self._prepared(name, context)
        if block is None:
            return template.render(context)
        render_block = template.blocks.get(block)
        if render_block is None:
            raise KeyError(f"{name} has no block {block!r}")
        return "".join(render_block(template.new_context(context)))

    def render_apart(
        self,
        name: str,
        context: Mapping[str, Any],
        block: str | None,
        apart: str,
        stand_in: str,
    ) -> str:
        """`block` (None: the whole page) rendered with `stand_in` where the block `apart` (nested
        in it) would be: what viewers who differ only in `apart` share
        (`GameKind.personal_block`), rendered once; a page around its live part."""
        template, context = self._prepared(name, context)
        render_block = template.root_render_func if block is None else template.blocks.get(block)
        if render_block is None or apart not in template.blocks:
            raise KeyError(f"{name} has no block {block!r} with a block {apart!r} in it")
        made = template.new_context(context)
        made.blocks[apart] = [lambda _: iter((stand_in,))]
        return "".join(render_block(made))

    def _prepared(
        self, name: str, context: Mapping[str, Any]
    ) -> tuple[jinja2.Template, dict[str, Any]]:
        context = dict(context)
        context["m"] = Macros(self.env, context)
        return self.env.get_template(name), context

    def response(
        self,
        request: Request,
        name: str,
        context: Mapping[str, Any] | None = None,
        *,
        status_code: int = 200,
        block: str | None = None,
        headers: Mapping[str, str] | None = None,
        live: bytes | None = None,
    ) -> HTMLResponse:
        """The page `name`, or its live block for htmx; `live`: that block already made (an
        action's answer takes its sender's part from `LiveParts.answer`)."""
        full = {"request": request, **base_context(request), **(context or {})}
        # htmx gets the page's live block when it has one (a printable page has none: all of it).
        if (
            block is None
            and is_htmx(request)
            and full.get("hx_block") in self.env.get_template(name).blocks
        ):
            block = full["hx_block"]
        # A tap refused: its reason is said where the next push cannot take it away (a change
        # by another referee a moment later), until this phone's next tap (issue 50).
        refusal = None
        if block is not None and request.method == "POST" and not full.get("dice_prompt"):
            refusal = (full.get("errors") or {}).get("_")
            full["refusal_in_flash"] = refusal is not None
        body = (
            live.decode()
            if live is not None and block == "live"
            else self.render(name, full, block)
        )
        if block is not None and (
            full.get("flash") or (request.method == "POST" and full.get("errors"))
        ):
            # The sentence of an action lives outside the live block, so the refreshes that
            # follow do not wipe it: it travels out of band; a refusal clears the last one, so
            # that an old success never shows above the new error.
            body += self.render("_flash.html", {**full, "oob": True, "refusal": refusal})
        response = html_response(body, full.get("seq"), status_code=status_code, headers=headers)
        game = full.get("game")
        if game is not None and getattr(game, "status", None):
            # A page whose game went from one phase to the next (setup, running, finished) is
            # laid out anew: the script reloads a page that a refresh finds in another phase.
            response.headers["X-Game-Status"] = game.status
        return response


def html_response(
    body: str | bytes,
    seq: int | None,
    *,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    response = HTMLResponse(body, status_code=status_code, headers=dict(headers or {}))
    if seq is not None:
        response.headers["X-Game-Seq"] = str(seq)
    response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    return response


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def key_factory(base: str | None = None) -> Callable[[], str]:
    """Idempotency keys for the forms of one page: a random base (96 bits) and a counter, so
    keys are unique across pages and within one, and a page of many forms still compresses
    (one random key per form made an action's answer a third bigger)."""
    base = base or key_base()
    counter = itertools.count(1)
    return lambda: f"{base}-{next(counter)}"


def key_base() -> str:
    return secrets.token_hex(12)


def shared_context(language: str, path: str, marks: Marks) -> dict[str, Any]:
    """`base_context` for a part shown to many phones (`server.web.fanout`): marks where each
    phone's own cross-site token and idempotency keys go, which the page fills in when the part
    arrives on its stream (`arbitre.js`), so that the part, the same for all, is compressed
    once."""
    return {
        "new_key": key_factory(marks.keys),
        "lang": language,
        "csrf_token": marks.csrf,
        "path": path,
    }


@dataclass(frozen=True)
class Marks:
    """The marks of one render of a shared part: letters and digits (HTML and JSON leave them
    as they are), drawn for this render alone, so that no text of a game, written before the
    render, can hold them and have a phone's token put in its place."""

    csrf: str
    keys: str

    @classmethod
    def fresh(cls) -> Marks:
        return cls("csrf" + secrets.token_hex(16), "keys" + secrets.token_hex(16))


def address_of(request: Request) -> str:
    query = request.url.query
    return request.url.path + (f"?{query}" if query else "")


def base_context(request: Request) -> dict[str, Any]:
    session = request.scope.get("session") or {}
    return {
        "new_key": key_factory(),
        "lang": i18n.current_language.get(),
        "csrf_token": session.get("csrf", ""),
        # Where the language switch comes back to, with the address's query (an assault being
        # entered stays so: issue 50; the page's script puts the address it holds now); never
        # a secret link's address.
        "path": "/" if request.url.path.startswith("/t/") else address_of(request),
    }
