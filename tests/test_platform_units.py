"""The platform's small parts, each on its own."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from pydantic import ValidationError

from server.config import Settings
from server.db import Database
from server.errors import InvalidInput, RuleError
from server.i18n import Msg, current_language, pick_language
from server.platform.access import (
    CODE_ALPHABET,
    code_hash,
    derive_link,
    normalize_code,
)
from server.platform.clock import FakeClock
from server.platform.dice import CommandDice, ReplayDice, ReplayDiverged, ScriptedRolls
from server.platform.limits import SharedLimiter
from server.platform.live import Broker
from server.platform.timers import Timer
from server.web.answer_first import HeldNudges
from tests.conftest import run_async


def test_links_are_derived_from_secret_person_version_and_nonce() -> None:
    a = derive_link("secret", 1, 1, "n1")
    assert a == derive_link("secret", 1, 1, "n1")
    others = {
        derive_link("other", 1, 1, "n1"),
        derive_link("secret", 2, 1, "n1"),
        derive_link("secret", 1, 2, "n1"),
        derive_link("secret", 1, 1, "n2"),
    }
    assert a not in others and len(others) == 4
    # 24 bytes of HMAC: 192 bits, URL-safe, no padding.
    assert len(a.token) == 32 and "=" not in a.token
    code = a.code.replace("-", "")
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("abcd-efgh", "ABCDEFGH"), (" ab cd ef gh ", "ABCDEFGH"), ("o0il-1234", "0011" + "1234")],
)
def test_codes_are_forgiving_when_typed(typed: str, expected: str) -> None:
    assert normalize_code(typed) == expected
    assert code_hash(typed) == code_hash(expected)


def test_a_budget_counts_tries_per_address_in_a_window_shared_by_processes(
    settings: Settings,
) -> None:
    """Two limiters on one database (two server processes) count the same tries."""
    clock = FakeClock()
    db = Database.connect(settings)
    try:
        one, other = (SharedLimiter(db, clock, "join", limit=3, window=60) for _ in range(2))
        waits = []
        for limiter in (one, other, one):
            waits.append(limiter.check("10.0.0.1"))
            clock.advance(1)
        assert waits == [0, 0, 0]
        assert other.check("10.0.0.1") == pytest.approx(57)  # the first try leaves in 57 s
        assert one.check("10.0.0.2") == 0  # another phone is not slowed down
        assert SharedLimiter(db, clock, "create", 3).check("10.0.0.1") == 0  # another budget
        clock.advance(57.5)
        assert one.check("10.0.0.1") == 0  # the first try left the window
    finally:
        db.dispose()


def test_command_dice_take_entered_values_and_record_every_roll() -> None:
    dice = CommandDice(ScriptedRolls([4]), {"location": 6})
    assert dice.roll(6, "damage") == 4
    assert dice.roll(6, "location") == 6
    assert dice.rolls == [
        {"purpose": "damage", "sides": 6, "value": 4, "manual": False},
        {"purpose": "location", "sides": 6, "value": 6, "manual": True},
    ]


@pytest.mark.parametrize("value", [0, 7, -1])
def test_an_entered_die_outside_its_faces_is_refused(value: int) -> None:
    dice = CommandDice(ScriptedRolls(), {"damage": value})
    with pytest.raises(RuleError) as error:
        dice.roll(6, "damage")
    assert error.value.field == "roll_damage"
    assert str(value) in str(error.value)


def test_physical_dice_must_be_entered() -> None:
    dice = CommandDice(ScriptedRolls([3]), {}, physical_only=True)
    with pytest.raises(RuleError, match="damage"):
        dice.roll(6, "damage")


def test_replay_dice_give_back_the_recorded_rolls_and_notice_divergence() -> None:
    recorded = [{"purpose": "damage", "sides": 6, "value": 5, "manual": False}]
    assert ReplayDice(recorded).roll(6, "damage") == 5
    with pytest.raises(ReplayDiverged):
        ReplayDice(recorded).roll(6, "location")
    with pytest.raises(ReplayDiverged):
        ReplayDice([]).roll(6, "damage")


def test_timer_runs_pauses_and_resumes_on_the_clock() -> None:
    clock = FakeClock()
    timer = Timer.start(clock.now(), 600)
    clock.advance(100)
    assert timer.left(clock.now()) == 500
    paused = timer.pause(clock.now())
    clock.advance(1000)  # a long pause: no time passes for the timer
    assert paused.paused and paused.left(clock.now()) == 500 and not paused.due(clock.now())
    resumed = paused.resume(clock.now())
    assert resumed.deadline == clock.now() + timedelta(seconds=500)
    clock.advance(500)
    assert resumed.due(clock.now()) and resumed.left(clock.now()) == 0


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        (None, None, "fr"),
        ("en", "fr-FR,fr;q=0.9", "en"),
        (None, "en-GB,en;q=0.8", "en"),
        (None, "de-DE,de;q=0.9", "fr"),
        ("xx", "en", "en"),
    ],
)
def test_language_is_the_remembered_choice_then_the_browser_then_french(
    cookie: str | None, header: str | None, expected: str
) -> None:
    assert pick_language(cookie, header, "fr") == expected


def test_messages_translate_with_their_parameters() -> None:
    message = Msg("Undone: {label}", {"label": Msg("There is nothing to undo.")})
    token = current_language.set("fr")
    try:
        assert message.render() == "Annulé : Il n’y a rien à annuler."
    finally:
        current_language.reset(token)
    token = current_language.set("en")
    try:
        assert message.render() == "Undone: There is nothing to undo."
    finally:
        current_language.reset(token)
    assert Msg.from_json(message.to_json()) == message


@pytest.mark.parametrize("char", ["\u200b", "\u202e", "\x07", "\ufeff"])
def test_imported_data_holds_no_invisible_character(char: str) -> None:
    """Two cards that look the same would be two cards (found by an outside attack: a title with
    a zero-width space passed beside the same title without it)."""
    from server.platform.data_import import read_json

    with pytest.raises(InvalidInput, match="invisible"):
        read_json(json.dumps([{"title": f"Coup{char}"}]), "deck")
    assert read_json(json.dumps({"text": "ligne\nsuivante\tet tab"}), "deck")


def test_a_subscription_wakes_on_a_nudge_and_times_out_for_a_ping() -> None:
    """A stream waits for its game's next change, or for the time to ping (False)."""
    import asyncio
    import time

    from server.platform.live import Broker

    async def run() -> None:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        sub = broker.subscribe("g", 3)
        start = time.monotonic()
        assert await sub.wait(0.05) is False  # nothing: the ping's turn
        assert time.monotonic() - start >= 0.04
        broker.publish("g", 4)  # before it waits: it does not wait
        assert await sub.wait(10) is True and sub.latest == 4
        broker.publish("g", 4)  # a number it has wakes nobody
        assert await sub.wait(0.02) is False
        later = asyncio.get_running_loop().call_later(0.02, broker.publish, "g", 5)
        assert await sub.wait(10) is True and sub.latest == 5
        later.cancel()
        broker.catch_up("g", 6)
        assert await sub.wait(10) is True and sub.access_changed

    run_async(run())


def test_live_work_gives_way_while_an_action_is_answered() -> None:
    """Issue 21: the live parts of earlier changes wait (a bounded while) for the actions being
    answered, instead of taking the processor share of the referee waiting for theirs; the
    nudges of what the action commits leave once it is answered, those of other requests at
    once."""
    import threading
    import time

    from server.platform.live import Broker
    from server.web.answer_first import HeldNudges

    nudged: list[tuple[str, int, bool]] = []

    class Told(Broker):
        def publish(self, game_id: str, seq: int, *, access_changed: bool = False) -> None:
            nudged.append((game_id, seq, access_changed))

    held = HeldNudges(Told())
    start = time.monotonic()
    held.give_way(5)  # nobody acting: no wait
    assert time.monotonic() - start < 0.5
    done: list[float] = []
    with held.holding():
        held.publish("g", 1)
        start = time.monotonic()
        held.give_way(0.05)  # bounded: a long action does not stop the live parts
        assert time.monotonic() - start >= 0.04
        worker = threading.Thread(target=lambda: (held.give_way(5), done.append(1)))
        worker.start()
        other = threading.Thread(target=lambda: held.publish("h", 7, access_changed=True))
        other.start()
        other.join(2)
        time.sleep(0.1)
        assert not done  # waiting while the action is answered
        assert nudged == [("h", 7, True)]  # another request's change is not held
    worker.join(2)
    assert done  # and on its way as soon as it is
    assert nudged == [("h", 7, True), ("g", 1, False)]


def test_a_job_gives_way_on_the_event_loop_while_an_action_is_answered() -> None:
    """Issue 38: before a change's job takes a live thread, it waits on the event loop (where
    the actions are counted) for the actions being answered: not at all when none is, at most
    the bound while one lasts, and no longer once it is answered."""
    held = HeldNudges(Broker())

    async def run() -> None:
        start = time.monotonic()
        await held.calm(5)  # nobody acting: no wait
        assert time.monotonic() - start < 0.5
        with held.holding():
            start = time.monotonic()
            await held.calm(0.05)  # bounded: a long action does not stop the live parts
            assert time.monotonic() - start >= 0.04
            waiting = asyncio.create_task(held.calm(30))
            await asyncio.sleep(0.1)
            assert not waiting.done()  # waiting while the action is answered
        await asyncio.wait_for(waiting, 5)  # and on its way as soon as it is

    run_async(run())
    run_async(run())  # the same app served again, by another event loop


def test_each_process_keeps_the_postgresql_pool_it_is_told() -> None:
    """DB_POOL_SIZE, DB_POOL_OVERFLOW: N processes' connections are sized to the server's
    `max_connections` (docs/performance.md); the engine connects only when first used."""
    url = "postgresql://arbitre:x@127.0.0.1:1/arbitre"
    db = Database.connect(Settings(database_url=url, db_pool_size=3, db_pool_overflow=1))
    try:
        assert db.writer.pool.size() == 3  # type: ignore[attr-defined]
        assert db.writer.pool._max_overflow == 1  # type: ignore[attr-defined]
    finally:
        db.dispose()
    default = Database.connect(Settings(database_url=url))
    assert default.writer.pool.size() == 20  # type: ignore[attr-defined]
    default.dispose()


def test_a_serving_process_sets_the_interpreter_s_switch_interval_for_its_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SWITCH_INTERVAL_MS: PostgreSQL's processes take the interpreter back after 0.5 ms by
    default, SQLite's keep Python's 5 ms (docs/performance.md); a value given wins, a value out
    of range is refused by name."""
    from server.app import PYTHON_SWITCH_INTERVAL, switch_interval

    assert pytest.approx(0.005) == PYTHON_SWITCH_INTERVAL
    assert switch_interval(Settings(), sqlite=True) == PYTHON_SWITCH_INTERVAL
    assert switch_interval(Settings(), sqlite=False) == pytest.approx(0.0005)
    given = Settings(switch_interval_ms=2)
    assert switch_interval(given, sqlite=True) == switch_interval(given, sqlite=False) == 0.002
    monkeypatch.setenv("SWITCH_INTERVAL_MS", "0")
    with pytest.raises(ValidationError, match="switch_interval_ms"):
        Settings()
