"""A choice that decides something never starts on a real choice (issue 35, class A).

Every page of every scene (each kind's phases and ends), for every person of the scene: in a
form that sends a command, a menu or a group of radio buttons with more than one real option
starts on none of them (a placeholder to change, or nothing checked), so that one tap never sends
a pair of fighters, a stake, a target or a token nobody chose. A menu with one real option may
start on it: it is all there is.

A kind's spec may declare what a form starts on (`GameKind.declared_defaults`: an assault
in three taps); those choices may start on their default, and no other.

Forms that show what is set (the game's settings, its sectors, a team's names, a lineup being
made) start on the current value: they say what is, and sending them unchanged changes nothing.
They are named below by their command type, with why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import all_routes
from tests.security.conftest import SCENES, addresses, phones

# Command types whose forms show the current state, by the value of their `type` field.
SHOWS_WHAT_IS = {
    "settings": "the game's settings, as they are",
    "sectors": "the sectors and their plan, as they are",
    "team_names": "the teams' names, as they are",
    "matrix": "who beats whom, as it is",
    "assign": "a phone's team, as it is",
    "place": "a player's sector, as it is (placing them there again changes nothing)",
    "deck_mode": "how the decks are made, as it is set",
    "cards": "where the cards are (phones or one table), as it is set",
    "arrange": "a survivor's sheet as it is laid out, each object and token where it lies",
}


@dataclass
class Control:
    kind: str  # "select" or "radio"
    name: str
    multiple: bool = False  # a menu of several choices starts on none anyway
    options: list[tuple[str, bool, bool]] = field(default_factory=list)  # value, chosen, disabled

    def real(self) -> list[tuple[str, bool, bool]]:
        return [o for o in self.options if o[0] != "" and not o[2]]

    def starts_on_a_choice(self) -> str | None:
        real = self.real()
        if len(real) < 2:
            return None
        chosen = [o for o in self.options if o[1]]
        if self.kind == "select" and not chosen and not self.multiple:
            chosen = self.options[:1]  # a menu shows its first option
        picked = [o[0] for o in chosen if o[0] != ""]
        return picked[0] if picked else None


@dataclass
class Form:
    type: str = ""
    controls: dict[tuple[str, str], Control] = field(default_factory=dict)


class Forms(HTMLParser):
    """The forms of a page, with their menus and radio groups."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: Control | None = None
        self.option: tuple[str, bool, bool] | None = None
        self.option_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.form = Form()
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            kind, name = a.get("type"), a.get("name") or ""
            if kind == "hidden" and name == "type":
                self.form.type = a.get("value") or ""
            elif kind == "radio":
                control = self.form.controls.setdefault(("radio", name), Control("radio", name))
                control.options.append((a.get("value") or "", "checked" in a, "disabled" in a))
        elif tag == "select":
            name = a.get("name") or ""
            self.select = Control("select", name, multiple="multiple" in a)
            self.form.controls[("select", name + str(len(self.form.controls)))] = self.select
        elif tag == "option" and self.select is not None:
            self.option = (a.get("value"), "selected" in a, "disabled" in a)  # type: ignore[assignment]
            self.option_text = ""

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option_text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self.select is not None and self.option is not None:
            value, chosen, disabled = self.option
            value = self.option_text.strip() if value is None else value
            self.select.options.append((value, chosen, disabled))
            self.option = None
        elif tag == "select":
            self.select = None
        elif tag == "form":
            self.form = None


@pytest.mark.parametrize("label", sorted(SCENES))
def test_no_choice_that_decides_starts_chosen(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    urls = [
        u
        for u in addresses(all_routes(client.app.routes), scene, service)  # type: ignore[attr-defined]
        if "/live/" not in u and not u.endswith((".svg", ".csv", ".json", ".png"))
    ]
    declared = service.load(scene.game).kind.declared_defaults
    found: set[str] = set()
    for persona, phone in phones(client, service, scene).items():
        if persona == "stranger":
            continue
        for url in urls:
            answer = phone.get(url)
            if answer.status_code != 200 or "html" not in answer.headers.get("content-type", ""):
                continue
            parser = Forms()
            parser.feed(answer.text)
            for form in parser.forms:
                if not form.type or form.type in SHOWS_WHAT_IS:
                    continue
                for control in form.controls.values():
                    picked = control.starts_on_a_choice()
                    default = declared.get(form.type, {}).get(control.name)
                    if picked is not None and default not in (picked, "*"):
                        found.add(
                            f"{url} ({persona}): {form.type} · {control.kind} "
                            f"“{control.name}” starts on “{picked}”"
                        )
    assert not found, "\n".join(sorted(found))
