"""The league's HTML forms as commands: a phone's form sends one field per input (`name_1`,
`risk_12`, `ending`); the JSON API sends the commands' own shape and never comes through here."""

from __future__ import annotations

from typing import Any

from server.games.killpower import rules

RECRUIT_FIELDS = ("name", "number", "specialization", "equipment", "powers")


def chosen(powers: Any) -> list[str]:
    """A gladiator's powers from its two menus (or one value): those chosen, "—" left out."""
    values = [powers] if isinstance(powers, str) else list(powers or [])
    return [p for p in values if p]


def recruits(data: dict[str, Any], size: int) -> list[dict[str, Any]]:
    """Form fields name_1 ... name_n (number_i, specialization_i, equipment_i, powers_i) as a
    list of recruits, taken out of `data`; a row left empty is no recruit."""
    found = []
    for i in range(1, size + 1):
        fields = {k: data.pop(f"{k}_{i}", None) for k in RECRUIT_FIELDS}
        fields["powers"] = chosen(fields["powers"])
        if any(v not in (None, "", []) for v in fields.values()):
            found.append({k: v for k, v in fields.items() if v is not None})
    return found


PAPER_FIELDS = (*RECRUIT_FIELDS, "armour", "exp", "increases", "matches")


def paper_gladiators(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The paper sheet's rows (name_i ... matches_i, DEP_i ... VIE_i): a row left empty is
    no gladiator; an empty figure is left out, for the rules to ask for it by name."""
    found = []
    for i in range(1, rules.TEAM_SIZE + 1):
        row = {k: data.pop(f"{k}_{i}", None) for k in PAPER_FIELDS}
        row["powers"] = chosen(row["powers"])
        figures = {c: data.pop(f"{c}_{i}", None) for c in rules.CHARACTERISTICS}
        if all(v in (None, "", []) for v in [*row.values(), *figures.values()]):
            continue
        row["characteristics"] = {c: v for c, v in figures.items() if v not in (None, "")}
        found.append({k: v for k, v in row.items() if v not in (None, "")})
    return found


def from_form(payload: dict[str, Any]) -> dict[str, Any]:
    """A form's fields as the command the form stands for."""
    data = dict(payload)
    kind = data.get("type")
    if kind == "team":
        data["gladiators"] = recruits(data, rules.TEAM_SIZE + 1)
    elif kind == "paper_team":
        data["gladiators"] = paper_gladiators(data)
        if data.get("coach") == "owner":  # the league owner keeps the team
            data["coach"] = None
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
