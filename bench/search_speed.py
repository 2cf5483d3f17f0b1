"""Nodes per second of the generic search, for comparing changes over time.

    python bench/search_speed.py [--repeat 3]

Prints, for plain alpha-beta and minimax: nodes examined, CPU seconds (best of the
repeats) and nodes/s, on a fixed synthetic tree (uniform branching 5, depth 8, leaf
values from a seeded hash of the path) and on real positions (tic-tac-toe, empty board).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from synthetic import UniformTree

from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta_search, minimax_search


def measure(label: str, run: Callable[[], Any], repeat: int) -> None:
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        r = run()
        dt = time.process_time() - t0
        best = dt if best is None or dt < best else best
    assert best is not None
    print(f"{label:<44} nodes {r.stats.nodes:>9,}  cpu {best:7.3f} s  "
          f"{r.stats.nodes / best:>10,.0f} nodes/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tree = UniformTree(5, 8)
    ttt = TicTacToe()
    measure("alpha-beta, uniform tree b=5 d=8", lambda: alphabeta_search(tree, ()), args.repeat)
    measure("minimax, uniform tree b=5 d=6",
            lambda: minimax_search(UniformTree(5, 6), ()), args.repeat)
    measure("alpha-beta, tic-tac-toe empty board",
            lambda: alphabeta_search(ttt, ttt.initial_state()), args.repeat)
    measure("minimax, tic-tac-toe empty board",
            lambda: minimax_search(ttt, ttt.initial_state()), 1)


if __name__ == "__main__":
    main()
