"""What `bench.run` reports once its runs are done (issue 38): for each G, the median of its runs
with their spread (lowest to highest), and the steady state's targets, met or not on every run.

A figure that a reader cannot reproduce is not yet a figure: each line is the median of at least
three runs of the same command, each run measured after its own idle floor and its own storm
(every phone opening its page and stream at once), so that a run that disagrees with docs/performance.md by
more than its spread says something is wrong, not that the machine was busy.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

# The steady state's targets up to G = 100: an action's p95 within 3x the floor measured in the
# same run, the nudge and the refreshed part at every phone within 250 ms (p95), no error.
RATIO, NUDGE_MS, PAGE_MS = 3.0, 250.0, 250.0
# The next order of magnitude's (G = 200: 6,400 phones on one process): no error, the nudge and
# the refreshed part at every phone within 500 ms (p95), under 100 KiB of the server's memory a
# phone (RSS / phones).
LARGE_G, LARGE_NUDGE_MS, LARGE_PAGE_MS, LARGE_KIB = 200, 500.0, 500.0, 100.0

SUMMARY = [
    # (title, key, format)
    ("idle floor p95", "idle_p95", "{:.1f}"),
    ("storm s", "connect_s", "{:.1f}"),
    ("action p95 in the storm", "storm_p95", "{:.0f}"),
    ("actions/s", "actions_s", "{:.1f}"),
    ("action p50", "p50", "{:.1f}"),
    ("action p95", "p95", "{:.1f}"),
    ("floor p95", "floor_p95", "{:.1f}"),
    ("p95 / floor", "ratio_p95", "{:.1f}"),
    ("nudge p95", "nudge_p95", "{:.0f}"),
    ("refreshed p95", "page_p95", "{:.0f}"),
    ("errors", "errors", "{:.0f}"),
    ("RSS MiB", "rss_mib", "{:.0f}"),
    ("KiB / phone", "kib_per_phone", "{:.0f}"),
    ("CPU ms / change", "cpu_ms", "{:.0f}"),
    ("cores: servers", "cores_servers", "{:.2f}"),
    ("cores: load generator", "cores_generator", "{:.2f}"),
    ("cores: PostgreSQL", "cores_database", "{:.2f}"),
    ("cores: idle", "cores_idle", "{:.2f}"),
    ("load generator lag p99", "lag_p99", "{:.0f}"),
    ("load generator lag max", "lag_max", "{:.0f}"),
]


def missed(row: dict[str, Any]) -> list[str]:
    """The steady state's targets this run missed: those of its G."""
    if row["games"] >= LARGE_G:
        return missed_large(row)
    out = []
    if not row["ratio_p95"] <= RATIO:
        out.append(f"action p95 {row['ratio_p95']:.1f}x the floor (target {RATIO:g}x)")
    if not row["nudge_p95"] < NUDGE_MS:
        out.append(f"nudge p95 {row['nudge_p95']:.0f} ms (target {NUDGE_MS:g})")
    if not row["page_p95"] < PAGE_MS:
        out.append(f"refreshed p95 {row['page_p95']:.0f} ms (target {PAGE_MS:g})")
    return out + errors(row)


def missed_large(row: dict[str, Any]) -> list[str]:
    out = []
    if not row["nudge_p95"] < LARGE_NUDGE_MS:
        out.append(f"nudge p95 {row['nudge_p95']:.0f} ms (target {LARGE_NUDGE_MS:g})")
    # With two processes, the phones on the other process than the action's too (issue 55).
    other = row.get("remote_p95", math.nan)
    if not math.isnan(other) and not other < LARGE_NUDGE_MS:
        out.append(f"other process's nudge p95 {other:.0f} ms (target {LARGE_NUDGE_MS:g})")
    if not row["page_p95"] < LARGE_PAGE_MS:
        out.append(f"refreshed p95 {row['page_p95']:.0f} ms (target {LARGE_PAGE_MS:g})")
    if row.get("late"):  # changes no phone had by the run's end: not in the p95s, a miss
        out.append(f"{row['late']} changes never reached their phones")
    if not kib_per_phone(row) < LARGE_KIB:
        out.append(f"{kib_per_phone(row):.0f} KiB a phone (target {LARGE_KIB:g})")
    return out + errors(row)


def errors(row: dict[str, Any]) -> list[str]:
    """Every G's target: no error, in the steady state or in the storm (a storm that drops
    phones is not met by a calm minute after it)."""
    count = row["errors"] + row.get("storm_errors", 0)
    return [f"{count} errors"] if count else []


def kib_per_phone(row: dict[str, Any]) -> float:
    """The server's memory over its phones (RSS / phones)."""
    return float(row["rss_mib"]) * 1024 / max(1, row["phones"])


def summary(runs: dict[int, list[dict[str, Any]]]) -> str:
    """For each G: each figure's median over its runs, and their spread."""
    lines = []
    for games, rows in runs.items():
        for row in rows:
            row["kib_per_phone"] = kib_per_phone(row)
        lines.append(f"G = {games} ({rows[0]['phones']:,} phones), {len(rows)} runs:")
        for title, key, fmt in SUMMARY:
            values = [float(r.get(key, math.nan)) for r in rows]
            median = fmt.format(statistics.median(values))
            spread = f"{fmt.format(min(values))} to {fmt.format(max(values))}"
            lines.append(f"  {title:>24}: {median:>8}  ({spread})")
        failed = {n: missed(r) for n, r in enumerate(rows, 1) if missed(r)}
        if failed:
            for n, why in failed.items():
                lines.append(f"  run {n}: targets NOT met: {'; '.join(why)}")
        else:
            lines.append("  targets met on every run")
    return "\n".join(lines)


def ceiling_line(runs: dict[int, list[dict[str, Any]]], database: str, processes: int) -> str:
    """The largest G whose targets were met on every run (issue 55: the ceiling of this
    machine), and what the next one missed."""
    met = [g for g, rows in runs.items() if rows and not any(missed(r) for r in rows)]
    over = [g for g in runs if g not in met]
    found = f"G = {max(met)} ({max(met) * 32:,} phones)" if met else "below the first G tried"
    why = ""
    if over:
        first = min(over)
        reasons = sorted({m for r in runs[first] for m in missed(r)})
        why = f"; G = {first} missed: {'; '.join(reasons)}"
    return f"ceiling, {database} with {processes} process(es): {found}{why}"
