"""The machine's speed, printed by every bench run (issue 55: figures that travel between
machines): a fixed pure-Python workload, timed. Read a bench's latencies against it: a machine
that takes twice as long for it answers about twice as slow when one core is the limit.

    python -m bench.calibrate
"""

from __future__ import annotations

import statistics
import time

ADDITIONS = 10_000_000
# What README's figures were read against: this workload on the machine of docs/performance.md,
# idle (the median of three).
README_SECONDS = 0.42


def additions(n: int = ADDITIONS) -> float:
    """Seconds for `n` additions in a pure-Python loop (one core, no allocation to speak of)."""
    started = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    assert total == n * (n - 1) // 2
    return time.perf_counter() - started


def calibration(times: int = 3) -> float:
    """The median of `times` timings of the fixed workload, in seconds."""
    return statistics.median(additions() for _ in range(times))


def line(seconds: float) -> str:
    return (
        f"machine: ten million additions in pure Python took {seconds:.2f} s "
        f"({seconds / README_SECONDS:.2f}x docs/performance.md's {README_SECONDS:.2f} s; "
        "latencies scale about with it where one core is the limit)"
    )


if __name__ == "__main__":
    print(line(calibration()))
