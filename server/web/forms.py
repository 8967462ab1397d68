"""A page's form read: its fields as a command, the dice typed by hand, its idempotency key, an
uploaded file."""

from __future__ import annotations

import uuid
from typing import Any

from starlette.datastructures import FormData

from server.errors import InvalidInput
from server.i18n import N_

RESERVED_FIELDS = {"csrf_token", "idem", "seq", "target_seq"}


def new_key() -> str:
    return uuid.uuid4().hex


def idem_of(form: FormData) -> str:
    """Every state-changing form carries its idempotency key; an old page without one gets a
    fresh key (it cannot be a retry then)."""
    value = form.get("idem")
    if isinstance(value, str) and 8 <= len(value) <= 64:
        return value
    return new_key()


def int_field(form: FormData, name: str) -> int | None:
    return int_value(form.get(name), name)


def int_value(value: object, name: str) -> int | None:
    """A field's value as a number, or None when empty; refused, said, when not a number."""
    if not isinstance(value, str) or value.strip() == "":
        return None
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not -(2**31) < number < 2**31:  # a row id or a count, never huge
        raise InvalidInput(N_("“{value}” is not a number."), field=name, value=value[:20])
    return number


def form_command(form: FormData) -> tuple[dict[str, Any], dict[str, int]]:
    """A form's fields as a command: `name[]` and repeated fields are lists, `roll_x` are dice
    entered by hand, empty fields are left out."""
    payload: dict[str, Any] = {}
    rolls: dict[str, int] = {}
    for key in dict.fromkeys(form.keys()):
        values = [v for v in form.getlist(key) if isinstance(v, str)]
        if key in RESERVED_FIELDS:
            continue
        if key.startswith("roll_"):
            if len(values) > 1:  # one die, one value: two are a forged form
                raise InvalidInput(N_("A die is entered once."), field=key)
            number = int_value(values[0], key) if values else None
            if number is not None:
                rolls[key[5:]] = number
            continue
        if key.endswith("[]"):
            payload[key[:-2]] = [v for v in values if v != ""]
        elif len(values) > 1:
            payload[key] = [v for v in values if v != ""]
        elif values and values[0] != "":
            payload[key] = values[0]
    return payload, rolls


MAX_UPLOAD = 200_000


async def uploaded_text(form: FormData, field: str = "deck") -> str:
    """What a data import form brings: an uploaded file, or else the pasted text."""
    text = form.get("text")
    upload = form.get("file")
    if upload is not None and not isinstance(upload, str) and upload.filename:
        raw = await upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            raise InvalidInput(N_("This file is too big."), field=field)
        text = raw.decode("utf-8", errors="replace")
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(N_("Paste a deck or choose a file."), field=field)
    return text
