"""Exact solution of small boards (4x4) by retrograde analysis.

Every position reachable from a start is listed; then, round by round, a position is won
in d plies when some move reaches a position lost in d-1, and lost in d plies when every
move reaches a position won in at most d-1 and one in exactly d-1 (the loser delays).
Positions never settled are draws with best play on both sides (endless play).

A move limit (the course draw rule) is then exact arithmetic: with r plies left, a
position won or lost in d plies keeps that result when d <= r and is a draw otherwise,
since the winner cannot force the win sooner and the loser cannot delay it longer.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from zerosum.games.checkers.board import Board, Path, apply, generate

# A position as the solution keys it: where the pieces stand and whose move it is, a
# State without its counters and history (the move limit is applied afterwards).
Placement = tuple[int, int, int, bool]  # black, white, kings, black to move


@dataclass
class Solution:
    # position -> (result for the side to move: 1 win, -1 loss, 0 draw; plies to the end)
    table: dict[Placement, tuple[int, int]]
    moves: dict[Placement, list[tuple[Path, Placement]]]

    def value(self, pos: Placement, plies_left: int | None = None) -> int:
        """The result for the side to move with `plies_left` plies to the draw (None: no limit)."""
        result, distance = self.table[pos]
        if result and plies_left is not None and distance > plies_left:
            return 0
        return result

    def distance(self, pos: Placement) -> int:
        return self.table[pos][1]


def solve(b: Board, root: Placement, max_capture: bool, limit: int = 2_000_000) -> Solution:
    """Solve every position reachable from `root`; refuses more than `limit` positions."""
    moves: dict[Placement, list[tuple[Path, Placement]]] = {}
    queue = deque([root])
    moves[root] = []
    while queue:
        pos = queue.popleft()
        black, white, kings, btm = pos
        children = []
        for m in generate(b, black, white, kings, btm, max_capture):
            child = (*apply(b, black, white, kings, btm, m), not btm)
            children.append((m[0], child))
            if child not in moves:
                if len(moves) >= limit:
                    raise ValueError(f"more than {limit} positions: too big to solve here")
                moves[child] = []
                queue.append(child)
        moves[pos] = children

    table: dict[Placement, tuple[int, int]] = {p: (-1, 0) for p, ms in moves.items() if not ms}
    open_positions = [p for p, ms in moves.items() if ms]
    d = 0
    while True:
        d += 1
        settled: dict[Placement, tuple[int, int]] = {}
        still_open = []
        for pos in open_positions:
            outcome = _settle(table, moves[pos], d)
            if outcome is None:
                still_open.append(pos)
            else:
                settled[pos] = outcome
        if not settled:
            break
        table.update(settled)  # only after the round: distances are exact
        open_positions = still_open
    for pos in open_positions:
        table[pos] = (0, 0)
    return Solution(table, moves)


def _settle(table: dict[Placement, tuple[int, int]], children: list[tuple[Path, Placement]],
            d: int) -> tuple[int, int] | None:
    all_won = True
    longest = -1
    for _, child in children:
        known = table.get(child)
        if known is None:
            all_won = False
            continue
        result, dist = known
        if result == -1 and dist == d - 1:
            return (1, d)
        if result == 1:
            longest = max(longest, dist)
        else:
            all_won = False
    if all_won and longest == d - 1:
        return (-1, d)
    return None


def best_moves(sol: Solution, pos: Placement, plies_left: int | None) -> list[tuple[Path, int]]:
    """Each move with its exact value for the mover (1, 0, -1), best first: quickest win,
    then draws, then the slowest loss."""
    after = None if plies_left is None else plies_left - 1
    rated = []
    for path, child in sol.moves[pos]:
        v = -sol.value(child, after)
        dist = sol.distance(child)
        rank = (-v, dist if v > 0 else -dist if v < 0 else 0)
        rated.append((rank, path, v))
    rated.sort(key=lambda t: t[0])
    return [(path, v) for _, path, v in rated]
