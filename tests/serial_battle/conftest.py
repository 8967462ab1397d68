"""Serial Battle builders: a small test deck, a state to play commands on with chosen dice, and the
pages' authorization matrix."""

from __future__ import annotations

from typing import Any

from server.games.serial_battle.catalog import Card, Face, Location, Protection
from server.games.serial_battle.kind import SERIAL_BATTLE
from server.games.serial_battle.state import Held, Player, SBState, Sector
from server.platform.clock import FakeClock
from server.platform.dice import CommandDice, ScriptedRolls
from server.platform.kinds import Context, Outcome, Viewer


def faces(*spec: Any) -> list[Face]:
    out = []
    for item in spec:
        if isinstance(item, int):
            out.append(Face(pv=item))
        else:
            pv, effect = item.split()
            out.append(Face(pv=int(pv), effect=effect))
    return out


def card(key: str, **fields: Any) -> Card:
    fields.setdefault("category", "blade")
    return Card(key=key, name=key.capitalize(), **fields)


DECK = [
    card("blade", faces=faces(1, 2, 3, "4 severed", "5 knocked_out", "6 critical")),
    card("sword", faces=faces(5, 5, 5, 5, 5, 5), abilities=["two_hands"]),
    card("gun", category="container", faces=faces(10, 10, 10, 10, 10, 10), ammo=2),
    card(
        "bow",
        category="throwing",
        faces=faces(3, 3, 3, 3, 3, 3),
        ammo=2,
        recoverable=True,
        abilities=["long_range"],
    ),
    card(
        "shotgun",
        category="container",
        faces=faces(4, 4, 4, 4, 4, 4),
        ammo=5,
        abilities=["multiple_targets"],
    ),
    card(
        "grenade",
        category="throwing",
        faces=faces(6, 6, 6, 6, 6, 6),
        ammo=1,
        abilities=["mass_damage"],
    ),
    card("fist", faces=faces(1, 1, 1, 1, 1, 1), abilities=["initiative"]),
    card(
        "saber",
        category="energy",
        faces=faces(20, 20, 20, 20, 20, 20),
        abilities=["absolute_initiative"],
        unlimited_ammo=True,
    ),
    card("helmet", category="permanent", protections={Location.HEAD: Protection(reduce=3)}),
    card("armor", category="permanent", protections={Location.TRUNK: Protection(immune=True)}),
    card("rope", category="misc", faces=faces(*["8 strangled"] * 6)),
    card("club", faces=faces(*["2 fractured"] * 6)),
    card("poison", category="misc", abilities=["complementary"], bonus=2),
    card("whistle", category="misc"),
    card("knife", faces=faces(2, 2, 2, 2, 2, 2), copies=3),
]


REFEREE = Viewer("referee", 100, "Ref")


def game(
    *names: str,
    cards: dict[str, list[str]] | None = None,
    pv: dict[str, int] | None = None,
    sectors: tuple[str, ...] = ("North", "South", "East"),
) -> SBState:
    """A running game; player ids are 1, 2, 3... in the order of `names`."""
    state = SBState(
        deck=DECK, sample_deck=False, phase="running", sectors=[Sector(name=s) for s in sectors]
    )
    for number, name in enumerate(names, start=1):
        held = []
        for copy_id in (cards or {}).get(name, []):
            model = next(c for c in DECK if c.key == copy_id.split("#")[0])
            held.append(Held(copy_id=copy_id, ammo=None if model.unlimited_ammo else model.ammo))
        state.players[str(number)] = Player(
            id=number, name=name, cards=held, pv=(pv or {}).get(name, 36)
        )
    return state


class Table:
    """Plays commands on a state with scripted dice, as the service would, minus the database."""

    def __init__(self, state: SBState) -> None:
        self.state = state
        self.clock = FakeClock()
        self.last: Outcome[SBState] | None = None
        self.rolls: list[dict[str, Any]] = []

    def play(
        self,
        command: dict[str, Any],
        *rolls: int,
        entered: dict[str, int] | None = None,
        actor: Viewer = REFEREE,
    ) -> Outcome[SBState]:
        dice = CommandDice(ScriptedRolls(rolls), entered or {})
        self.last = SERIAL_BATTLE.apply(
            self.state, SERIAL_BATTLE.parse(command), Context(actor, dice, self.clock.now())
        )
        self.state = self.last.state
        self.rolls = dice.rolls
        return self.last

    def p(self, player_id: int) -> Player:
        return self.state.players[str(player_id)]

    @property
    def said(self) -> str:
        assert self.last is not None
        return self.last.summary.render()


ROLES = ("org", "ref", "lea", "hugo", "ref_b", "stranger")


STAFF = {"org", "ref"}


ALL = set(ROLES)


# (method, route, concrete path, form, who may)
SB_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/g/{game_id}/serial_battle/deck", "/g/{g}/serial_battle/deck", None, STAFF),
    ("GET", "/g/{game_id}/serial_battle/deck.json", "/g/{g}/serial_battle/deck.json", None, STAFF),
    ("GET", "/g/{game_id}/serial_battle/deck.csv", "/g/{g}/serial_battle/deck.csv", None, STAFF),
    ("GET", "/g/{game_id}/serial_battle/ammo", "/g/{g}/serial_battle/ammo", None, STAFF),
    (
        "GET",
        "/g/{game_id}/serial_battle/assault",
        "/g/{g}/serial_battle/assault?attacker={lea}&defenders={hugo}",
        None,
        STAFF,
    ),
    (
        "POST",
        "/g/{game_id}/serial_battle/deck",
        "/g/{g}/serial_battle/deck",
        {"sample": "1"},
        STAFF,
    ),
]
