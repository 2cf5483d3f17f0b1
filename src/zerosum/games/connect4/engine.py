"""The tournament engine: the strongest move it can find within a time budget.

Iterative deepening (odd depths: 1, 3, 5, ...) negamax alpha-beta with principal
variation search on bitboards, sharing a transposition table between depths; move
ordering: the table's move, then (forced blocks being the only candidates when there is
a threat to block) the moves creating most threats, centre first. Moves that let the
opponent win at once are never searched, exactly as in the solver. Leaves are valued
by `heuristic`. Before searching, the solver gets part of the budget: with at most 20
empty cells for the exact score (then the engine plays a best move), with at most 30 for
the outcome alone (a weak solve): a proven win is kept by playing a move proven to win,
a proven draw by searching only moves proven not to lose.
The evaluation cannot see a win that turns on a zugzwang 20 plies away; the weak solve
can, and is cheap when the game is decided (many moves win).

Values are integers from the mover's side: a decided game is worth 1000 x its solver
score (see solver.py), an estimate lies strictly between -1000 and 1000; a win proven
by the weak solve, whose length is unknown, is worth 999.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from zerosum.games.connect4.bitboard import Geometry, geometry, threat_finder, winning_cells
from zerosum.games.connect4.solver import Solver, SolverStopped

if TYPE_CHECKING:
    from zerosum.stop import Stop

SCALE = 1000  # a decided score s is worth s * SCALE; estimates stay within +-(SCALE - 1)
SOLVE_WHEN_EMPTY = 20  # try the solver when at most this many cells are empty
WEAK_SOLVE_WHEN_EMPTY = 30  # up to this many empty cells, first try to prove a win (or a draw)
WEAK_SHARE = 0.5  # of the budget that proof may take
# Iterative deepening by two plies: the evaluation favours the side that moved last by
# 30-50 points (values swing between odd and even depths), so passes of one parity
# agree with each other more than consecutive ones; odd depths end on our own move.
DEPTH_STEP = 2


class _Timeout(Exception):
    pass


class EvaluationTables:
    """Per-geometry masks for the heuristic, computed once."""

    def __init__(self, geo: Geometry) -> None:
        # Cells weighted by the number of fours through them (3 in a corner, 13 in
        # the middle on 7x6): a stone there takes part in more lines.
        counts: dict[int, int] = {}
        w, h = geo.width, geo.height
        for c in range(w):
            for r in range(h):
                n = 0
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    for k in range(4):  # the cell as the k-th of a line
                        c0, r0 = c - k * dc, r - k * dr
                        c3, r3 = c0 + 3 * dc, r0 + 3 * dr
                        if 0 <= c0 < w and 0 <= c3 < w and 0 <= r0 < h and 0 <= r3 < h:
                            n += 1
                counts[geo.bit(c, r)] = n
        by_weight: dict[int, int] = {}
        for bit, n in counts.items():
            by_weight[n] = by_weight.get(n, 0) | bit
        self.weights = tuple(sorted(by_weight.items()))
        # The same weights as bit planes: plane k holds the cells whose weight has bit k
        # set, so a weighted count is five plain counts (the search's inline form; a
        # cell lies on at most 16 fours, 4 directions x 4 places in the line).
        self.planes = tuple(sum(bit for bit, n in counts.items() if n >> k & 1)
                            for k in range(5))
        # Rows 1, 3, 5 (counted from 1 at the bottom) are the first player's good rows
        # for threats (odd threats), rows 2, 4, 6 the second player's (Allis, 1988).
        self.odd_rows = sum(geo.bit(c, r) for c in range(w) for r in range(0, h, 2))
        self.even_rows = geo.board ^ self.odd_rows


_TABLES: dict[tuple[int, int], EvaluationTables] = {}


def tables(geo: Geometry) -> EvaluationTables:
    key = (geo.width, geo.height)
    if key not in _TABLES:
        _TABLES[key] = EvaluationTables(geo)
    return _TABLES[key]


def heuristic(geo: Geometry, current: int, mask: int, first_to_move: bool | None = None) -> int:
    """An estimate from the mover's side, within +-(SCALE - 1).

    Threats (empty cells completing three of a side's stones: the open threes) count
    most, more if they sit on the rows where they tend to decide the end game (odd
    rows for the first player, even for the second) and most if they are playable
    right now or next; then stones on cells crossed by many lines (centre control).
    """
    t = tables(geo)
    opponent = current ^ mask
    if first_to_move is None:
        first_to_move = mask.bit_count() % 2 == 0
    mine = winning_cells(current, mask, geo.h1, geo.board)
    theirs = winning_cells(opponent, mask, geo.h1, geo.board)
    good_mine = t.odd_rows if first_to_move else t.even_rows
    good_theirs = geo.board ^ good_mine
    # A threat right above an opponent's threat is worthless while that one stands.
    score = 24 * (mine.bit_count() - theirs.bit_count())
    score += 36 * ((mine & good_mine).bit_count() - (theirs & good_theirs).bit_count())
    # Threats just above the lowest empty cells: the opponent may not play below them.
    above = ((mask + geo.bottom) & geo.board) << 1
    score += 16 * ((mine & above).bit_count() - (theirs & above).bit_count())
    for weight, cells in t.weights:
        score += weight * ((current & cells).bit_count() - (opponent & cells).bit_count())
    return max(-(SCALE - 1), min(SCALE - 1, score))


class Engine:
    """One engine instance keeps its table from move to move (as in a match)."""

    def __init__(self, width: int = 7, height: int = 6, capacity: int = 1_000_000,
                 clock: Callable[[], float] = time.perf_counter,
                 weak_solve_when_empty: int = WEAK_SOLVE_WHEN_EMPTY) -> None:
        """`clock` measures the time budget: wall time as a tournament wants, or
        time.process_time for benchmarks on a machine shared with other jobs.
        `weak_solve_when_empty`: 0 turns the weak solve off (to measure what it adds)."""
        self.clock = clock
        self.weak_solve_when_empty = weak_solve_when_empty
        self.geo = geometry(width, height)
        self.solver = Solver(width, height, clock=clock)
        self.table: dict[int, tuple[int, int, int, int]] = {}  # key -> depth, kind, value, move
        self.capacity = capacity
        self.nodes = 0
        self.deadline = 0.0
        self.search = self._build_search()
        self.partial: tuple[int, int] | None = None  # (move, value) of an unfinished pass
        self.stop: Stop | None = None  # a stop from outside, and where progress is shown

    # -- the depth-limited search -------------------------------------------------------

    def _build_search(self) -> Callable[[int, int, int, int, int, int, int], int]:
        """The recursive search as a closure over the board's constants (locals are
        much faster than attributes in CPython). It computes `heuristic` inline."""
        geo = self.geo
        cells, board, bottom = geo.cells, geo.board, geo.bottom
        ordered_columns = [geo.columns[c] for c in geo.centre_order]
        ranks = range(len(ordered_columns))
        width = len(ordered_columns)
        t = tables(geo)
        odd_rows, even_rows = t.odd_rows, t.even_rows
        plane0, plane1, plane2, plane3, plane4 = t.planes
        table = self.table
        table_get = table.get
        capacity = self.capacity
        engine = self
        top = SCALE - 1

        threats = threat_finder(geo)

        def search(current: int, mask: int, moves: int, depth: int,
                   alpha: int, beta: int, theirs: int) -> int:
            """Negamax alpha-beta, fail-soft; the mover cannot win at once. `theirs`:
            the opponent's threats if the caller knows them (see solver.py), else -1."""
            engine.nodes += 1
            if not engine.nodes & 255 and engine.out_of_time():
                raise _Timeout
            opponent = current ^ mask
            possible = (mask + bottom) & board
            if theirs < 0:
                theirs = threats(opponent, mask)
            forced = possible & theirs
            if forced:
                if forced & (forced - 1):
                    return -((cells - moves) // 2) * SCALE
                possible = forced
            candidates = possible & ~(theirs >> 1)
            if not candidates:
                return -((cells - moves) // 2) * SCALE
            if moves >= cells - 2:
                return 0
            if depth <= 0:  # heuristic(), inline
                mine = threats(current, mask)
                good_mine, good_theirs = (odd_rows, even_rows) if moves % 2 == 0 \
                    else (even_rows, odd_rows)
                above = ((mask + bottom) & board) << 1
                v = 24 * (mine.bit_count() - theirs.bit_count())
                v += 36 * ((mine & good_mine).bit_count() - (theirs & good_theirs).bit_count())
                v += 16 * ((mine & above).bit_count() - (theirs & above).bit_count())
                v += ((current & plane0).bit_count() - (opponent & plane0).bit_count()
                      + 2 * ((current & plane1).bit_count() - (opponent & plane1).bit_count())
                      + 4 * ((current & plane2).bit_count() - (opponent & plane2).bit_count())
                      + 8 * ((current & plane3).bit_count() - (opponent & plane3).bit_count())
                      + 16 * ((current & plane4).bit_count() - (opponent & plane4).bit_count()))
                return top if v > top else -top if v < -top else v
            key = current + mask
            entry = table_get(key)
            first = 0
            if entry is not None:
                e_depth, kind, value, first = entry
                if e_depth >= depth and (kind == 0 or (kind > 0 and value >= beta)
                                         or (kind < 0 and value <= alpha)):
                    return value
            if candidates & (candidates - 1) and depth > 1:
                # The table's move first, then most threats created, centre first:
                # packed as ints (threats << 4 | 15 - rank) for one descending sort.
                scored = []
                created = [0] * width
                for k in ranks:
                    move = candidates & ordered_columns[k]
                    if move:
                        created[k] = t = threats(current | move, mask)
                        n = 63 if move == first else t.bit_count()
                        scored.append((n << 4) | (15 - k))
                scored.sort(reverse=True)
                order = [(candidates & ordered_columns[k], created[k])
                         for k in [15 - (x & 15) for x in scored]]
            elif depth > 1:
                order = [(candidates, -1)]
            else:  # children are leaves: centre first is nearly as good, and cheaper
                order = [(candidates & col, -1) for col in ordered_columns if candidates & col]
                if (first, -1) in order:
                    order.remove((first, -1))
                    order.insert(0, (first, -1))
            a0 = alpha
            best, best_move = -(10**9), 0
            for move, move_threats in order:
                if best_move:
                    # Principal variation search: with the best move first, a later
                    # move only needs the proof that it is no better (a null window);
                    # one that is better after all is searched again with the full one.
                    value = -search(opponent, mask | move, moves + 1, depth - 1,
                                    -alpha - 1, -alpha, move_threats)
                    if alpha < value < beta:
                        value = -search(opponent, mask | move, moves + 1, depth - 1,
                                        -beta, -value, move_threats)
                else:
                    value = -search(opponent, mask | move, moves + 1, depth - 1,
                                    -beta, -alpha, move_threats)
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            kind = 1 if best >= beta else -1 if best <= a0 else 0
            if len(table) >= capacity:
                table.clear()
            table[key] = (depth, kind, best, best_move)
            return best

        return search

    def out_of_time(self) -> bool:
        """Asked every 256 nodes: is the deadline past or a stop requested? (It also
        shows the node count to whoever watches the stop.)"""
        if self.stop is not None and self.stop.observe(self.nodes):
            return True
        return self.clock() >= self.deadline

    def ordered(self, current: int, mask: int, candidates: int, first: int) -> list[int]:
        """The table's move, then most threats created, then centre first."""
        geo = self.geo
        scored = []
        for rank, c in enumerate(geo.centre_order):
            move = candidates & geo.columns[c]
            if move:
                if move == first:
                    n = 99
                else:
                    n = winning_cells(current | move, mask, geo.h1, geo.board).bit_count()
                scored.append((n, -rank, move))
        scored.sort(reverse=True)
        return [move for _, _, move in scored]

    # -- the decision ---------------------------------------------------------------------

    def choose(self, current: int, mask: int, seconds: float,
               stop: Stop | None = None) -> tuple[int, int, bool, int]:
        """(column, value from the mover's side, exact?, depth reached; 0 = solved).
        `stop`, if given, can end the search early from another thread (the best move so
        far is played) and receives the progress: nodes, depth done, best move."""
        self.stop = self.solver.stop = stop
        try:
            return self._choose(current, mask, seconds)
        finally:
            self.stop = self.solver.stop = None

    def _choose(self, current: int, mask: int, seconds: float) -> tuple[int, int, bool, int]:
        start = self.clock()
        geo = self.geo
        self.nodes = 0
        moves = mask.bit_count()
        playable = [c for c in geo.centre_order if geo.playable(mask, c)]
        if not playable:
            raise ValueError("the board is full: there is no move")
        for c in playable:  # a win at once
            if geo.has_four(current | geo.move_bit(mask, c)):
                return c, (geo.cells + 1 - moves) // 2 * SCALE, True, 1
        empty = geo.cells - moves
        allowed = geo.board  # the cells the search may play: all, unless proven otherwise
        if empty <= (SOLVE_WHEN_EMPTY if seconds >= 0.4 else SOLVE_WHEN_EMPTY - 4):
            solved = self.try_solver(current, mask, start + seconds * 0.4)
            if solved is not None:
                return solved[0], solved[1] * SCALE, True, 0
        elif empty <= self.weak_solve_when_empty and seconds >= 0.3:
            proven = self.try_weak(current, mask, start + seconds * WEAK_SHARE)
            if proven is not None:
                outcome, columns = proven
                if outcome > 0 or len(columns) == 1:
                    # A proven win (its length unknown: the largest estimate), or the
                    # only move that does not lose.
                    return columns[0], outcome * (SCALE - 1), False, 0
                if outcome == 0:  # a draw: search for chances among the safe moves
                    allowed = sum(geo.columns[c] for c in columns)
        self.deadline = start + seconds
        best_column = self.safe_default(current, mask, playable)
        if allowed != geo.board:
            best_column = next(c for c in playable if geo.columns[c] & allowed)
        best_value, depth_done = 0, 0
        for depth in range(1, empty + DEPTH_STEP, DEPTH_STEP):
            try:
                column, value = self.root(current, mask, moves, depth, allowed)
            except _Timeout:
                # The unfinished pass searched the previous best move first; a move it
                # then found better (a full window at the root) is the better choice.
                if self.partial is not None:
                    best_column = geo.column_of(self.partial[0])
                break
            best_column, best_value, depth_done = column, value, depth
            if self.stop is not None:
                self.stop.depth, self.stop.best = depth, column
            if abs(value) >= SCALE:  # decided: deeper search cannot change it
                break
            # No pass is too late to start: one cut off still searched the previous
            # best move first, so a move it found better at the root is better.
        return best_column, best_value, abs(best_value) >= SCALE, depth_done

    def root(self, current: int, mask: int, moves: int, depth: int,
             allowed: int = -1) -> tuple[int, int]:
        """One pass at the root, over the moves in `allowed` (a mask of cells; -1: all);
        it also handles the lost cases the search prunes."""
        geo = self.geo
        opponent = current ^ mask
        theirs = winning_cells(opponent, mask, geo.h1, geo.board)
        possible = geo.possible(mask) & allowed
        forced = possible & theirs
        if forced:
            possible = forced  # with two of them we lose anyway: still block one
        candidates = possible & ~(theirs >> 1) or possible
        lost = -((geo.cells - moves) // 2) * SCALE  # the opponent wins with their next move
        entry = self.table.get(current + mask)
        first = entry[3] if entry is not None else 0
        alpha, beta = -(10**9), 10**9
        best_move, best = 0, -(10**9)
        self.partial = None
        for move in self.ordered(current, mask, candidates, first):
            if forced & ~move or (move << 1) & theirs:
                value = lost
            elif moves + 1 >= geo.cells:
                value = 0
            elif best_move:  # principal variation search, as in `search`
                value = -self.search(opponent, mask | move, moves + 1, depth - 1,
                                     -alpha - 1, -alpha, -1)
                if value > alpha:
                    value = -self.search(opponent, mask | move, moves + 1, depth - 1,
                                         -beta, -value, -1)
            else:
                value = -self.search(opponent, mask | move, moves + 1, depth - 1, -beta, -alpha, -1)
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, value)
            self.partial = (best_move, best)
        self.table[current + mask] = (depth, 0, best, best_move)
        return geo.column_of(best_move), best

    def safe_default(self, current: int, mask: int, playable: list[int]) -> int:
        """A move to fall back on if not even depth 1 finishes: block, else not losing."""
        geo = self.geo
        theirs = winning_cells(current ^ mask, mask, geo.h1, geo.board)
        for c in playable:
            if geo.move_bit(mask, c) & theirs:
                return c
        for c in playable:
            if not (geo.move_bit(mask, c) << 1) & theirs:
                return c
        return playable[0]

    def try_weak(self, current: int, mask: int, deadline: float) -> tuple[int, list[int]] | None:
        """Before the deadline, the game's outcome (1 won, 0 drawn, -1 lost, for the
        mover) and the moves keeping it: the first winning column found, or every
        column that does not lose; or None if the solver ran out of time. A weak solve
        (win, draw or loss, not how soon) is far cheaper than the exact score.

        The root is searched here, not in `Solver.solve`: a win is proven by finding a
        winning move, so the first one found is the answer, with no second search to
        tell which move it was. Moves are tried in the search's order (most threats
        created first), which finds a win soonest."""
        solver, geo = self.solver, self.geo
        theirs = winning_cells(current ^ mask, mask, geo.h1, geo.board)
        possible = geo.possible(mask)
        candidates = possible & ~(theirs >> 1) & (possible & theirs or possible)
        order = [geo.column_of(move) for move in self.ordered(current, mask, candidates, 0)]
        try:
            with self.solver_until(deadline):
                for c in order:
                    if solver.achieves(current, mask, c, 1):
                        return 1, [c]
                safe = [c for c in order if solver.achieves(current, mask, c, 0)]
        except SolverStopped:
            return None
        return (0, sorted(safe, key=geo.centre_order.index)) if safe else (-1, [])

    def try_solver(self, current: int, mask: int, deadline: float) -> tuple[int, int] | None:
        """(a best column, the exact score), or None if the solver ran out of time."""
        solver = self.solver
        try:
            with self.solver_until(deadline):
                score = solver.solve(current, mask)
                column = solver.best_move(current, mask, score)
        except SolverStopped:
            return None
        return column, score

    @contextmanager
    def solver_until(self, deadline: float) -> Iterator[Solver]:
        """The solver, stopped (SolverStopped) at `deadline`; afterwards its nodes are
        counted as the engine's and its table is cleared for the next use."""
        solver = self.solver
        solver.limit(seconds=max(0.0, deadline - self.clock()))
        try:
            yield solver
        finally:
            self.nodes += solver.nodes
            solver.reset()
            solver.limit()


_ENGINES: dict[tuple[int, int], Engine] = {}


def engine_for(geo: Geometry) -> Engine:
    key = (geo.width, geo.height)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(geo.width, geo.height)
    return _ENGINES[key]
