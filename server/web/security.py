"""Headers every answer carries, the language of each request, and cross-site request checks."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.errors import CsrfFailed
from server.platform import i18n
from server.platform.i18n import N_

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "font-src 'self'",
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

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers.extend(h for h in STATIC_HEADERS if h[0] not in names)
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
        if request.query_params.get("lang") in i18n.LANGUAGES:
            language = request.query_params["lang"]
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


async def check_csrf(request: Request) -> None:
    """State-changing page requests must come from our own pages: same origin, and the
    session's token in the form or in the X-CSRF-Token header."""
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
