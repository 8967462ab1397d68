"""Issue 55, faults beyond SIGKILL: the machine's clock jumps an hour forward, then back, while
a zone is timed. Serial Battle's zone follows the games' own clock (`SteadyClock`): it shrinks
after its minutes, never early nor late, and the journal's times never run backwards."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

from sqlmodel import col, select

from server.config import Settings
from server.db import Database
from server.models import Event
from server.platform.service import GameService
from tests.conftest import Machine, key, viewer_of

HOUR = timedelta(hours=1)


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
