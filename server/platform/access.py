"""Capability links: secret tokens, short join codes, and the rate limit on guessing codes.

A person's token and join code are derived from the server secret and a random nonce kept with
the person (HMAC-SHA256), so the organizer can show a link again (QR slips) while the database
alone, without the secret, gives nobody a working link. Lookups go through SHA-256 hashes.
Re-issuing draws a new nonce and raises the version: old links and sessions die at once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass

# No 0/O, 1/I/L: codes are read aloud and typed on a phone in the sun.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8  # 31**8: about 40 bits, behind a rate limit


def new_nonce() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Link:
    token: str  # 192 bits, URL-safe
    code: str  # "ABCD-EFGH"


def derive_link(secret: str, person_id: int, version: int, nonce: str) -> Link:
    mac = hmac.new(secret.encode(), f"{person_id}:{version}:{nonce}".encode(), hashlib.sha256)
    digest = mac.digest()
    token = base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")
    number = int.from_bytes(digest[24:], "big")
    chars = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[index])
    code = "".join(chars)
    return Link(token=token, code=f"{code[:4]}-{code[4:]}")


def derive_invitation(secret: str, game_id: str, nonce: str) -> str:
    """A game's shared invitation token (192 bits), renewed by drawing a new nonce."""
    mac = hmac.new(secret.encode(), f"invite:{game_id}:{nonce}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode().rstrip("=")


def same_token(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalize_code(code: str) -> str:
    cleaned = "".join(c for c in code.upper() if c.isalnum())
    return cleaned.replace("O", "0").replace("I", "1").replace("L", "1")


def code_hash(code: str) -> str:
    return hashlib.sha256(("code:" + normalize_code(code)).encode()).hexdigest()


class RateLimiter:
    """A sliding window of attempts per key (the client's address), in this process."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str, now: float | None = None) -> float:
        """Counts an attempt; returns 0 when allowed, else the seconds to wait."""
        now = time.monotonic() if now is None else now
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return hits[0] + self.window - now
            hits.append(now)
            if len(self._hits) > 10_000:  # forget idle addresses
                for stale in [k for k, v in self._hits.items() if not v][:5000]:
                    del self._hits[stale]
            return 0.0
