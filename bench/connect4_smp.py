"""The native solver's threads (`Solver(threads=N)`, split nodes) against one thread,
on Pascal Pons's six sets and the empty board.

    python bench/connect4_smp.py [--sets PLAN] [--threads 1,2] [--empty] [--each REPEAT]
                                 [--no-book] [--warm N]

PLAN: comma-separated NAME[:FIRST[:STEP]] (the first FIRST positions of the set, every
STEP-th of them). The default takes each small set whole and, of L1_R2 and L1_R3, a part
taking 10 to 30 s with one thread on an idle core (every 4th of L1_R2, L1_R3's first 6).
Every position is solved from a cleared table, as bench/connect4_solver.py does, with
each thread count; the scores must be the published ones with every count. Printed per
set: the wall time (what threads save; CPU time grows with them) and nodes with each
count (the helpers' part in brackets), and the wall-time ratio to the first count.
`--empty`: the empty board too, without the book (about nine minutes with one thread;
bench/connect4_empty_board.py --windows K times its first windows alone).

`--each`: besides, the whole of each set at once with `Solver.solve_each` (what
`zerosum solve connect4 --file` runs): the threads share out the positions, each over a
table of its own, so the nodes are the same with every count and only the wall time
differs. It is the measure for a set of many quick positions, each too small to split.

`--no-book`: the sets without the opening book, the search alone (the book answers the
positions of Pons's Beginning sets it holds in 0 nodes).

`--warm N`: the untimed run before each `--each` timing takes the set's first N
positions, not the whole set: for a set of minutes (the whole of L1_R3), whose first
positions alone write every page of every thread's table.

Wall time is the measure here, so the run needs the cores to itself: the load average at
the start and the end is printed, to judge that by.
"""

from __future__ import annotations

import argparse
import os
import time

from connect4_solver import load, solve_each

from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

PLAN = "L3_R1,L2_R1,L1_R1,L2_R2,L1_R2:1000:4,L1_R3:6"


def plan(spec: str) -> tuple[str, list[tuple[str, int]]]:
    name, *rest = spec.split(":")
    first = int(rest[0]) if rest else None
    step = int(rest[1]) if len(rest) > 1 else 1
    return name, load(name, step, first)


def run(rows: list[tuple[str, int]], threads: int, book: bool = True
        ) -> tuple[float, int, int, int]:
    """Wall seconds, nodes, the helpers' part of them, and the scores not published."""
    return solve_each(Solver(threads=threads, book=book), rows, time.perf_counter)


def compare(label: str, rows: list[tuple[str, int]], counts: list[int],
            book: bool = True) -> None:
    cells = []
    base = 0.0
    for threads in counts:
        if len(rows) > 1:  # first a warm-up (imports, the first pages of memory), untimed
            run(rows[:1], threads, book)
        wall, nodes, helpers, wrong = run(rows, threads, book)
        base = base or wall
        cells.append(f"{threads} thread(s): {wall:8.2f} s wall, {nodes:>13,} nodes "
                     f"({helpers:,} helpers'), {wrong} wrong, ratio {base / wall:4.2f}x")
    print(f"{label}: {len(rows)} positions", *cells, sep="\n    ", flush=True)


def compare_each(label: str, rows: list[tuple[str, int]], counts: list[int],
                 repeat: int, book: bool = True, warm: int = 0) -> None:
    """The set at once (`solve_each`), with each count: the best of `repeat` runs, since
    a set of quick positions takes milliseconds. The untimed run first takes the first
    `warm` positions (all of them if 0)."""
    positions = [(p.current, p.mask) for p in
                 (position_from_stones(parse_moves(moves)) for moves, _ in rows)]
    published = [score for _, score in rows]
    cells = []
    base = 0.0
    solver = Solver(book=book)
    for threads in counts:
        # One whole run first, not timed: a thread's table is reserved at once, but each
        # of its pages costs a fault when first written, and a set of 1,000 quick
        # positions writes all of them (L3_R1: 3.7 ms with 2 threads in the first run,
        # 1.8-2.1 ms after; that first run, not the threads, made the 0.43x measured
        # before this warm-up).
        solver.solve_each(positions[:warm] if warm else positions, threads)
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            answers = solver.solve_each(positions, threads)
            best = min(best, time.perf_counter() - t0)
        wrong = sum(score != p for (score, _), p in zip(answers, published, strict=True))
        base = base or best
        cells.append(f"{threads} thread(s): {best:8.3f} s wall, {solver.nodes:>13,} nodes, "
                     f"{wrong} wrong, ratio {base / best:4.2f}x")
    print(f"{label}, at once: {len(rows)} positions", *cells, sep="\n    ", flush=True)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=PLAN, help="NAME[:FIRST[:STEP]],... "
                        "(default: %(default)s)")
    parser.add_argument("--threads", default="1,2", help="counts to time (default: 1,2)")
    parser.add_argument("--empty", action="store_true",
                        help="also the empty board, without the book")
    parser.add_argument("--each", type=int, default=0, metavar="REPEAT",
                        help="also each set at once (solve_each), the best of REPEAT runs")
    parser.add_argument("--only-each", action="store_true",
                        help="with --each: not the positions one at a time")
    parser.add_argument("--no-book", action="store_true",
                        help="the sets without the opening book (the search alone)")
    parser.add_argument("--warm", type=int, default=0, metavar="N",
                        help="with --each: warm up on the first N positions (default: all)")
    args = parser.parse_args()
    if args.warm < 0:
        parser.error(f"--warm must be 0 or more, not {args.warm}")
    counts = [int(t) for t in args.threads.split(",")]
    probe = Solver()
    if not probe.native:
        print("the native solver is not built here: threads would change nothing")
        return
    print(f"load average at the start: {load_average()}", flush=True)
    for spec in args.sets.split(","):
        name, rows = plan(spec)
        if not args.only_each:
            compare(f"{name} ({spec})", rows, counts, book=not args.no_book)
        if args.each:
            compare_each(f"{name} ({spec})", rows, counts, args.each,
                         book=not args.no_book, warm=args.warm)
    if args.empty:
        compare("the empty board, no book", [("", 1)], counts, book=False)  # red wins
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
