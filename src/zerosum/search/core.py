"""What minimax and alpha-beta share: examining a node, ordering, tracing, the root loop."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import Clock, Limit, SearchResult, SearchStats, TraceEvent, Tracer
from zerosum.stop import SearchStopped, Stop
from zerosum.table import Entry

# A child search: (state, action that led there, depth, alpha, beta) -> (value, pv)
ChildSearch = Callable[[Any, Any, int, float, float], tuple[float, list[Any]]]


class Context:
    """The state of one search: the game, the depth limit, counters and hooks."""

    def __init__(
        self,
        game: AnyGame,
        limit: int | None,
        stop: Stop | None = None,
        tracer: Tracer | None = None,
        order: bool = False,
        entries: bool = False,
    ) -> None:
        self.game = game
        self.limit = limit
        self.stop = stop
        self.tracer = tracer
        self.use_order = order
        self.entries = entries and tracer is not None  # trace inner nodes' entries too
        self.stats = SearchStats()
        # Leaves whose value is only an estimate (depth cutoffs, depth-limited table hits).
        self.inexact = 0

    def leaf_value(self, state: Any, depth: int) -> float | None:
        """Examine a node: count it, and return its value if it is a leaf, else None.

        The real terminal test comes first; the depth cutoff is asked only after it.
        """
        stats = self.stats
        stats.nodes += 1
        if self.stop is not None:
            self.stop.tick()
        if depth > stats.max_depth:
            stats.max_depth = depth
        game = self.game
        if game.is_terminal(state):
            stats.evaluated += 1
            return game.utility(state)
        if self.limit is not None and game.cutoff_test(state, depth, self.limit):
            stats.evaluated += 1
            stats.cutoffs += 1
            self.inexact += 1
            return game.evaluate(state)
        return None

    def remaining(self, depth: int) -> int | None:
        return None if self.limit is None else self.limit - depth

    def actions(self, state: Any, entry: Entry | None = None) -> Sequence[Any]:
        """Legal actions in search order: the table's move first, then the game's order."""
        actions = self.game.actions(state)
        if self.use_order:
            actions = self.game.order(state, actions)
        first = None if entry is None else entry[3]  # the entry's best action
        if first is not None and first in actions:
            actions = [first, *(a for a in actions if a != first)]
        return actions

    def trace(
        self,
        state: Any,
        action: Any,
        depth: int,
        alpha: float,
        beta: float,
        value: float,
        pruned: bool = False,
    ) -> None:
        if self.tracer is not None:
            self.tracer(TraceEvent(state, action, depth, alpha, beta, value, pruned))

    def enter(self, state: Any, action: Any, depth: int, alpha: float, beta: float) -> None:
        """Trace an inner node's entry with the window passed down (when asked to)."""
        if self.entries and self.tracer is not None:
            v = -math.inf if self.game.is_maxs_turn(state) else math.inf  # the starting v
            self.tracer(TraceEvent(state, action, depth, alpha, beta, v, kind="enter"))


def search_root(
    ctx: Context,
    state: Any,
    child: ChildSearch,
    alpha: float = -math.inf,
    beta: float = math.inf,
    prune: bool = False,
    ordered: Sequence[Any] | None = None,
    algorithm: str = "",
) -> SearchResult:
    """Search each root action in turn, keeping the first best.

    If the Stop fires, return the best action among the children searched so far
    (complete=False). With `prune`, the root narrows its window as alpha-beta does.
    """
    clock = Clock()
    game = ctx.game
    maximize = game.is_maxs_turn(state)
    complete = True
    best_value = -math.inf if maximize else math.inf
    best_pv: list[Any] = []
    best_action: Any = None
    try:
        leaf = ctx.leaf_value(state, 0)
        if leaf is not None:
            ctx.trace(state, None, 0, alpha, beta, leaf)
            clock.stamp(ctx.stats)
            decided = ctx.inexact == 0
            return SearchResult(leaf, None, [], ctx.stats, ctx.limit, True, decided, algorithm,
                                plies=0 if decided else None)
        ctx.enter(state, None, 0, alpha, beta)
        actions = ordered if ordered is not None else ctx.actions(state)
        for action in actions:
            value, pv = child(game.result(state, action), action, 1, alpha, beta)
            if (value > best_value) if maximize else (value < best_value):
                best_value, best_action, best_pv = value, action, [action, *pv]
            if prune:
                if maximize:
                    if best_value >= beta:
                        break
                    alpha = max(alpha, best_value)
                else:
                    if best_value <= alpha:
                        break
                    beta = min(beta, best_value)
        if best_action is None and actions:  # every child at -inf/+inf: still answer a move
            best_action = actions[0]
            best_pv = [best_action]
        ctx.trace(state, None, 0, alpha, beta, best_value)
    except SearchStopped:
        complete = False
    clock.stamp(ctx.stats)
    decided = complete and (ctx.inexact == 0 or game.values.decides(best_value))
    # No plies: minimax and alpha-beta take the first best move, not the fastest win, so
    # the length of the line found is no distance to the end (zerosum.result).
    return SearchResult(
        best_value,
        best_action,
        best_pv,
        ctx.stats,
        ctx.limit,
        complete,
        decided,
        algorithm,
    )


def check_depth(depth: int | None) -> None:
    """ValueError for a depth no search takes (the one check: Limit's)."""
    Limit(depth=depth)
