"""Issue 55, faults beyond SIGKILL: the machine's clock jumps an hour forward, then back, while a
zone is timed. The games follow their own clock (`SteadyClock`: the wall clock read at start,
then the monotonic clock): no zone shrinks early nor late, and the journal's times never run
backwards. (Killpower Ball's expulsions are counted in turns, not minutes: no clock to jump.)"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import col, select

from server.config import Settings
from server.db import Database
from server.models import Event
from server.platform.clock import SteadyClock
from server.platform.dice import ScriptedRolls
from server.platform.live import Broker
from server.platform.service import GameService
from tests.conftest import SECRET, key, viewer_of

START = datetime(2026, 6, 1, 14, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


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


@pytest.mark.parametrize(
    ("jump", "waited", "floor", "now"),
    [
        (timedelta(0), 60, None, START + timedelta(minutes=1)),
        (HOUR, 60, None, START + timedelta(minutes=1)),  # set forward: the game's minute
        (-HOUR, 60, None, START + timedelta(minutes=1)),  # set back: the same
        (timedelta(0), 0, START + HOUR, START + HOUR),  # a restart on a clock set back
        (timedelta(0), 0, START - HOUR, START),  # a floor in the past changes nothing
    ],
)
def test_the_games_clock_follows_the_monotonic_clock_from_its_start(
    jump: timedelta, waited: float, floor: datetime | None, now: datetime
) -> None:
    machine = Machine()
    clock = machine.clock(floor)
    machine.wall += jump
    machine.wait(waited)
    assert clock.now() == now


@pytest.fixture
def machine() -> Machine:
    return Machine()


@pytest.fixture
def steady_service(settings: Settings, machine: Machine) -> Iterator[GameService]:
    db = Database.connect(settings)
    rolls = ScriptedRolls()
    rolls.endless = True
    yield GameService(db, SECRET, machine.clock(db.latest_time()), rolls, Broker())
    db.dispose()


def test_a_zone_shrinks_after_its_minutes_whatever_the_machine_s_clock_says(
    steady_service: GameService, machine: Machine, settings: Settings
) -> None:
    service = steady_service
    game, organizer = service.create_game("serial_battle", "Parc", "Orga", idem_key=key())
    org = viewer_of(organizer)
    for name in ("Léa", "Hugo", "Zoé"):
        service.register(game.id, org, "player", name, idem_key=key())
    command = {"type": "sectors", "names": "Nord, Sud, Est", "plan": "Nord\nSud"}
    service.perform(game.id, org, command, idem_key=key())
    settings_command = {
        "type": "settings",
        "shrink_minutes": 10,
        "deal_mode": "scattered",
        "closing": "plan",
    }
    service.perform(game.id, org, settings_command, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())

    def due() -> int:
        return service.run_due()

    def sectors() -> list[Any]:
        return list(service.load(game.id).state.sectors)  # type: ignore[attr-defined]

    machine.wait(60)
    machine.wall += HOUR  # the laptop's clock set an hour forward, a minute into the zone
    assert due() == 0, "no zone closes early"
    assert all(sector.open for sector in sectors())
    machine.wait(240)
    machine.wall -= 2 * HOUR  # then an hour back from where it was
    assert due() == 0
    machine.wait(290)  # 9 min 50 s of the game's time
    assert due() == 0
    machine.wait(10)  # 10 minutes: the zone shrinks, not later
    assert due() == 1
    assert [sector.name for sector in sectors() if not sector.open] == ["Nord"]  # the plan's first

    # The journal's times never run backwards, and say the game's time.
    with service.store.db.read() as s:
        times = [e.at for e in s.exec(select(Event).order_by(col(Event.seq)))]
    times = [t.replace(tzinfo=UTC) if t.tzinfo is None else t for t in times]
    assert times == sorted(times)
    assert times[-1] - times[0] <= timedelta(minutes=10, seconds=1)

    # Started again on a clock an hour behind the journal: the game's time goes on from it.
    restarted = Database.connect(settings)
    floor = restarted.latest_time()
    assert floor is not None
    machine.wall = floor - HOUR
    assert machine.clock(floor).now() == floor
    restarted.dispose()


def test_the_server_runs_on_the_games_clock(settings: Settings) -> None:
    from server.app import create_app

    app = create_app(settings)
    assert isinstance(app.state.service.clock, SteadyClock)
