"""A strong solution of any small game: the value under perfect play, and the distance
to the end, of every position reachable from a start, through the protocol alone.

It is minimax to the end of the game with a memo (the same position reached by two
move orders is solved once), keyed by `game.key`. Each position is solved from the
point of view of the side to move, who prefers, in order:

1. the better value (a win over a draw over a loss; in a score game, the higher score);
2. in an outcome game, among equal wins the fastest and among equal losses the slowest,
   so that a position's distance is the minimax distance to the end: how soon the
   winner can force the end, however the loser delays;
3. the first such move in the game's order (ties go to the first best action, as in
   every search of the project).

Draws and scores keep the distance of that first best line. A position whose moves lead
back to itself (a cycle in the game graph) cannot be solved this way and is refused
with the position named; so is a game with more positions than the budget, which is
what "small enough" means here: `DEFAULT_BUDGET` positions, about `BYTES_PER_POSITION`
bytes each of memory.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import Info, InfoSink, Limit, SearchResult, SearchStats
from zerosum.search.estimate import positions_at_least
from zerosum.stop import SearchStopped, Stop

DEFAULT_BUDGET = 2_000_000  # positions; about 600 MB of memory at the figure below
BYTES_PER_POSITION = 300  # a memo entry with its key (measured: 253-289 on tic-tac-toe,
#                          Connect Four 4x4 and checkers 4x4)
MAX_PLIES = 1000  # the longest game this solver follows (as the conformance check)
REPORT_EVERY = 4096  # new positions between two looks at the stop and the listener


class TooBig(Exception):
    """The game has more positions than the budget allows: no solution is given.
    `walks`: judged before solving, from that many random games (`positions_at_least`);
    `known`: known before solving, from the game's own count."""

    def __init__(self, budget: int, walks: int = 0, known: bool = False) -> None:
        megabytes = budget * BYTES_PER_POSITION / 1e6
        size = f"{megabytes:,.0f}" if megabytes >= 10 else f"{megabytes:.2g}"
        judged = f"; judged before solving, from {walks:,} random games" if walks else \
            "; known before solving, counted once" if known else ""
        super().__init__(f"more than {budget:,} positions (about {size} MB{judged}): "
                         "too big to solve exhaustively")


# Random games played before solving: a game far too big is refused at once instead of
# after filling the budget (checkers 8x8: 0.2 s instead of 3 s to reach 200,000).
FIRST_WALKS = 256
MORE_WALKS = 1024  # when the first figure is within a factor of 16 of the budget


def refuse_if_too_big(game: AnyGame, state: Any, budget: int) -> None:
    """TooBig at once when the game knows that `state` reaches `budget` positions or
    more (a count it keeps, `positions_known_at_least`: random games cannot show it
    where they meet few positions twice, as on 6x6 checkers), or when random games from
    `state` already show more positions than `budget` (a cautious figure:
    `positions_at_least`)."""
    known = getattr(game, "positions_known_at_least", None)
    if known is not None and known(state) >= budget:
        raise TooBig(budget, known=True)  # the solver would fill its budget
    seen = positions_at_least(game, state, FIRST_WALKS)
    walks = FIRST_WALKS
    if budget / 16 < seen <= budget:
        seen, walks = positions_at_least(game, state, MORE_WALKS), MORE_WALKS
    if seen > budget:
        raise TooBig(budget, walks)


class Unsolvable(Exception):
    """Play can go on for ever (a cycle in the game graph) or past MAX_PLIES plies."""


@dataclass(frozen=True)
class Solved:
    """A position's value under perfect play (from Max's side, the game's utility
    scale) and the plies to the end of the game along best play."""

    value: float
    plies: int


@dataclass
class Solution:
    """Every reachable position's `Solved`, by `game.key`, and the effort it took."""

    game: AnyGame
    table: dict[Hashable, Solved] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def positions(self) -> int:
        return len(self.table)

    def __getitem__(self, state: Any) -> Solved:
        return self.table[self.game.key(state)]

    def move_values(self, state: Any) -> list[tuple[Any, Solved]]:
        """Each legal move of a solved position with what it leads to (the plies
        counted from `state`, so the move itself is one of them)."""
        out = []
        for a in self.game.actions(state):
            child = self[self.game.result(state, a)]
            out.append((a, Solved(child.value, child.plies + 1)))
        return out

    def best_move(self, state: Any) -> Any:
        moves = self.move_values(state)
        return moves[_best_index(self.game, state, [s for _, s in moves])][0]

    def principal_variation(self, state: Any) -> list[Any]:
        line = []
        while not self.game.is_terminal(state):
            a = self.best_move(state)
            line.append(a)
            state = self.game.result(state, a)
        return line


def _preference(game: AnyGame, state: Any, solved: Solved) -> tuple[float, float]:
    """How much the side to move at `state` likes a move leading to `solved`: bigger is
    better (value first, then speed for a win and delay for a loss)."""
    mine = solved.value if game.is_maxs_turn(state) else -solved.value
    if game.values.kind != "outcome" or mine == 0:
        return mine, 0
    return mine, -solved.plies if mine > 0 else solved.plies


def _best_index(game: AnyGame, state: Any, children: list[Solved]) -> int:
    best = 0
    for i, s in enumerate(children):
        if _preference(game, state, s) > _preference(game, state, children[best]):
            best = i
    return best


def solve(game: AnyGame, state: Any, budget: int = DEFAULT_BUDGET,
          stop: Stop | None = None,
          on_progress: Callable[[int], None] | None = None) -> Solution:
    """Solve every position reachable from `state`. Raises TooBig past `budget`
    positions, Unsolvable when play can return to a position, SearchStopped when
    `stop` says so. `on_progress(positions)` is called every few thousand positions."""
    refuse_if_too_big(game, state, budget)
    solution = Solution(game)
    table = solution.table
    on_line: set[Hashable] = set()
    start = time.perf_counter()

    def solve_position(state: Any) -> Solved:
        key = game.key(state)
        known = table.get(key)
        if known is not None:
            return known
        if key in on_line:
            raise Unsolvable(f"play can return to this position:\n{game.render(state)}")
        if game.is_terminal(state):
            solved = Solved(game.utility(state), 0)
        else:
            on_line.add(key)
            children = [solve_position(game.result(state, a)) for a in game.actions(state)]
            on_line.discard(key)
            best = children[_best_index(game, state, children)]
            solved = Solved(best.value, best.plies + 1)
        if len(table) >= budget:
            raise TooBig(budget)
        table[key] = solved
        if len(table) % REPORT_EVERY == 0:
            if on_progress is not None:
                on_progress(len(table))
            if stop is not None and stop.observe(len(table)):
                raise SearchStopped
        return solved

    # A line of play is as deep as the game is long (the conformance check allows
    # MAX_PLIES): let the recursion follow it.
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 3 * MAX_PLIES + 100))
    try:
        solve_position(state)
    except RecursionError:
        raise Unsolvable(f"a line of play longer than {MAX_PLIES} plies") from None
    finally:
        sys.setrecursionlimit(old_limit)
    solution.seconds = time.perf_counter() - start
    return solution


def solve_analyse(game: AnyGame, state: Any, limit: Limit | None = None,
                  on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
    """The solver as an Analyser (the contract of every search): a decided value, the
    best move and the line of best play. A node budget in `limit` is the position
    budget. A stop or a budget ends it with SearchStopped or TooBig: there is no
    partial answer to give, since nothing is known until the whole game is."""
    budget = limit.nodes if limit is not None and limit.nodes is not None else DEFAULT_BUDGET
    solution = solve(game, state, budget, stop)
    root = solution[state]
    pv = [] if game.is_terminal(state) else solution.principal_variation(state)
    stats = SearchStats(nodes=solution.positions, cpu_time=solution.seconds,
                        wall_time=solution.seconds, max_depth=root.plies)
    # The plies are a minimax distance only for a win or a loss (`_preference` takes the
    # fastest win and the slowest loss); a draw's or a score's line is one of many.
    plies = root.plies if game.values.kind == "outcome" and root.value != 0 else None
    if on_info is not None:
        on_info(Info(depth=None, value=root.value, pv=tuple(pv), nodes=solution.positions,
                     elapsed=solution.seconds, decided=True, plies=plies))
    return SearchResult(value=root.value, action=pv[0] if pv else None, pv=pv, stats=stats,
                        depth=None, decided=True, algorithm="solve", plies=plies)


analyse = solve_analyse  # the solver's Analyser, under the name every search module uses
