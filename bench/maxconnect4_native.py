"""Max-Connect4 engine speed: the compiled node function (games/maxconnect4/_engine.c)
against the Python closure it mirrors, to a fixed depth on the same positions.

    python bench/maxconnect4_native.py [--depth 11] [--positions 6] [--repeat 1]

The positions: the empty board and positions from seeded random play (4 to 24 pieces).
Each is searched with an empty table by the Python kernel and the compiled one in turn
(Python, compiled, Python, ...; best CPU time of the repeats), so a change in the
machine's load touches both. Prints the nodes (checked identical, with the values and
principal variations), nodes per CPU second, the ratio and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from zerosum.games.maxconnect4 import MaxConnect4, Position, format_board
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel, new_table
from zerosum.result import Limit, SearchResult
from zerosum.search.driver import deepen, stop_for


def sample_positions(count: int, seed: int = 7) -> list[Position]:
    game = MaxConnect4()
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randrange(4, 25)):
            s = game.result(s, rng.choice(game.actions(s)))
        out.append(s)
    return out


def search(pos: Position, depth: int, native: bool) -> SearchResult:
    limit = Limit(depth=depth)
    stop = stop_for(limit)
    kernel = MaxConnect4Kernel(pos, stop, table=new_table(), native=native)
    if native and kernel.compiled is None:
        raise SystemExit("the compiled kernel is not in use (not built, or ZEROSUM_NATIVE=0)")
    return deepen(kernel, limit, stop)


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=11)
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    print(f"Max-Connect4 engine to depth {args.depth}, compiled vs Python, CPU seconds "
          f"(best of {args.repeat}, interleaved); {load()}")
    print(f"{'pieces':>6} {'nodes':>10} {'python s':>9} {'nodes/s':>9} {'compiled s':>10} "
          f"{'nodes/s':>10} {'ratio':>6}")
    totals = [0, 0.0, 0.0]
    for pos in sample_positions(args.positions):
        best = [float("inf"), float("inf")]
        found: list[SearchResult] = []
        for _ in range(args.repeat):
            for i, native in enumerate((False, True)):
                t0 = time.process_time()
                found.append(search(pos, args.depth, native))
                best[i] = min(best[i], time.process_time() - t0)
        pure, fast = found[0], found[1]
        same = (pure.value, pure.pv, pure.stats.nodes) == (fast.value, fast.pv, fast.stats.nodes)
        nodes = pure.stats.nodes
        totals[0] += nodes
        totals[1] += best[0]
        totals[2] += best[1]
        print(f"{pos.pieces:>6} {nodes:>10,} {best[0]:>9.2f} {nodes / best[0]:>9,.0f} "
              f"{best[1]:>10.3f} {nodes / best[1]:>10,.0f} {best[0] / best[1]:>5.1f}x"
              f"{'' if same else '  DIFFERENT RESULTS'}")
        if not same:
            print(format_board(pos))
    nodes, python, compiled = totals
    print(f"total: {nodes:,} nodes; python {python:.2f} s = {nodes / python:,.0f} nodes/s, "
          f"compiled {compiled:.3f} s = {nodes / compiled:,.0f} nodes/s, "
          f"{python / compiled:.1f}x; {load()}")


if __name__ == "__main__":
    main()
