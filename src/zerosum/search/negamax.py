"""The generic kernel: negamax alpha-beta over the Game protocol, for every game that has
no fast kernel of its own (and as the readable reference for those that do).

It is the same alpha-beta as `alphabeta_search`, written as negamax (one function for
both sides: a value for the side to move is minus the value for the other) so that the
driver (search.driver) can run it. With every enhancement off and one pass it examines
exactly the nodes `alphabeta_search` examines (a test holds it to that).

Decided results: in a win/draw/loss game (`Values.kind == "outcome"`) a terminal
utility u != 0 reached `ply` plies below the root scores `WIN + 1024 |u| - ply`
(negated for the loser), so that among wins of the same utility the fastest scores
highest and among losses the slowest; `verdict` turns it back into u and the plies.
Table entries store such scores relative to their own node, as usual.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from zerosum.game import AnyGame
from zerosum.kernel import ALL, Enhancements, Verdict
from zerosum.result import Limit
from zerosum.stop import Stop
from zerosum.table import Bound, TranspositionTable, classify, narrow

WIN = 1e12  # decided scores lie beyond it; utilities times 1024 stay far below
PLIES = 1024  # plies are encoded below this


class ProtocolKernel:
    """A Kernel (zerosum.kernel) over any game's protocol methods."""

    grain: float | None = None  # values may be any numbers: no null windows
    uses = frozenset({"table", "ordering"})
    aspiration = 0.0
    hits = 0

    def __init__(self, game: AnyGame, state: Any, stop: Stop,
                 table: TranspositionTable | None = None,
                 enhancements: Enhancements = ALL, max_depth: int = 100) -> None:
        self.game, self.root, self.stop = game, state, stop
        self.enhancements = enhancements
        self.table = table if enhancements.table else None
        self.max_depth = max_depth
        stop.tick()
        self.nodes = 1  # the root, examined once for all passes
        self.seldepth = 0
        self.outcome = game.values.kind == "outcome"
        self.sign = 1 if game.is_maxs_turn(state) else -1
        self.estimates = 0  # leaves valued by `evaluate` (their values are not decided)

    def prepare(self, limit: Limit) -> tuple[Any, Verdict] | None:
        return None  # the generic search always searches

    def depths(self) -> Iterable[int]:
        return range(1, self.max_depth + 1)

    def start_pass(self, depth: int) -> Sequence[Any]:
        self.estimates_before = self.estimates
        return self.moves(self.root, self.entry(self.root))

    def action(self, move: Any) -> Any:
        return move

    def search_move(self, move: Any, depth: int, alpha: float, beta: float) -> float:
        child = self.game.result(self.root, move)
        return -self.negamax(child, 1, depth, -beta, -alpha)

    # --- the node function --------------------------------------------------------

    def negamax(self, state: Any, ply: int, limit: int, alpha: float, beta: float) -> float:
        """The value of `state` for its side to move, searched to ply `limit`."""
        game = self.game
        self.stop.tick()
        self.nodes += 1
        self.seldepth = max(self.seldepth, ply)
        side = 1 if game.is_maxs_turn(state) else -1
        if game.is_terminal(state):
            return side * self.terminal(game.utility(state), ply)
        if game.cutoff_test(state, ply, limit):
            self.estimates += 1
            return side * game.evaluate(state)
        entry, key = self.entry(state), None
        remaining = limit - ply
        alpha0, estimates0 = alpha, self.estimates
        if self.table is not None:
            key = game.key(state)
            usable = self.table.probe(key, remaining)
            if usable is not None:
                cut, alpha, beta = self.use(usable, ply, alpha, beta)
                if cut is not None:
                    return cut
        best, best_move = -math.inf, None
        for move in self.moves(state, entry):
            value = -self.negamax(game.result(state, move), ply + 1, limit, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if self.table is not None:
            exact = self.estimates == estimates0  # nothing below was estimated
            self.table.store(key, to_table(best, ply), classify(best, alpha0, beta),
                             None if exact else remaining, best_move)
        return best

    def terminal(self, utility: float, ply: int) -> float:
        """A terminal utility (Max's side) as a score: see the module doc."""
        if not self.outcome or utility == 0:
            return utility
        magnitude = WIN + PLIES * abs(utility) - ply
        return magnitude if utility > 0 else -magnitude

    def use(self, entry: Any, ply: int, alpha: float,
            beta: float) -> tuple[float | None, float, float]:
        """A table entry's value if it settles the node, and the narrowed window."""
        self.hits += 1
        remaining, bound, stored, _ = entry
        value = from_table(stored, ply)
        if remaining is not None:
            self.estimates += 1  # it was an estimate then and still is
        if bound == Bound.EXACT:
            return value, alpha, beta
        alpha, beta = narrow(bound, value, alpha, beta)
        return (value if alpha >= beta else None), alpha, beta

    def entry(self, state: Any) -> Any:
        return None if self.table is None else self.table.get(self.game.key(state))

    def moves(self, state: Any, entry: Any) -> Sequence[Any]:
        game = self.game
        moves = game.actions(state)
        if self.enhancements.ordering:
            moves = game.order(state, moves)
        first = None if entry is None else entry[3]
        if first is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        return moves

    # --- what the numbers mean ----------------------------------------------------

    def verdict(self, value: float) -> Verdict:
        if abs(value) > WIN / 2:
            magnitude = abs(value) - WIN
            utility = math.ceil(magnitude / PLIES)
            plies = int(utility * PLIES - magnitude)
            signed = utility if value > 0 else -utility
            return Verdict(float(self.sign * signed), True, plies)
        decided = self.estimates == self.estimates_before
        return Verdict(self.sign * value, decided, None)

    def principal_variation(self, move: Any, depth: int) -> list[Any]:
        """`move`, then the table's best moves, as far as they go (at most `depth`)."""
        game, line = self.game, [move]
        state = game.result(self.root, move)
        while len(line) < depth and self.table is not None and not game.is_terminal(state):
            entry = self.table.get(game.key(state))
            if entry is None or entry[3] is None or entry[3] not in game.actions(state):
                break
            line.append(entry[3])
            state = game.result(state, entry[3])
        return line


def to_table(value: float, ply: int) -> float:
    """A decided score counted from the root, stored as counted from its own node."""
    if value > WIN / 2:
        return value + ply
    if value < -WIN / 2:
        return value - ply
    return value


def from_table(value: float, ply: int) -> float:
    if value > WIN / 2:
        return value - ply
    if value < -WIN / 2:
        return value + ply
    return value
