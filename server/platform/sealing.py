"""A game in progress moves sealed, and a file says which server wrote it.

- **Import tickets.** The destination makes a key pair (X25519) and shows its public half with a
  one-time id as a ticket (`arbitre-ticket:<id>:<public key>`). The source seals what replays the
  game to that key (libsodium's sealed box, PyNaCl): only the destination opens it, once. The
  destination keeps the private half sealed with a key derived from its `SECRET_KEY` (a
  secret box), so its database alone opens nothing.
- **Witness.** A file carries a keyed hash (HMAC-SHA256, `SECRET_KEY`) of what replays it: the
  server that wrote it knows it again ("witnessed here"); any other server shows its dice as
  "from a file".
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from nacl.exceptions import CryptoError
from nacl.public import PrivateKey, PublicKey, SealedBox
from nacl.secret import SecretBox

from server.errors import InvalidInput
from server.i18n import N_

TICKET = re.compile(r"^\s*arbitre-ticket:([A-Za-z0-9_-]{16,32}):([A-Za-z0-9_=-]{43,44})\s*$")
TICKET_HOURS = 24  # a ticket opens a file for a day after it was made


def canonical(data: Any) -> bytes:
    """The one text of a JSON value that both servers compute alike."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def witness(secret: str, data: Any) -> str:
    return hmac.new(_derived(secret, "witness"), canonical(data), hashlib.sha256).hexdigest()


def witnessed(secret: str, data: Any, mark: str | None) -> bool:
    return mark is not None and hmac.compare_digest(witness(secret, data), mark)


def _derived(secret: str, purpose: str) -> bytes:
    return hashlib.sha256(f"arbitre:{purpose}:{secret}".encode()).digest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text.encode())


@dataclass(frozen=True)
class NewTicket:
    id: str
    public_key: str  # urlsafe base64
    private_key: str  # sealed with the server's secret, urlsafe base64

    @property
    def text(self) -> str:
        return f"arbitre-ticket:{self.id}:{self.public_key}"


def new_ticket(secret: str) -> NewTicket:
    key = PrivateKey.generate()
    kept = SecretBox(_derived(secret, "tickets")).encrypt(bytes(key))
    return NewTicket(secrets.token_urlsafe(18), _b64(bytes(key.public_key)), _b64(bytes(kept)))


def read_ticket(text: str) -> tuple[str, str]:
    """A ticket as pasted: its id and its public key; a clear refusal otherwise."""
    found = TICKET.match(text or "")
    if found is None:
        raise InvalidInput(
            N_("This is not an import ticket: copy it whole from the other server's home page."),
            field="ticket",
        )
    try:
        PublicKey(_unb64(found.group(2)))
    except (ValueError, CryptoError):
        raise InvalidInput(N_("This import ticket is damaged."), field="ticket") from None
    return found.group(1), found.group(2)


def seal(public_key: str, data: Any) -> str:
    return _b64(SealedBox(PublicKey(_unb64(public_key))).encrypt(canonical(data)))


def open_sealed(secret: str, private_key: str, box: str) -> Any:
    """The sealed data, or a refusal: it was sealed to another key, or damaged on the way."""
    try:
        key = PrivateKey(SecretBox(_derived(secret, "tickets")).decrypt(_unb64(private_key)))
        return json.loads(SealedBox(key).decrypt(_unb64(box)))
    except (ValueError, CryptoError):
        raise InvalidInput(
            N_("This file was sealed for another server, or damaged: it cannot be opened here."),
            field="file",
        ) from None
