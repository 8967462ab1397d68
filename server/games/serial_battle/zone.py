"""La zone de combat and its sectors: who is where, the shrinks on the clock or by the
referee, whom a closing leaves to eliminate."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from server.errors import RuleError
from server.games.serial_battle.commands import CloseSectors, Place, SetSectors, ZoneDue
from server.games.serial_battle.state import SBState, Sector
from server.i18n import N_, P_, Msg, joined, listed
from server.platform.kinds import Applied, Context
from server.platform.timers import Timer


def parse_names(text: str) -> list[str]:
    names = []
    for line in text.replace(",", "\n").replace(";", "\n").splitlines():
        name = " ".join(line.split())
        if name and name not in names:
            names.append(name[:60])
    return names


def close_sectors(state: SBState, names: Iterable[str]) -> list[str]:
    closed = []
    known = {s.name: s for s in state.sectors}
    for name in names:
        sector = known.get(name)
        if sector is None:
            raise RuleError(N_("Unknown sector “{sector}”."), field="sectors", sector=name)
        if sector.open:
            sector.open = False
            sector.closed_at = state.shrinks
            closed.append(name)
    return closed


def next_zone_timer(state: SBState, from_deadline: datetime) -> Timer | None:
    """The next shrink, one interval after the last deadline, while a sector can still close."""
    if len(state.open_sectors()) <= 1:
        return None
    return Timer(
        deadline=from_deadline + timedelta(minutes=state.shrink_minutes),
        duration=state.shrink_minutes * 60,
    )


def zone_due(state: SBState, deadline: datetime) -> list[str]:
    """La zone de combat: every interval some sectors close for good."""
    state.shrinks += 1
    closed: list[str] = []
    if state.closing == "plan" and state.shrinks <= len(state.plan):
        closed = close_sectors(state, state.plan[state.shrinks - 1])
    else:
        state.shrink_due = True
    state.zone = next_zone_timer(state, deadline)
    return closed


def inside_note(state: SBState, closed: list[str]) -> list[Msg]:
    """Who the referees must eliminate now; when nobody was placed, what to look for."""
    if not closed:
        return []
    inside = [p.name for p in state.alive() if p.sector in closed]
    if inside:
        return [Msg(N_("Still inside, to eliminate: {players}."), {"players": listed(inside)})]
    if not any(p.sector for p in state.alive()):
        return [
            Msg(
                N_("Nobody is placed in a sector: eliminate whoever is still in {sectors}."),
                {"sectors": listed(closed)},
            )
        ]
    return []


# -------------------------------------------------------------------- handlers


def on_sectors(state: SBState, c: SetSectors, ctx: Context) -> Applied:
    names = parse_names(c.names)
    state.sectors = [Sector(name=n) for n in names]
    plan = []
    for number, line in enumerate(c.plan.splitlines(), start=1):
        step = parse_names(line)
        unknown = [s for s in step if s not in names]
        if unknown:
            raise RuleError(
                N_("Shrink {number} closes “{sector}”, which is not a sector."),
                field="plan",
                number=number,
                sector=unknown[0],
            )
        if step:
            plan.append(step)
    state.plan = plan
    if plan:
        state.closing = "plan"
    return Applied(Msg(N_("{count} sectors."), {"count": len(names)}), {})


def on_place(state: SBState, c: Place, ctx: Context) -> Applied:
    if c.sector not in {s.name for s in state.sectors}:
        raise RuleError(N_("Unknown sector “{sector}”."), field="sector", sector=c.sector)
    names = []
    for player_id in c.players:
        player = state.player(player_id)
        player.sector = c.sector
        names.append(player.name)
    return Applied(
        Msg(N_("In sector {sector}: {players}."), {"sector": c.sector, "players": listed(names)}),
        {},
    )


def on_close(state: SBState, c: CloseSectors, ctx: Context) -> Applied:
    closed = close_sectors(state, c.sectors)
    state.shrink_due = False
    if state.zone is None and state.phase == "running":
        state.zone = next_zone_timer(state, ctx.now)
    pieces = [Msg(N_("Sectors closed: {sectors}."), {"sectors": listed(closed)})]
    return Applied(joined([*pieces, *inside_note(state, closed)]), {"closed": closed})


def on_zone_due(state: SBState, c: ZoneDue, ctx: Context) -> Applied:
    closed = zone_due(state, c.deadline)
    if closed:
        forms = P_(
            "The zone shrinks: {sectors} is closed.", "The zone shrinks: {sectors} are closed."
        )
        said = Msg.counted(forms, "count", {"sectors": listed(closed), "count": len(closed)})
        return Applied(joined([said, *inside_note(state, closed)]), {"closed": closed})
    return Applied(Msg(N_("The zone shrinks: the referee says which sectors close.")), {})
