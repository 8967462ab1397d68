"""Headers every answer carries, the language of each request, and cross-site request checks."""

from __future__ import annotations

import hmac
import html
import json
import logging
import re
import secrets
from collections.abc import MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server import i18n
from server.errors import CsrfFailed
from server.i18n import N_, Msg
from server.platform.data_import import json_depth

# Scripts, styles, connections, the manifest, the worker and fonts: this server's only, by
# `default-src` (each directive left out falls back to it: no inline script, no inline style).
CSP = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "media-src 'self' data:",  # the silent video that keeps a screen awake over plain HTTP
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

STATIC_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]

# A script or a style sheet of ours (not a worker: `/sw.js` keeps them all) is no document: a
# policy for documents on it is bytes every first visit waits for, and says nothing. Judged by
# what the answer is, not by its address (an image of `/static/` opened alone is a document).
SUBRESOURCE_PREFIXES = ("/assets/", "/static/")
SUBRESOURCE_TYPES = (b"text/javascript", b"text/css")
SUBRESOURCE_HEADERS = [(b"x-content-type-options", b"nosniff")]

# Personal pages must never sit in a shared cache or the back-forward cache of another user.
PRIVATE_PREFIXES = ("/g/", "/t/", "/join", "/api/", "/games")


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = scope["path"].startswith(PRIVATE_PREFIXES) or scope["path"] == "/"
        ours = scope["path"].startswith(SUBRESOURCE_PREFIXES)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                kind = next((v for n, v in headers if n.lower() == b"content-type"), b"")
                script = ours and kind.split(b";")[0].strip() in SUBRESOURCE_TYPES
                added = SUBRESOURCE_HEADERS if script else STATIC_HEADERS
                headers.extend(h for h in added if h[0] not in names)
                if private and b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RequestLocale:
    """Sets the request's language and makes sure its session has a cross-site token."""

    def __init__(self, app: ASGIApp, default_language: str) -> None:
        self.app = app
        self.default_language = default_language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        language = i18n.pick_language(
            request.cookies.get("lang"),
            request.headers.get("accept-language"),
            self.default_language,
        )
        asked = request.query_params.get("lang")
        if asked in i18n.LANGUAGES and asked != request.cookies.get("lang"):
            # A link with ?lang= (a board for visitors): the choice stays for what the page asks
            # next (its live part, its stream, its forms), as the language switch's does.
            language = asked
            send = remembering_language(send, asked)
        token = i18n.current_language.set(language)
        session: MutableMapping[str, Any] | None = scope.get("session")
        if (
            session is not None
            and "csrf" not in session
            and not scope["path"].startswith(("/static/", "/api/"))
        ):
            session["csrf"] = secrets.token_urlsafe(24)
        try:
            await self.app(scope, receive, send)
        finally:
            i18n.current_language.reset(token)


def language_cookie(language: str) -> tuple[bytes, bytes]:
    """The header that keeps a chosen language for a year (the switch and ?lang= alike)."""
    carrier = Response()
    carrier.set_cookie("lang", language, max_age=60 * 60 * 24 * 365, httponly=True, samesite="lax")
    return carrier.raw_headers[-1]


def remembering_language(send: Send, language: str) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {
                **message,
                "headers": [*message.get("headers", []), language_cookie(language)],
            }
        await send(message)

    return sending


async def csrf_protected(request: Request) -> None:
    """The page routers' default (server.app): every request that may change something is checked,
    so a route cannot forget it. The API, on bearer tokens and no cookie, is apart."""
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        await check_csrf(request)


async def check_csrf(request: Request) -> None:
    """State-changing page requests must come from our own pages: same origin, and the
    session's token in the form or in the X-CSRF-Token header."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise CsrfFailed(N_("This form was sent from another site: refused."))
    origin = request.headers.get("origin")
    if origin and origin != "null":
        expected = f"{request.url.scheme}://{request.url.netloc}"
        if origin != expected:
            raise CsrfFailed(N_("This form was sent from another site: refused."))
    sent = request.headers.get("x-csrf-token")
    if not sent:
        form = await request.form()
        value = form.get("csrf_token")
        sent = value if isinstance(value, str) else None
    expected_token = request.session.get("csrf")
    if not sent or not expected_token or not hmac.compare_digest(sent, expected_token):
        raise CsrfFailed(N_("This form has expired: reload the page and try again."))


MAX_BODY = 2 * 1024 * 1024  # bytes of a request: the biggest is a deck upload (200 kB)
FORM_OVERHEAD = 64 * 1024  # a file's form around it (its boundaries, the token, the key)
MAX_JSON_DEPTH = 32  # the API's deepest body (a deck of cards) nests five levels


class AllowedHosts:
    """A request to a name this server does not answer to (`ALLOWED_HOSTS`) is refused before
    anything reads it: no page, link or QR code is ever made with a Host an attacker chose."""

    def __init__(self, app: ASGIApp, hosts: set[str]) -> None:
        self.app = app
        self.any = "*" in hosts
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.any or host_of(scope) in self.hosts:
            await self.app(scope, receive, send)
            return
        await _refuse(
            send, 400, "host_not_allowed", N_("This server does not answer to this name.")
        )


def host_of(scope: Scope) -> str:
    """The Host header's name, without its port (an IPv6 address without its brackets)."""
    for name, value in scope.get("headers") or []:
        if name == b"host":
            host = value.decode("latin-1").strip().lower()
            if host.startswith("["):
                return host[1 : host.find("]")] if "]" in host else host
            return host.rpartition(":")[0] if host.count(":") == 1 else host
    return ""


class BodyLimits:
    """Every request body has a size limit, and a JSON body a nesting limit, checked before any
    parser reads it: too big is 413, too deep 422, each with a message in the caller's language,
    never a parser's recursion error. (Inside `RequestLocale`, so the language is known.)"""

    def __init__(self, app: ASGIApp, big: dict[str, int] | None = None) -> None:
        self.app = app
        self.big = big or {}  # bigger bodies, by path: a game file brought from another server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.big.get(scope["path"], MAX_BODY):
                await _refuse(send, 413, "too_large", N_("This request is too big."), scope)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        content_type = dict(scope.get("headers") or []).get(b"content-type", b"")
        if b"json" in content_type and json_depth(body.decode("utf-8", "replace")) > MAX_JSON_DEPTH:
            await _refuse(send, 422, "invalid", N_("This JSON nests too deeply."), scope)
            return
        await self.app(scope, _replay([{"type": "http.request", "body": body}]), send)


def _replay(messages: list[Message]) -> Receive:
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return {"type": "http.disconnect"}

    return receive


async def _refuse(
    send: Send, status: int, code: str, message: str, scope: Scope | None = None
) -> None:
    """A refusal before the app reads the request: JSON, or a small page for a browser's form
    (a file too big brought from the home page), in the reader's language."""
    said = Msg(message).render()
    headers = dict((scope or {}).get("headers") or [])
    if b"text/html" in headers.get(b"accept", b"") and b"hx-request" not in headers:
        back = Msg(N_("Back to the home page")).render()
        body = (
            f'<!doctype html><html lang="{i18n.current_language.get()}"><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(said)} · Arbitre</title>"
            '<link rel="stylesheet" href="/static/css/arbitre.css">'
            f'<main class="panel alert" role="alert"><p>{html.escape(said)}</p>'
            f'<p><a href="/">{html.escape(back)}</a></p></main></html>'
        ).encode()
        kind = b"text/html; charset=utf-8"
    else:
        body = json.dumps({"code": code, "message": said}).encode()
        kind = b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# Secrets in addresses: a person's link (/t/<token>) and a game's invitation (/join/<token>).
TOKEN_IN_PATH = re.compile(r"(/t/|/join/)[A-Za-z0-9_\-]{16,}")


def redact(text: str) -> str:
    return TOKEN_IN_PATH.sub(r"\1…", text)


class RedactTokens(logging.Filter):
    """Keeps link tokens out of the server's logs (uvicorn's access log prints every path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def redact_logs() -> None:
    """Installs the filter on the loggers that print paths (once, after uvicorn set them up)."""
    for name in ("uvicorn.access", "uvicorn.error", "arbitre"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
