"""Every move's exact score on N cores: what `zerosum solve connect4 --all-moves
--threads N` does.

The native solver searches the moves one after another, each with N threads sharing out
its nodes (split nodes, _solver.c) over one table, which keeps what each move's search
proved for the next (the moves' subtrees meet). The pure-Python solver cannot use a
second thread (CPython runs one thread's bytecode at a time), so there the seven
questions "what does column c score?", independent searches, go to N worker processes,
each with its own solver and table (nothing shared but the cache file, cache.py, where
each writes what it proves). Either way the scores are exactly those of one thread; the
node count is every thread's and process's. A position that is its own mirror image has
its mirrored moves solved once. The position's own score is the best of its moves', and
its best moves those scoring it, so no further search is needed.

Before anything is sent to a worker, each move gets a short search here (QUICK_NODES):
moves answered by the book, the cache, a four or a quick proof cost no process.

Measured on idle cores (bench/connect4_all_moves_modes.py, 2026-11-29): on each of 16
positions of 4 to 12 stones, 2 threads beat 2 worker processes, by 1.26-1.8 times (the
worker processes share no table, and the biggest move bounds them); so the native
solver, which used to hand the moves to workers first, now keeps them.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from zerosum.games.connect4.bitboard import Geometry
from zerosum.games.connect4.book import Book, mirror
from zerosum.games.connect4.cache import SolvedCache
from zerosum.games.connect4.solver import Solver
from zerosum.stop import SearchStopped

QUICK_NODES = 1 << 16  # a move proven within this many nodes is not worth a process


def default_threads() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _solve_move(width: int, height: int, capacity: int, book: Book | None, current: int,
                mask: int, column: int, cache_path: str | None, native: bool
                ) -> tuple[int, int]:
    """A worker's task: (the move's exact score, the nodes visited), with the book of
    the caller's solver (none, or the one it was given, not the shipped one) and its
    kind (native or pure)."""
    cache = None if cache_path is None else SolvedCache(cache_path)
    solver = Solver(width, height, capacity=capacity, book=False if book is None else book,
                    cache=cache, native=native)
    try:
        return solver.move_score(current, mask, column), solver.nodes
    finally:
        if cache is not None:
            cache.close()


def _context() -> multiprocessing.context.BaseContext:
    # Fork where there is one: the command's main module is not re-run in the workers.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def move_scores(solver: Solver, current: int, mask: int, threads: int
                ) -> Iterator[tuple[int, int, int]]:
    """(column, exact score from the mover's side, nodes a worker process visited for it,
    0 if `solver` did: they are in its count) of every playable column, centre first,
    each as soon as it and those before it are known, searched by `threads` threads (the
    native solver: its own, which it keeps afterwards) or worker processes (the pure
    one). `solver` answers the quick ones (and its cache serves the workers too)."""
    if solver.native:
        solver.threads = threads
    return _move_scores(solver, current, mask, threads)


def _move_scores(solver: Solver, current: int, mask: int, threads: int
                 ) -> Iterator[tuple[int, int, int]]:
    geo: Geometry = solver.geo
    columns = [c for c in geo.centre_order if geo.playable(mask, c)]
    # A position that is its own mirror image (the empty board, a centre column's
    # stones) scores column c as column width - 1 - c: only one of each pair is solved.
    symmetric = mirror(geo, current) == current and mirror(geo, mask) == mask
    twin = {c: geo.width - 1 - c for c in columns} if symmetric else {}
    # Of each pair, the one met first in centre order is searched, its twin copies it.
    searched = [c for i, c in enumerate(columns) if twin.get(c, c) not in columns[:i]]
    quick: dict[int, int] = {}
    for c in searched:
        solver.limit(nodes=QUICK_NODES)
        try:
            quick[c] = solver.move_score(current, mask, c)
        except SearchStopped:
            pass
        finally:
            solver.limit()
    left = [c for c in searched if c not in quick]
    if solver.native or threads <= 1 or len(left) <= 1:
        for c in columns:
            if c not in searched:
                quick[c] = quick[twin[c]]
            elif c not in quick:
                quick[c] = solver.move_score(current, mask, c)
            yield c, quick[c], 0
        return
    cache = solver.cache
    cache_path = None if cache is None else str(Path(cache.path))
    workers = min(threads, len(left))
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        jobs: dict[int, Future[tuple[int, int]]] = {
            c: pool.submit(_solve_move, geo.width, geo.height, solver.capacity, solver.book,
                           current, mask, c, cache_path, solver.native) for c in left}
        for c in columns:
            if c not in searched:
                c_twin = twin[c]
                yield c, (quick[c_twin] if c_twin in quick else jobs[c_twin].result()[0]), 0
            elif c in quick:
                yield c, quick[c], 0
            else:
                score, nodes = jobs[c].result()
                yield c, score, nodes
