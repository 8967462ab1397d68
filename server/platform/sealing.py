"""A game in progress moves sealed, and a file says which server wrote it.

- **A server's key.** Each server has a signing key (Ed25519) derived from its `SECRET_KEY`; its
  public half (`server_key`) names it. The runner of a server lists the servers it trusts
  (`TRUSTED_SERVERS`: their keys); a server always trusts itself.
- **Import tickets.** The destination makes a key pair (X25519) for one file and shows its
  public half with a one-time id, signed with the destination's server key, as a ticket
  (`arbitre-ticket:<id>:<public key>:<server key>:<signature>`). The source seals what replays the
  game to it (libsodium's sealed box, PyNaCl) only if the ticket's server is one it trusts: an
  organizer cannot make a ticket of their own and read the sealed file. The destination keeps
  the private half sealed with a key derived from its `SECRET_KEY`.
- **Witness.** A file carries the signature of what replays it by the server that wrote it: a
  server knows its own files ("witnessed here": their dice keep their word; any other file's dice
  show "from a file"), and a game its organizer may not read whole comes in only from a server it
  trusts (`GameService.import_game`), so nobody can forge a deal and import it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.public import PrivateKey, PublicKey, SealedBox
from nacl.secret import SecretBox
from nacl.signing import SigningKey, VerifyKey

from server.errors import InvalidInput
from server.i18n import N_

KEY = r"[A-Za-z0-9_=-]{43,44}"
TICKET = re.compile(
    rf"^\s*arbitre-ticket:([A-Za-z0-9_-]{{16,32}}):({KEY}):({KEY}):([A-Za-z0-9_=-]{{86,88}})\s*$"
)
TICKET_HOURS = 24  # a ticket opens a file for a day after it was made


def canonical(data: Any) -> bytes:
    """The one text of a JSON value that both servers compute alike."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _signing(secret: str) -> SigningKey:
    return SigningKey(_derived(secret, "server"))


def server_key(secret: str) -> str:
    """This server's name among servers: the public half of its signing key."""
    return _b64(bytes(_signing(secret).verify_key))


def trusted_keys(secret: str, listed: str) -> frozenset[str]:
    """The servers this one trusts: itself, and the keys its runner listed (`TRUSTED_SERVERS`)."""
    return frozenset({server_key(secret), *(k.strip() for k in listed.split(",") if k.strip())})


def _signature(secret: str, message: bytes) -> str:
    return _b64(_signing(secret).sign(message).signature)


def _verified(key: str, message: bytes, signature: str) -> bool:
    try:
        VerifyKey(_unb64(key)).verify(message, _unb64(signature))
    except (ValueError, TypeError, CryptoError, BadSignatureError):
        return False
    return True


def witness(secret: str, data: Any) -> dict[str, str]:
    """What a server writes in a file it made: its key and its signature of what replays it."""
    return {"by": server_key(secret), "signature": _signature(secret, canonical(data))}


def signer(data: Any, mark: Any) -> str | None:
    """The key of the server that signed this file's replay, or None (unsigned, or changed)."""
    if not isinstance(mark, dict):
        return None
    key, signature = mark.get("by"), mark.get("signature")
    if not isinstance(key, str) or not isinstance(signature, str):
        return None
    return key if _verified(key, canonical(data), signature) else None


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
    server: str  # the key of the server that made it
    signature: str  # that server's signature of the id and the public key

    @property
    def text(self) -> str:
        return f"arbitre-ticket:{self.id}:{self.public_key}:{self.server}:{self.signature}"


def new_ticket(secret: str) -> NewTicket:
    key = PrivateKey.generate()
    kept = SecretBox(_derived(secret, "tickets")).encrypt(bytes(key))
    ticket_id, public = secrets.token_urlsafe(18), _b64(bytes(key.public_key))
    signature = _signature(secret, f"{ticket_id}:{public}".encode())
    return NewTicket(ticket_id, public, _b64(bytes(kept)), server_key(secret), signature)


def read_ticket(text: str, trusted: frozenset[str], here: str) -> tuple[str, str]:
    """A ticket as pasted: its id and its public key, if a server this one trusts made it, and
    not this server itself (`here`, its key); a clear refusal otherwise. A game sealed to its
    own server would come back as a copy whose seats nobody has taken yet: its organizer would
    take them and read every hand (issue 51's outside attack)."""
    found = TICKET.match(text or "")
    if found is None:
        raise InvalidInput(
            N_("This is not an import ticket: copy it whole from the other server's home page."),
            field="ticket",
        )
    ticket_id, public, server, signature = found.groups()
    try:
        PublicKey(_unb64(public))
    except (ValueError, CryptoError):
        raise InvalidInput(N_("This import ticket is damaged."), field="ticket") from None
    if not _verified(server, f"{ticket_id}:{public}".encode(), signature):
        raise InvalidInput(N_("This import ticket is damaged."), field="ticket")
    if server == here:
        raise InvalidInput(
            N_(
                "This ticket is this server's own: the game is here already. A game in progress "
                "moves sealed to another server only."
            ),
            field="ticket",
        )
    if server not in trusted:
        raise InvalidInput(
            N_(
                "This ticket comes from a server this one does not trust. Its runner adds that "
                "server's key ({key}) to TRUSTED_SERVERS."
            ),
            field="ticket",
            key=server,
        )
    return ticket_id, public


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
