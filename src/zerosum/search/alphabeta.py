"""Alpha-beta search (AIMA figure 5.7), full depth or depth-limited,
with optional move ordering and a transposition table.

Pruning is exactly the textbook's: a Max node stops when v >= beta, a Min node when
v <= alpha. Values are fail-soft (a node returns its v, which may lie outside the
window), which is what lets the table store sound bounds.
"""

from __future__ import annotations

import math
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import InfoSink, Limit, SearchResult, Tracer
from zerosum.search.core import Context, check_depth, search_root
from zerosum.search.driver import bounded
from zerosum.stop import Stop
from zerosum.table import Bound, Entry, TranspositionTable, classify, narrow


def alphabeta_search(
    game: AnyGame,
    state: Any,
    depth: int | None = None,
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    order: bool = False,
    table: TranspositionTable | None = None,
    tracer: Tracer | None = None,
    trace_entries: bool = False,
    stop: Stop | None = None,
) -> SearchResult:
    """The alpha-beta decision from `state` within the window (alpha, beta).

    `order` tries actions in `game.order` order (the table's move first in any case);
    `table` reuses results of transposed positions. Neither changes the value.
    `tracer` receives each node's exit and, with `trace_entries`, each inner node's
    entry with the window passed down (zerosum.result.TraceEvent).
    """
    check_depth(depth)
    ctx = Context(game, depth, stop, tracer, order, trace_entries)

    def probe(state: Any, depth: int) -> tuple[Entry | None, Any]:
        """The table entry for this node, if any, and the node's table key."""
        if table is None:
            return None, None
        key = game.key(state)
        return table.probe(key, ctx.remaining(depth)), key

    def store(key: Any, v: float, a0: float, b0: float, depth: int, best: Any, c0: int) -> None:
        if table is None:
            return
        remaining = ctx.remaining(depth)
        if not table.same_depth and ctx.inexact == c0:
            remaining = None  # nothing below was estimated: the value holds at any depth
        table.store(key, v, classify(v, a0, b0), remaining, best)

    def use_entry(entry: Entry, alpha: float, beta: float) -> tuple[float, float, bool]:
        """Narrow the window by a stored bound; True when the stored value settles it.

        A settled node ends the principal variation: the stored action may belong to a
        symmetric twin of this state (keys may fold symmetries), so it is not replayed.
        """
        ctx.stats.table_hits += 1
        remaining, bound, value, _ = entry
        if remaining is not None:
            ctx.inexact += 1
        if bound == Bound.EXACT:
            return alpha, beta, True
        alpha, beta = narrow(bound, value, alpha, beta)
        return alpha, beta, alpha >= beta

    def max_value(
        state: Any, action: Any, depth: int, alpha: float, beta: float
    ) -> tuple[float, list[Any]]:
        v = ctx.leaf_value(state, depth)
        if v is not None:
            ctx.trace(state, action, depth, alpha, beta, v)
            return v, []
        ctx.enter(state, action, depth, alpha, beta)
        entry, key = probe(state, depth)
        a0, b0, c0 = alpha, beta, ctx.inexact
        if entry is not None:
            alpha, beta, settled = use_entry(entry, alpha, beta)
            if settled:
                ctx.trace(state, action, depth, alpha, beta, entry[2])
                return entry[2], []  # the line ends here: see use_entry()
        v, pv, best = -math.inf, [], None
        pruned = False
        for a in ctx.actions(state, entry):
            v2, pv2 = min_value(game.result(state, a), a, depth + 1, alpha, beta)
            if v2 > v:
                v, pv, best = v2, [a, *pv2], a
            if v >= beta:
                pruned = True
                break
            alpha = max(alpha, v)
        store(key, v, a0, b0, depth, best, c0)
        ctx.trace(state, action, depth, alpha, beta, v, pruned)
        return v, pv

    def min_value(
        state: Any, action: Any, depth: int, alpha: float, beta: float
    ) -> tuple[float, list[Any]]:
        v = ctx.leaf_value(state, depth)
        if v is not None:
            ctx.trace(state, action, depth, alpha, beta, v)
            return v, []
        ctx.enter(state, action, depth, alpha, beta)
        entry, key = probe(state, depth)
        a0, b0, c0 = alpha, beta, ctx.inexact
        if entry is not None:
            alpha, beta, settled = use_entry(entry, alpha, beta)
            if settled:
                ctx.trace(state, action, depth, alpha, beta, entry[2])
                return entry[2], []  # the line ends here: see use_entry()
        v, pv, best = math.inf, [], None
        pruned = False
        for a in ctx.actions(state, entry):
            v2, pv2 = max_value(game.result(state, a), a, depth + 1, alpha, beta)
            if v2 < v:
                v, pv, best = v2, [a, *pv2], a
            if v <= alpha:
                pruned = True
                break
            beta = min(beta, v)
        store(key, v, a0, b0, depth, best, c0)
        ctx.trace(state, action, depth, alpha, beta, v, pruned)
        return v, pv

    def child(
        state: Any, action: Any, depth: int, alpha: float, beta: float
    ) -> tuple[float, list[Any]]:
        if game.is_maxs_turn(state):
            return max_value(state, action, depth, alpha, beta)
        return min_value(state, action, depth, alpha, beta)

    root_entry = table.get(game.key(state)) if table is not None else None
    result = search_root(
        ctx,
        state,
        child,
        alpha,
        beta,
        prune=True,
        ordered=None if root_entry is None else ctx.actions(state, root_entry),
        algorithm="alphabeta",
    )
    if table is not None and result.complete and result.action is not None:
        remaining = ctx.remaining(0)
        if not table.same_depth and result.decided:
            remaining = None
        table.store(game.key(state), result.value, classify(result.value, alpha, beta),
                    remaining, result.action)
    return result


def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
            stop: Stop | None = None, order: bool = False,
            table: TranspositionTable | None = None,
            tracer: Tracer | None = None, trace_entries: bool = False) -> SearchResult:
    """alphabeta_search as an Analyser (zerosum.result): to `limit.depth` (None: the
    end), stopped by its time or node budget or by `stop`. It reports no Info (one
    pass)."""
    return alphabeta_search(game, state, limit.depth, order=order, table=table,
                            tracer=tracer, trace_entries=trace_entries,
                            stop=bounded(limit, stop))
