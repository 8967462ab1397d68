"""What every game kind owes the platform and its users, checked over every registered kind: a
new game that misses one of these fails here, before anyone meets the gap.

- its pages and their live parts render for each of its people, from its demo and fresh;
- its commands and settings are typed in the OpenAPI schema, one per handler;
- its words are in the French catalogue;
- README's "Games" section and docs/games.md present it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import server.games  # noqa: F401  (registers the game kinds)
from server.catalogues import po_path, read
from server.games.demo import DEMOS
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, part_key
from server.platform.service import GameService
from server.web.api import kind_title
from tests.conftest import Phone, key
from tests.scene import all_scenes, played_kinds

ROOT = Path(__file__).resolve().parent.parent
# The games people play: held to the product's contract too (a demo, French words, README).
GAME_KINDS = sorted(k for k, kind in KINDS.items() if type(kind).__module__.startswith("server."))
# Every kind that plays, a game's or a test-only one's in a folder of its own (issue 52's
# sixth-game drill): held to the code's contract.
PLAYED = played_kinds()
HX = {"HX-Request": "true"}


def demo_people(kind: str) -> Callable[[GameService, ScriptedRolls], tuple[str, list[str]]]:
    """The demo game of a kind and the links of everyone in it."""

    def make(service: GameService, rolls: ScriptedRolls) -> tuple[str, list[str]]:
        rolls.endless = True
        if kind in DEMOS:
            game, _owner = DEMOS[kind](service, key())
            game_id = game.id
        else:  # a game only another one opens (a league's match): its first scene
            scenes, _waits = all_scenes()
            first = next(b for label, b in scenes.items() if label.split(":", 1)[0] == kind)
            game_id = first(service, rolls).game
        return game_id, [service.link_of(p).token for p in service.people(game_id)]

    return make


def test_every_kind_is_reachable_from_a_demo() -> None:
    standalone = {k for k in GAME_KINDS if KINDS[k].standalone}
    assert standalone <= set(DEMOS), "each game a user can create has `python -m server demo`"


@pytest.mark.parametrize("kind", PLAYED)
def test_every_person_s_page_and_live_part_render(
    client: TestClient, service: GameService, rolls: ScriptedRolls, kind: str
) -> None:
    game_id, tokens = demo_people(kind)(service, rolls)
    roles = set()
    for token in tokens:
        phone = Phone(client, follow_redirects=True)
        person = _viewer_of(service, game_id, token)  # before its phone takes the seat
        for language in ("fr", "en"):
            # Opened twice: the second time, the seat this phone holds opens as it is.
            page = phone.get(f"/t/{token}", headers={"Accept-Language": language})
            assert page.status_code == 200, page.text[:400]
            name = page.url.path
            assert name == f"/g/{game_id}" or name.startswith(f"/g/{game_id}/"), name
            viewer = KINDS[kind].page_for(person)
            live = phone.get(
                f"/g/{game_id}/live/{viewer}", headers={**HX, "Accept-Language": language}
            )
            assert live.status_code == 200 and live.text.strip(), live.text[:400]
        roles.add(person.role)
    board = Phone(client).get(f"/g/{game_id}/board")
    assert board.status_code == 200
    # The demo seats someone of every role the kind has (beyond the organizer).
    assert set(KINDS[kind].roles) <= roles


def _viewer_of(service: GameService, game_id: str, token: str) -> Any:
    from server.platform.kinds import Viewer

    person = service.person_by_token(token)
    return Viewer(person.role, person.id, person.name)


@pytest.mark.parametrize("kind", [k for k in PLAYED if KINDS[k].standalone])
def test_a_fresh_game_renders_for_its_organizer(client: TestClient, kind: str) -> None:
    """Just created, before anything is set up: the organizer's page and the board."""
    home = client.get("/")
    assert home.status_code == 200
    from tests.conftest import csrf_of

    answer = client.post(
        "/games",
        data={
            "kind": kind,
            "name": "Contrat",
            "organizer": "Orga",
            "dice": "server",
            "idem": key(),
            "csrf_token": csrf_of(home.text),
        },
        follow_redirects=True,
    )
    assert answer.status_code == 200, answer.text[:400]
    game_id = answer.url.path.split("/")[2]
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    live = client.get(f"/g/{game_id}/live/staff", headers=HX)
    assert live.status_code == 200
    assert client.get(f"/g/{game_id}/board").status_code == 200


def test_every_kind_s_commands_are_typed_in_openapi(client: TestClient) -> None:
    """Each kind's own route takes exactly the commands it handles, less the internal ones."""
    schema = client.get("/api/v1/openapi.json").json()
    schemas = schema["components"]["schemas"]
    for kind in GAME_KINDS:
        operation = schema["paths"][f"/api/v1/{kind}/games/{{game_id}}/commands"]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        body = schemas[body["$ref"].rpartition("/")[2]]
        mapping = body["properties"]["command"]["discriminator"]["mapping"]
        typed = {schemas[ref.rpartition("/")[2]]["title"] for ref in mapping.values()}
        handled = {model.__name__ for model in KINDS[kind].handlers}
        internal = {model.__name__ for model in KINDS[kind].internal}
        assert typed == handled - internal, kind
        if KINDS[kind].standalone:  # a league's match is opened by its league, never created
            creation = schema["paths"][f"/api/v1/{kind}/games"]["post"]
            body = creation["requestBody"]["content"]["application/json"]["schema"]
            settings = schemas[body["$ref"].rpartition("/")[2]]["properties"]["settings"]
            assert settings["$ref"].endswith(f"/{kind_title(kind)}Settings"), kind


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_every_kind_s_words_are_in_french(kind: str) -> None:
    """In the game's own catalogue (`server/games/<game>/locale`)."""
    k = KINDS[kind]
    catalog = read(po_path(type(k).__module__.split(".")[2]))
    words = [k.title, k.tagline, *k.role_titles.values()]
    missing = [w for w in words if not (catalog.get(w) and catalog.get(w).string)]
    assert missing == []


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_readme_and_the_games_page_present_every_kind(kind: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games = readme.split("\n## Games\n", 1)[1].split("\n## ", 1)[0]
    assert f"`{kind}`" in games, f"README's Games section names `{kind}`"
    assert f"(`{kind}`" in (ROOT / "docs" / "games.md").read_text(encoding="utf-8")


def test_readme_is_a_front_door_whose_links_lead_somewhere() -> None:
    """README stays short (what it is, the two commands, configuration in brief, links); the
    rest is in docs/, and every file it links to is there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    targets = re.findall(r"\]\(([^)#]+)\)", readme)
    assert "docs/architecture.md" in targets and "docs/performance.md" in targets
    assert [t for t in targets if not (ROOT / t).exists()] == []


@pytest.mark.parametrize("kind", PLAYED)
def test_a_part_is_the_same_for_every_viewer_who_shares_it(
    service: GameService, rolls: ScriptedRolls, clock: Any, kind: str
) -> None:
    """What each part declares it depends on is all it depends on: viewers with the same part key
    (everyone for the board, a side's coaches, the staff) get the same part, so a change renders
    it once for all of them."""
    from server.platform.kinds import PUBLIC

    game_id, tokens = demo_people(kind)(service, rolls)
    loaded = service.load(game_id)
    k = KINDS[kind]
    assert any(p.scope == "game" for p in k.parts), "a kind's board is a part of scope game"
    viewers = [PUBLIC, *(_viewer_of(service, game_id, t) for t in tokens)]
    for part in k.parts:
        seen: dict[str, Any] = {}
        for viewer in viewers:
            copy = part_key(k, part, loaded.state, viewer)
            if copy is None:
                continue
            built = part.build(loaded.state, viewer, clock.now())
            assert seen.setdefault(copy, built) == built, (part.name, copy, viewer)
        assert seen, f"somebody in the demo sees {part.name}"


@pytest.mark.parametrize("kind", PLAYED)
def test_an_unknown_field_is_refused_never_ignored(kind: str) -> None:
    """A command sent with a field it does not know (a typo, "evade" for "yes") is refused:
    ignored, it would do something else than its sender meant. Settings alike."""
    from pydantic import ValidationError

    k = KINDS[kind]
    for model in k.handlers:
        tag = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
        with pytest.raises(ValidationError) as refused:
            k.parse({"type": tag, "unexpected_field": 1})
        assert any(e["type"] == "extra_forbidden" for e in refused.value.errors()), model
    with pytest.raises(ValidationError) as refused:
        k.settings_model.model_validate({"unexpected_field": 1})
    assert any(e["type"] == "extra_forbidden" for e in refused.value.errors())
