"""Fixtures: a real database per test (SQLite file, or PostgreSQL when DATABASE_URL says so),
a fake clock, scripted dice, the app, and a browser at a phone's viewport."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.config import Settings
from server.db import Database, normalize_url
from server.migrate import upgrade
from server.models import Game
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.kinds import register
from server.platform.live import Broker
from server.platform.service import GameService
from tests.kinds.tally import TALLY

register(TALLY)

TEST_TEMPLATES = Path(__file__).parent / "templates"
SECRET = "test-secret-key-for-arbitre"
PG_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = PG_URL.startswith(("postgresql", "postgres"))


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


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key=SECRET, language="fr", scheduler_interval=0.05)


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


@pytest.fixture
def app(settings: Settings, clock: FakeClock, rolls: ScriptedRolls) -> Any:
    return create_app(
        settings,
        clock=clock,
        dice=rolls,
        template_dirs=[TEST_TEMPLATES],
        migrate=False,
        scheduler=False,
    )


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as c:
        yield c
    assert_states_untouched(app.state.service)


def assert_states_untouched(service: GameService) -> None:
    """Readers share the state the service keeps for each game (no copy per page): after a test
    has rendered its pages, each kept state is still the one stored for its sequence number."""
    with service.db.read() as s:
        for game_id, (seq, state) in list(service._cache.items()):
            game = s.get(Game, game_id)
            if game is not None and game.seq == seq:
                assert state.model_dump(mode="json") == game.state, f"a view changed {game_id}"


# ---------------------------------------------------------------- browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, app: Any, port: int) -> None:
        import uvicorn

        self.url = f"http://127.0.0.1:{port}"
        self.app = app
        self.clock: FakeClock | None = None
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("live") / "live.db"
    url = _pg_db_url(f"arbitre_live_{uuid.uuid4().hex[:8]}") if ON_POSTGRES else f"sqlite:///{path}"
    if ON_POSTGRES:
        import psycopg

        admin = normalize_url(PG_URL).replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{url.rpartition("/")[2]}"')
    settings = Settings(database_url=url, secret_key=SECRET, scheduler_interval=0.2)
    clock = FakeClock(datetime.now(UTC))  # moved by hand where a test needs a deadline
    app = create_app(
        settings, template_dirs=[TEST_TEMPLATES], dice=ScriptedRolls.cycle(), clock=clock
    )
    server = LiveServer(app, _free_port())
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
