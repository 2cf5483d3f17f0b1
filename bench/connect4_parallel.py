"""Issue 30's figures for the Connect Four solver: one thread against N.

    python bench/connect4_parallel.py [--threads 2] [--per-set 20] [--stones 0,4,8,12,16,20]
                                      [--per-stones 4] [--budget 15] [--empty] [--book]

1. Pons's six sets (tests/data/connect4, the first --per-set positions of each): the
   positions solved by 1 process, then shared among N worker processes (each its own
   solver, its table cleared before each position, no cache): wall time, total nodes,
   the wall-time ratio. The scores are checked against the published ones.
2. Time to all seven values (every move's exact score) by the number of stones, p50 and
   p95: positions of real games (prefixes of the games of Pons's sets L1_R1 and L2_R1,
   mirror images once), "before" = the old path (the score, then the best moves by one
   null window each, then each move's exact score, one process) and "after" =
   parallel.move_scores over N processes; each stopped at --budget seconds (shown as
   >budget). No cache either way: what is measured is the search, not the memory.
3. With --empty: the empty board's score without the book, 1 thread (minutes).
4. With --book: the shipped book's depth, size and stated build time.

The machine's load average is printed before and after: on a shared machine the wall
times mean little; the node counts do not depend on it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from pathlib import Path

from budget import within

from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.book import book_path, canonical, shipped
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.parallel import move_scores
from zerosum.games.connect4.solver import Solver
from zerosum.stop import SearchStopped

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
GEO = geometry()


def load(name: str, count: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / f"Test_{name}").read_text().splitlines()]
    return [(moves, int(score)) for moves, score in rows[:count]]


def solve_share(share: list[tuple[str, int]]) -> tuple[int, int]:
    """(nodes, wrong scores) of solving these positions, each from a cleared table."""
    solver = Solver(book=False)
    nodes = wrong = 0
    for moves, score in share:
        p = position_from_stones(parse_moves(moves))
        solver.reset()
        wrong += solver.solve(p.current, p.mask) != score
        nodes += solver.nodes
    return nodes, wrong


def run_sets(threads: int, per_set: int) -> None:
    ctx = multiprocessing.get_context("fork")
    print(f"Pons's sets, the first {per_set} positions each: 1 process vs {threads}")
    for name in SETS:
        rows = load(name, per_set)
        wall = {}
        nodes = {}
        for n in (1, threads):
            t0 = time.perf_counter()
            if n == 1:
                results = [solve_share(rows)]
            else:
                # One position a task, handed out as processes come free: a static
                # split leaves one process with the hardest positions.
                with ctx.Pool(n) as pool:
                    results = pool.map(solve_share, [[row] for row in rows], chunksize=1)
            wall[n] = time.perf_counter() - t0
            nodes[n] = sum(r[0] for r in results)
            assert sum(r[1] for r in results) == 0, f"{name}: wrong scores"
        print(f"  {name}: 1 thread {wall[1]:7.2f} s, {threads} threads {wall[threads]:7.2f} s"
              f" (ratio {wall[1] / wall[threads]:.2f}x); nodes {nodes[1]:,} "
              f"({nodes[1] / len(rows):,.0f}/position; {nodes[threads]:,} with "
              f"{threads})", flush=True)


def old_all_moves(current: int, mask: int, deadline: float) -> dict[int, int]:
    """Before issue 30: the score, the best moves, then every move's exact score."""
    solver = Solver()
    solver.limit(seconds=deadline - time.perf_counter())
    score = solver.solve(current, mask)
    solver.best_moves(current, mask, score)
    return {c: solver.move_score(current, mask, c)
            for c in GEO.centre_order if GEO.playable(mask, c)}


def new_all_moves(current: int, mask: int, threads: int) -> dict[int, int]:
    return {c: s for c, s, _ in move_scores(Solver(), current, mask, threads)}


def timed(target: str, current: int, mask: int, threads: int, budget: float) -> float | None:
    """Wall seconds to every move's score, None past the budget (the new path runs in a
    child process, killed at the budget: its workers cannot be stopped otherwise)."""
    t0 = time.perf_counter()
    if target == "before":
        try:
            old_all_moves(current, mask, t0 + budget)
        except SearchStopped:
            return None
        return time.perf_counter() - t0
    return within(budget, new_all_moves, current, mask, threads)


def sample(stones: int, count: int) -> list[tuple[int, int]]:
    """Positions with `stones` stones from the games of Pons's sets, mirror images once,
    not won."""
    seen: set[int] = set()
    out = []
    for name in ("L1_R1", "L2_R1", "L1_R2", "L2_R2"):
        for moves, _ in load(name, 1000):
            if len(moves) < stones:
                continue
            p = position_from_stones(parse_moves(moves[:stones]))
            key = canonical(GEO, p.current, p.mask)
            if key not in seen:
                seen.add(key)
                out.append((p.current, p.mask))
            if len(out) == count:
                return out
    return out


def run_stones(threads: int, stone_counts: list[int], per: int, budget: float) -> None:
    print(f"Time to all seven values by stones ({per} positions each, stopped at "
          f"{budget:g} s): p50 / p95, before (1 process) and after ({threads} processes)")
    for stones in stone_counts:
        cells = []
        for target in ("before", "after"):
            times = [timed(target, c, m, threads, budget) for c, m in sample(stones, per)]
            ranked = sorted(float("inf") if t is None else t for t in times)
            p95 = ranked[max(0, -(-95 * len(ranked) // 100) - 1)]
            cells.append(" / ".join(f">{budget:g}" if q == float("inf") else f"{q:.2f}"
                                    for q in (statistics.median(ranked), p95)))
        print(f"  {stones:2d} stones: before {cells[0]:>13} s, after {cells[1]:>13} s",
              flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--per-set", type=int, default=20)
    p.add_argument("--stones", default="0,4,8,12,16,20")
    p.add_argument("--per-stones", type=int, default=4)
    p.add_argument("--budget", type=float, default=15.0)
    p.add_argument("--skip-sets", action="store_true")
    p.add_argument("--skip-stones", action="store_true")
    p.add_argument("--empty", action="store_true", help="also the empty board, no book")
    p.add_argument("--book", action="store_true", help="also the shipped book's figures")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    if not args.skip_sets:
        run_sets(args.threads, args.per_set)
    if not args.skip_stones:
        run_stones(args.threads, [int(s) for s in args.stones.split(",")], args.per_stones,
                   args.budget)
    if args.empty:
        solver = Solver(book=False)
        t0 = time.perf_counter()
        score = solver.solve(0, 0)
        print(f"empty board, no book, 1 thread: {score:+d}, {solver.nodes:,} nodes, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    if args.book:
        book = shipped(GEO)
        if book is not None:
            header = [line for line in book_path(GEO).read_text().splitlines()
                      if line.startswith("#")]
            print(f"book: depth {book.depth}, {len(book)} positions, "
                  f"{book_path(GEO).stat().st_size:,} bytes", *header, sep="\n  ")
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
