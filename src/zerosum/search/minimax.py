"""Plain minimax (AIMA figure 5.3), to the end of the game or depth-limited."""

from __future__ import annotations

import math
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import InfoSink, Limit, SearchResult, Tracer
from zerosum.search.core import Context, check_depth, search_root
from zerosum.search.driver import bounded
from zerosum.stop import Stop


def minimax_search(
    game: AnyGame,
    state: Any,
    depth: int | None = None,
    *,
    tracer: Tracer | None = None,
    trace_entries: bool = False,
    stop: Stop | None = None,
) -> SearchResult:
    """The minimax decision from `state`: every node is examined, nothing is pruned.

    With `depth`, nodes where `game.cutoff_test` says so are valued by `game.evaluate`.
    `tracer` and `trace_entries` as alphabeta_search's (the window: (-inf, +inf)).
    """
    check_depth(depth)
    ctx = Context(game, depth, stop, tracer, entries=trace_entries)

    def max_value(state: Any, action: Any, depth: int) -> tuple[float, list[Any]]:
        v = ctx.leaf_value(state, depth)
        if v is not None:
            ctx.trace(state, action, depth, -math.inf, math.inf, v)
            return v, []
        ctx.enter(state, action, depth, -math.inf, math.inf)
        v, pv = -math.inf, []
        for a in game.actions(state):
            v2, pv2 = min_value(game.result(state, a), a, depth + 1)
            if v2 > v:
                v, pv = v2, [a, *pv2]
        ctx.trace(state, action, depth, -math.inf, math.inf, v)
        return v, pv

    def min_value(state: Any, action: Any, depth: int) -> tuple[float, list[Any]]:
        v = ctx.leaf_value(state, depth)
        if v is not None:
            ctx.trace(state, action, depth, -math.inf, math.inf, v)
            return v, []
        ctx.enter(state, action, depth, -math.inf, math.inf)
        v, pv = math.inf, []
        for a in game.actions(state):
            v2, pv2 = max_value(game.result(state, a), a, depth + 1)
            if v2 < v:
                v, pv = v2, [a, *pv2]
        ctx.trace(state, action, depth, -math.inf, math.inf, v)
        return v, pv

    def child(state: Any, action: Any, depth: int, _a: float, _b: float) -> tuple[float, list[Any]]:
        if game.is_maxs_turn(state):
            return max_value(state, action, depth)
        return min_value(state, action, depth)

    return search_root(ctx, state, child, algorithm="minimax")


def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
            stop: Stop | None = None, tracer: Tracer | None = None,
            trace_entries: bool = False) -> SearchResult:
    """minimax_search as an Analyser (zerosum.result): to `limit.depth` (None: the end),
    stopped by its time or node budget or by `stop`. It reports no Info (one pass)."""
    return minimax_search(game, state, limit.depth, tracer=tracer,
                          trace_entries=trace_entries, stop=bounded(limit, stop))
