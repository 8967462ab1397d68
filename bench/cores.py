"""Who used the machine's cores while a run was measured (issue 55): the servers, the load
generator (this process and the ones it started), PostgreSQL, anything else, and what stayed
idle, in cores (2.0 on a two-core machine busy throughout). Where a ceiling stops, this says
whether the servers ran out of processor or shared it: on one machine the load generator and
the database take their part of the same cores.

Read from Linux's /proc (user and system time, in clock ticks); elsewhere, nothing is said.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PROC = Path("/proc")


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    name: str
    seconds: float


def processes() -> list[Process]:
    """Every process readable now, with the processor time it has used (its ended children's
    not counted: a process is followed while it lives)."""
    found = []
    for entry in PROC.iterdir() if PROC.is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text.rpartition(")")[2].split()
        seconds = (int(fields[11]) + int(fields[12])) / TICK
        found.append(Process(int(entry.name), int(fields[1]), name, seconds))
    return found


def machine_seconds() -> tuple[float, float]:
    """The whole machine's busy and idle processor time so far, all cores summed."""
    fields = [int(v) for v in (PROC / "stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, waiting for input or output
    return (sum(fields[:8]) - idle) / TICK, idle / TICK


def descendants(root: int, every: Iterable[Process]) -> set[int]:
    children: dict[int, list[int]] = {}
    for p in every:
        children.setdefault(p.parent, []).append(p.pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        found.add(pid)
        todo.extend(children.get(pid, ()))
    return found


class Cores:
    """Started before the measured seconds, read after them: the cores each part used."""

    GROUPS = ("servers", "generator", "database", "other", "idle")

    def __init__(self, servers: Iterable[int]) -> None:
        self.servers = set(servers)
        self.available = PROC.joinpath("stat").is_file()
        self._start = self._sample() if self.available else None

    def _sample(self) -> tuple[float, dict[str, float], dict[int, Process]]:
        every = processes()
        busy, idle = machine_seconds()
        return time.monotonic(), {"busy": busy, "idle": idle}, {p.pid: p for p in every}

    def used(self) -> dict[str, float]:
        """Cores used by each group since the start (NaN where /proc cannot say)."""
        if self._start is None:
            return {group: float("nan") for group in self.GROUPS}
        started, machine_before, before = self._start
        ended, machine_after, after = self._sample()
        generator = descendants(os.getpid(), after.values()) - self.servers
        database = {p.pid for p in after.values() if p.name.startswith("postgres")}
        wall = max(ended - started, 1e-9)

        def spent(pids: set[int]) -> float:
            return (
                sum(
                    after[p].seconds - (before[p].seconds if p in before else 0.0)
                    for p in pids
                    if p in after
                )
                / wall
            )

        used = {
            "servers": spent(self.servers),
            "generator": spent(generator),
            "database": spent(database),
        }
        busy = (machine_after["busy"] - machine_before["busy"]) / wall
        used["other"] = max(0.0, busy - sum(used.values()))
        used["idle"] = (machine_after["idle"] - machine_before["idle"]) / wall
        return used
