"""Checkers perft speed: leaf nodes per CPU second from the 8x8 start position.

    python bench/checkers_perft.py [--depth 9] [--capture english|max] [--repeat 1]

Prints each depth's leaf count (checked against the published English counts), the
best CPU time of the repeats and leaves per second. CPU time (time.process_time), not
wall time, since the machine may be shared. If OpenSpiel (`pyspiel`, a dev-only
benchmark dependency, not required by zerosum) is installed, its `checkers` perft is
timed on the same depths for comparison; otherwise the script says it is missing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from zerosum.games.checkers import Checkers

PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


def best_time(run: Callable[[], int], repeat: int) -> tuple[int, float]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        t0 = time.process_time()
        count = run()
        best = min(best, time.process_time() - t0)
    return count, best


def openspiel_perft(depth: int) -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("checkers")

    def count(state: object, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        for a in state.legal_actions():  # type: ignore[attr-defined]
            total += count(state.child(a), d - 1)  # type: ignore[attr-defined]
        return total

    return lambda: count(game.new_initial_state(), depth)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=9)
    p.add_argument("--capture", choices=("english", "max"), default="english")
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    game = Checkers(8, args.capture)
    state = game.initial_state()
    print(f"zerosum checkers perft ({args.capture} rule), CPU seconds, best of {args.repeat}")
    print(f"{'depth':>5} {'leaves':>12} {'seconds':>9} {'leaves/s':>11}  check")
    for depth in range(1, args.depth + 1):
        count, cpu = best_time(lambda d=depth: game.perft(state, d), args.repeat)  # type: ignore[misc]
        check = ""
        if args.capture == "english" and depth <= len(PUBLISHED):
            check = "ok" if count == PUBLISHED[depth - 1] else f"MISMATCH {PUBLISHED[depth - 1]}"
        rate = count / cpu if cpu > 0 else float("nan")
        print(f"{depth:>5} {count:>12,} {cpu:>9.3f} {rate:>11,.0f}  {check}")
    if openspiel_perft(1) is None:
        print("OpenSpiel (pyspiel) is not installed: no comparison.")
        return
    print("OpenSpiel checkers perft (through its Python API):")
    for depth in range(1, min(args.depth, 7) + 1):
        run = openspiel_perft(depth)
        assert run is not None
        count, cpu = best_time(run, args.repeat)
        print(f"{depth:>5} {count:>12,} {cpu:>9.3f} {count / cpu if cpu else 0:>11,.0f}")


if __name__ == "__main__":
    main()
