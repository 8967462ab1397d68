"""Scenes: a game of some kind in one of its phases or ends, with the links of the people who
look at it (its organizer, a referee where the kind has any, each kind of player).

Each game declares its own in its tests' folder, `tests/<game>/scenes.py`: `SCENES` (a label
"kind:phase" to the function that builds it) and `WAITS_ON` (whom each scene waits for: the
personas whose now-line is marked as theirs). `all_scenes()` finds them through the registry of
kinds; the shared walks (`tests/security`, the now-line, the seats, the pushed pages, the
browser's layout) go through every one, and name no game.

What else a shared test needs of the games, each game declares there too, read merged by
`declared(name)`:

- `ANSWER_SECRETS`: by scene, what a viewer may not know, as words (a function of the service,
  the game and the viewer): no answer to a command they send names it
  (tests/security/test_answers.py).
- `DECK_PAGES`: each kind's own page that takes a deck, its address in the game
  (tests/security/test_boundaries.py).
- `DICE_FREE`: scenes in which the server rolled no die yet, with why
  (tests/security/test_undo.py).
- `ENDS`: the scenes of a game over, each with how it ended; `ENDLESS`: the kinds that never end,
  with why (tests/security/test_every_page.py).
- `FUZZED`: scenes the API's fuzzing aims at, each a game under way (tests/test_api_fuzz.py).
- `HOST_WALKED`: scenes whose every route is asked under a Host the server does not answer to,
  each with what it is (tests/security/test_budgets.py).
- `LONG_FORMS`: scenes whose first form for the reader's turn may run past the first screen,
  each with why: it starts there (tests/browser/test_first_screen.py).
- `LOADS`: a game under the load of many referees, by kind (a `Load`; tests/test_load_and_faults.py).
- `LOAD_BUDGETED`: the kinds whose demo's staff page is held to the first load's size budget
  (tests/browser/test_budgets.py).
- `PERSON_LISTS`: where the state lists the people of a role before the game begins, by kind
  and role (tests/test_service.py).
- `RECORD_READABLE`: whether the organizer reads the whole game, their file in clear
  (tests/security/test_game_file.py).
- `REFERENCES`: how each kind's commands are sent with another game's ids, by kind (a
  `References`; tests/security/test_references.py).
- `REPLAY_ENDS`: the end each kind's replay is tried on in the browser; True: also stepped
  through with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
- `ROLE_LIMITS`: scenes whose game file is brought in with one person too many of each role given
  (tests/security/test_game_file.py).
- `ROLL_WORDS`: dice purposes as the journal says them in French, by kind; `ROLL_STATES`: the
  state they are read in, where not a fresh game's (tests/test_i18n.py).
- `ROUTE_MATRIX`: a game's own routes, by kind, each with who may (walked in the game's folder);
  `ROUTES_EXEMPT`: routes checked elsewhere, and why (tests/test_authorization.py).
- `SECRET_IN_PLAY`: games in progress with secrets from their organizer, each with what is
  secret: moved only sealed or signed (tests/security/test_game_file.py, tests/test_moving.py).
- `WALK_KNOWN`: forms the walk still finds refused, by kind and command type (tests/test_walker.py).
"""

from __future__ import annotations

import atexit
import copy
import functools
import importlib
import pkgutil
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import tests
from server.games.demo import DEMOS
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, Viewer
from server.platform.service import GameService, Registered
from tests.conftest import key, viewer_of
from tests.kinds.tally import TALLY


@dataclass
class Scene:
    kind: str
    phase: str
    game: str
    people: dict[str, Viewer]  # by persona: "organizer", "referee", "player", "coach_a"...
    extra: dict[str, Any] = field(default_factory=dict)  # ids the routes name (team, match)

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.phase}"


Builder = Callable[[GameService, ScriptedRolls], Scene]


@dataclass
class World:
    """A game and what of it its commands name; `foreign`: the same things of another game of
    the same kind (tests/security/test_references.py)."""

    game: str
    people: dict[str, Viewer]
    ids: dict[str, Any]
    foreign: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


# A command's row: its well-formed form naming this game's own things (None: no valid form
# here), and a foreign value for each of its fields that names something.
Case = Callable[[World, GameService, ScriptedRolls], tuple[Any, dict[str, Any]]]


@dataclass(frozen=True)
class References:
    """How a kind's commands are sent with another game's ids (tests/security/test_references.py):
    the `world` of two games, each command's row (`cases`), the persona who sends them (`actor`,
    or `actor_for` a command), a well-formed command for the rows with no valid form of their own
    (`template`), the commands only the server or the platform sends (`platform_only`), and the
    (command, field) whose name says it names something but does not (`not_references`)."""

    world: Callable[[GameService, ScriptedRolls], World]
    cases: dict[str, Case]
    actor: str
    template: Callable[[World, str], dict[str, Any]] | None = None
    platform_only: frozenset[str] = frozenset()
    actor_for: dict[str, str] = field(default_factory=dict)
    not_references: frozenset[tuple[str, str]] = frozenset()


@dataclass
class Load:
    """A game under the load of many referees at once (tests/test_load_and_faults.py): the
    commands its organizer sends to start a game of referees and players, then `command`, a
    realistic mix of commands, legal and not, with their dice (drawn by `rng` among `players`)."""

    start: list[dict[str, Any]]
    command: Callable[[random.Random, list[int]], tuple[dict[str, Any], dict[str, int]]]


def registered(service: GameService, game: str, org: Viewer, role: str, name: str) -> Viewer:
    return viewer_of(service.register(game, org, role, name, idem_key=key()))


def stranger(service: GameService) -> Registered:
    """A person of another game (the platform's test kind), whose link opens nothing here."""
    game, owner = service.create_game(TALLY.key, "Ailleurs", "Hôte", idem_key=key())
    return service.register(game.id, viewer_of(owner), "referee", "Intrus", idem_key=key())


def scene_modules() -> list[Any]:
    """Each game's `tests/<folder>/scenes.py`."""
    found = []
    for folder in pkgutil.iter_modules(tests.__path__):
        if folder.ispkg and importlib.util.find_spec(f"tests.{folder.name}.scenes") is not None:
            found.append(importlib.import_module(f"tests.{folder.name}.scenes"))
    return found


def declared(name: str) -> dict[str, Any]:
    """What each game's scenes module declares under `name` (a dict by kind), merged."""
    merged: dict[str, Any] = {}
    for module in scene_modules():
        merged.update(getattr(module, name, {}))
    return merged


# ---------------------------------------------------------------- scenes built once a process

# A scene is built by playing its game through the service: tens of actions, up to a second and
# a half for a match played to its forfeit, and every shared walk builds every scene again on a
# database of its own. On SQLite, each process builds a scene once, keeps the database it left
# (a file copied by SQLite's own backup) with the dice and the clock as they were, and gives the
# next test a copy of it: the same rows, ids and links, on a database still of that test's own.
# Only from the same start: a database with no game yet, the same dice to come, the same time.


@dataclass(frozen=True)
class Kept:
    start: tuple[Any, ...]  # the dice and the clock the build started from
    file: Path
    scene: Scene
    dice: tuple[list[int], bool, int]
    time: datetime


_KEPT: dict[str, Kept] = {}
_FOLDER: list[Path] = []


def _dice(rolls: ScriptedRolls) -> tuple[list[int], bool, int]:
    return list(rolls.values), rolls.endless, rolls._next


def _fresh_sqlite(service: GameService, rolls: ScriptedRolls) -> Path | None:
    """The database's file when a kept scene may stand for a build here: SQLite, scripted dice
    the service rolls, a clock moved by hand, and no game yet."""
    db = service.db
    if not db.is_sqlite or rolls is not service.dice or not isinstance(service.clock, FakeClock):
        return None
    if type(rolls) is not ScriptedRolls or not db.writer.url.database:
        return None
    path = Path(db.writer.url.database)
    with closing(sqlite3.connect(path)) as conn:
        if conn.execute("SELECT 1 FROM game LIMIT 1").fetchone() is not None:
            return None
    return path


def _copy(source: Path, target: Path) -> None:
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def _folder() -> Path:
    if not _FOLDER:
        _FOLDER.append(Path(tempfile.mkdtemp(prefix="arbitre-scenes-")))
        atexit.register(shutil.rmtree, _FOLDER[0], ignore_errors=True)
    return _FOLDER[0]


def kept(label: str, build: Builder) -> Builder:
    """`build`, played once a process and then copied (above); `__wrapped__` plays it every
    time, for a test that watches the changes a scene is built of."""

    @functools.wraps(build)
    def scene(service: GameService, rolls: ScriptedRolls) -> Scene:
        path = _fresh_sqlite(service, rolls)
        if path is None:
            return build(service, rolls)
        clock: FakeClock = service.clock  # type: ignore[assignment]
        start = (*_dice(rolls), clock.current, service.store.secret)
        known = _KEPT.get(label)
        if known is not None and known.start == start:
            _copy(known.file, path)
            rolls.values, rolls.endless, rolls._next = copy.deepcopy(known.dice)
            clock.current = known.time
            return copy.deepcopy(known.scene)
        made = build(service, rolls)
        if known is None:
            file = _folder() / f"{label.replace(':', '-')}.db"
            _copy(path, file)
            _KEPT[label] = Kept(start, file, copy.deepcopy(made), _dice(rolls), clock.current)
        return made

    return scene


def all_scenes() -> tuple[dict[str, Builder], dict[str, set[str]]]:
    """Every game's scenes and whom each waits for, from each `tests/<folder>/scenes.py`; every
    registered kind with a demo (every game, not the platform's test kind) has at least one."""
    scenes: dict[str, Builder] = {}
    waits: dict[str, set[str]] = {}
    for module in scene_modules():
        scenes.update({label: kept(label, b) for label, b in module.SCENES.items()})
        waits.update(getattr(module, "WAITS_ON", {}))
    found = {label.split(":", 1)[0] for label in scenes}
    missing = sorted(k for k in KINDS if k in DEMOS and k not in found)
    assert not missing, f"no scenes for {missing}: declare them in tests/<game>/scenes.py"
    return scenes, waits


def played_kinds() -> list[str]:
    """Every kind that plays: a game's, or a test-only one's in a folder of its own (issue 52's
    sixth-game drill); the shared walks hold each to the code's contract."""
    return sorted({label.split(":", 1)[0] for label in all_scenes()[0]})
