"""What the form offers, the server accepts (issue 35, class A).

Every page of every scene (each kind's phases and ends), for every person of the scene: each
form that sends a command is submitted once for every option it offers (each option of each
menu, each radio button, each submit button that carries a value), the other choices on their
first real option, through `GameService.try_out`: the same checks as a tap (who may send it,
what it names, the rules on the present state) with nothing written. None is refused.

A form that needs something typed that no option gives (a square, a distance, a score, a name)
is left to the tests of its kind; a scene in play where nothing was tried fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import FormData

from server.errors import ArbitreError
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from server.web.forms import form_command
from tests.conftest import all_routes
from tests.security.conftest import SCENES, Scene, addresses, phones


@dataclass
class Choice:
    """A control that decides: its name and the values it offers (a placeholder left out)."""

    name: str
    values: list[str] = field(default_factory=list)


@dataclass
class Form:
    action: str
    fixed: list[tuple[str, str]] = field(default_factory=list)  # hidden, typed, ticked
    choices: dict[str, Choice] = field(default_factory=dict)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # name, value
    typed: list[str] = field(default_factory=list)  # required and empty: nothing to choose
    closed: bool = False  # its only buttons are disabled: it offers nothing yet

    @property
    def type(self) -> str:
        return next((v for k, v in self.fixed if k == "type"), "")

    def variants(self) -> Iterator[tuple[str, list[list[tuple[str, str]]]]]:
        """Each option the form offers, with the submissions that carry it: the others on their
        first option, then other combinations of them (two menus may depend on each other: a
        bearer and their card)."""
        buttons = self.buttons or [("", "")]
        options = [(name, v) for name, c in self.choices.items() for v in c.values]
        options += [("\0button", f"{n}\0{v}") for n, v in buttons]
        for name, value in options:
            yield (
                f"{name.split(chr(0))[0] or 'button'}={value.replace(chr(0), '=')}",
                list(self._tries(name, value, buttons)),
            )

    def _tries(
        self, name: str, value: str, buttons: list[tuple[str, str]]
    ) -> Iterator[list[tuple[str, str]]]:
        others = {n: c.values for n, c in self.choices.items() if n != name and c.values}
        pick = random.Random(f"{self.type}{name}{value}")
        for attempt in range(COMBINATIONS):
            picked = {n: vs[0] if attempt == 0 else draw(pick, vs) for n, vs in others.items()}
            if name == "\0button":
                button = tuple(value.split("\0", 1))
            else:
                picked[name] = value
                button = buttons[0] if attempt == 0 else pick.choice(buttons)
            fields = [*self.fixed, *((k.split("\0")[0], v) for k, v in picked.items())]
            yield fields + ([button] if button[0] else [])  # type: ignore[list-item]


def draw(pick: random.Random, values: list[str]) -> str:
    """An option at random, "none" ("back in the box", "nobody") as often as all the others:
    forms that want some of their menus left empty (keep two tokens of four) are found."""
    if "" in values and len(values) > 1 and pick.random() < 0.5:
        return ""
    return pick.choice(values)


class Forms(HTMLParser):
    """The command forms of a page, every field with what it starts on."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: tuple[str, Choice, bool] | None = None  # name, choice, required
        self.option: tuple[str | None, bool] | None = None
        self.text = ""
        self.area: tuple[str, bool] | None = None
        # Boxes of a group that wants some ticked (`data-least`, static/js/rules.js): by the
        # group's tag, its depth, how many, the ticked count and the unticked boxes.
        self.least: list[tuple[str, int, int, list[int], list[tuple[str, str]]]] = []
        self.depth: dict[str, int] = {}

    templates = 0  # inside a <template>: inert, offered to nobody (a script fills it in)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self.templates += 1
        if tag == "form" and a.get("action", "").endswith("/act") and not self.templates:
            self.form = Form(a["action"])
            self.forms.append(self.form)
        form = self.form
        if form is None:
            return
        self.depth[tag] = self.depth.get(tag, 0) + 1
        if a.get("data-least"):
            self.least.append((tag, self.depth[tag], int(a["data-least"]), [0], []))
        name, value = a.get("name", ""), a.get("value", "")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("hidden", "text", "number", "search", "tel"):
                if value == "" and "required" in a:
                    form.typed.append(name)
                elif value != "":
                    form.fixed.append((name, value))
            elif kind == "checkbox" and "checked" in a:
                form.fixed.append((name, value or "on"))
                for *_, ticked, _boxes in self.least:
                    ticked[0] += 1
            elif kind == "checkbox":
                for *_, boxes in self.least:
                    boxes.append((name, value or "on"))
            elif kind == "radio":
                form.choices.setdefault(name, Choice(name)).values.append(value)
            elif kind == "submit":
                form.buttons.append((name, value))
        elif tag == "button" and a.get("type", "submit") == "submit":
            if "disabled" in a:
                form.closed = not form.buttons
            else:
                form.buttons.append((name, value))
                form.closed = False
        elif tag == "select" and "disabled" not in a:
            key = f"{name}\0{len(form.choices)}"  # two menus may share a name ("slots[]")
            self.select = (key, Choice(name), "required" in a)
        elif tag == "option" and self.select is not None:
            self.option = (a.get("value"), "disabled" in a)
            self.text = ""
        elif tag == "textarea":
            self.area, self.text = (name, "required" in a), ""

    def handle_data(self, data: str) -> None:
        if self.option is not None or self.area is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self.templates -= 1
        if self.form is not None and self.depth.get(tag):
            if self.least and self.least[-1][:2] == (tag, self.depth[tag]):
                _tag, _depth, least, ticked, boxes = self.least.pop()
                # As a person would: the fewest boxes the group asks, the first ones.
                self.form.fixed += boxes[: max(0, least - ticked[0])]
            self.depth[tag] -= 1
        if tag == "option" and self.select is not None and self.option is not None:
            value, disabled = self.option
            value = self.text.strip() if value is None else value
            if not disabled:  # "" is a choice too ("back in the box"); a placeholder is disabled
                self.select[1].values.append(value)
            self.option = None
        elif tag == "select" and self.select is not None and self.form is not None:
            key, choice, _ = self.select
            if choice.values:
                self.form.choices[key] = choice
            self.select = None
        elif tag == "textarea" and self.area is not None and self.form is not None:
            name, required = self.area
            if self.text.strip():
                self.form.fixed.append((name, self.text.strip()))
            elif required:
                self.form.typed.append(name)
            self.area = None
        elif tag == "form":
            self.form = None


def pages(client: TestClient, service: GameService, scene: Scene) -> list[str]:
    return [
        u
        for u in addresses(all_routes(client.app.routes), scene, service)  # type: ignore[attr-defined]
        if "/live/" not in u and not u.endswith((".svg", ".csv", ".json", ".png"))
    ]


COMBINATIONS = 24  # submissions tried for an option before it is said refused


def take(
    service: GameService, game: str, viewer: Viewer, fields: list[tuple[str, str]], dice: Any
) -> str | None:
    """None if the tap would be taken, else the refusal it would get."""
    payload, entered = form_command(FormData(fields))
    seq = next((int(v) for k, v in fields if k == "seq"), None)
    try:
        service.try_out(
            game,
            viewer,
            service.load(game).kind.from_form(payload),
            seen_seq=seq,
            rolls=entered,
            dice=lambda sides: dice(1, sides),
        )
    except ArbitreError as error:
        return str(error)
    return None


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_option_a_form_offers_is_taken(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    dice = random.Random(label).randint
    refused: set[str] = set()
    tried = 0
    for persona, phone in phones(client, service, scene).items():
        if persona in ("stranger", "public"):
            continue
        viewer = scene.people[persona]
        for url in pages(client, service, scene):
            answer = phone.get(url)
            if answer.status_code != 200 or "html" not in answer.headers.get("content-type", ""):
                continue
            parser = Forms()
            parser.feed(answer.text)
            for form in parser.forms:
                if form.closed:
                    continue
                if form.typed:
                    continue
                game = form.action.split("/")[2]
                for what, tries in form.variants():
                    tried += 1
                    first = None
                    for fields in tries:
                        refusal = take(service, game, viewer, fields, dice)
                        if refusal is None:
                            break
                        first = first or refusal
                    else:
                        refused.add(f"{url} ({persona}) {form.type} · {what}: {first}")
    assert not refused, "\n".join(sorted(refused))
    ended = ("won", "ended", "revealed", "forfeit", "surrendered", "no_survivor")
    assert tried or label.endswith(ended), label
