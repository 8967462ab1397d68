"""The shape of the code, checked: floors that import only downward, no import circle, the
platform without FastAPI, pure rules, one handler signature, small `kind.py` files and modules,
a service composed of jobs.

docs/architecture.md's "Layout" section is the map these tests keep true."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

import server.games  # noqa: F401  (registers every kind)
from server.platform.kinds import KINDS, Applied

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server"

# The ground floor: what everything may import, and which imports nothing of Arbitre above it.
GROUND = {"server.config", "server.errors", "server.models", "server.i18n"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(SERVER.rglob("*.py"))}


def imports(name: str, *, top_level_only: bool = False) -> Iterator[str]:
    """The modules of Arbitre (and third-party roots) a module imports."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                # `from package import module` imports the module
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base


def arbitre_imports(name: str, **kw: bool) -> set[str]:
    return {m for m in imports(name, **kw) if m in MODULES and m != name}


def test_the_ground_floor_imports_only_the_ground_floor() -> None:
    climbing = {
        name: sorted(arbitre_imports(name) - GROUND - {"server"})
        for name in GROUND
        if arbitre_imports(name) - GROUND - {"server"}
    }
    assert climbing == {}


def test_no_import_circle() -> None:
    graph = {name: arbitre_imports(name) for name in MODULES}  # function-local imports too
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            # A package's __init__ importing its own modules is how a package shows its face.
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert circles == []


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("server.platform")))
def test_the_platform_knows_no_web_and_no_game(name: str) -> None:
    found = set(imports(name))
    web = {m for m in found if m.split(".")[0] in ("fastapi", "starlette", "jinja2")}
    upward = {m for m in found if m.startswith(("server.web", "server.games", "server.app"))}
    assert (web, upward) == (set(), set())


RULE_MODULES = sorted(
    n
    for n in MODULES
    if n.startswith("server.games.")
    and n.rpartition(".")[2] not in ("routes", "demo", "__init__")
    and n != "server.games"
)


@pytest.mark.parametrize("name", RULE_MODULES)
def test_rules_and_views_are_pure(name: str) -> None:
    """A game's rules, state, commands and views import no web framework, no database and no
    templates: they run on plain data (routes and demos are the game's edges)."""
    found = set(imports(name))
    impure = {
        m
        for m in found
        if m.split(".")[0] in ("fastapi", "starlette", "sqlmodel", "sqlalchemy", "jinja2")
        or m.startswith(("server.web", "server.db", "server.platform.service", "server.app"))
    }
    assert impure == set()


GAME_KINDS = sorted(k for k, kind in KINDS.items() if type(kind).__module__.startswith("server."))


@pytest.mark.parametrize("key", GAME_KINDS)
def test_every_handler_has_the_one_signature(key: str) -> None:
    kind = KINDS[key]
    assert kind.handlers, f"{key} lists its handlers"
    for command, handler in kind.handlers.items():
        parameters = list(inspect.signature(handler).parameters)
        assert len(parameters) == 3, (command, parameters)
        returns = inspect.signature(handler).return_annotation
        assert returns in (Applied, "Applied"), (command, returns)
    # Every command of the kind's union has its handler.
    union = kind.commands.json_schema()
    listed = {m.model_json_schema()["title"] for m in kind.handlers}
    named = {ref.rpartition("/")[2] for ref in union["discriminator"]["mapping"].values()}
    assert named == listed


@pytest.mark.parametrize("path", sorted(SERVER.glob("games/**/kind.py")), ids=str)
def test_a_kind_only_wires_and_stays_short(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) < 200


def test_no_module_is_a_book() -> None:
    """Issue 32: a module a newcomer reads through: none of `server/` over 800 lines."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in MODULES.values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert long == {}


def test_the_service_is_composed_not_inherited() -> None:
    """Issue 32: each job of the service is a class of its own, given the jobs it needs; none
    inherits another (an eight-class chain let any job reach any lower job's privates)."""
    from server.platform import service

    jobs = [service.Store, service.Reads, service.Replay, service.People, service.Actions]
    jobs += [service.Linked, service.Moves, service.GameService]
    assert all(job.__bases__ == (object,) for job in jobs)


TESTS = ROOT / "tests"


def test_no_test_module_imports_another() -> None:
    """Builders live in conftest files (and `tests/server_process.py`, which the benchmarks share):
    a test module imports none of `tests/**/test_*.py`, at its top or inside a function."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.startswith("tests.") and name.rpartition(".")[2].startswith("test_")
            ]
    assert found == []
