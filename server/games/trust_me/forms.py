"""What Trust Me's forms send, as the commands they stand for (the JSON API sends commands as
they are)."""

from __future__ import annotations

import re
from typing import Any


def from_form(payload: dict[str, Any]) -> dict[str, Any]:
    """The keep and rearrange forms send `slot_<item>` per object (empty: not kept); the décor
    form `count_<piece>` per piece; the attack form names "a group of zombies" (no survivor); the
    Trousse de soin's form says whom and what it treats in one menu (`treat`)."""
    if payload.get("target") == "zombies":
        payload = {k: v for k, v in payload.items() if k != "target"}
    if payload.get("type") == "decor":
        data = {k: v for k, v in payload.items() if not k.startswith("count_")}
        data["pieces"] = [
            name[6:]
            for name, value in payload.items()
            if name.startswith("count_") and re.fullmatch(r"[0-4]", str(value).strip())
            for _ in range(int(str(value).strip()))
        ]
        return data
    if payload.get("type") == "use" and payload.get("treat"):
        # The Trousse de soin's one menu: "whom|what|where" (where: empty for the last).
        survivor, _, rest = str(payload["treat"]).partition("|")
        remove, _, at = rest.partition("|")
        data = {k: v for k, v in payload.items() if k != "treat"}
        return data | {"survivor": survivor, "remove": remove} | ({"at": at} if at else {})
    if payload.get("type") not in ("keep", "arrange"):
        return payload
    data = {k: v for k, v in payload.items() if not k.startswith(("slot_", "token_"))}
    data["items"] = [
        {"item": name[5:], "slot": value}
        for name, value in payload.items()
        if name.startswith("slot_") and isinstance(value, str) and value
    ]
    tokens = sorted(
        (int(name[6:]), value)
        for name, value in payload.items()
        if name.startswith("token_") and name[6:].isdigit() and len(name) < 9
    )
    if tokens:  # the rearrangement's tokens, in the order of the sheet's placed tokens
        data["tokens"] = [value for _, value in tokens]
    return data
