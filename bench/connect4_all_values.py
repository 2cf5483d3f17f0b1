"""Time to all seven values (what `zerosum solve connect4 --all-moves` answers) by the
number of stones, 0 to 20, p50 and p95, over positions of real games.

    python bench/connect4_all_values.py [--games 8] [--stones 0-20] [--threads 2]
                                        [--budget 30] [--depth 6] [--seed 1]
                                        [--before BOOK] [--after BOOK]

The games: the engine (the game's kernel under the one driver, at --depth plies)
against itself from a random opening of 2 to 4 moves (--seed), played to the end; each
game gives its position with n stones, for each n it reaches (mirror images once, a
position already won left out). Each position's seven values are found as the command
finds them: parallel.move_scores with --threads threads, a fresh solver with the
command's table, no cache (what is measured is the search and the book, not the
memory), in a child process killed at --budget seconds (shown as >budget).

"before" and "after" differ only in the opening book the solver reads: --before (by
default the depth-1 book this project shipped first, from git: `git show
1830bff:src/zerosum/games/connect4/book_7x6.txt`) and --after (default: the book
shipped now); `none` for no book at all (`--before none`: the search alone). Give the
same file twice to measure one book.

A stone count has at most as many positions as the games give it, mirror images once:
the empty board is one, the first stone four (of seven columns, mirrored).

The load average is printed before and after: on a shared machine the wall times
mean little; compare the runs of one sitting, and say so.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
from pathlib import Path

from budget import within

from zerosum.games.connect4.analysis import COMMAND_CAPACITY
from zerosum.games.connect4.book import Book, book_path, canonical, parse, shipped
from zerosum.games.connect4.game import Connect4, Position
from zerosum.games.connect4.parallel import move_scores
from zerosum.games.connect4.solver import Solver
from zerosum.games.registry import get_game
from zerosum.players.agents import engines_of
from zerosum.result import Limit
from zerosum.stop import Stop

ROOT = Path(__file__).resolve().parents[1]
FIRST_BOOK = "1830bff:src/zerosum/games/connect4/book_7x6.txt"


def games(count: int, depth: int, seed: int) -> list[list[Position]]:
    """`count` engine-against-engine games from random openings: each its positions."""
    spec = get_game("connect4")
    engine = engines_of(spec)["engine"]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        game = spec.create()
        assert isinstance(game, Connect4)
        state = game.initial_state()
        line = [state]
        for _ in range(rng.randint(2, 4)):
            state = game.result(state, rng.choice(game.actions(state)))
            line.append(state)
        while not game.is_terminal(state):
            result = engine(game, state, Limit(depth=depth), None, Stop())
            state = game.result(state, result.action)
            line.append(state)
        out.append(line)
    return out


def all_values(book: Book | None, current: int, mask: int, threads: int) -> None:
    solver = Solver(capacity=COMMAND_CAPACITY, book=False if book is None else book)
    for _ in move_scores(solver, current, mask, threads):
        pass


def timed(book: Book | None, current: int, mask: int, threads: int, budget: float) -> float:
    """Wall seconds to every move's score; infinity past the budget."""
    seconds = within(budget, all_values, book, current, mask, threads)
    return float("inf") if seconds is None else seconds


def quantiles(times: list[float], budget: float) -> str:
    ranked = sorted(times)
    p95 = ranked[max(0, -(-95 * len(ranked) // 100) - 1)]
    return " / ".join(f">{budget:g}" if q == float("inf") else f"{q:.2f}"
                      for q in (statistics.median(ranked), p95))


def load_book(path: str | None, first: bool) -> Book | None:
    game = Connect4()
    if path == "none":
        return None
    if path is not None:
        return parse(game.geo, Path(path).read_text())
    if first:
        text = subprocess.run(["git", "-C", str(ROOT), "show", FIRST_BOOK], check=True,
                              capture_output=True, text=True).stdout
        return parse(game.geo, text)
    book = shipped(game.geo)
    assert book is not None, f"no book at {book_path(game.geo)}"
    return book


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--stones", default="0-20", help="a range, e.g. 0-20, or a list 0,5,10")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--budget", type=float, default=30.0)
    p.add_argument("--depth", type=int, default=6, help="the engine's plies in the games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--before", help="the book before (default: the first one shipped; "
                   "none: no book; skip: measure only after)")
    p.add_argument("--after", help="the book after (default: the one shipped now; none: "
                   "no book)")
    args = p.parse_args()
    os.environ["ZEROSUM_CACHE"] = "off"
    low, _, high = args.stones.partition("-")
    stones = list(range(int(low), int(high) + 1)) if high else \
        [int(s) for s in args.stones.split(",")]
    books = {"after": load_book(args.after, False)} if args.before == "skip" else {
        "before": load_book(args.before, True), "after": load_book(args.after, False)}
    named = {name: "no book" if book is None else
             f"a book of depth {book.depth} ({len(book)} positions)"
             for name, book in books.items()}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; before: "
          f"{named.get('before', 'skipped')}, after: {named['after']}; no cache", flush=True)
    played = games(args.games, args.depth, args.seed)
    geo = Connect4().geo
    print(f"{args.games} games (engine at depth {args.depth} against itself, random "
          f"openings, seed {args.seed}); {args.threads} threads; stopped at "
          f"{args.budget:g} s. p50 / p95 seconds:", flush=True)
    for n in stones:
        seen: set[int] = set()
        positions = []
        for line in played:
            if n < len(line) - 1:  # not the game's last position (won or full)
                state = line[n]
                key = canonical(geo, state.current, state.mask)
                if key not in seen:
                    seen.add(key)
                    positions.append(state)
        if not positions:
            continue
        cells = {name: quantiles([timed(book, s.current, s.mask, args.threads, args.budget)
                                  for s in positions], args.budget)
                 for name, book in books.items()}
        print(f"  {n:2d} stones, {len(positions):2d} positions: before "
              f"{cells.get('before', '-'):>13}, after {cells['after']:>13}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
