"""Errors with a stable code, an HTTP status and a message translated for whoever reads it."""

from __future__ import annotations

from typing import Any

from server.platform.i18n import Msg


class ArbitreError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, field: str | None = None, **params: Any) -> None:
        self.msg = Msg(message, params)
        self.field = field
        super().__init__(message.format(**params) if params else message)

    @property
    def message(self) -> str:
        return self.msg.render()


class RuleError(ArbitreError, ValueError):
    """A game rule refuses the action; nothing is changed."""

    status = 422
    code = "rule"


class InvalidInput(ArbitreError, ValueError):
    status = 422
    code = "invalid"


class NotFound(ArbitreError):
    status = 404
    code = "not_found"


class LinkInvalid(ArbitreError):
    """Unknown, revoked or re-issued link: the same answer whether it ever existed or not."""

    status = 404
    code = "link_invalid"


class NotAllowed(ArbitreError):
    status = 403
    code = "forbidden"


class NotSignedIn(ArbitreError):
    status = 401
    code = "unauthenticated"


class StaleScreen(ArbitreError):
    status = 409
    code = "stale"


class TooManyAttempts(ArbitreError):
    status = 429
    code = "rate_limited"


class CsrfFailed(ArbitreError):
    status = 403
    code = "csrf"
