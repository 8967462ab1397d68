"""Fixtures and builders every test may use: a real database per test (SQLite file, or PostgreSQL
when DATABASE_URL says so), a fake clock, scripted dice, the app, phones on it (`Phone`, `phone`,
`Phones`), any kind's table of people (`table`), and a browser at a phone's viewport."""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import func, select
from starlette.routing import Mount

from server.app import create_app
from server.config import Settings
from server.db import Database, normalize_url
from server.migrate import upgrade
from server.models import Event, Game, Person
from server.platform.clock import FakeClock, SteadyClock
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer, register
from server.platform.live import Broker
from server.platform.sealing import server_key
from server.platform.service import GameService, Registered
from tests.browser.plugin import _browser_marker, mark_browser_tests, quiet_console
from tests.kinds.tally import TALLY
from tests.server_process import free_port

__all__ = ["_browser_marker", "quiet_console"]  # every browser test's, wherever its file is

register(TALLY)
# Test-only games in folders of their own (issue 52's sixth-game drill): each
# `tests/<folder>/kind.py` with a `KIND` is registered, its templates are in
# `tests/<folder>/templates/<kind>/`, its scenes in `tests/<folder>/scenes.py` (`tests/scene.py`).
KIND_FOLDERS = sorted(p.parent for p in Path(__file__).parent.glob("*/kind.py"))
for _folder in KIND_FOLDERS:
    register(importlib.import_module(f"tests.{_folder.name}.kind").KIND)
TEST_TEMPLATES = [
    Path(__file__).parent / "templates",
    *(f / "templates" for f in KIND_FOLDERS if (f / "templates").is_dir()),
]
SECRET = "test-secret-key-for-arbitre"
PG_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = PG_URL.startswith(("postgresql", "postgres"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_browser_tests(items)


# ---------------------------------------------------------------- databases


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str | None]:
    if not ON_POSTGRES:
        yield None
        return
    import psycopg

    admin = normalize_url(PG_URL).replace("postgresql+psycopg://", "postgresql://")
    name = f"arbitre_tpl_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    upgrade(_pg_db_url(name))
    yield name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _pg_db_url(name: str) -> str:
    base = normalize_url(PG_URL)
    head, _, _db = base.rpartition("/")
    return f"{head}/{name}"


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path, pg_template: str | None) -> Iterator[str]:
    if pg_template is None:
        path = tmp_path / "arbitre.db"
        shutil.copy(sqlite_template, path)
        yield f"sqlite:///{path}"
        return
    import psycopg

    admin = normalize_url(PG_URL).replace("postgresql+psycopg://", "postgresql://")
    name = f"arbitre_t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{pg_template}"')
    yield _pg_db_url(name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# The names the tests' servers answer to: the test client's, the loopback, a laptop's address on
# a hotspot (tests/test_pages.py), and the field's name the browser tests map to the loopback
# (tests/browser/test_field_mode.py).
TEST_HOSTS = "testserver,127.0.0.1,localhost,192.168.43.10,arbitre.field"
# The games budget out of the way of tests that create many games from one address; the budgets'
# own tests keep the defaults (tests/security/test_budgets.py).
ROOMY = {"games_per_minute": 10_000}


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(
        database_url=db_url,
        secret_key=SECRET,
        language="fr",
        scheduler_interval=0.05,
        allowed_hosts=TEST_HOSTS,
        **ROOMY,
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def rolls() -> ScriptedRolls:
    return ScriptedRolls()


@pytest.fixture
def service(settings: Settings, clock: FakeClock, rolls: ScriptedRolls) -> Iterator[GameService]:
    db = Database.connect(settings)
    yield GameService(db, SECRET, clock, rolls, Broker())
    db.dispose()


# The games' own clock under a machine whose clock jumps (issue 55): `tests/test_clock.py`, and
# each game's timers in its own folder.
START = datetime(2026, 6, 1, 14, 0, tzinfo=UTC)


class Machine:
    """A machine's two clocks, moved by hand: the wall clock (which may jump) and the
    monotonic one (which only goes on)."""

    def __init__(self) -> None:
        self.wall, self.steady = START, 1000.0

    def clock(self, floor: datetime | None = None) -> SteadyClock:
        return SteadyClock(floor, wall=lambda: self.wall, steady=lambda: self.steady)

    def wait(self, seconds: float) -> None:
        self.wall += timedelta(seconds=seconds)
        self.steady += seconds


@pytest.fixture
def machine() -> Machine:
    return Machine()


@pytest.fixture
def steady_service(settings: Settings, machine: Machine) -> Iterator[GameService]:
    """A service on the games' clock of a machine moved by hand (`machine`), its dice endless."""
    db = Database.connect(settings)
    rolls = ScriptedRolls()
    rolls.endless = True
    yield GameService(db, SECRET, machine.clock(db.latest_time()), rolls, Broker())
    db.dispose()


@pytest.fixture
def app(settings: Settings, clock: FakeClock, rolls: ScriptedRolls) -> Any:
    return create_app(
        settings,
        clock=clock,
        dice=rolls,
        template_dirs=TEST_TEMPLATES,
        migrate=False,
        scheduler=False,
    )


# What a phone's browser says when it opens an address as its page (its Fetch Metadata): a
# seat's ticket is taken so, at once (`pages.open_link`); a fetch without them (a messenger's
# preview) is shown the button that takes it.
BROWSER = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(
        app, base_url="http://testserver", follow_redirects=False, headers=BROWSER
    ) as c:
        yield c
    assert_states_untouched(app.state.service)


class Phone(TestClient):
    """Another browser on the app `client` serves: the same running app and event loop (a test
    client of its own would start an event loop for each request, twice the cost of a page)."""

    def __init__(self, client: TestClient, *, follow_redirects: bool = True) -> None:
        super().__init__(client.app, follow_redirects=follow_redirects, headers=BROWSER)
        self.portal = client.portal


# A page's tokens: its session's cross-site token and its forms' idempotency keys.
PAGE_TOKENS = re.compile(
    r'(name="csrf-token" content=|name="csrf_token" value=|name="idem" value=)"[^"]*"'
)


def fingerprint(html: str) -> str:
    """What a page shows, without the tokens drawn for its request: two pages of the same
    fingerprint look and read the same."""
    return hashlib.sha1(PAGE_TOKENS.sub(r'\1""', html).encode()).hexdigest()


def assert_states_untouched(service: GameService) -> None:
    """Readers share the state the service keeps for each game (no copy per page): after a test
    has rendered its pages, each kept state is still the one stored for its sequence number."""
    with service.db.read() as s:
        for game_id, (seq, state) in list(service.store._cache.items()):
            game = s.get(Game, game_id)
            if game is not None and game.seq == seq:
                assert state.model_dump(mode="json") == game.state, f"a view changed {game_id}"


# ---------------------------------------------------------------- browser


class LiveServer:
    def __init__(self, app: Any, port: int) -> None:
        import uvicorn

        self.url = f"http://127.0.0.1:{port}"
        self.app = app
        self.clock: FakeClock | None = None
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=2,
            server_header=False,  # as `python -m server serve` runs it
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def live_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database of its own for a server the browser tests reach (migrated by the app)."""
    path = tmp_path_factory.mktemp("live") / "live.db"
    url = _pg_db_url(f"arbitre_live_{uuid.uuid4().hex[:8]}") if ON_POSTGRES else f"sqlite:///{path}"
    if ON_POSTGRES:
        import psycopg

        admin = normalize_url(PG_URL).replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{url.rpartition("/")[2]}"')
    return url


def live_app(url: str, clock: FakeClock) -> Any:
    settings = Settings(
        database_url=url,
        secret_key=SECRET,
        scheduler_interval=0.2,
        allowed_hosts=TEST_HOSTS,
        **ROOMY,
    )
    return create_app(
        settings, template_dirs=TEST_TEMPLATES, dice=ScriptedRolls.cycle(), clock=clock
    )


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    clock = FakeClock(datetime.now(UTC))  # moved by hand where a test needs a deadline
    server = LiveServer(live_app(live_database(tmp_path_factory), clock), free_port())
    server.clock = clock
    server.start()
    yield server
    server.stop()


def chromium_path() -> str | None:
    return (
        os.environ.get("CHROMIUM_PATH")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": path,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
        "locale": "fr-FR",
    }


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    return live_server.url


def run_async(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: Playwright's sync API may hold this thread's loop
    (the browser tests run first in the same process)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def key() -> str:
    return uuid.uuid4().hex


def viewer_of(registered: Registered) -> Viewer:
    person = registered.person
    return Viewer(person.role, person.id, person.name)


def opened(client: TestClient, token: str) -> Phone:
    """A phone that opened a link: its seat taken, if a ticket, and in its session."""
    phone = Phone(client, follow_redirects=False)
    assert phone.get(f"/t/{token}").status_code == 303
    return phone


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_key(service: GameService, game_id: str, person_id: int | None) -> str:
    """What a person's phone or API client holds as their key: the organizer's link, or their
    seat's own key, the seat taken first (`POST /api/v1/claim`) where no phone took it yet."""
    assert person_id is not None
    person = service.person(game_id, person_id)
    if person.role != "organizer" and person.claimed_at is None:
        return service.claim(token=service.link_of(person).token).link.token
    return service.link_of(person).token


@dataclass
class Table:
    """A game and the people at its table: its organizer and everyone registered, by name, each
    with their viewer and their link (`phone` opens a test client as that person)."""

    game: Game
    organizer: Registered
    people: dict[str, Registered] = field(default_factory=dict)

    @property
    def org(self) -> Viewer:
        return viewer_of(self.organizer)

    def viewer(self, name: str) -> Viewer:
        return viewer_of(self.people[name])

    def token(self, name: str | None = None) -> str:
        """The organizer's link, or a person's seat's ticket (not yet taken)."""
        return (self.people[name] if name else self.organizer).link.token


def table(
    service: GameService,
    kind: str,
    people: Sequence[tuple[str, str]] = (),
    *,
    settings: Mapping[str, Any] | None = None,
    dice: str = "server",
    name: str = "Partie test",
) -> Table:
    """Any kind's game, its organizer ("Orga") and `people` as (role, name), registered in order."""
    game, organizer = service.create_game(
        kind, name, "Orga", settings=dict(settings or {}), dice=dice, idem_key=key()
    )
    seated = Table(game, organizer)
    for role, person in people:
        seated.people[person] = service.register(game.id, seated.org, role, person, idem_key=key())
    return seated


def phone(client: Any, token: str) -> Any:
    """A test client signed in by a person's link, as their phone would be after the QR code."""
    client.cookies.clear()
    answer = client.get(f"/t/{token}", follow_redirects=True)
    assert answer.status_code == 200, answer.text[:300]
    return client


def tally_game(
    service: GameService, players: tuple[str, ...] = ("Léa", "Hugo")
) -> tuple[Game, Viewer, Viewer, list[Viewer]]:
    """A tally game with its organizer, a referee and players."""
    seated = table(service, "tally", [("referee", "Arbitre 1")] + [("player", p) for p in players])
    return (
        seated.game,
        seated.org,
        seated.viewer("Arbitre 1"),
        [seated.viewer(p) for p in players],
    )


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """The app on a real server on loopback, for what a test client cannot do (streams)."""
    server = LiveServer(app, free_port())
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]*)"', html) or re.search(
        r'name="csrf_token" value="([^"]+)"', html
    )
    assert match, "no CSRF token on the page"
    return match.group(1)


def form_fields(html: str, action: str) -> dict[str, Any]:
    """The hidden fields of the first form posting to `action`."""
    start = html.index(f'action="{action}"')
    end = html.index("</form>", start)
    return dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html[start:end]))


class Phones:
    """One phone per person of a game, for the leak hunts of the games with secrets: every answer
    a person's phone can ask a game for (the pages, the live parts, the API's state, a refusal as
    a fragment and as JSON), and the journal with its exports. `refusal`: a command not theirs to
    send now, as a form and as JSON (its refusal is searched too)."""

    def __init__(
        self,
        client: TestClient,
        service: GameService,
        game: str,
        refusal: tuple[dict[str, str], dict[str, Any]],
    ) -> None:
        self.client, self.service, self.game = client, service, game
        self.refusal = refusal
        self.phones: dict[str, TestClient] = {"public": Phone(client, follow_redirects=False)}
        self.tokens: dict[str, str] = {}

    def open(self, name: str, viewer: Viewer) -> None:
        phone = Phone(self.client, follow_redirects=False)
        record = self.service.person(self.game, viewer.person_id)  # type: ignore[arg-type]
        assert phone.get(f"/t/{self.service.link_of(record).token}").status_code == 303
        self.tokens[name] = seat_key(self.service, self.game, viewer.person_id)  # its key now
        self.phones[name] = phone

    def _headers(self, name: str, english: bool) -> tuple[dict[str, str], dict[str, str]]:
        headers = {"Accept-Language": "en" if english else "fr"}
        token = self.tokens.get(name)
        return headers, {**headers, "Authorization": f"Bearer {token}"} if token else headers

    def answers(self, name: str, english: bool) -> list[str]:
        """Everything but the journal, in one language."""
        g, phone = self.game, self.phones[name]
        headers, bearer = self._headers(name, english)
        hx = {**headers, "HX-Request": "true"}
        form, command = self.refusal
        return [
            phone.get(f"/g/{g}", headers=headers).text,
            phone.get(f"/g/{g}/board", headers=headers).text,
            phone.get(f"/g/{g}/people", headers=headers).text,
            phone.get(f"/g/{g}/live/board", headers=hx).text,
            phone.get(f"/g/{g}/live/player", headers=hx).text,
            phone.get(f"/g/{g}/live/staff", headers=hx).text,
            phone.get(f"/api/v1/games/{g}/state", headers=bearer).text,
            phone.post(f"/g/{g}/act", data={**form, "idem": key()}, headers=hx).text,
            phone.post(
                f"/api/v1/games/{g}/commands",
                json={"command": command},
                headers={**bearer, "Idempotency-Key": key()},
            ).text,
        ]

    def journal(self, name: str, english: bool, after: int = 0) -> list[str]:
        """The journal page, its two exports and the API's log, from after action `after`."""
        g, phone = self.game, self.phones[name]
        headers, bearer = self._headers(name, english)
        since = f"?after={after}" if after else ""
        return [
            phone.get(f"/g/{g}/log{since}", headers=headers).text,
            phone.get(f"/g/{g}/log.json{since}", headers=headers).text,
            phone.get(f"/g/{g}/log.csv{since}", headers=headers).text,
            phone.get(f"/api/v1/games/{g}/log{since}", headers=bearer).text,
        ]


class Hunt:
    """The leak hunts' search. After a step, everything a viewer can ask for, in the step's
    language (French and English by turns), is searched for what they may not know. The journal
    is not walked again from its start: each language's journal is searched from the first action
    it has not searched with the same forbidden words, so every entry is searched once in each
    language; a viewer whose forbidden words change has their whole journal searched again, and
    `finish` searches every journal whole, in both languages. `public`: what is left out of the
    search, a public list that names every secret (a box's list to pick from)."""

    def __init__(self, phones: Phones, public: re.Pattern[str] | None = None) -> None:
        self.phones, self.public = phones, public
        self.searched: dict[tuple[str, bool], tuple[str, int]] = {}  # -> (words, last action)
        self.checked = 0

    def search(self, name: str, forbidden: re.Pattern[str] | None, step: int) -> None:
        if forbidden is None:
            return
        english = step % 2 == 1
        seq = self.phones.service.seq_of(self.phones.game)
        words, done = self.searched.get((name, english), ("", 0))
        after = done if words == forbidden.pattern else 0
        texts = self.phones.answers(name, english)
        if after == 0 or after < seq:
            texts += self.phones.journal(name, english, after)
        self.searched[name, english] = (forbidden.pattern, seq)
        self._assert_hidden(name, forbidden, texts, f"step {step}")

    def finish(self, forbidden: Mapping[str, re.Pattern[str] | None]) -> None:
        for name, words in forbidden.items():
            if words is not None:
                for english in (False, True):
                    texts = self.phones.answers(name, english)
                    texts += self.phones.journal(name, english)
                    self._assert_hidden(name, words, texts, "the end")

    def replay(self, forbidden_at: Callable[[Any, str], re.Pattern[str] | None]) -> None:
        """Issue 37: a finished game's replay, every step as every viewer replays it (French and
        English by turns), searched for what that viewer might not know at that step: the
        step's board, not the timeline (the journal of a finished game, searched by `finish`)."""
        service, g = self.phones.service, self.phones.game
        steps = service.steps(g)
        for n in range(len(steps) + 1):
            seq = steps[n - 1][0] if n else steps[0][0] - 1
            state = service.state_at(g, seq)[1]
            for name, phone in self.phones.phones.items():
                words = forbidden_at(state, name)
                if words is None:
                    continue
                headers, _ = self.phones._headers(name, n % 2 == 1)
                page = phone.get(f"/g/{g}/replay?step={n}", headers=headers).text
                shown = page[page.index('class="replay-step"') : page.index('id="timeline-title"')]
                self._assert_hidden(name, words, [shown], f"replay step {n}")

    def _assert_hidden(
        self, name: str, forbidden: re.Pattern[str], texts: list[str], when: str
    ) -> None:
        for text in texts:
            if self.public is not None:
                text = self.public.sub("", text)
            found = forbidden.search(text)
            assert found is None, (
                f"{name} saw {found.group(0)!r} at {when}: "
                f"…{text[max(0, found.start() - 150) : found.end() + 60]}…"
            )
            self.checked += 1


def all_routes(routes: Any, prefix: str = "") -> set[tuple[str, str]]:
    """(method, path) of every route, through included routers; static mounts left out."""
    found: set[tuple[str, str]] = set()
    for route in routes:
        if isinstance(route, Mount):
            continue
        original = getattr(route, "original_router", None)
        if original is not None:
            found |= all_routes(original.routes, prefix + route.include_context.prefix)
            continue
        for method in (getattr(route, "methods", None) or {"GET"}) - {"HEAD"}:
            found.add((method, prefix + route.path))
    return found


OTHER_SECRET = "another-server-another-secret"


@pytest.fixture
def other(tmp_path: Path, sqlite_template: Path) -> Iterator[GameService]:
    """Another Arbitre, on its own SQLite file, where people already play (so the numbers a
    moved game's people get are not the ones they had)."""
    path = tmp_path / "other.db"
    shutil.copy(sqlite_template, path)
    db = Database.connect(Settings(database_url=f"sqlite:///{path}", secret_key=OTHER_SECRET))
    # Its runner trusts the server of the tests (`service`): games in progress come in from it.
    server = GameService(
        db,
        OTHER_SECRET,
        FakeClock(),
        ScriptedRolls.cycle(),
        Broker(),
        trusted_servers=server_key(SECRET),
    )
    for n in range(3):
        game, owner = server.create_game("tally", f"Déjà là {n}", "Hôte", idem_key=key())
        for name in ("Un", "Deux", "Trois"):
            server.register(game.id, viewer_of(owner), "player", name, idem_key=key())
    yield server
    db.dispose()


def top_of(service: GameService, game_id: str) -> str:
    """The game that opened this one, and so on up: the one whose file holds them all."""
    while parent := service.load(game_id).game.settings.get("parent"):
        game_id = parent
    return game_id


def counts(server: GameService) -> tuple[int, int, int]:
    with server.db.read() as s:
        return tuple(  # type: ignore[return-value]
            s.exec(select(func.count()).select_from(model)).one() for model in (Game, Person, Event)
        )


# ---------------------------------------------------------------- a generated API client


PACKAGE = "arbitre_api"


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The client package a client's author would generate from this app's OpenAPI schema
    (openapi-python-client), generated once for the session (tests/test_generated_client.py)."""
    where = tmp_path_factory.mktemp("client")
    schema = where / "openapi.json"
    schema.write_text(json.dumps(create_app(migrate=False, scheduler=False).openapi()))
    tool = Path(sys.executable).parent / "openapi-python-client"
    path = f"{tool.parent}{os.pathsep}{os.environ.get('PATH', '')}"  # its ruff pass
    made = subprocess.run(
        [tool, "generate", "--path", schema, "--meta", "none", "--output-path", where / PACKAGE],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": path},
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    # Any schema it cannot tell apart (two models of one name, a reference it cannot follow) is
    # a warning, and an endpoint or a model left out of the client.
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


def module(package: ModuleType, name: str) -> Any:
    """A module of the generated client package."""
    return importlib.import_module(f"{package.__name__}.{name}")
