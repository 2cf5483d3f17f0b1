"""`--all-moves` two ways on 2 cores: the moves shared among worker processes (each its
own solver and table, `parallel.move_scores` with threads=N) against one process whose
search threads split each move's nodes, the moves one after another over one table
(Solver(threads=N), move_scores with threads=1).

    python bench/connect4_all_moves_modes.py [--stones 8,10,12] [--per-stones 4]
                                            [--threads 2]

Positions of real games (bench/connect4_parallel.py's `sample`); the shipped book, no
cache. Printed per position: the wall seconds each way (the scores must agree), then
per stone count the total of each. Wall time is the measure: run it on idle cores.
"""

from __future__ import annotations

import argparse
import os
import time

from connect4_parallel import sample

from zerosum.games.connect4.parallel import move_scores
from zerosum.games.connect4.solver import Solver


def all_moves(current: int, mask: int, workers: int, threads: int) -> tuple[float, dict[int, int]]:
    solver = Solver(threads=threads)
    t0 = time.perf_counter()
    scores = {c: s for c, s, _ in move_scores(solver, current, mask, workers)}
    return time.perf_counter() - t0, scores


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--stones", default="8,10,12")
    p.add_argument("--per-stones", type=int, default=4)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    n = args.threads
    print(f"load average {os.getloadavg()[0]:.2f}; {n} worker processes against one "
          f"process of {n} threads", flush=True)
    for stones in (int(s) for s in args.stones.split(",")):
        total = {"workers": 0.0, "threads": 0.0}
        for current, mask in sample(stones, args.per_stones):
            t_workers, s_workers = all_moves(current, mask, n, 1)
            t_threads, s_threads = all_moves(current, mask, 1, n)
            assert s_workers == s_threads
            total["workers"] += t_workers
            total["threads"] += t_threads
            print(f"  {stones} stones: workers {t_workers:7.2f} s, threads {t_threads:7.2f} s",
                  flush=True)
        print(f"{stones} stones, {args.per_stones} positions: workers {total['workers']:.1f} s,"
              f" threads {total['threads']:.1f} s (workers / threads "
              f"{total['workers'] / total['threads']:.2f})", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
