"""The empty Connect Four board solved from scratch (no opening book) by the solver.

    python bench/connect4_empty_board.py [--capacity N] [--weak] [--pure] [--threads N]
                                         [--windows K]

Prints each null-window search as it is answered (the window, the score's interval
proven so far, nodes, CPU time), a line every 2^26 nodes meanwhile, then the score (+1:
the first player wins with their 21st stone... see solver.py for the scale), the nodes,
CPU and wall time and nodes/s. The native kernel takes minutes; the pure-Python path
(--pure) hours. The table's capacity decides part of the node count (a full bucket
gives up its deepest entry): the default, 30M entries, takes 458 MiB in the native
kernel (16 bytes an entry). `--threads N`: the native search's N threads sharing out
split nodes (the node count is then every thread's, and the wall time is the one to
compare). `--windows K`: stop
after the first K null windows are answered, for a comparison shorter than the whole
solve (the same windows whatever the threads as long as each answer's bound is the
same: threads may find another fail-high bound, so compare the intervals printed).
"""

from __future__ import annotations

import argparse
import time

from zerosum.games.connect4.solver import Progress, Solver
from zerosum.stop import SearchStopped


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--capacity", type=int, default=30_000_000)
    p.add_argument("--weak", action="store_true", help="only the sign of the score")
    p.add_argument("--pure", action="store_true", help="the pure-Python search")
    p.add_argument("--threads", type=int, default=1, help="search threads (native only)")
    p.add_argument("--windows", type=int, default=None, help="stop after K windows")
    args = p.parse_args()
    # No book: the shipped one answers the empty board at once.
    solver = Solver(capacity=args.capacity, native=not args.pure, book=False,
                    threads=args.threads)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    answered = 0

    def report(progress: Progress) -> None:
        nonlocal answered
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        what = f"window {progress.window}/{progress.window + 1}: " + \
            ("answered" if progress.answered else "searching")
        print(f"{what:34s} score in [{progress.lo:+d}, {progress.hi:+d}]; "
              f"{progress.nodes:>15,} nodes; {cpu:8.1f} s CPU, {wall:8.1f} s wall; "
              f"{progress.nodes / max(cpu, 1e-9) / 1e6:5.2f}M nodes/s", flush=True)
        answered += progress.answered
        if answered == args.windows:
            raise SearchStopped

    solver.watch(report, every=1 << 26)
    print(f"{'native' if solver.native else 'pure Python'} search, table capacity "
          f"{args.capacity:,}, {solver.threads} thread(s)", flush=True)
    try:
        score = solver.solve(0, 0, weak=args.weak)
    except SearchStopped:
        print(f"stopped after {args.windows} windows: {time.perf_counter() - wall0:.1f} s wall")
        return
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"score {score:+d}; {solver.nodes:,} nodes; {cpu:.1f} s CPU ({cpu / 60:.1f} min), "
          f"{wall:.1f} s wall; {solver.nodes / cpu / 1e6:.2f}M nodes/s", flush=True)


if __name__ == "__main__":
    main()
