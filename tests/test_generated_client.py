"""A client generated from the OpenAPI schema (openapi-python-client, as a client's author would
make one) tells every kind's commands and settings apart (issue 32): each kind has its own typed
creation and command functions; within a kind, each command `type` is one generated class; a
`type` two kinds share (`deal`, `act`...) is two classes unless it is one command of the server;
and the generated client, over this app, creates games and sends commands through them."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import typing
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from server.platform.kinds import KINDS
from server.web.api import kind_title, public_commands
from tests.conftest import key

PACKAGE = "arbitre_api"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The client package, generated once for the module from this app's schema."""
    from server.app import create_app

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
    return importlib.import_module(f"{package.__name__}.{name}")


def union_of(package: ModuleType, model: type, field: str) -> tuple[type, ...]:
    """The generated classes a field of a generated model may hold."""
    names = {**vars(module(package, "types")), **vars(module(package, "models"))}
    hint = eval(model.__annotations__[field], names)
    unset = names["Unset"]
    held = tuple(c for c in get_args(hint) if isinstance(c, type) and c is not unset)
    return held or (hint,)


def tags_of(package: ModuleType, generated_class: type) -> list[str]:
    """The `type` values a generated command class takes (a literal, or an enum of several)."""
    names = {**vars(typing), **vars(module(package, "models"))}
    hint = eval(generated_class.__annotations__["type_"], names)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return [str(member.value) for member in hint]
    return [str(tag) for tag in get_args(hint)]


def server_tags(key: str) -> dict[str, type]:
    """The server's commands of a kind a client may send, by `type`."""
    members = get_args(get_args(public_commands(KINDS[key]))[0])
    return {tag: m for m in members for tag in get_args(m.model_fields["type"].annotation)}


def same_shape(a: type, b: type) -> bool:
    return a is b or a.model_json_schema() == b.model_json_schema()  # type: ignore[attr-defined]


def test_every_kind_s_commands_are_told_apart(generated: ModuleType) -> None:
    models = module(generated, "models")
    kinds = sorted(k for k in KINDS if KINDS[k].command_union is not None)
    by_kind: dict[str, dict[str, type]] = {}
    for kind_key in kinds:
        body = getattr(models, f"{kind_title(kind_key)}CommandIn")
        sent = module(generated, f"api.api.{kind_key}_send_command")
        assert "body" in sent.sync_detailed.__annotations__
        classes = union_of(generated, body, "command")
        tagged = [(tag, c) for c in classes for tag in tags_of(generated, c)]
        tags = [tag for tag, _ in tagged]
        assert len(tags) == len(set(tags)), (kind_key, tags)  # one class a `type`
        assert set(tags) == set(server_tags(kind_key)), kind_key
        by_kind[kind_key] = dict(tagged)
    shared = 0
    for a in kinds:
        for b in kinds:
            for tag in set(by_kind[a]) & set(by_kind[b]) if a < b else ():
                # One class only for one shape (BattleFight's and Serial Battle's bare `start`).
                same_command = same_shape(server_tags(a)[tag], server_tags(b)[tag])
                assert (by_kind[a][tag] is by_kind[b][tag]) == same_command, (a, b, tag)
                shared += not same_command
    assert shared >= 8  # the eight: deck, start, act, take, attack, settings, deal, give


def test_every_kind_s_settings_are_typed(generated: ModuleType) -> None:
    models = module(generated, "models")
    for kind_key in sorted(k for k in KINDS if KINDS[k].standalone):
        body = getattr(models, f"{kind_title(kind_key)}GameIn")
        (settings,) = union_of(generated, body, "settings")
        assert settings.__name__ == f"{kind_title(kind_key)}Settings"
        assert hasattr(module(generated, f"api.api.{kind_key}_create_game"), "sync_detailed")


def test_the_generated_client_plays_through_its_kind_s_routes(
    generated: ModuleType, client: TestClient
) -> None:
    models = module(generated, "models")
    transport = client._transport  # the app itself, as the test client reaches it

    def api(token: str | None = None) -> Any:
        kwargs = {"base_url": str(client.base_url), "httpx_args": {"transport": transport}}
        if token is None:
            return generated.Client(**kwargs)
        return generated.AuthenticatedClient(token=token, **kwargs)

    create = module(generated, "api.api.rcb_create_game")
    settings = models.RcbSettings.from_dict({"bets": 10, "bank": 5})
    made = create.sync_detailed(
        client=api(),
        body=models.RcbGameIn(name="Duel", organizer="Maître", settings=settings),
        idempotency_key=key(),
    )
    assert made.status_code == 201, made.content
    game_id, token = made.parsed.game.id, made.parsed.organizer.token
    assert made.parsed.game.kind == "rcb"
    loaded = client.app.state.service.load(game_id)  # type: ignore[attr-defined]
    assert loaded.state.bets_setting == 10 and loaded.state.bank_setting == 5
    state = module(generated, "api.api.read_state_api_v1_games_game_id_get")
    read = state.sync_detailed(game_id, client=api(token))
    assert read.status_code == 200 and read.parsed.viewer.role == "organizer"

    # Roi / Chevalier / Bourreau's `deal` goes to its game through its kind's route; Trust Me's
    # `deal`, a class of its own, is refused there by its own kind's route.
    send_rcb = module(generated, "api.api.rcb_send_command")
    deal = models.RcbCommandIn(command=models.Deal(type_="deal"))
    answered = send_rcb.sync_detailed(game_id, client=api(token), body=deal, idempotency_key=key())
    # Read by Roi / Chevalier / Bourreau's rules: no deal before each team has a fighter.
    assert answered.parsed.code == "rule" and answered.parsed.field == "team", answered.content
    send_tm = module(generated, "api.api.trust_me_send_command")
    tm_deal = models.TrustMeCommandIn(command=models.TableDeal(type_="deal"))
    refused = send_tm.sync_detailed(game_id, client=api(token), body=tm_deal, idempotency_key=key())
    assert refused.status_code == 404, refused.content
