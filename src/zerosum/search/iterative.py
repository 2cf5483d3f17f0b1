"""Iterative deepening alpha-beta over the protocol, under a time and/or node budget:
the driver (search.driver) running the generic kernel (search.negamax).

Depth 1, 2, 3, ... are searched in turn, sharing one transposition table (so each pass
tries the previous pass's best moves first). When the budget runs out in the middle of
a pass, that pass is abandoned and the deepest completed pass is the answer. It stops
early once a pass needed no estimate: its value is then the game's value.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from zerosum.game import AnyGame
from zerosum.kernel import ALL, Enhancements
from zerosum.result import InfoSink, Limit, SearchResult
from zerosum.search.driver import deepen, stop_for
from zerosum.search.negamax import ProtocolKernel
from zerosum.stop import Stop
from zerosum.table import TranspositionTable

MAX_DEPTH = 100  # passes, when no depth is given: beyond any that ends in time


def iterative_deepening_search(
    game: AnyGame,
    state: Any,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    max_depth: int = MAX_DEPTH,
    stop: Stop | None = None,
    table: TranspositionTable | None = None,
    order: bool = True,
    on_info: InfoSink | None = None,
    clock: Callable[[], float] = time.perf_counter,
    enhancements: Enhancements = ALL,
) -> SearchResult:
    """The best move of the deepest pass completed within the budget.

    `seconds` is a budget measured by `clock` (wall time by default; time.process_time
    gives CPU time), `nodes` a budget of examined nodes over all passes; `stop` may be
    given instead (e.g. to stop from another thread). `on_info` receives an Info after
    each completed pass. `order=False` is `enhancements` without move ordering.
    The stats count every examined node, the abandoned pass's included.
    """
    if not order:
        enhancements = Enhancements(**{**vars(enhancements), "ordering": False})
    return analyse(game, state, Limit(depth=max_depth, seconds=seconds, nodes=nodes),
                   on_info, stop, table, enhancements, clock)


def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
            stop: Stop | None = None, table: TranspositionTable | None = None,
            enhancements: Enhancements = ALL,
            clock: Callable[[], float] = time.perf_counter) -> SearchResult:
    """iterative_deepening_search as an Analyser (zerosum.result): passes up to
    `limit.depth` (None: MAX_DEPTH), within its time and node budget, read here once:
    into `stop` (the caller's, given the limit's time and nodes where it has none; else
    a new one, timed by `clock`) and the driver's passes."""
    if stop is None:
        stop = Stop(seconds=limit.seconds, nodes=limit.nodes, check_every=128, clock=clock)
    stop = stop_for(limit, stop)
    max_depth = MAX_DEPTH if limit.depth is None else limit.depth
    if table is None:
        table = TranspositionTable(same_depth=False)
    kernel = ProtocolKernel(game, state, stop, table, enhancements, max_depth)
    return deepen(kernel, replace(limit, depth=max_depth), stop, on_info, enhancements,
                  "iterative")
