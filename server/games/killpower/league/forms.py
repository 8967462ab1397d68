"""The league's HTML forms as commands: a phone's form sends one field per input (`name_1`,
`risk_12`, `ending`); the JSON API sends the commands' own shape and never comes through here."""

from __future__ import annotations

from typing import Any

from server.games.killpower import rules

RECRUIT_FIELDS = ("name", "number", "specialization", "equipment", "powers")


def recruits(data: dict[str, Any], size: int) -> list[dict[str, Any]]:
    """Form fields name_1 ... name_n (number_i, specialization_i, equipment_i, powers_i) as a
    list of recruits, taken out of `data`; a row left empty is no recruit."""
    found = []
    for i in range(1, size + 1):
        fields = {k: data.pop(f"{k}_{i}", None) for k in RECRUIT_FIELDS}
        if any(v not in (None, "", []) for v in fields.values()):
            powers = fields["powers"] or []
            fields["powers"] = [powers] if isinstance(powers, str) else powers
            found.append({k: v for k, v in fields.items() if v is not None})
    return found


def from_form(payload: dict[str, Any]) -> dict[str, Any]:
    """A form's fields as the command the form stands for."""
    data = dict(payload)
    kind = data.get("type")
    if kind == "team":
        data["gladiators"] = recruits(data, rules.TEAM_SIZE + 1)
    elif kind == "replace":
        found = recruits(data, 1)
        data["recruit"] = found[0] if found else None
    elif kind == "match":
        # risk_<gladiator>: the state of those who left with a risk of death; `ending`:
        # "surrendered:A" or "eliminated:B".
        risk = {}
        for key in [k for k in data if k.startswith("risk_")]:
            value = data.pop(key)
            if value not in (None, ""):
                risk[key[5:]] = value
        data["risk"] = risk
        how, _, side = str(data.pop("ending", "") or "").partition(":")
        if how in ("surrendered", "eliminated"):
            data[how] = side
    return data
