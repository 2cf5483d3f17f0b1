"""Checkers perft speed: leaf nodes per CPU second from the 8x8 start position, the
compiled twin (games/checkers/native/) against the Python reference.

    python bench/checkers_perft.py [--depth 9] [--capture english|max] [--repeat 1]
                                   [--size 8]

Prints each depth's leaf count (checked against the published English counts on 8x8),
the best CPU time of the repeats for the Python (perft.perft) and the compiled perft,
run interleaved (Python, compiled, Python, ...) so that a change in the machine's load
touches both, their leaves per second and the ratio, and the load average before and
after. CPU time (time.process_time), not wall time, since the machine may be shared.
Without the compiled module (not built, or ZEROSUM_NATIVE=0) only the Python is timed.
If OpenSpiel (`pyspiel`, a dev-only
benchmark dependency, not required by zerosum) is installed, its `checkers` perft is
timed on the same depths for comparison; otherwise the script says it is missing.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from zerosum.games.checkers import Checkers
from zerosum.games.checkers.compiled import twin
from zerosum.games.checkers.perft import perft

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


def interleaved(runs: list[Callable[[], int]], repeat: int) -> list[tuple[int, float]]:
    """Each run's count and best CPU time, the runs taking turns `repeat` times."""
    best = [float("inf")] * len(runs)
    counts = [0] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            counts[i], cpu = best_time(run, 1)
            best[i] = min(best[i], cpu)
    return list(zip(counts, best, strict=True))


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=9)
    p.add_argument("--capture", choices=("english", "max"), default="english")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--size", type=int, choices=(4, 6, 8, 10, 12), default=8)
    args = p.parse_args()
    game = Checkers(args.size, args.capture)
    state = game.initial_state()
    b, max_capture = game.board, game.max_capture
    module = twin()
    print(f"zerosum checkers perft, {args.size}x{args.size}, {args.capture} rule, CPU seconds, "
          f"best of {args.repeat}; {load()}")
    print(f"{'depth':>5} {'leaves':>12} {'python s':>9} {'leaves/s':>11} {'compiled s':>10} "
          f"{'leaves/s':>12} {'ratio':>6}  check")
    python_total = compiled_total = 0.0
    for depth in range(1, args.depth + 1):
        runs: list[Callable[[], int]] = [
            lambda d=depth: perft(b, state.black, state.white, state.kings,  # type: ignore[misc]
                                  True, d, max_capture)]
        if module is not None:
            runs.append(lambda d=depth: module.perft(  # type: ignore[misc]
                b.n, state.black, state.white, state.kings, True, d, max_capture))
        timed = interleaved(runs, args.repeat)
        count, cpu = timed[0]
        check = ""
        if args.size == 8 and args.capture == "english" and depth <= len(PUBLISHED):
            check = "ok" if count == PUBLISHED[depth - 1] else f"MISMATCH {PUBLISHED[depth - 1]}"
        rate = count / cpu if cpu > 0 else float("nan")
        line = f"{depth:>5} {count:>12,} {cpu:>9.3f} {rate:>11,.0f}"
        if module is not None:
            fast_count, fast = timed[1]
            if fast_count != count:
                check += f" COMPILED GIVES {fast_count:,}"
            python_total += cpu
            compiled_total += fast
            fast_rate = fast_count / fast if fast > 0 else float("nan")
            ratio = cpu / fast if fast > 0 else float("nan")
            line += f" {fast:>10.4f} {fast_rate:>12,.0f} {ratio:>5.1f}x"
        print(f"{line}  {check}")
    if module is None:
        print("the compiled module is not in use (not built, or ZEROSUM_NATIVE=0)")
    elif compiled_total > 0:
        print(f"all depths: python {python_total:.2f} s, compiled {compiled_total:.3f} s, "
              f"{python_total / compiled_total:.1f}x; {load()}")
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
