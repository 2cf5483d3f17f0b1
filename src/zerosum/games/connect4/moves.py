"""Every column's proven value by the perfect solver, each as soon as it is proven, and
while a column is still being proven the interval of its score proven so far: Connect
Four's per-move analysis (its Solver's move_values), which the page's analysis board shows
where the generic solver (search/solve.py) cannot go. What it proves goes into the
user's cache (cache.py), and what is there is not proven again.

The order is the cheap moves first, whatever their column. Every column gets a short
search (QUICK_NODES), then the ones left a longer one, four times longer each round up
to RAMP_NODES: a move proven within those budgets costs little to try again (its table
entries are mostly still there) and the easy moves are not kept waiting behind a hard
one. The moves left are then solved one at a time, centre first, to the end: a null
window interrupted and begun again would redo its search (the table is cleared long
before a hard one ends). The null windows narrow each move's interval as they answer
(`Solver.watch`); that interval and the nodes so far are reported after each answer and
every REPORT_NODES nodes, so the search runs in a thread of its own and the generator
passes its reports on as they come."""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Iterator
from typing import Any

from zerosum.games.connect4.game import Connect4, Position, plies_to_win
from zerosum.games.registry import MoveValue
from zerosum.kernel import capacity_for
from zerosum.stop import SearchStopped, Stop

SOLVER_CAPACITY = 1_000_000  # table entries of one analysis's own solver (a server bounds it)
QUICK_NODES = 1 << 14  # the first search of every move
RAMP_NODES = 1 << 20  # the last search shared out before the moves left go one by one
REPORT_NODES = 1 << 21  # between two reports of a long search's progress


def verdict(score: int, stones: int, cells: int) -> tuple[str, int | None]:
    """The outcome ("win", "draw", "loss") and the plies to the end (both sides' moves,
    this one included, as `zerosum solve connect4` counts them; None for a draw) of a
    column whose solver score, from the mover's side, is `score`, with `stones` on the
    board before it is played."""
    if score == 0:
        return "draw", None
    stone = cells // 2 + 1 - abs(score)
    if score > 0:  # the mover has played stones // 2 stones (red moves first)
        return "win", plies_to_win(stone, stones // 2, True)
    return "loss", plies_to_win(stone, (stones + 1) // 2, False)


def interval_outcome(lo: int, hi: int) -> str:
    """What a move's score interval [lo, hi] (mover's side) already tells."""
    if lo > 0:
        return "win"
    if hi < 0:
        return "loss"
    if lo == 0 == hi:
        return "draw"
    if lo == 0:
        return "win or draw"
    if hi == 0:
        return "loss or draw"
    return "open"


def move_values(game: Any, state: Any, stop: Stop, threads: int = 1
                ) -> Iterator[MoveValue]:
    """The solver's verdict on each column, the cheapest first, with reports of the
    interval proven so far for a column in progress (MoveValue.interval); SearchStopped
    when `stop` says so (its deadline, node budget or request). `threads`: the threads
    of each search (the native solver's split nodes). One by default: a server serves
    many, and more threads on one search take the cores from the others (what a
    second thread saves on Pons's sets: docs/connect4.md)."""
    from zerosum.games.connect4.book import mirror
    from zerosum.games.connect4.cache import CacheError, user_cache
    from zerosum.games.connect4.solver import Progress, Solver

    assert isinstance(game, Connect4) and isinstance(state, Position)
    geo = game.geo
    try:
        cache = user_cache()
    except CacheError as e:  # a server answers without it, and says why in its log
        print(f"zerosum: {e}", file=sys.stderr)
        cache = None
    solver = Solver(geo.width, geo.height, capacity=capacity_for(game, SOLVER_CAPACITY),
                    clock=stop.clock, cache=cache, threads=threads)
    solver.stop = stop
    current, mask = state.current, state.mask
    stones = mask.bit_count()
    columns = [c for c in geo.centre_order if geo.playable(mask, c)]
    # A position that is its own mirror image scores column c as width - 1 - c: of each
    # pair only the one met first in centre order is searched (parallel.py does so too).
    symmetric = mirror(geo, current) == current and mirror(geo, mask) == mask
    twin = {c: geo.width - 1 - c for c in columns} if symmetric else {}
    left = [c for i, c in enumerate(columns) if twin.get(c, c) not in columns[:i]]
    # Each move's score interval from the mover's side, and the nodes spent on it.
    interval = {c: (-((geo.cells - stones) // 2), (geo.cells + 1 - stones) // 2)
                for c in left}
    spent = dict.fromkeys(left, 0)
    reports: queue.Queue[MoveValue | BaseException | None] = queue.Queue()
    cancelled = False
    told = [(0, 0)]  # the last interval reported
    column = left[0] if left else 0  # the one being searched
    start = 0  # the solver's node count when its search began

    def progress(p: Progress) -> None:
        if cancelled:  # the reader has gone: end the search at the next check
            solver.node_budget = 0
        if p.answered:  # the child's interval, from the other side
            interval[column] = (max(interval[column][0], -p.hi),
                                min(interval[column][1], -p.lo))
        if solver.node_budget is not None or (p.answered and interval[column] == told[0]):
            return  # a short search (its interval is told if it ends unproven), or no news
        lo, hi = told[0] = interval[column]
        reports.put(MoveValue(column, interval_outcome(lo, hi), None, None, (lo, hi),
                              spent[column] + p.nodes - start))

    def proven(c: int, score: int) -> None:
        outcome, plies = verdict(score, stones, geo.cells)
        reports.put(MoveValue(c, outcome, plies, score, nodes=spent[c]))
        if twin.get(c, c) != c:
            reports.put(MoveValue(twin[c], outcome, plies, score))
        left.remove(c)

    def attempt(c: int, budget: int | None) -> None:
        """Search move `c` (within `budget` nodes), from the interval known for it."""
        nonlocal column, start
        column, start = c, solver.nodes
        solver.limit(nodes=budget)
        if cancelled:
            raise SearchStopped
        try:
            score = solver.move_score(current, mask, c, known=interval[c])
        except SearchStopped:
            if stop.expired() or cancelled:
                raise
            # Its budget spent: proven later; what its windows proved is told now.
            lo, hi = interval[c]
            spent[c] += solver.nodes - start
            reports.put(MoveValue(c, interval_outcome(lo, hi), None, None, (lo, hi),
                                  spent[c]))
            return
        spent[c] += solver.nodes - start
        proven(c, score)

    def prove() -> None:
        try:
            solver.watch(progress, every=REPORT_NODES)
            budget = QUICK_NODES
            while left and budget <= RAMP_NODES:
                for c in list(left):
                    attempt(c, budget)
                budget *= 4
            for c in list(left):
                attempt(c, None)
            reports.put(None)
        except BaseException as e:  # SearchStopped included: the reader raises it
            reports.put(e)

    worker = threading.Thread(target=prove, name="zerosum-move-values", daemon=True)
    worker.start()
    try:
        while (report := reports.get()) is not None:
            if isinstance(report, BaseException):
                raise report
            yield report
    finally:
        cancelled = True
        solver.node_budget = 0
        worker.join()
