"""Take-Stones: who wins with n stones, and how fast the generic alpha-beta solves it.

    python bench/takestones_speed.py [--max-stones 16] [--repeat 3]

For each n: the game value from the first move (exact, search to the end), Max's first
move, and for plain alpha-beta and alpha-beta with a transposition table: nodes examined,
CPU seconds (best of the repeats; time.process_time) and nodes per second.
Timings are noisy on a shared machine; node counts are exact.
"""

from __future__ import annotations

import argparse
import time

from zerosum.games.takestones import TakeStones
from zerosum.search import SearchResult, TranspositionTable, alphabeta_search


def timed(game: TakeStones, use_table: bool, repeat: int) -> tuple[SearchResult, float]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        table = TranspositionTable() if use_table else None
        t0 = time.process_time()
        result = alphabeta_search(game, game.initial_state(), table=table)
        best = min(best, time.process_time() - t0)
    assert result is not None
    return result, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-stones", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'n':>3} {'winner':>6} {'move':>4} | {'plain nodes':>12} {'s':>7} {'nodes/s':>9} "
          f"| {'table nodes':>11} {'s':>7} {'nodes/s':>9}")
    for n in range(3, args.max_stones + 1):
        game = TakeStones(n)
        plain, t_plain = timed(game, False, args.repeat)
        tabled, t_table = timed(game, True, args.repeat)
        assert plain.value == tabled.value
        winner = "Max" if plain.value > 0 else "Min"
        rate = plain.stats.nodes / t_plain if t_plain else 0
        rate_t = tabled.stats.nodes / t_table if t_table else 0
        print(f"{n:>3} {winner:>6} {plain.action!s:>4} | {plain.stats.nodes:>12,} {t_plain:>7.3f} "
              f"{rate:>9,.0f} | {tabled.stats.nodes:>11,} {t_table:>7.3f} {rate_t:>9,.0f}")


if __name__ == "__main__":
    main()
