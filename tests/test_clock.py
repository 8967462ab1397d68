"""Issue 55, faults beyond SIGKILL: the machine's clock jumps an hour forward, then back. The
games follow their own clock (`SteadyClock`: the wall clock read at start, then the monotonic
clock), never before the latest time their database holds. A game's own timers run through the
jumps in its own folder's tests (with `machine` and `steady_service`, tests/conftest.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from server.config import Settings
from server.platform.clock import SteadyClock
from tests.conftest import START, Machine

HOUR = timedelta(hours=1)


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


def test_the_server_runs_on_the_games_clock(settings: Settings) -> None:
    from server.app import create_app

    app = create_app(settings)
    assert isinstance(app.state.service.clock, SteadyClock)
