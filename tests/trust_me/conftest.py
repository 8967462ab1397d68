"""A Trust Me table for tests (`TM`, `dealt`): four survivors registered in order, the deal's dice
all 1 (so the first registered plays first and the starting tokens are known), then each die
pushed before the command that rolls it. Trust Me's tests read Arbitre's sentences in English
(the message ids); the French ones are held to their translations by `tests/test_contract.py`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.games.trust_me.catalog import dump_box, sample_box
from server.games.trust_me.sheet import token_places
from server.i18n import current_language
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    token = current_language.set("en")
    yield
    current_language.reset(token)


NAMES = ("Léa", "Hugo", "Ana", "Tom")


PASSPORTS = {"Léa": "tank", "Hugo": "doc", "Ana": "marcus", "Tom": "lena"}


# With every deal die at 1, each draws the first starting tokens left in the box's order.
STARTING = {
    "Léa": ("surin", "surin", "munitions", "trousse-de-soin"),
    "Hugo": ("machette", "machette", "trousse-de-soin", "bandage"),
    "Ana": ("batte", "batte", "bandage", "porte-bonheur"),
    "Tom": ("pistolet", "pistolet", "sac-a-dos", "basket"),
}


KEEP = {  # the two kept: (offered index, place)
    "Léa": ((0, "right"), (3, "c3")),
    "Hugo": ((0, "right"), (3, "passport")),
    "Ana": ((0, "hands"), (3, "passport")),
    "Tom": ((0, "right"), (2, "backpack")),
}


@dataclass
class TM:
    service: GameService
    rolls: ScriptedRolls
    game: str = ""
    org: Viewer | None = None
    people: dict[str, Viewer] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)

    def act(self, who: str | None, command: dict[str, Any]) -> str:
        viewer = self.people[who] if who else self.org
        assert viewer is not None
        done = self.service.perform(self.game, viewer, command, idem_key=key())
        text = done.summary.render()
        self.said.append(text)
        return text

    @property
    def state(self) -> Any:
        return self.service.load(self.game).state

    def id(self, name: str) -> int:
        person = self.people[name].person_id
        assert person is not None
        return person

    def sheet(self, name: str) -> Any:
        return self.state.survivor(self.id(name))

    def item(self, name: str, key: str) -> int:
        """The id of the first item of this box key on the survivor's sheet."""
        state = self.state
        return next(int(i) for i in self.sheet(name).items if state.items[i].key == key)

    def free(self, name: str, n: int = 0) -> str:
        """A place for a token (the n-th free one)."""
        return token_places(self.state, self.sheet(name))[n]

    def dice(self, *values: int) -> None:
        self.rolls.push(*values)

    def nothing_until_zombies(self) -> None:
        """Every token left placed doing nothing (an aimer holding), up to the zombies."""
        while self.state.phase == "players":
            state = self.state
            if state.declared is not None and state.declared.ready:  # nobody fired (10.2)
                name = next(n for n in NAMES if self.id(n) == state.declared.survivor)
                self.act(name, {"type": "aimed", "answer": "go_on"})
                continue
            if state.declared is not None:
                aimer = next(n for n in NAMES if self.id(n) == state.declared.aimers[0])
                self.act(aimer, {"type": "aimed", "answer": "hold"})
                continue
            name = next(n for n in NAMES if self.id(n) == state.turn)
            self.act(name, {"type": "act", "action": "nothing", "slot": self.free(name)})

    def zombie_phase(
        self, infections: tuple[int, ...] = (), spawn: tuple[int, ...] = (5, 6)
    ) -> None:
        if not self.state.zombies.infections_rolled:
            self.dice(*infections)
            self.act(None, {"type": "infections"})
        self.dice(*spawn)
        self.act(None, {"type": "spawn"})
        if self.state.phase == "finished":  # 14: the last round's zombies: the end
            return
        for name in NAMES:
            s = self.sheet(name)
            if s.playing:
                self.act(name, {"type": "recover", "take": "actions"})


def own_box() -> str:
    """The sample box and a crossbow, a passport "Zed", an objective "zed": names no other game's
    box holds."""
    box = json.loads(dump_box(sample_box()))
    box["weapons"].append(
        {
            "key": "arbalete",
            "name": "Arbalète",
            "family": "military",
            "category": "ranged",
            "die": "black",
            "limit": 5,
        }
    )
    box["passports"].append({"key": "zed", "name": "Zed", "melee": 1, "ranged": 1, "survival": 1})
    box["objectives"].append({"key": "zed", "text": "Survivre.", "condition": "manual"})
    return json.dumps(box)


def dealt(
    service: GameService, rolls: ScriptedRolls, *, keep: bool = True, box: bool = False
) -> TM:
    """Four survivors, passports and décor given, dealt; their two tokens kept (`keep`); with the
    organizer's own box (`box`)."""
    t = TM(service, rolls)
    game, owner = service.create_game("trust_me", "Ville", "Orga", idem_key=key())
    t.game, t.org = game.id, viewer_of(owner)
    if box:
        t.act(None, {"type": "box", "text": own_box()})
    for name in NAMES:
        t.people[name] = viewer_of(service.register(game.id, t.org, "player", name, idem_key=key()))
        t.act(None, {"type": "passport", "player": t.id(name), "passport": PASSPORTS[name]})
        t.act(None, {"type": "decor", "player": t.id(name), "pieces": ["car", "sandbags"]})
    deck = sum(o.copies for o in t.state.box.objectives)
    t.dice(*[1] * ((deck - 1) + 4 * 4 + 4 + 2 + 1))  # shuffle, tokens, Communities, zombies, first
    t.act(None, {"type": "deal"})
    if keep:
        for name in NAMES:
            offered = t.sheet(name).offered
            items = [{"item": offered[i], "slot": slot} for i, slot in KEEP[name]]
            t.act(name, {"type": "keep", "items": items})
    return t


ROLES = ("org", "lea", "hugo", "public", "stranger")


EVERYONE = set(ROLES)


# (method, route, concrete path, form, who may)
TM_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/g/{game_id}/trust_me/box.json", "/g/{g}/trust_me/box.json", None, EVERYONE),
    ("GET", "/g/{game_id}/trust_me/box.csv", "/g/{g}/trust_me/box.csv", None, EVERYONE),
]
