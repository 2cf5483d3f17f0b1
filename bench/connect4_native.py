"""The Connect Four solver's native kernel against its pure-Python reference, in one run.

    python bench/connect4_native.py [--sets L2_R2:200,L1_R2:50]

For each set (its first N positions): every position is solved from a cleared table by
both paths in turn (interleaved, so load on a shared machine hits both alike), checked
against the published score, and timed in CPU time. Prints, per set, the mean CPU time
per position of each path, the ratio (the issue's goal: at least 15x), whether the node
counts are identical (they must be), and the nodes per second of each path (the goal on
L2_R2: 8M/s natively). The load average is printed before and after: note it with
the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"


def run_set(name: str, count: int) -> None:
    rows = [line.split() for line in (DATA / f"Test_{name}").read_text().splitlines()]
    fast, pure = Solver(), Solver(native=False)
    if not fast.native:
        sys.exit("the native solver is not built here (or ZEROSUM_NATIVE=0)")
    cpu = {"native": 0.0, "pure": 0.0}
    nodes = {"native": 0, "pure": 0}
    wrong = differ = 0
    for moves, score in rows[:count]:
        p = position_from_stones(parse_moves(moves))
        for label, solver in (("native", fast), ("pure", pure)):
            solver.reset()
            c0 = time.process_time()
            got = solver.solve(p.current, p.mask)
            cpu[label] += time.process_time() - c0
            nodes[label] += solver.nodes
            wrong += got != int(score)
        differ += fast.nodes != pure.nodes
    n = min(count, len(rows))
    print(f"{name} (first {n}): native {cpu['native'] / n * 1e3:8.3f} ms/position, "
          f"pure {cpu['pure'] / n * 1e3:9.2f} ms/position: {cpu['pure'] / cpu['native']:5.1f}x "
          f"less CPU (goal 15x); {nodes['native'] / n:,.0f} nodes/position, "
          f"{'identical' if not differ else f'{differ} positions DIFFER'} node counts; "
          f"{wrong} wrong scores; native {nodes['native'] / cpu['native'] / 1e6:.2f}M nodes/s, "
          f"pure {nodes['pure'] / cpu['pure'] / 1e6:.3f}M nodes/s", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="L2_R2:200,L1_R2:50",
                   help="name:count, comma-separated (default %(default)s)")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    for item in args.sets.split(","):
        name, _, count = item.partition(":")
        run_set(name, int(count or 1000))
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
