"""Idempotency keys as Stripe defines them: a key belongs to its caller and to one operation.

A retried request (a phone that lost the answer, a double tap) carries the same key and the same
body: it is answered with the first result and applied once. The same key from another caller
is simply another key (the callers' keys never meet); from the same caller for another operation
or with another body, it is refused (`idempotency_mismatch`), never answered with what the first
request got. What is stored is a hash of the caller and the key, so keys the server uses for its
own follow-ups (caller "system") live where no client can write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.errors import ArbitreError, InvalidInput
from server.i18n import N_
from server.platform.kinds import Viewer

SYSTEM_CALLER = "system"
ANONYMOUS = "anonymous"  # an API call without a token: nothing it created is answered again


class IdempotencyMismatch(ArbitreError):
    status = 422
    code = "idempotency_mismatch"


class AlreadyCreated(ArbitreError):
    """A retry of an anonymous creation: the first answer held the organizer's link, which a
    replay cannot tell to whoever sends the same key."""

    status = 409
    code = "idempotency_replayed"


def caller_of(viewer: Viewer) -> str:
    """Who is asking, for scoping keys: a person, or Arbitre itself."""
    if viewer.role == "system":
        return SYSTEM_CALLER
    if viewer.person_id is not None:
        return f"person:{viewer.person_id}"
    return f"role:{viewer.role}"


def session_caller(secret: str) -> str:
    """A browser without a link yet (creating a game, joining by invitation) is its session."""
    return "session:" + hashlib.sha256(secret.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class IdemKey:
    """A request's key, scoped to its caller, with the fingerprint of what it asks."""

    stored: str  # what the database keeps (64 hex characters)
    fingerprint: str
    caller: str

    def check(self, fingerprint: str | None) -> None:
        """A stored request found under this key: the same operation and body, or a refusal."""
        if fingerprint != self.fingerprint:
            raise IdempotencyMismatch(
                N_(
                    "This request's idempotency key was already used for another request: "
                    "send a new key."
                ),
                field="idem",
            )


def idem_key(caller: str, key: str, operation: str, body: Mapping[str, Any]) -> IdemKey:
    stored = hashlib.sha256(f"{caller}\n{key}".encode()).hexdigest()
    canonical = json.dumps(
        {"op": operation, "body": body}, sort_keys=True, ensure_ascii=False, default=str
    )
    try:
        encoded = canonical.encode()
    except UnicodeEncodeError:  # a lone surrogate ("\ud83d"): half a character, not text
        raise InvalidInput(
            N_("The request holds half a character (a lone surrogate): type it again.")
        ) from None
    return IdemKey(stored, hashlib.sha256(encoded).hexdigest(), caller)
