"""How the opening book's build time falls with workers (processes or Ray CPUs),
simulated from a build's own leaf times.

    python bench/connect4_book_workers.py LOG [LOG ...] [--workers 1,2,4,...]
                                          [--per-task 0.002]

LOG: what `tools/connect4_book.py` printed (one line a leaf solved: "KEY: SCORE, NODES
nodes, SECONDS s CPU (I/N)"); several logs of one resumed build are read in turn, a leaf
counted once. The simulation hands the leaves out in the order the build finished them,
each to the first worker free (as the builder's pool and Ray's scheduler do), each
taking the CPU time it took in the build plus `--per-task` seconds (sending the task
and its answer: a Ray task's round trip is of the order of a millisecond), and prints
the wall time with each count of workers and its ratio to one worker.

What it cannot know: each worker keeps its table from one leaf to the next, and sibling
leaves share most of their subtrees, so a leaf's time depends on what its worker solved
before. With more workers each sees fewer of a leaf's siblings, and its leaves take
longer than in the build measured: read the figures past the build's own count of
workers as a bound, never reached, the longest leaf bounding them all.
"""

from __future__ import annotations

import argparse
import heapq
import re
from pathlib import Path

LEAF = re.compile(r"^\s*([0-9a-f]+): [+-]?\d+, [\d,]+ nodes, ([\d.]+) s CPU \(\d+/\d+\)$")


def leaf_times(logs: list[Path]) -> list[float]:
    """Each leaf's CPU seconds, in the order the build finished them."""
    seen: dict[str, float] = {}
    for log in logs:
        for line in log.read_text().splitlines():
            match = LEAF.match(line)
            if match and match[1] not in seen:
                seen[match[1]] = float(match[2])
    return list(seen.values())


def makespan(times: list[float], workers: int, per_task: float) -> float:
    """The wall time of handing `times` out in order, each to the first worker free."""
    free = [0.0] * workers
    for seconds in times:
        heapq.heappush(free, heapq.heappop(free) + seconds + per_task)
    return max(free)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("logs", nargs="+", type=Path)
    p.add_argument("--workers", default="1,2,4,8,16,32,64,128,256")
    p.add_argument("--per-task", type=float, default=0.002,
                   help="seconds a task costs beside its CPU time (default: %(default)s)")
    args = p.parse_args()
    times = leaf_times(args.logs)
    if not times:
        raise SystemExit(f"no leaf lines in {', '.join(map(str, args.logs))}")
    one = makespan(times, 1, args.per_task)
    print(f"{len(times):,} leaves, {sum(times):,.0f} s of CPU in all, the longest "
          f"{max(times):.1f} s; {args.per_task * 1000:g} ms a task beside its CPU")
    for workers in (int(w) for w in args.workers.split(",")):
        wall = makespan(times, workers, args.per_task)
        print(f"  {workers:4d} workers: {wall:9,.0f} s wall ({wall / 60:7.1f} min), "
              f"{one / wall:6.1f}x one worker")


if __name__ == "__main__":
    main()
