"""Capability links: secret tokens and short join codes (tried within a budget:
`server.platform.limits`).

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
