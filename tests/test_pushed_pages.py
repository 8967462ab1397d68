"""After anyone's change, the page a phone holds equals a fresh load of it (issue 50).

A phone renews its page by its live part alone: a push, or its own refresh, swaps the part in and
leaves the rest of the page as it was loaded. So nothing a page shows of the game may sit outside
its live part: a panel there (an assault's player chips, once) goes on showing the hit points
of its load while every other panel moves on, and two referees of one game read two truths.

Walked over every scene of every kind (each phase and end), through every change that builds it
(each command, undo, answer, person registered or link re-issued), for every person of the game
and the public, in both languages: the page around its live part is the same before and after
the change (tokens, keys and the stream's numbers aside), unless the game went to another phase,
which the page reloads for. That the pushed part is exactly what a fresh load shows inside it,
`tests/test_fanout.py` holds, for every scene, viewer and language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from server import i18n
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC, Viewer
from server.platform.service import GameService
from server.web.answers import page_context
from server.web.templating import Marks, Templates, make_environment, shared_context
from tests.conftest import TEST_TEMPLATES
from tests.security.conftest import SCENES

STAND_IN = "<!-- the live part -->"
# What changes with no change of what the page shows: the stream's and forms' numbers, each
# render's form keys.
NUMBERS = re.compile(r'(data-seq|name="seq" value|name="idem" value)="[^"]*"')
# Every way a change comes: what a scene's builders call.
CHANGES = ("perform", "answer", "undo", "register", "reissue", "revoke", "open_linked")


def templates() -> Templates:
    from server.platform.kinds import KINDS

    environment = make_environment(TEST_TEMPLATES)
    for kind in KINDS.values():
        environment.globals.update(kind.template_globals())
    return Templates(environment)


def around_live(
    service: GameService, renders: Templates, game_id: str, viewer: Viewer, language: str
) -> tuple[str, str]:
    """The game's status, and `viewer`'s page in `language` with its live part left out."""
    loaded = service.load(game_id)
    page = loaded.kind.page_for(viewer)
    token = i18n.current_language.set(language)
    try:
        context = page_context(service, service.clock, loaded, viewer, page)
        context.update(live_tag="TAG", stream_url=f"/g/{game_id}/events")
        marks = Marks("csrfMARK", "keysMARK")
        where = f"/g/{game_id}/board" if page == "board" else f"/g/{game_id}"
        html = renders.render_apart(
            loaded.kind.template(page),
            {**shared_context(language, where, marks), **context},
            None,
            "live",
            STAND_IN,
        )
    finally:
        i18n.current_language.reset(token)
    assert html.count(STAND_IN) == 1
    return loaded.game.status, NUMBERS.sub(r"\1", html)


def viewers_of(service: GameService, game_id: str) -> list[Viewer]:
    people = [p for p in service.people(game_id) if not p.revoked]
    return [Viewer(p.role, p.id, p.name) for p in people] + [PUBLIC]


@pytest.mark.parametrize("label", sorted(SCENES))
def test_nothing_a_page_shows_of_the_game_is_outside_what_a_push_renews(
    service: GameService, rolls: ScriptedRolls, label: str
) -> None:
    renders = templates()
    held: dict[tuple[str, int | None, str], tuple[str, str, str]] = {}
    checked: list[str] = []

    seen: dict[str, int] = {}

    def look(game_id: str, why: str) -> None:
        seq = service.seq_of(game_id)
        if why == "before" and seen.get(game_id) == seq:
            return  # looked at as it is, after the change before
        seen[game_id] = seq
        for viewer in viewers_of(service, game_id):
            for language in ("fr", "en"):
                status, page = around_live(service, renders, game_id, viewer, language)
                was = held.get((game_id, viewer.person_id, language))
                if was is not None and was[0] == status:
                    assert page == was[1], (
                        f"{label}: the page of {viewer.role} {viewer.name or ''} ({language}) "
                        f"outside its live part changed with {why} (after {was[2]})"
                    )
                    checked.append(why)
                held[(game_id, viewer.person_id, language)] = (status, page, why)

    def watched(name: str, change: Callable[..., Any]) -> Callable[..., Any]:
        def changing(game_id: str, *args: Any, **kwargs: Any) -> Any:
            if isinstance(game_id, str):
                look(game_id, "before")
            done = change(game_id, *args, **kwargs)
            if isinstance(game_id, str):
                command = args[1] if name == "perform" and len(args) > 1 else None
                what = command.get("type") if isinstance(command, dict) else name
                look(game_id, f"{name} {what}")
            return done

        return changing

    for name in CHANGES:
        setattr(service, name, watched(name, getattr(service, name)))
    SCENES[label].__wrapped__(service, rolls)  # type: ignore[attr-defined]  # played, not copied
    assert checked, "no change of this scene was looked at"
