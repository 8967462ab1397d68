"""Private notes, the platform's convention (`Applied.private`): a note reaches the viewers of its
audience, through every read of the log and the answer to a command, and nobody else; a kind's
own `log_view` cannot hand one out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from server.i18n import Msg
from server.platform.kinds import Applied, GameKind, LoggedEvent, Viewer, log_entry
from server.platform.now import Now

NOTES = {
    "person:1": [Msg("Only one reads this.").to_json()],
    "person:2": [Msg("Only two reads this.").to_json()],
    "side:A": [Msg("Side A's secret.").to_json()],
}


class Leaky(GameKind[BaseModel]):
    """A kind whose own projection tries to give everyone everything."""

    key = "leaky"
    title = tagline = "leaky"
    state_model = BaseModel
    settings_model = BaseModel

    def now(self, view: Mapping[str, Any], viewer: Viewer) -> Now:
        return Now(Msg("leaky"))

    def new_state(self, settings: BaseModel) -> BaseModel:
        return BaseModel()

    def view(self, state: BaseModel, viewer: Viewer, now: datetime) -> dict[str, Any]:
        return {}

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        return {"summary": "x", "result": dict(event.result), "private": ["forged"]}


class BySide(Leaky):
    def audiences(self, event: LoggedEvent, viewer: Viewer) -> set[str]:
        return {"side:A"} if viewer.person_id == 3 else set()


def event() -> LoggedEvent:
    return LoggedEvent(
        seq=1,
        type="command",
        at=datetime(2026, 1, 1, tzinfo=UTC),
        actor_role="player",
        actor_name="P",
        command={},
        rolls=[],
        result={"kept": 1, "private": NOTES},
        summary=Msg("Done."),
        undone=False,
    )


def test_a_person_reads_their_own_notes_and_no_forged_or_other_one() -> None:
    entry = log_entry(Leaky(), event(), Viewer("player", 1))
    assert entry is not None
    assert entry["private"] == ["Only one reads this."]
    assert entry["result"] == {"kept": 1}


def test_a_stranger_reads_no_note() -> None:
    entry = log_entry(Leaky(), event(), Viewer("public"))
    assert entry is not None and "private" not in entry and entry["result"] == {"kept": 1}


def test_a_kind_grants_its_own_audiences() -> None:
    assert log_entry(BySide(), event(), Viewer("player", 3))["private"] == ["Side A's secret."]  # type: ignore[index]
    assert "private" not in (log_entry(BySide(), event(), Viewer("player", 1)) or {})


def test_the_staff_read_the_whole_event() -> None:
    entry = log_entry(Leaky(), event(), Viewer("referee", 9))
    assert entry is not None and entry["private"] == ["forged"]  # the kind's view, unfiltered


def test_a_handler_s_notes_are_stored_apart_from_its_result() -> None:
    applied = Applied(Msg("Done."), {"n": 1}, private={"person:1": [Msg("hi")], "person:2": []})
    assert applied.logged_result() == {"n": 1, "private": {"person:1": [Msg("hi").to_json()]}}
    assert Applied(Msg("Done."), {"n": 1}).logged_result() == {"n": 1}


def test_the_staff_read_every_note_in_their_language() -> None:
    """The staff's whole event says its private notes as sentences, as its summary (an outside
    review found message templates with their braces in a French staff's answers)."""
    from server.i18n import current_language
    from server.platform.kinds import full_event

    token = current_language.set("fr")
    try:
        note = Msg("{name} keeps the dice.", {"name": "Léa"}).to_json()
        whole = full_event(replace(event(), result={"private": {"side:A": [note]}}))
    finally:
        current_language.reset(token)
    assert whole["result"]["private"] == {"side:A": ["Léa garde les dés."]}
