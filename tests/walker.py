"""A seeded random walk of a game through its own pages (issue 53): at each step every person's
page is opened fresh, one of the forms it offers is filled as a person would (a choice at random
among what each menu, radio group, box and button offers; a number typed within its bounds) and
posted as htmx posts it. What a page offers, the server must take: a refusal of an offered form
is the walk's finding, as is any answer 500, and a game in which nobody is offered anything while
it has not ended.

A link that keeps a half-made action in the page's address (an attacker picked, two teams
chosen: `?attacker=...`) is followed as a tap too; the forms of the page it leads to are then
that person's offers.

Names no game: the walk starts from any scene (`tests/scene.py`).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi.testclient import TestClient

from server.platform.kinds import Viewer, may_now
from server.platform.service import GameService
from tests.conftest import Phone
from tests.scene import Scene

FORM = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}


@dataclass
class Group:
    """A rule across a form's fields, as the page declares it and its script holds it before
    the tap (`static/js/rules.js`): a person reads it, and fills the form so that it holds."""

    pick: int | None = None  # exactly this many of its menus chosen
    distinct: bool = False  # its menus never on one value, but `shared`
    shared: set[str] = field(default_factory=set)
    total: tuple[int, int] | None = None  # its numbers, by their points, within, or 0 if `none`
    none: bool = False
    menus: list[int] = field(default_factory=list)  # indices in `Offer.menus`
    # What an option takes besides its own place (`data-covers`): by menu index and value.
    covers: dict[int, dict[str, set[str]]] = field(default_factory=dict)
    numbers: list[tuple[int, int, int]] = field(default_factory=list)  # in `typed`, points, max
    unmet: bool = False  # no choice holds the rule: the page never lets the form be sent
    changed: bool = False  # one of its numbers at least changed from the one shown
    named: str = ""  # the field whose value is the total's upper bound (`data-total="0-@x"`)
    least: int = 0  # this many of its boxes ticked at least
    most: int | None = None  # and at most (`data-most`)
    boxes: list[int] = field(default_factory=list)  # indices in `Offer.boxes`

    def apply(
        self,
        chosen: dict[int, str],
        menus: list[Any],
        pick: random.Random,
        allowed: dict[int, set[str]],
    ) -> None:
        """Makes the menus' choices hold the rule (`chosen`: by menu index), each among what
        another menu's choice leaves it (`allowed`, by menu index)."""
        if self.pick is not None:
            filled = set(pick.sample(self.menus, min(self.pick, len(self.menus))))
            for index in self.menus:
                if index not in filled:
                    chosen[index] = ""
                elif not chosen.get(index):
                    options = [v for v in menus[index][1] if v]
                    chosen[index] = pick.choice(options) if options else ""
        if self.distinct:
            used: set[str] = set()

            def places(index: int, value: str) -> set[str]:
                return ({value} | self.covers.get(index, {}).get(value, set())) - self.shared

            # The menu with the fewest choices first, as a person would fill them.
            for index in sorted(self.menus, key=lambda i: len(menus[i][1])):
                value = chosen.get(index, "")
                if not value:
                    continue
                if places(index, value) & used:
                    free = [
                        v
                        for v in menus[index][1]
                        if v
                        and not places(index, v) & used
                        and (index not in allowed or v in allowed[index])
                    ]
                    value = pick.choice(free) if free else value
                    chosen[index] = value
                used |= places(index, value)

    def change(
        self, numbers: dict[int, str], typed: list[tuple[str, str, dict[str, str]]], pick: Any
    ) -> None:
        """One number at least other than the one shown, within its bounds."""
        indices = [index for index, _, _ in self.numbers]
        shown = {i: typed[i][2].get("value", "") for i in indices}
        if any(numbers.get(i, shown[i]) != shown[i] for i in indices):
            return
        for index in pick.sample(indices, len(indices)):
            attrs = typed[index][2]
            low, high = int(float(attrs.get("min") or 0)), int(float(attrs.get("max") or 99))
            others = [str(v) for v in range(low, high + 1) if str(v) != shown[index]]
            if others:
                numbers[index] = pick.choice(others)
                return
        self.unmet = True

    def totals(
        self,
        typed: dict[int, str],
        pick: random.Random,
        names: list[tuple[str, str, dict[str, str]]] | None = None,
    ) -> None:
        """Numbers that total within the rule's bounds (or none at all, where it allows); a
        bound may be what another field holds (`@name`)."""
        if self.total is None or not self.numbers:
            return
        if self.named and names is not None:
            at = next((i for i, (n, _, _) in enumerate(names) if n == self.named), None)
            held = int(typed.get(at, "0") or 0) if at is not None else 0
            self.total = (self.total[0], held)
        counts = {index: 0 for index, weight, _ in self.numbers if weight}
        if not (self.none and pick.random() < 0.3):
            goal = pick.randint(*self.total)
            points = {index: weight for index, weight, _ in self.numbers if weight}
            most = {index: high for index, _, high in self.numbers}
            while sum(counts[i] * points[i] for i in counts) < goal:
                room = goal - sum(counts[i] * points[i] for i in counts)
                fitting = [i for i in counts if points[i] <= room and counts[i] < most[i]]
                if not fitting:
                    self.unmet = sum(counts[i] * points[i] for i in counts) < self.total[0]
                    break
                counts[pick.choice(fitting)] += 1
        for index, count in counts.items():
            typed[index] = str(count)


@dataclass
class Offer:
    """A command form as its page offers it."""

    action: str
    confirm: bool = False  # the page asks "are you sure?" first (`hx-confirm`)
    folded: bool = False  # in a fold that starts closed (a player's tools, a power card)
    hidden: list[tuple[str, str]] = field(default_factory=list)
    menus: list[tuple[str, list[str], bool]] = field(default_factory=list)  # name, values, multiple
    radios: dict[str, list[str]] = field(default_factory=dict)
    boxes: list[tuple[str, str, bool]] = field(default_factory=list)  # name, value, ticked
    typed: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)  # name, kind, attrs
    buttons: list[tuple[str, str]] = field(default_factory=list)
    # A board inside the form: the squares each piece may go to, as its `data-moves` lights
    # them; the field that names the piece and the one a lit square fills, by their names
    # (`data-piece-field`, `data-square-field`).
    board_moves: dict[str, list[str]] = field(default_factory=dict)
    board_fields: tuple[str, str] = ("", "")
    closed: bool = False
    blocked: bool = False  # a required menu with nothing to choose
    label: str = ""
    pasted: bool = False  # a text to paste (a deck, a box's contents): its import's own tests
    groups: list[Group] = field(default_factory=list)  # rules across fields (static/js/rules.js)
    # A menu whose choice limits another's (`data-limits`): by its index, the other's name and,
    # by each of its values, the other's values it allows.
    limits: dict[int, tuple[str, dict[str, set[str]]]] = field(default_factory=dict)
    # An option that needs another menu on a value (`data-needs`): by menu index and value.
    needs: dict[int, dict[str, str]] = field(default_factory=dict)
    # A menu required while another field holds one of some values (`data-required-when`).
    required_when: dict[int, tuple[str, set[str]]] = field(default_factory=dict)
    # A field that counts only while another holds one of some values (`data-enabled-when`),
    # by ("menu" | "box" | "typed", index), or ("radio", name): a group of choices.
    enabled_when: dict[tuple[str, int | str], tuple[str, set[str]]] = field(default_factory=dict)
    # Numbers that share a key never hold one value (`data-unique`): by index in `typed`.
    unique: dict[int, str] = field(default_factory=dict)
    # Menus that share a key hold a value no more often than its option's `data-copies`: by
    # menu index, the key and each value's copies.
    capped: dict[int, tuple[str, dict[str, int]]] = field(default_factory=dict)
    # A number bounded by another's value, divided (`data-max-from`): by index in `typed`.
    max_from: dict[int, tuple[str, int]] = field(default_factory=dict)

    @property
    def type(self) -> str:
        if self.action.endswith("/undo"):
            return "undo"
        return next((v for k, v in self.hidden if k == "type"), "")

    def square(
        self, name: str, attrs: dict[str, str], radios: dict[str, str], pick: random.Random
    ) -> str | None:
        """A square as a person taps it: one the board lights for the piece chosen (the move),
        one of those the field lists (`data-squares`), else the one its placeholder shows;
        an optional one left empty half the time."""
        if "required" not in attrs and "data-required-when" not in attrs and pick.random() < 0.5:
            return None
        piece, square = self.board_fields
        lit = self.board_moves.get(radios.get(piece, ""), []) if name == square else []
        listed = lit or attrs.get("data-squares", "").split()
        if listed:
            return pick.choice(listed)
        return attrs.get("placeholder") or None

    def fill(self, pick: random.Random) -> list[tuple[str, str]] | None:
        """The fields a person's taps would send: a value for every choice."""
        fields = list(self.hidden)
        chosen = {
            index: pick.choice(values)
            for index, (_name, values, multiple) in enumerate(self.menus)
            if values and not multiple
        }
        numbers = {
            index: value
            for index, (_name, kind, attrs) in enumerate(self.typed)
            if (value := typed(kind, attrs, pick)) is not None
        }
        radios = {name: pick.choice(values) for name, values in self.radios.items()}
        for index, (name, _kind, attrs) in enumerate(self.typed):
            if "pattern" in attrs:  # a square: tapped on the board, where the page lights it
                square = self.square(name, attrs, radios, pick)
                if square is None:
                    numbers.pop(index, None)
                else:
                    numbers[index] = square
        limited: dict[int, set[str]] = {}
        for index, (other, allows) in self.limits.items():
            allowed = allows.get(chosen.get(index, ""))
            for at, (name, values, _multiple) in enumerate(self.menus):
                if name == other and allowed is not None:
                    limited[at] = allowed
                    fitting = [v for v in values if v in allowed]
                    chosen[at] = pick.choice(fitting) if fitting else ""
        ticked = {index for index in range(len(self.boxes)) if pick.random() < 0.5}
        for group in self.groups:  # ticked as the rule asks, at least (`data-least`)
            short = group.least - len(ticked & set(group.boxes))
            if short > 0:
                free = sorted(set(group.boxes) - ticked)
                ticked |= set(pick.sample(free, min(short, len(free))))
            over = len(ticked & set(group.boxes)) - (
                group.most if group.most is not None else 1 << 30
            )
            if over > 0:  # and at most (`data-most`)
                ticked -= set(pick.sample(sorted(ticked & set(group.boxes)), over))

        def counts_menu(index: int) -> bool:
            rule = self.enabled_when.get(("menu", index))
            return rule is None or holds(*rule)

        def holds(name: str, values: set[str]) -> bool:
            """Whether the form's field `name` holds one of `values`, as filled so far."""
            held = [v for k, v in self.hidden if k == name]
            held += [radios[name]] if name in radios else []
            held += [v for i, v in chosen.items() if self.menus[i][0] == name]
            held += [self.boxes[i][1] for i in ticked if self.boxes[i][0] == name]
            return any(v in values for v in held)

        for index, (other, values) in self.required_when.items():
            options = [v for v in self.menus[index][1] if v]
            if holds(other, values) and not chosen.get(index) and options:
                chosen[index] = pick.choice(options)
        by_key: dict[str, set[str]] = {}
        for index, key in self.unique.items():
            value = numbers.get(index)
            if value is None:
                continue
            if value in by_key.setdefault(key, set()):
                attrs = self.typed[index][2]
                low, high = int(float(attrs.get("min") or 0)), int(float(attrs.get("max") or 99))
                free = [str(v) for v in range(low, high + 1) if str(v) not in by_key[key]]
                value = numbers[index] = pick.choice(free) if free else value
            by_key[key].add(value)
        for group in self.groups:
            group.apply(chosen, self.menus, pick, limited)
            group.totals(numbers, pick, self.typed)
            if group.changed:
                group.change(numbers, self.typed, pick)

        def met(need: str, index: int) -> bool:
            """A value another menu holds, or ("name:values") one a menu named so holds."""
            name, _, values = need.partition(":")
            if not values:
                return need in {v for i, v in chosen.items() if i != index}
            return any(self.menus[i][0] == name and v in values.split() for i, v in chosen.items())

        for index, wants in self.needs.items():
            need = wants.get(chosen.get(index, ""))
            if need is not None and not met(need, index):
                unmet = [v for v, n in wants.items() if not met(n, index)]
                others = {v for i, v in chosen.items() if i != index}
                fitting = [v for v in self.menus[index][1] if v not in unmet and v not in others]
                chosen[index] = pick.choice(fitting) if fitting else chosen[index]

        for index, (other, divisor) in self.max_from.items():
            at = next((i for i, (n, _, _) in enumerate(self.typed) if n == other), None)
            top = int(numbers.get(at, "0") or 0) // divisor if at is not None else 0
            if index in numbers and int(numbers[index]) > top:
                numbers[index] = str(pick.randint(0, max(0, top)))
        held_power: dict[tuple[str, str], int] = {}
        for index, (key, copies) in self.capped.items():
            value = chosen.get(index, "")
            if not value or not counts_menu(index):
                continue
            if held_power.get((key, value), 0) >= copies.get(value, 1):
                free = [
                    v
                    for v in self.menus[index][1]
                    if v
                    and held_power.get((key, v), 0) < copies.get(v, 1)
                    and v
                    not in {
                        chosen.get(j)
                        for j in self.capped
                        if j != index and self.menus[j][0] == self.menus[index][0]
                    }
                ]
                value = chosen[index] = pick.choice(free) if free else value
            held_power[(key, value)] = held_power.get((key, value), 0) + 1

        def counts(kind: str, index: int) -> bool:  # not greyed out by `data-enabled-when`
            rule = self.enabled_when.get((kind, index))
            return rule is None or holds(*rule)

        for index, (name, values, multiple) in enumerate(self.menus):
            if not counts("menu", index):
                continue
            if multiple:
                fields += [(name, v) for v in values if v and pick.random() < 0.5]
            elif index in chosen:
                fields.append((name, chosen[index]))
        fields += [
            (name, value)
            for name, value in radios.items()
            if (rule := self.enabled_when.get(("radio", name))) is None or holds(*rule)
        ]
        for index, (name, value, _ticked) in enumerate(self.boxes):
            if index in ticked and counts("box", index):
                fields.append((name, value or "on"))
        for index, (name, _kind, _attrs) in enumerate(self.typed):
            if index in numbers and counts("typed", index):
                fields.append((name, numbers[index]))
        if any(group.unmet for group in self.groups):
            return None  # the page keeps it from being sent (static/js/rules.js)
        if self.buttons:
            name, value = pick.choice(self.buttons)
            if name:
                fields.append((name, value))
        return fields


NAMES = iter(range(1, 10**9))


def typed(kind: str, attrs: dict[str, str], pick: random.Random) -> str | None:
    """What a person types in a field: a number within its bounds (or the one shown, kept), a
    text kept as shown, a new name where one is asked; None to leave it empty."""
    value = attrs.get("value", "")
    if kind == "number":
        if not value and "required" not in attrs and pick.random() < 0.5:
            return None  # an optional number left empty
        low = int(float(attrs.get("min") or 0))
        high = int(float(attrs.get("max") or low + 20))
        if value and pick.random() < 0.6:
            return value
        return str(pick.randint(low, max(low, high)))
    if value:  # a text that says what is (a plan, a name): kept
        return value
    if "required" not in attrs and pick.random() < 0.5:
        return None
    return f"Marche {next(NAMES)}"


class Offers(HTMLParser):
    """The command forms a page offers, and its links that keep a choice in the address."""

    def __init__(self) -> None:
        super().__init__()
        self.offers: list[Offer] = []
        self.links: list[str] = []
        self.form: Offer | None = None
        self.menu: tuple[str, list[str], bool] | None = None
        self.option: str | None = None
        self.text = ""
        self.area: dict[str, str] | None = None
        self.required = False
        self.templates = 0
        self.open_groups: list[tuple[str, int, Group]] = []  # tag, depth of that tag, group
        self.depth: dict[str, int] = {}
        self.folds: list[bool] = []  # each <details> open around here: whether it starts closed

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self.templates += 1
        if self.templates:
            return
        href = a.get("href", "")
        if tag == "a" and (href.startswith("?") or (href.startswith("/g/") and "?" in href)):
            self.links.append(href)  # this page with a choice kept (a chip: who attacks)
        if tag == "details":
            self.folds.append("open" not in a)
        if tag == "form" and a.get("action", "").endswith(("/act", "/undo")):
            self.form = Offer(a["action"], confirm="hx-confirm" in a, folded=any(self.folds))
            self.offers.append(self.form)
            return
        form = self.form
        if form is None:
            return
        self.depth[tag] = self.depth.get(tag, 0) + 1
        rules = {
            "data-pick",
            "data-distinct",
            "data-total",
            "data-changed",
            "data-least",
            "data-most",
        }
        if rules & a.keys():
            low, _, high = a.get("data-total", "").partition("-")
            named = high[1:] if high.startswith("@") else ""
            group = Group(
                named=named,
                pick=int(a["data-pick"]) if a.get("data-pick") else None,
                distinct="data-distinct" in a,
                shared=set(a.get("data-shared", "").split()),
                total=(int(low), 0 if named else int(high)) if high else None,
                none="data-total-none" in a,
                changed="data-changed" in a,
                least=int(a.get("data-least") or 0),
                most=int(a["data-most"]) if a.get("data-most") else None,
            )
            form.groups.append(group)
            self.open_groups.append((tag, self.depth[tag], group))
        name = a.get("name", "")
        if tag == "svg" and a.get("data-moves"):
            form.board_moves = json.loads(a["data-moves"])
            form.board_fields = (a.get("data-piece-field", ""), a.get("data-square-field", ""))
        if tag == "input" and "disabled" not in a:
            kind = a.get("type", "text")
            if kind == "hidden" and name:
                form.hidden.append((name, a.get("value", "")))
            elif kind == "radio" and name:
                form.radios.setdefault(name, []).append(a.get("value", ""))
                if ":" in a.get("data-enabled-when", ""):  # the group greyed out unless...
                    other, _, values = a["data-enabled-when"].partition(":")
                    form.enabled_when[("radio", name)] = (other, set(values.split()))
            elif kind == "checkbox" and name:
                form.boxes.append((name, a.get("value", ""), "checked" in a))
                self.enabled(form, a, "box", len(form.boxes) - 1)
                for _tag, _depth, group in self.open_groups:
                    group.boxes.append(len(form.boxes) - 1)
            elif kind == "submit":
                form.buttons.append((name, a.get("value", "")))
            elif name and kind in ("text", "number", "search", "tel"):
                form.typed.append((name, kind, a))
                self.enabled(form, a, "typed", len(form.typed) - 1)
                if a.get("data-unique"):
                    form.unique[len(form.typed) - 1] = a["data-unique"]
                if "/" in a.get("data-max-from", ""):
                    other, _, divisor = a["data-max-from"].partition("/")
                    form.max_from[len(form.typed) - 1] = (other, int(divisor or 1))
                for _tag, _depth, group in self.open_groups:
                    weight, high = int(a.get("data-points") or 1), int(float(a.get("max") or 99))
                    group.numbers.append((len(form.typed) - 1, weight, high))
        elif tag == "button" and a.get("type", "submit") == "submit":
            if "disabled" in a:
                form.closed = not form.buttons
            else:
                form.buttons.append((name, a.get("value", "")))
                form.closed = False
        elif tag == "select" and "disabled" not in a and name:
            self.menu = (name, [], "multiple" in a)
            self.required = "required" in a
            if a.get("data-limits"):
                form.limits[len(form.menus)] = (a["data-limits"], {})
            self.enabled(form, a, "menu", len(form.menus))
            if a.get("data-unique"):
                form.capped[len(form.menus)] = (a["data-unique"], {})
            if ":" in a.get("data-required-when", ""):
                other, _, values = a["data-required-when"].partition(":")
                form.required_when[len(form.menus)] = (other, set(values.split()))
        elif tag == "option" and self.menu is not None:
            self.option = None if "disabled" in a else a.get("value", "\0")
            self.text = ""
            capped = form.capped.get(len(form.menus))
            if capped is not None and self.option:
                capped[1][self.option] = int(a.get("data-copies") or 1)
            if self.option is not None and a.get("data-covers"):
                for _tag, _depth, group in self.open_groups:
                    covered = group.covers.setdefault(len(form.menus), {})
                    covered[self.option] = set(a["data-covers"].split())
            if self.option is not None and a.get("data-needs"):
                form.needs.setdefault(len(form.menus), {})[self.option] = a["data-needs"]
            limiting = form.limits.get(len(form.menus))
            if limiting is not None and self.option is not None and "data-allows" in a:
                limiting[1][self.option] = set(a["data-allows"].split())
        elif tag == "textarea" and name:
            self.area, self.text = {"name": name, **a}, ""

    @staticmethod
    def enabled(form: Offer, a: dict[str, str], kind: str, index: int) -> None:
        if ":" in a.get("data-enabled-when", ""):
            other, _, values = a["data-enabled-when"].partition(":")
            form.enabled_when[(kind, index)] = (other, set(values.split()))

    def handle_data(self, data: str) -> None:
        if self.option is not None or self.area is not None:
            self.text += data
        if self.form is not None and self.menu is None and data.strip():
            self.form.label = self.form.label or data.strip()[:40]

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self.templates -= 1
        if self.templates:
            return
        if tag == "details" and self.folds:
            self.folds.pop()
        if tag == "option" and self.menu is not None:
            if self.option is not None:  # a placeholder ("Choose…") is disabled: no choice
                value = self.text.strip() if self.option == "\0" else self.option
                self.menu[1].append(value)
            self.option = None
        elif tag == "select" and self.menu is not None and self.form is not None:
            if self.required:  # an empty choice is not sent: the browser asks for one
                self.menu = (self.menu[0], [v for v in self.menu[1] if v], self.menu[2])
                if not self.menu[1]:  # nothing to choose: the form cannot be sent
                    self.form.blocked = True
            self.form.menus.append(self.menu)
            for _tag, _depth, group in self.open_groups:
                group.menus.append(len(self.form.menus) - 1)
            self.menu = None
        elif tag == "textarea" and self.area is not None and self.form is not None:
            value = self.text.strip()
            if value:
                self.form.hidden.append((self.area["name"], value))
            elif "required" in self.area:
                self.form.pasted = True
            self.area = None
        elif tag == "form":
            self.form = None
            self.open_groups, self.depth = [], {}
        if self.form is not None and self.depth.get(tag):
            if self.open_groups and self.open_groups[-1][:2] == (tag, self.depth[tag]):
                self.open_groups.pop()
            self.depth[tag] -= 1


@dataclass
class Walk:
    """What a walk met: the refusals of offered forms, the steps taken, how it ended."""

    label: str
    seed: int
    steps: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)  # command type, what was said
    errors: list[str] = field(default_factory=list)
    stuck: str | None = None
    ended: bool = False


def offers_of(phone: TestClient, game: str, address: str = "") -> tuple[list[Offer], list[str]]:
    answer = phone.get(f"/g/{game}{address}")
    assert answer.status_code < 500, f"{address}: {answer.status_code}"
    if answer.status_code != 200:
        return [], []
    parser = Offers()
    parser.feed(answer.text)
    # A form with no button to tap (a weapon's attack with none in hand) offers nothing.
    offered = [o for o in parser.offers if o.buttons and not (o.closed or o.blocked or o.pasted)]
    here = f"/g/{game}?"
    links = [link[len(here) - 1 :] if link.startswith(here) else link for link in parser.links]
    return offered, [link for link in links if link.startswith("?")]


def everyone(client: TestClient, service: GameService, game: str) -> dict[str, TestClient]:
    """A phone for every person of the game (the scene's personas and the rest of the table),
    each with its seat taken, by name."""
    out: dict[str, TestClient] = {}
    for person in service.people(game):
        if person.revoked:
            continue
        phone = Phone(client, follow_redirects=False)
        token = service.link_of(person).token
        assert phone.get(f"/t/{token}").status_code == 303
        out[f"{person.role}:{person.name}"] = phone
    return out


def signature(offer: Offer | str) -> str:
    return offer if isinstance(offer, str) else f"{offer.action} {offer.type}"


def walk(
    service: GameService,
    scene: Scene,
    phones: dict[str, TestClient],
    *,
    seed: int,
    steps: int,
) -> Walk:
    """`steps` taps at random among what the scene's people are offered, from `scene`."""
    pick = random.Random(f"{scene.label}:{seed}")
    service.store.dice = lambda sides: pick.randint(1, sides)  # type: ignore[assignment]
    done = Walk(scene.label, seed)
    game = scene.game
    held: dict[str, str] = {}  # a person's page address, with the choice it keeps
    focus: str | None = None  # who just chose a link, and what they were offered before
    before: set[str] = set()
    viewers = {f"{p.role}:{p.name}": Viewer(p.role, p.id, p.name) for p in service.people(game)}
    for _ in range(steps):
        if service.load(game).kind.status(service.load(game).state) == "finished":
            done.ended = True
            break
        offered: list[tuple[str, Offer | str]] = []
        loaded = service.load(game)
        for persona, phone in phones.items():
            forms, links = offers_of(phone, game, held.get(persona, ""))
            # One source of what a person may do now: the game's declared moves (`may_now`).
            may = may_now(loaded.kind, loaded.state, viewers[persona])
            for form in forms:
                if form.type != "undo" and form.type not in may:
                    done.errors.append(
                        f"{persona} is offered {form.type!r}, not among its moves now {sorted(may)}"
                    )
            offered += [(persona, o) for o in forms]
            offered += [(persona, link) for link in links]
        if not offered:
            done.stuck = f"nobody is offered anything (step {done.steps})"
            break
        # Who just made a choice the address keeps (a chip: who acts, then on whom) most often
        # goes on with the half-made action it opened, as a person on the field finishes theirs.
        going_on = [(p, o) for p, o in offered if p == focus and signature(o) not in before]
        persona, chosen = pick.choice(going_on if going_on and pick.random() < 0.8 else offered)
        if isinstance(chosen, Offer) and (
            (chosen.confirm and pick.random() < 0.85) or (chosen.folded and pick.random() < 0.6)
        ):
            # A form the page asks about first (end the game, undo), or one in a fold (a
            # player's corrections), is seldom what one taps: taken as often as the game's own
            # moves, most walks would end in a few taps, by hand.
            persona, chosen = pick.choice(offered)
        focus = None
        done.steps += 1
        if isinstance(chosen, str):  # a link that keeps a choice in the address
            held[persona] = chosen
            focus = persona
            before = {signature(o) for p, o in offered if p == persona}
            continue
        fields = chosen.fill(pick)
        if fields is None:
            continue
        answer = phones[persona].post(chosen.action, content=urlencode(fields), headers=FORM)
        said = f"{persona} {chosen.type} {sorted(set(fields) - set(chosen.hidden))}"
        if answer.status_code >= 500:
            done.errors.append(f"{said}: {answer.status_code}")
        elif answer.status_code >= 400:
            reason = re.search(
                r'class="[^"]*(?:form-error|refused)[^"]*"[^>]*>(.*?)</', answer.text, re.S
            )
            text = re.sub(r"<[^>]+>|\s+", " ", reason.group(1) if reason else answer.text[:200])
            done.refused.append((chosen.type, f"{said}: {answer.status_code} {text.strip()}"))
        if "HX-Replace-Url" in answer.headers:  # the address the page holds after the tap
            query = urlsplit(answer.headers["HX-Replace-Url"]).query
            held[persona] = f"?{query}" if query else ""
    else:
        done.ended = service.load(game).kind.status(service.load(game).state) == "finished"
    return done
