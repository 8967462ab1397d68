"""The sixth-game drill (issue 52): a small game added in a folder of its own, with no edit to
any shared file, plays through the platform and is walked by every shared test like a game."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from server.errors import RuleError
from server.i18n import current_language
from server.platform.dice import CommandDice, ScriptedRolls
from server.platform.kinds import KINDS, PersonInfo, Viewer
from server.platform.kinds import Context as RuleContext
from tests.drill.kind import KIND, DrillState

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The drill is no product: its words are its English ones, whatever another game's
    catalogue says of the same English (the catalogues are read as one)."""
    token = current_language.set("en")
    yield
    current_language.reset(token)


HERE = Path(__file__).resolve().parent
ORGANIZER = Viewer("organizer", 1, "Orga")


def table(*names: str) -> DrillState:
    state = KIND.new_state(KIND.settings_model())
    for n, name in enumerate(names, start=2):
        state = KIND.add_person(state, PersonInfo(n, "player", name))
    return KIND.apply(state, KIND.parse({"type": "start"}), ctx(ORGANIZER)).state


def ctx(actor: Viewer, *dice: int) -> RuleContext:
    return RuleContext(actor, CommandDice(ScriptedRolls(dice)), datetime(2026, 1, 1, tzinfo=UTC))


def round_of(state: DrillState, fingers: dict[str, int], *dice: int) -> tuple[DrillState, str]:
    for player in state.players.values():
        if player.name in fingers:
            command = KIND.parse({"type": "show", "fingers": fingers[player.name]})
            state = KIND.apply(state, command, ctx(Viewer("player", player.id))).state
    done = KIND.apply(state, KIND.parse({"type": "reveal"}), ctx(ORGANIZER, *dice))
    return done.state, done.summary.render()


@pytest.mark.parametrize(
    ("fingers", "dice", "scorer"),
    [
        ({"Léa": 3, "Hugo": 1}, (), "Léa"),  # the highest
        ({"Léa": 3, "Hugo": 3, "Zoé": 1}, (), "Zoé"),  # the highest no one else showed
        ({"Léa": 1, "Hugo": 2, "Zoé": 2}, (), "Léa"),
        ({"Léa": 2, "Hugo": 2}, (2,), "Hugo"),  # each shown twice: a die among the highest
        ({"Léa": 2, "Hugo": 2, "Zoé": 2}, (1,), "Léa"),
        ({"Léa": 1, "Hugo": 3, "Zoé": 1, "Max": 3}, (2,), "Max"),
    ],
)
def test_the_highest_number_no_one_else_showed_scores(
    fingers: dict[str, int], dice: tuple[int, ...], scorer: str
) -> None:
    state, said = round_of(table(*fingers), fingers, *dice)
    points = {p.name: p.points for p in state.players.values()}
    assert points == {name: int(name == scorer) for name in fingers}
    assert f"{scorer} scores" in said and ("(the die)" in said) == bool(dice)
    assert all(p.shown is None for p in state.players.values()) and state.round == 2


def test_the_first_to_the_target_wins_and_nothing_is_shown_twice() -> None:
    state = table("Léa", "Hugo")
    lea = next(p for p in state.players.values() if p.name == "Léa")
    shown = KIND.apply(
        state, KIND.parse({"type": "show", "fingers": 2}), ctx(Viewer("player", lea.id))
    )
    with pytest.raises(RuleError, match="this round"):
        KIND.apply(
            shown.state, KIND.parse({"type": "show", "fingers": 3}), ctx(Viewer("player", lea.id))
        )
    with pytest.raises(RuleError, match="Waiting for Hugo"):
        KIND.apply(shown.state, KIND.parse({"type": "reveal"}), ctx(ORGANIZER))
    state, _ = round_of(state, {"Léa": 3, "Hugo": 1})
    state, said = round_of(state, {"Léa": 3, "Hugo": 2})
    assert state.phase == "finished" and state.winner == "Léa" and said.endswith("Léa wins.")
    assert KIND.status(state) == "finished"


def test_the_drill_is_walked_by_the_shared_tests() -> None:
    from tests.scene import played_kinds
    from tests.security.conftest import SCENES

    assert KINDS[KIND.key] is KIND
    assert {"drill:setup", "drill:playing", "drill:won"} <= set(SCENES)
    assert KIND.key in played_kinds()


def test_the_drill_is_added_with_no_edit_to_any_shared_file() -> None:
    """No file outside its folder names it: the platform and the shared tests find it."""
    named = []
    for folder in ("server", "static", "templates", "tests", "migrations", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if HERE in path.parents or not path.is_file():
                continue
            if path.suffix not in (".py", ".html", ".js", ".css", ".json", ".po"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if f'"{KIND.key}' in text or f"tests.{HERE.name}" in text or f"{HERE.name}/" in text:
                named.append(str(path.relative_to(ROOT)))
    assert named == []
