"""How late does iterative deepening return after its time budget?

    python bench/deadline.py [--repeat 5]

For several budgets, runs iterative_deepening_search on a uniform synthetic tree (deep
enough never to finish) and prints the worst and median wall-clock overshoot past the
budget and the depth reached.
"""

from __future__ import annotations

import argparse
import statistics
import time

from synthetic import UniformTree

from zerosum.search import iterative_deepening_search


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    tree = UniformTree(6, 40)
    print(f"{'budget s':>9} {'median over ms':>15} {'worst over ms':>14} {'depths':>8}")
    for budget in (0.02, 0.1, 0.5, 1.0, 2.0):
        overs, depths = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = iterative_deepening_search(tree, (), seconds=budget)
            overs.append((time.perf_counter() - t0 - budget) * 1000)
            depths.append(r.depth or 0)
        print(f"{budget:>9} {statistics.median(overs):>15.2f} {max(overs):>14.2f} "
              f"{min(depths):>3}-{max(depths):<3}")


if __name__ == "__main__":
    main()
