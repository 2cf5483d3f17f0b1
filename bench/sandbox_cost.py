"""What containing a program costs per call: the wall time of `run_program` around a
program that does nothing (/bin/true, and Python starting and ending), in each of the
sandbox's modes this system offers, beside the time counted against the program (its
`seconds`: from when it starts to when it ends). Timings: run on a quiet machine.

    python bench/sandbox_cost.py [CALLS]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from zerosum.sandbox import Limits, containment, run_program


def measure(command: list[str], calls: int) -> tuple[float, float]:
    walls, counted = [], []
    for _ in range(calls):
        t0 = time.perf_counter()
        run = run_program(command, (), Limits(seconds=30))
        walls.append(time.perf_counter() - t0)
        counted.append(run.seconds)
        assert run.status == 0, run
    return statistics.median(walls), statistics.median(counted)


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    programs = {"/bin/true": ["/bin/true"], "python3 -c pass": ["python3", "-c", "pass"]}
    print(f"{'mode':<8} {'program':<16} {'call (median)':>14} {'counted':>9} {'overhead':>9}")
    for mode in ("bwrap", "unshare", "limits"):
        os.environ["ZEROSUM_SANDBOX"] = mode
        containment.cache_clear()
        if containment().mode != mode:
            print(f"{mode:<8} (not available here)")
            continue
        for name, command in programs.items():
            wall, counted = measure(command, calls)
            print(f"{mode:<8} {name:<16} {wall * 1000:11.1f} ms {counted * 1000:6.1f} ms "
                  f"{(wall - counted) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
