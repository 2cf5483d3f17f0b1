"""Every column's proven value by the perfect solver, centre first, each as soon as it
is proven: Connect Four's per-move analysis (its Solver's move_values), which the page's
analysis board shows where the generic solver (search/solve.py) cannot go. What it
proves goes into the user's cache (cache.py), and what is there is not proven again."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from zerosum.games.connect4.game import Connect4, Position, plies_to_win
from zerosum.games.registry import MoveValue
from zerosum.kernel import capacity_for
from zerosum.stop import Stop

SOLVER_CAPACITY = 1_000_000  # table entries of one analysis's own solver (a server bounds it)


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


def move_values(game: Any, state: Any, stop: Stop) -> Iterator[MoveValue]:
    """The solver's verdict on each column, centre first; SearchStopped when `stop`
    says so (its deadline, node budget or request)."""
    from zerosum.games.connect4.cache import CacheError, user_cache
    from zerosum.games.connect4.solver import Solver

    assert isinstance(game, Connect4) and isinstance(state, Position)
    geo = game.geo
    try:
        cache = user_cache()
    except CacheError as e:  # a server answers without it, and says why in its log
        print(f"zerosum: {e}", file=sys.stderr)
        cache = None
    solver = Solver(geo.width, geo.height, capacity=capacity_for(game, SOLVER_CAPACITY),
                    clock=stop.clock, cache=cache)
    solver.stop = stop
    # Its periodic check (which also asks the stop) runs only under a limit.
    solver.limit(seconds=stop.time_left(), nodes=stop.node_budget)
    stones = state.mask.bit_count()
    for column in geo.centre_order:
        if not geo.playable(state.mask, column):
            continue
        score = solver.move_score(state.current, state.mask, column)
        outcome, plies = verdict(score, stones, geo.cells)
        yield MoveValue(column, outcome, plies, score)
