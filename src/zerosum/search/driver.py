"""The one iterative-deepening driver: every engine's search loop, written once.

A game supplies a `Kernel` (zerosum.kernel): its fast node function and what its
numbers mean. This module supplies the rest, the same for every game: passes of
increasing depth until the limit or the stop; at the root, the previous pass's best
move first, principal variation search and aspiration windows; the `Info` reported
after each pass; and the `SearchResult`.

When the stop fires in the middle of a pass, that pass is abandoned, with one
exception: it searched the previous best move first, so a move it then proved better
(a full-window value above the first move's) is the better choice, and is played.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.kernel import ALL, Enhancements, Kernel, KernelFactory, Verdict, kernel_for
from zerosum.result import Clock, Info, InfoSink, Limit, SearchResult, SearchStats
from zerosum.stop import SearchStopped, Stop


@dataclass
class Pass:
    """The state of one pass at the root: its best move so far and that move's value."""

    depth: int
    move: Any = None
    value: float = -math.inf


def stop_for(limit: Limit, stop: Stop | None = None) -> Stop:
    """The Stop a search obeys: `stop` (e.g. a UI's stop button) with the limit's time
    and node budget added, or a new one."""
    if stop is None:
        return Stop(seconds=limit.seconds, nodes=limit.nodes)
    if limit.seconds is not None and stop.deadline is None:
        stop.deadline = stop.clock() + limit.seconds
    if limit.nodes is not None and stop.node_budget is None:
        stop.node_budget = limit.nodes
    return stop


def bounded(limit: Limit, stop: Stop | None) -> Stop | None:
    """The Stop a one-pass search (minimax, alpha-beta) obeys under `limit`: `stop`
    with the limit's time and node budget added (stop_for), or None when there is
    neither a stop nor a budget (the search then checks no clock)."""
    if stop is None and limit.seconds is None and limit.nodes is None:
        return None
    return stop_for(limit, stop)


def analyse_with(make_kernel: KernelFactory, game: Any, state: Any, limit: Limit,
                 on_info: InfoSink | None = None, stop: Stop | None = None,
                 enhancements: Enhancements = ALL, algorithm: str = "engine") -> SearchResult:
    """A game's engine as an Analyser (zerosum.result): its kernel, driven here."""
    stop = stop_for(limit, stop)
    with kernel_for(make_kernel, game, state, stop, enhancements) as kernel:
        return deepen(kernel, limit, stop, on_info, enhancements, algorithm)


def deepen(kernel: Kernel, limit: Limit, stop: Stop, on_info: InfoSink | None = None,
           enhancements: Enhancements = ALL, algorithm: str = "") -> SearchResult:
    """Iterative deepening with `kernel` within `limit` (its depth: the deepest pass;
    its time and nodes: already in `stop`, see `stop_for`), unless the kernel decides
    without a search (`prepare`)."""
    clock = Clock()
    prepared = kernel.prepare(limit)
    if prepared is not None:
        move, decision = prepared
        if move is None:  # the game is over: its value, no move
            return SearchResult(decision.value, None, [], depth=None, decided=decision.decided,
                                algorithm=algorithm, plies=decision.plies)
        # Decided: to the end (depth None); else the depth the kernel's look reached.
        answer = Pass(0 if decision.decided else decision.depth, move, decision.value)
        if on_info is not None:
            on_info(info(kernel, answer, decision, clock))
        return result(kernel, answer, decision, True, clock, algorithm)
    done: Pass | None = None  # the deepest finished pass
    verdict = Verdict(-math.inf)
    complete = False
    for depth in passes(kernel, limit):
        this = Pass(depth)
        try:
            search_root(kernel, this, done, enhancements)
        except SearchStopped:
            if done is not None and this.move is not None and this.move != done.move \
                    and this.value > -math.inf:
                done = Pass(done.depth, this.move, this.value)  # proved better: see above
            break
        done, complete = this, True
        verdict = kernel.verdict(this.value)
        if on_info is not None:
            on_info(info(kernel, done, verdict, clock))
        if (verdict.decided and not verdict.search_on) or stop.expired():
            break
    return result(kernel, done, verdict, complete, clock, algorithm)


def passes(kernel: Kernel, limit: Limit) -> Iterator[int]:
    """The kernel's depths up to the limit's, that depth itself the last: a kernel that
    deepens in steps (Connect Four's 1, 3, 5, ...) asked for depth 4 searches 1, 3, 4."""
    for depth in kernel.depths():
        if limit.depth is not None and depth >= limit.depth:
            yield limit.depth
            return
        yield depth


def search_root(kernel: Kernel, this: Pass, previous: Pass | None,
                enhancements: Enhancements) -> None:
    """One pass at the root; `this` holds its best move and value as it goes."""
    moves = ordered(kernel.start_pass(this.depth), None if previous is None else previous.move)
    grain = kernel.grain
    low, high = -math.inf, math.inf
    if enhancements.aspiration and grain is not None and previous is not None:
        low, high = previous.value - kernel.aspiration, previous.value + kernel.aspiration
    while True:
        value = root_window(kernel, this, moves, low, high,
                            grain if enhancements.pvs else None)
        if low < value < high or (low == -math.inf and high == math.inf):
            return
        # The value fell outside the aspiration window: search again with a full one.
        # A move that failed high is proven better than the window: it stays the
        # pass's choice (should the stop come first) and is searched first.
        if value >= high:
            moves = ordered(moves, this.move)
        else:
            this.move, this.value = None, -math.inf
        low, high = -math.inf, math.inf


def root_window(kernel: Kernel, this: Pass, moves: Sequence[Any], alpha: float,
                beta: float, grain: float | None) -> float:
    """Alpha-beta over the root moves within (alpha, beta), with null windows after the
    first move when `grain` is given (principal variation search)."""
    best = -math.inf
    for move in moves:
        if grain is not None and best > -math.inf:  # after this window's first move
            value = kernel.search_move(move, this.depth, alpha, alpha + grain)
            if alpha < value < beta:  # better after all: search it with the full window
                value = kernel.search_move(move, this.depth, value, beta)
        else:
            value = kernel.search_move(move, this.depth, alpha, beta)
        if value > best:
            best = value
            # Only a value above alpha is proven better than the pass's best so far
            # (which is at most alpha); two values failing low are mere upper bounds.
            if this.move is None or value > alpha:
                this.move, this.value = move, value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def ordered(moves: Sequence[Any], first: Any) -> Sequence[Any]:
    if first is None or first not in moves:
        return moves
    return [first, *(m for m in moves if m != first)]


def info(kernel: Kernel, done: Pass, verdict: Verdict, clock: Clock) -> Info:
    return Info(
        depth=shown_depth(done, verdict), value=verdict.value, decided=verdict.decided,
        plies=verdict.plies,
        pv=tuple(kernel.principal_variation(done.move, done.depth)), nodes=kernel.nodes,
        elapsed=time.perf_counter() - clock.wall0, seldepth=kernel.seldepth or None,
        table_hits=kernel.hits)


def shown_depth(done: Pass, verdict: Verdict) -> int | None:
    """The depth a result reports: a pass's; None (to the end) for a value decided
    before any pass (kernel.prepare: a solver's answer, a win at once)."""
    return None if done.depth == 0 and verdict.decided else done.depth


def result(kernel: Kernel, done: Pass | None, verdict: Verdict, complete: bool,
           clock: Clock, algorithm: str) -> SearchResult:
    stats = SearchStats(nodes=kernel.nodes, max_depth=kernel.seldepth,
                        table_hits=kernel.hits)
    clock.stamp(stats)
    if done is None or done.move is None:
        # Not even the first pass finished: the first move in the search order, unjudged.
        moves = kernel.start_pass(1)
        action = kernel.action(moves[0]) if moves else None
        return SearchResult(-math.inf, action, [] if action is None else [action], stats,
                            depth=0, complete=False, algorithm=algorithm)
    pv = kernel.principal_variation(done.move, done.depth)
    return SearchResult(verdict.value, kernel.action(done.move), pv, stats,
                        depth=shown_depth(done, verdict),
                        complete=complete, decided=verdict.decided, algorithm=algorithm,
                        plies=verdict.plies)
