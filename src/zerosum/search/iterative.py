"""Iterative deepening alpha-beta under a time and/or node budget.

Depth 1, 2, 3, ... are searched in turn, sharing one transposition table (so each pass
tries the previous pass's best moves first). When the budget runs out in the middle of
a pass, that pass is abandoned and the deepest completed pass is the answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import SearchResult, SearchStats
from zerosum.search.alphabeta import alphabeta_search
from zerosum.search.table import TranspositionTable
from zerosum.stop import Stop


def deepen(
    game: AnyGame,
    state: Any,
    stop: Stop,
    *,
    max_depth: int = 100,
    table: TranspositionTable | None = None,
    order: bool = True,
) -> Iterator[SearchResult]:
    """Yield the result of each completed depth, deepest last, until the Stop fires,
    `max_depth` is done, or a pass needed no cutoff (its value is the game's value)."""
    if table is None:
        table = TranspositionTable(exact_depth=False)
    for depth in range(1, max_depth + 1):
        result = alphabeta_search(game, state, depth, order=order, table=table, stop=stop)
        if not result.complete:
            return
        stop.depth, stop.best = depth, result.action  # for a progress display
        yield result
        if result.exact or result.action is None or stop.expired():
            return


def iterative_deepening_search(
    game: AnyGame,
    state: Any,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    max_depth: int = 100,
    stop: Stop | None = None,
    table: TranspositionTable | None = None,
    order: bool = True,
    on_depth: Callable[[SearchResult], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """The best move of the deepest pass completed within the budget.

    `seconds` is a budget measured by `clock` (wall time by default; time.process_time
    gives CPU time), `nodes` a budget of examined nodes over all passes; `stop` may be
    given instead (e.g. to stop from another thread).
    `on_depth` is called with each completed pass, for progress displays.
    The returned stats add up all passes, the abandoned one included.
    """
    if stop is None:
        stop = Stop(seconds=seconds, nodes=nodes, check_every=128, clock=clock)
    if table is None:
        table = TranspositionTable(exact_depth=False)
    best: SearchResult | None = None
    total = SearchStats()
    nodes_before = stop.nodes_used
    for result in deepen(game, state, stop, max_depth=max_depth, table=table, order=order):
        total.add(result.stats)
        best = result
        if on_depth is not None:
            on_depth(result)
    # The abandoned pass counts too (its nodes were examined); take them from the Stop.
    total.nodes = stop.nodes_used - nodes_before
    if best is None:
        # Not even depth 1 finished: answer the first legal move rather than nothing.
        actions = game.actions(state)
        first = actions[0] if actions else None
        best = SearchResult(game.evaluate(state), first, [first] if first is not None else [],
                            depth=0, complete=False)
    best.stats = total
    best.algorithm = "iterative"
    return best
