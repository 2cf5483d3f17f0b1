"""The Max-Connect4 engine: alpha-beta on bitboards, with a transposition table.

It is the textbook alpha-beta (AIMA figure 5.7) written in negamax form: the value of
a position for the player to move is the best over its moves of minus the value of the
position after it for the opponent, so one function serves both Max and Min. Values are
whole hundredths of a point (exact integers), from the mover's side.

What makes it fast:
- compact positions: the mover's bitboard and the opponent's, ints only; the score
  difference is updated from the quadruples through each new piece (no rescan), and
  the evaluation counts all quadruples at once with bit-parallel arithmetic;
- move ordering: the transposition table's best move first, then moves that score,
  then the centre columns before the edges;
- a transposition table (a dict keyed by Pons's `mine + mask`, which identifies a
  position uniquely; in the opening a position and its mirror image share an entry),
  storing exact values and bounds with the depth they were searched to;
- iterative deepening: depth 1, 2, ... share the table, so each pass starts with the
  previous pass's best moves;
- principal variation search: after the first move, each move is first searched with
  a null window (alpha, alpha + 1), which only asks "is it better?", and searched
  again with the full window only when it is.
With EXACT_EMPTIES (16) or fewer empty cells at the root, the search goes to the end
of the game: its value is the exact final score difference and its move perfect.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from zerosum.games.maxconnect4.bitboard import (
    BOARD,
    BOTTOM_OF,
    CELLS,
    CENTRE_FIRST,
    COLUMN,
    EXACT_EMPTIES,
    QUADRUPLES_AT,
    Position,
    potential,
)
from zerosum.result import Clock, SearchResult, SearchStats
from zerosum.stop import Stop

EXACT, LOWER, UPPER = 0, 1, 2
TO_THE_END = 99  # the stored depth of a result that needed no cutoff
INFINITY = 1_000_000
# The search order of the columns: the table's move (if any, else -1) first, then
# the centre columns before the edges (they lie in more quadruples).
ORDERS = {-1: CENTRE_FIRST} | {
    first: (first, *(c for c in CENTRE_FIRST if c != first)) for first in CENTRE_FIRST
}
# Mirror images have the same value; early in the game the search meets many pairs
# of them, so there the table stores a position and its mirror image under one key.
MIRROR_PIECES = 12


def table_key(mine: int, mask: int) -> tuple[int, bool]:
    """The table key of a position, and whether it is that of its mirror image.

    `mine + mask` identifies a position (Pons): within each column, adding the
    occupied cells to the mover's pieces sets one bit above the top and keeps the
    mover's pattern below it. Columns are 7-bit fields that the sum never carries
    across, so mirroring the key is mirroring the position.
    """
    key = mine + mask
    if mask.bit_count() < MIRROR_PIECES:
        mirrored = mirror(key)
        if mirrored < key:
            return mirrored, True
    return key, False


def mirror(board: int) -> int:
    """The board reflected left to right (column c goes to column 6 - c)."""
    col = 0x7F
    return (
        (board & col) << 42 | (board & col << 7) << 28 | (board & col << 14) << 14
        | board & col << 21
        | (board & col << 28) >> 14 | (board & col << 35) >> 28 | (board & col << 42) >> 42
    )


Negamax = Callable[[int, int, int, int, int, int], int]
Evaluation = Callable[[int, int, int], int]


class OutOfTime(Exception):
    """The deadline of a timed search passed in the middle of a pass."""

    def __init__(self, nodes: int) -> None:
        super().__init__("out of time")
        self.nodes = nodes


class Engine:
    """One engine keeps its table between searches (a game's later moves reuse it)."""

    def __init__(self, table_size: int = 2_000_000,
                 evaluation: Evaluation = potential) -> None:
        """`evaluation(mine, theirs, mask)` estimates the mover's further gain in
        hundredths of a point (the score so far is added to it); replace it to
        experiment with other heuristics."""
        # key -> (depth searched, EXACT/LOWER/UPPER, value, best column)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.table_size = table_size
        self.evaluation = evaluation
        self.deadline: float | None = None
        self.stop: Stop | None = None  # a stop from outside, and where progress is shown
        self.nodes_before = 0  # nodes of the earlier passes of this search (for `stop`)

    def search(self, pos: Position, depth: int, stop: Stop | None = None) -> SearchResult:
        """The move of an alpha-beta search `depth` moves deep, by iterative deepening
        (depth 1, 2, ..., `depth`); with 16 or fewer empty cells, to the end of the game
        in one pass (the shallower passes would cost more than they save there).
        `stop`: as in `timed`."""
        if depth < 1:
            raise ValueError(f"depth must be 1 or more, not {depth}")
        empties = CELLS - pos.pieces
        self.stop, self.nodes_before = stop, 0
        try:
            if empties <= EXACT_EMPTIES or depth >= empties:
                return self.search_depth(pos, empties)
            return self.deepen(pos, range(1, depth + 1))
        except OutOfTime as stopped:  # only a stop from outside gets here
            return first_move(pos, stopped.nodes)
        finally:
            self.stop = None

    def timed(self, pos: Position, seconds: float, stop: Stop | None = None) -> SearchResult:
        """The deepest search finished within `seconds` (wall clock). With 16 or fewer
        empty cells the exact search always runs to its end, however long it takes,
        unless `stop` (a stop requested from another thread, which also receives the
        progress) ends it: then the best move so far, or the first legal one."""
        empties = CELLS - pos.pieces
        self.stop, self.nodes_before = stop, 0
        try:
            if empties <= EXACT_EMPTIES:
                return self.search_depth(pos, empties)
            self.deadline = time.perf_counter() + seconds
            return self.deepen(pos, range(1, empties + 1))
        except OutOfTime as stopped:  # only a stop from outside gets here
            return first_move(pos, stopped.nodes)
        finally:
            self.deadline, self.stop = None, None

    def deepen(self, pos: Position, depths: range) -> SearchResult:
        """Iterative deepening: the result of the deepest pass completed in time, with
        the effort of all passes (the abandoned one included)."""
        clock = Clock()
        total = SearchStats()
        best: SearchResult | None = None
        for depth in depths:
            try:
                result = self.search_depth(pos, depth)
            except OutOfTime as stopped:
                total.nodes += stopped.nodes
                if best is not None:  # depth 1 always finishes
                    break
                raise
            total.add(result.stats)
            best = result
            self.nodes_before = total.nodes
            if self.stop is not None:
                self.stop.depth, self.stop.best = depth, result.action
            if result.decided:
                break
        assert best is not None
        clock.stamp(total)
        best.stats = total
        return best

    # ------------------------------------------------------------ the search

    def search_depth(self, pos: Position, depth: int) -> SearchResult:
        """One alpha-beta pass to `depth` from `pos`."""
        clock = Clock()
        if len(self.table) > self.table_size:
            self.table.clear()  # crude but safe: a table only ever saves work
        mine, theirs = (pos.p1, pos.p2) if pos.p1_to_move else (pos.p2, pos.p1)
        diff = pos.score1 - pos.score2 if pos.p1_to_move else pos.score2 - pos.score1
        negamax, counter = self.alphabeta(depth)
        value = negamax(mine, theirs, diff, depth, -INFINITY, INFINITY)
        pv = self.principal_variation(mine, theirs, depth)
        empties = CELLS - pos.pieces
        stats = SearchStats(nodes=counter[0], max_depth=min(depth, empties))
        clock.stamp(stats)
        sign = 1 if pos.p1_to_move else -1
        return SearchResult(
            value=sign * value / 100,
            action=pv[0] if pv else None,
            pv=pv,
            stats=stats,
            depth=depth,
            complete=True,
            decided=depth >= empties,
            algorithm="maxconnect4 alpha-beta",
        )

    def alphabeta(self, limit: int) -> tuple[Negamax, list[int]]:
        """The search function of one pass and its node counter.

        A closure rather than a method: local names are the fastest in Python, and
        this function runs once per node.
        """
        table = self.table
        table_size = self.table_size
        deadline = self.deadline
        stop = self.stop
        watched = deadline is not None or stop is not None
        nodes_before = self.nodes_before
        evaluation = self.evaluation
        counter = [0]

        def negamax(mine: int, theirs: int, diff: int, depth: int,
                    alpha: int, beta: int) -> int:
            """The value for the mover (hundredths of a point) of the position where
            the mover holds `mine`, the opponent `theirs` and the mover leads by `diff`
            points. Fail-soft: outside (alpha, beta) it is a bound on the true value."""
            counter[0] += 1
            if watched and counter[0] % 1024 == 0 and (
                    (stop is not None and stop.observe(nodes_before + counter[0]))
                    or (deadline is not None and time.perf_counter() > deadline)):
                raise OutOfTime(counter[0])
            mask = mine | theirs
            if mask == BOARD:
                return 100 * diff
            if depth <= 0:
                return 100 * diff + evaluation(mine, theirs, mask)
            key, flipped = table_key(mine, mask)
            entry = table.get(key)
            table_move = -1
            if entry is not None:
                stored_depth, bound, stored, table_move = entry
                if flipped:
                    table_move = 6 - table_move
                if stored_depth >= depth:
                    if bound == EXACT:
                        return stored
                    if bound == LOWER:
                        alpha = max(alpha, stored)
                    else:
                        beta = min(beta, stored)
                    if alpha >= beta:
                        return stored
            alpha0 = alpha
            best, best_move = -INFINITY, -1
            children = []
            for col in ORDERS[table_move]:
                move = (mask + BOTTOM_OF[col]) & COLUMN[col]
                if not move:
                    continue  # the column is full
                mine2 = mine | move
                gained = 0
                for q in QUADRUPLES_AT[move.bit_length() - 1]:
                    if mine2 & q == q:
                        gained += 1
                children.append((gained, col, mine2))
            # Moves that score go first (after the table's move): they often cut.
            start = 1 if table_move >= 0 else 0
            children[start:] = sorted(children[start:], key=by_points, reverse=True)
            first = True
            for gained, col, mine2 in children:
                if not first:  # principal variation search: first try a null window
                    v = -negamax(theirs, mine2, -(diff + gained), depth - 1, -alpha - 1, -alpha)
                    if alpha < v < beta:  # it may be better: search it properly
                        v = -negamax(theirs, mine2, -(diff + gained), depth - 1, -beta, -alpha)
                else:
                    v = -negamax(theirs, mine2, -(diff + gained), depth - 1, -beta, -alpha)
                first = False
                if v > best:
                    best, best_move = v, col
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            if best <= alpha0:
                bound = UPPER
            elif best >= beta:
                bound = LOWER
            else:
                bound = EXACT
            exact = depth >= CELLS - mask.bit_count()
            if flipped:
                best_move = 6 - best_move
            if len(table) >= table_size:
                # Within a pass too: one deep pass alone can outgrow any memory. The
                # pass's own entries go with it, so its principal variation may come
                # out shorter; the root's entry, stored last, always survives.
                table.clear()
            table[key] = (TO_THE_END if exact else depth, bound, best, best_move)
            return best

        return negamax, counter

    def principal_variation(self, mine: int, theirs: int, depth: int) -> list[int]:
        """The expected line of play, read back from the table's best moves."""
        pv: list[int] = []
        while len(pv) < depth:
            mask = mine | theirs
            key, flipped = table_key(mine, mask)
            entry = self.table.get(key)
            if entry is None or entry[3] < 0:
                break
            col = 6 - entry[3] if flipped else entry[3]
            move = (mask + BOTTOM_OF[col]) & COLUMN[col]
            if not move:
                break
            pv.append(col)
            mine, theirs = theirs, mine | move
        return pv


def first_move(pos: Position, nodes: int) -> SearchResult:
    """What a search stopped before its first pass finished plays: the first column in
    the search order, with no value (-inf: nothing was judged)."""
    mask = pos.p1 | pos.p2
    column = next(c for c in CENTRE_FIRST if (mask + BOTTOM_OF[c]) & COLUMN[c])
    return SearchResult(-math.inf, column, [column], SearchStats(nodes=nodes), depth=0,
                        complete=False, algorithm="maxconnect4 alpha-beta")



def by_points(child: tuple[int, int, int]) -> int:
    return child[0]


def best_move(pos: Position, depth: int) -> SearchResult:
    """A fresh engine's choice at `depth` (what the one-move program does)."""
    return Engine().search(pos, depth)


def timed_search(pos: Position, seconds: float, stop: Stop | None = None) -> SearchResult:
    """A fresh engine's choice within about `seconds` (for `zerosum play`)."""
    return Engine().timed(pos, seconds, stop)
