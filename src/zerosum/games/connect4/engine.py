"""The tournament engine's search: Connect Four's kernel (zerosum.kernel) for the one
iterative-deepening driver (zerosum.search.driver), which runs its passes, its time and
its stop.

Passes of odd depth (1, 3, 5, ...) of negamax alpha-beta with principal variation search
on bitboards, with a transposition table kept from move to move; move ordering: the
table's move, then (forced blocks being the only candidates when there is a threat to
block) the moves creating most threats, centre first. Moves that let the opponent win
at once are never searched, exactly as in the solver. Leaves are valued by `evaluation`
(`heuristic` gives the same for a whole position); it and the move ordering
(`ordering`) are written once, for the root and the node function alike. Before the
passes (`prepare`), a win in one is played, and the solver gets part of the time: with
at most 20 empty cells for the exact score (then a best move is played), with at most
30 for the outcome alone (a weak solve): a proven win is kept by playing a move proven
to win, a proven draw by searching only moves proven not to lose.
The evaluation cannot see a win that turns on a zugzwang 20 plies away; the weak solve
can, and is cheap when the game is decided (many moves win).

The kernel's values are integers from the mover's side: a decided game is worth 1000 x
its solver score (see solver.py: the sooner a win, the higher), an estimate lies strictly
between -1000 and 1000. `verdict` turns them into the game's utilities (the solver score,
from red's side) and estimates inside (-1, 1); a win proven by the weak solve, whose
length is unknown, is decided and worth the least win, 1, with no distance (`proven`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from zerosum import native as native_kernels
from zerosum.games.connect4.bitboard import Geometry, threat_finder, winning_cells
from zerosum.games.connect4.solver import Solver, plies_to_end
from zerosum.kernel import ALL, Enhancements, Lender, Verdict, capacity_for, evaluation_weights
from zerosum.stop import SearchStopped
from zerosum.table import TranspositionTable

if TYPE_CHECKING:
    from zerosum.result import Limit
    from zerosum.stop import Stop

SCALE = 1000  # a decided score s is worth s * SCALE; estimates stay within +-(SCALE - 1)
SOLVE_WHEN_EMPTY = 20  # try the solver when at most this many cells are empty
SOLVE_SHARE = 0.4  # of the time the exact solve may take
WEAK_SOLVE_WHEN_EMPTY = 30  # up to this many empty cells, first try to prove a win (or a draw)
WEAK_SHARE = 0.5  # of the time that proof may take
# Iterative deepening by two plies: the evaluation favours the side that moved last by
# 30-50 points (values swing between odd and even depths), so passes of one parity
# agree with each other more than consecutive ones; odd depths end on our own move.
DEPTH_STEP = 2
INFINITY = 10**9  # beyond every value
# The evaluation's weights (`evaluation`): a threat, one on the side's good rows, one
# playable next. The compiled twin is given these, never a copy of its own. A game object
# may carry others as `evaluation_weights` (weights fitted to the solver's values,
# zerosum.learn.texel); the unit is a stone's weight per four through its cell.
THREAT, GOOD_ROW_THREAT, PLAYABLE_THREAT = 24, 36, 16
WEIGHTS = (THREAT, GOOD_ROW_THREAT, PLAYABLE_THREAT)
Weights3 = tuple[int, int, int]


def weights_of(game: Any) -> Weights3:
    """The evaluation weights the engine uses for `game`: those it carries (fitted ones,
    kernel.Weighted), else WEIGHTS."""
    w = evaluation_weights(game, WEIGHTS, "Connect Four")
    return w[0], w[1], w[2]


class EvaluationTables:
    """Per-geometry masks for the evaluation, computed once."""

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
        # The weights as bit planes: plane k holds the cells whose weight has bit k set,
        # so a weighted count is five plain counts (a cell lies on at most 16 fours, 4
        # directions x 4 places in the line).
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


def heuristic(geo: Geometry, current: int, mask: int, first_to_move: bool | None = None,
              weights: Weights3 = WEIGHTS) -> int:
    """An estimate from the mover's side, within +-(SCALE - 1): `evaluation`, the one
    definition the search's leaves use, for a position given whole."""
    if first_to_move is None:
        first_to_move = mask.bit_count() % 2 == 0
    return evaluation(geo, weights)(current, mask, winning_cells(current, mask, geo.h1, geo.board),
                           winning_cells(current ^ mask, mask, geo.h1, geo.board),
                           first_to_move)


Evaluate = Callable[[int, int, int, int, bool], int]
_EVALUATIONS: dict[tuple[int, int, Weights3], Evaluate] = {}


def evaluation(geo: Geometry, weights: Weights3 = WEIGHTS) -> Evaluate:
    """The evaluation for one board size and weights (THREAT, GOOD_ROW_THREAT,
    PLAYABLE_THREAT by default), a closure over its constants (the node function
    calls it at every leaf; closure variables are CPython's fastest reads):
    `evaluate(current, mask, mine, theirs, first_to_move)`, `mine` and `theirs` the
    mover's and the opponent's threats (the node function has the latter already).

    Threats (empty cells completing three of a side's stones: the open threes) count
    most, more if they sit on the rows where they tend to decide the end game (odd
    rows for the first player, even for the second) and most if they are playable
    right now or next; then stones on cells crossed by many lines (centre control).
    """
    known = _EVALUATIONS.get((geo.width, geo.height, weights))
    if known is not None:
        return known
    t = tables(geo)
    odd_rows, even_rows = t.odd_rows, t.even_rows
    plane0, plane1, plane2, plane3, plane4 = t.planes
    bottom, board = geo.bottom, geo.board
    top = SCALE - 1
    threat, good_row, playable = weights

    def evaluate(current: int, mask: int, mine: int, theirs: int, first_to_move: bool) -> int:
        opponent = current ^ mask
        good_mine, good_theirs = (odd_rows, even_rows) if first_to_move \
            else (even_rows, odd_rows)
        # Threats just above the lowest empty cells: the opponent may not play below them.
        above = ((mask + bottom) & board) << 1
        v = threat * (mine.bit_count() - theirs.bit_count())
        v += good_row * ((mine & good_mine).bit_count() - (theirs & good_theirs).bit_count())
        v += playable * ((mine & above).bit_count() - (theirs & above).bit_count())
        # Stones weighted by the fours through their cells, one bit plane at a time.
        v += ((current & plane0).bit_count() - (opponent & plane0).bit_count()
              + 2 * ((current & plane1).bit_count() - (opponent & plane1).bit_count())
              + 4 * ((current & plane2).bit_count() - (opponent & plane2).bit_count())
              + 8 * ((current & plane3).bit_count() - (opponent & plane3).bit_count())
              + 16 * ((current & plane4).bit_count() - (opponent & plane4).bit_count()))
        return top if v > top else -top if v < -top else v

    _EVALUATIONS[(geo.width, geo.height, weights)] = evaluate
    return evaluate


Order = Callable[[int, int, int, int, bool], list[tuple[int, int]]]


def ordering(geo: Geometry, threats: Callable[[int, int], int], enhancements: Enhancements
             ) -> Order:
    """The move ordering, one definition for the root and the node function:
    `order(current, mask, candidates, first, scored)` -> [(move, the threats it creates,
    or -1 when not counted)]. With `scored` (the root, and nodes more than one ply above
    the leaves) and the ordering enhancement: `first` (the table's move), then the moves
    creating most threats, centre first. Otherwise (children that are leaves: centre
    first is nearly as good, and cheaper; or ordering off, then left to right): the
    columns in that order, `first` moved to the front."""
    centre_columns = [geo.columns[c] for c in geo.centre_order]
    ranks = range(len(centre_columns))
    width = len(centre_columns)
    use_order = enhancements.ordering
    plain_columns = centre_columns if use_order else list(geo.columns)

    def order(current: int, mask: int, candidates: int, first: int,
              scored: bool) -> list[tuple[int, int]]:
        if use_order and scored:
            if not candidates & (candidates - 1):
                return [(candidates, -1)]
            # Packed as ints (threats << 4 | 15 - rank) for one descending sort; the
            # table's move above every count (a column holds fewer than 63 threats).
            keys = []
            created = [0] * width
            for k in ranks:
                move = candidates & centre_columns[k]
                if move:
                    created[k] = t = threats(current | move, mask)
                    n = 63 if move == first else t.bit_count()
                    keys.append((n << 4) | (15 - k))
            keys.sort(reverse=True)
            return [(candidates & centre_columns[k], created[k])
                    for k in [15 - (x & 15) for x in keys]]
        moves = [(candidates & col, -1) for col in plain_columns if candidates & col]
        if (first, -1) in moves:
            moves.remove((first, -1))
            moves.insert(0, (first, -1))
        return moves

    return order


TABLE_CAPACITY = 1_000_000  # entries of the table kept from move to move
THREATS_CAPACITY = 1 << 19  # stone sets whose threats are remembered
SOLVER_CAPACITY = 2_000_000  # entries of the solver's table (cleared after each use)


class Memory:
    """What the engine keeps from move to move in one game (as a match player does):
    the transposition table, the threats of stone sets already met, the solver.

    Where the native node function is built (and the board fits it), the table is its
    `_engine.Table`: a dict's behaviour in C, which both node functions, the principal
    variation and a server's count read alike; `native=False` asks for the pure
    memory (a `TranspositionTable`, the pure solver). zerosum.native decides."""

    def __init__(self, game: Any, native: bool | None = None) -> None:
        """Tables sized by `kernel.capacity_for`: the table's TABLE_CAPACITY, or under a
        smaller bound on memory (kernel.bound_memory), the bound for all three together:
        half the table's, a quarter each the threats' and the solver's."""
        capacity = capacity_for(game, TABLE_CAPACITY)
        sizes = (capacity, THREATS_CAPACITY, SOLVER_CAPACITY)
        if capacity < TABLE_CAPACITY:
            sizes = (max(2, capacity // 2), max(2, capacity // 4), max(2, capacity // 4))
        geo: Geometry = game.geo
        twin = native_kernels.twin("connect4 engine", native)
        self.native = twin is not None and geo.width * geo.h1 <= 63
        self.table: Any = twin.Table(sizes[0]) if twin is not None and self.native \
            else TranspositionTable(sizes[0], same_depth=False)
        self.threats: dict[int, int] = {}
        self.threats_capacity = sizes[1]
        # Lent one search at a time: a server may search one game from two threads.
        self.solvers: Lender[Solver] = Lender()
        self.solver_size = (geo.width, geo.height, sizes[2], native is not False)


Search = Callable[[int, int, int, int, int, int, int], int]


class Connect4Kernel:
    """The engine's search from one root position (see the module doc)."""

    grain: float | None = 1  # integer values
    uses = frozenset({"table", "ordering", "pvs", "aspiration"})  # no captures, no killers
    # Values of passes of one parity seldom move by more than this (in thousandths).
    aspiration: float = 50
    seldepth = 0  # not tracked: every path of a pass ends at its depth or at the game's end

    def __init__(self, game: Any, state: Any, stop: Stop,
                 enhancements: Enhancements = ALL, memory: Memory | None = None, *,
                 weak_solve_when_empty: int = WEAK_SOLVE_WHEN_EMPTY,
                 solve_when_empty: int = SOLVE_WHEN_EMPTY, native: bool | None = None) -> None:
        """`game` a Connect4 (its `geo`), `state` a Position (connect4.game imports
        this module for its evaluation, so the types are not imported here).
        `memory`: the table, threats and solver to use (default: new ones, on the path
        `native` asks for); the solver stages may be narrowed or turned off (0) to
        measure what they add. `native=False`: the Python node function even where its
        twin is built; the twin runs only over its own table (a native memory)."""
        geo: Geometry = game.geo
        current: int = state.current
        mask: int = state.mask
        self.geo, self.current, self.mask, self.stop = geo, current, mask, stop
        self.weights = weights_of(game)
        self.enhancements = enhancements
        self.keep = Memory(game, native) if memory is None else memory
        self.table = self.keep.table
        self.moves = mask.bit_count()
        self.red_to_move: bool = state.red_to_move
        self.weak_solve_when_empty = weak_solve_when_empty
        self.solve_when_empty = solve_when_empty
        self.allowed = geo.board  # the cells the passes may play: all, unless proven otherwise
        self.drawn = False  # the weak solve proved the game drawn (a decided value: 0)
        self.base = 1  # nodes outside the node function: the root (once), the solver's
        self.nodes = self.base
        self.hits = 0
        threats = threat_finder(geo, self.keep.threats, self.keep.threats_capacity)
        self.order = ordering(geo, threats, enhancements)
        twin = native_kernels.twin("connect4 engine", native)
        self.native = twin is not None and self.keep.native
        if twin is not None and self.native:
            self.search, self.sync = self._bind_native(twin)
        else:
            self.search, self.sync = self._build_search(threats)
        self.over = geo.has_four(current ^ mask) or mask == geo.board  # no move to make

    # -- the node function ----------------------------------------------------------------

    def _build_search(self, threats: Callable[[int, int], int]
                      ) -> tuple[Search, Callable[[], None]]:
        """The recursive search as a closure over the board's constants (locals are
        much faster than attributes in CPython), and the function that copies its node
        and hit counts to the kernel."""
        geo = self.geo
        cells, board, bottom = geo.cells, geo.board, geo.bottom
        evaluate, order = evaluation(geo, self.weights), self.order
        use_table, use_pvs = self.enhancements.table, self.enhancements.pvs
        table = self.table
        entries = table.entries
        table_get = entries.get
        capacity, make_room = table.capacity, table.make_room
        stop, kernel = self.stop, self
        nodes = hits = 0

        def search(current: int, mask: int, moves: int, depth: int,
                   alpha: int, beta: int, theirs: int) -> int:
            """Negamax alpha-beta, fail-soft; the mover cannot win at once. `theirs`:
            the opponent's threats if the caller knows them (see solver.py), else -1."""
            nonlocal nodes, hits
            nodes += 1
            if not nodes & 255 and stop.observe(kernel.base + nodes):  # every 256 nodes
                raise SearchStopped
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
            if depth <= 0:
                return evaluate(current, mask, threats(current, mask), theirs, moves % 2 == 0)
            key = current + mask
            first = 0
            if use_table:
                entry: Any = table_get(key)
                if entry is not None:
                    remaining, bound, value, first = entry
                    if remaining >= depth and (bound == 0 or (bound == 1 and value >= beta)
                                               or (bound == 2 and value <= alpha)):
                        hits += 1
                        return value  # type: ignore[no-any-return]
            a0 = alpha
            best, best_move = -INFINITY, 0
            for move, move_threats in order(current, mask, candidates, first, depth > 1):
                if best_move and use_pvs:
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
            if use_table:
                if len(entries) >= capacity:
                    make_room()
                entries[key] = (depth, 1 if best >= beta else 2 if best <= a0 else 0,
                                best, best_move)
            return best

        def sync() -> None:
            kernel.nodes, kernel.hits = kernel.base + nodes, hits

        return search, sync

    def _bind_native(self, twin: ModuleType) -> tuple[Search, Callable[[], None]]:
        """The same node function compiled (_engine.c), over the memory's table (an
        `_engine.Table`), asking the stop at the same node counts."""
        geo, kernel, stop = self.geo, self, self.stop
        t = tables(geo)

        def observe(nodes: int) -> bool:
            return stop.observe(kernel.base + nodes)

        native = twin.Search(geo.width, geo.height, geo.centre_order, t.planes, t.odd_rows,
                             self.weights, self.enhancements.table, self.enhancements.ordering,
                             self.enhancements.pvs, self.table, observe, SearchStopped)

        def sync() -> None:
            kernel.nodes, kernel.hits = kernel.base + native.nodes, native.hits

        search: Search = native.search
        return search, sync

    # -- the root -------------------------------------------------------------------------

    def root_threats(self) -> tuple[int, int, int]:
        """The opponent's threats, the forced block (0: none), the candidate moves."""
        geo, mask = self.geo, self.mask
        theirs = winning_cells(self.current ^ mask, mask, geo.h1, geo.board)
        possible = geo.possible(mask) & self.allowed
        forced = possible & theirs
        if forced:
            possible = forced  # with two of them we lose anyway: still block one
        return theirs, forced, possible & ~(theirs >> 1) or possible

    def depths(self) -> Iterable[int]:
        return range(1, self.geo.cells - self.moves + DEPTH_STEP, DEPTH_STEP)

    def start_pass(self, depth: int) -> list[int]:
        if self.over:
            return []
        entry = self.table.get(self.current + self.mask) if self.enhancements.table else None
        return self.ordered(self.root_threats()[2], 0 if entry is None else entry[3])

    def search_move(self, move: int, depth: int, alpha: float, beta: float) -> int:
        """The root's moves that lose at once are valued without a search."""
        theirs, forced, _ = self.root_threats()
        geo, mask = self.geo, self.mask
        if forced & ~move or (move << 1) & theirs:
            return -((geo.cells - self.moves) // 2) * SCALE  # the opponent wins next
        if self.moves + 1 >= geo.cells:
            return 0
        low = -INFINITY if alpha < -INFINITY else int(alpha)
        high = INFINITY if beta > INFINITY else int(beta)
        try:
            return -self.search(self.current ^ mask, mask | move, self.moves + 1, depth - 1,
                                -high, -low, -1)
        finally:
            self.sync()

    def ordered(self, candidates: int, first: int) -> list[int]:
        """The root's moves in the node function's order, threats counted (`ordering`)."""
        return [move for move, _ in self.order(self.current, self.mask, candidates, first,
                                               True)]

    def action(self, move: int) -> int:
        return self.geo.column_of(move)

    def principal_variation(self, move: int, depth: int) -> list[int]:
        """`move`, then the table's best moves, as far as they go (at most `depth`)."""
        geo, entries = self.geo, self.table.entries
        line = [geo.column_of(move)]
        current, mask = self.current, self.mask
        while not geo.has_four(current | move) and mask | move != geo.board:
            current, mask = current ^ mask, mask | move
            entry = entries.get(current + mask) if self.enhancements.table else None
            if len(line) >= depth or entry is None:
                break
            move = entry[3]
            if not move or move & geo.possible(mask) != move:
                break
            line.append(geo.column_of(move))
        return line

    # -- what the numbers mean ------------------------------------------------------------

    def verdict(self, value: float) -> Verdict:
        if abs(value) >= SCALE:
            return self.decided(int(value) // SCALE)
        if self.drawn:  # the weak solve proved the draw: the passes only seek chances
            return Verdict(0.0, True, None, search_on=True)
        return Verdict((value if self.red_to_move else -value) / SCALE, False, None)

    def decided(self, score: int) -> Verdict:
        """The game's value, the solver score `score` from the mover's side."""
        return Verdict(float(score if self.red_to_move else -score), True,
                       plies_to_end(self.geo, self.moves, score))

    def proven(self) -> Verdict:
        """A win for the mover proven by the weak solve: decided, its length unknown, so
        it is worth the least win (a lower bound of its score) with no distance."""
        return Verdict(1.0 if self.red_to_move else -1.0, True, None)

    # -- decisions before the passes ------------------------------------------------------

    def prepare(self, limit: Limit) -> tuple[int, Verdict] | None:
        """A win in one; then, given a time, the solver stages (see the module doc)."""
        geo, current, mask = self.geo, self.current, self.mask
        if self.over:
            return None
        for c in geo.centre_order:  # a win at once
            if geo.playable(mask, c) and geo.has_four(current | geo.move_bit(mask, c)):
                return geo.move_bit(mask, c), self.decided((geo.cells + 1 - self.moves) // 2)
        seconds, empty = limit.seconds, geo.cells - self.moves
        if seconds is None:
            return None  # a search to a depth or a node budget: the passes alone
        if empty <= (self.solve_when_empty if seconds >= 0.4 else self.solve_when_empty - 4):
            solved = self.try_solver(seconds * SOLVE_SHARE)
            if solved is not None:
                column, score = solved
                return geo.move_bit(mask, column), self.decided(score)
        elif empty <= self.weak_solve_when_empty and seconds >= 0.3:
            proven = self.try_weak(seconds * WEAK_SHARE)
            if proven is not None:
                outcome, columns = proven
                if outcome > 0:
                    return geo.move_bit(mask, columns[0]), self.proven()
                if outcome == 0 and len(columns) == 1:  # the only move keeping the draw
                    return geo.move_bit(mask, columns[0]), self.decided(0)
                if outcome == 0:  # a draw: the passes look for chances among the safe moves
                    self.allowed = sum(geo.columns[c] for c in columns)
                    self.drawn = True
        return None

    def try_weak(self, seconds: float) -> tuple[int, list[int]] | None:
        """Within `seconds`, the game's outcome (1 won, 0 drawn, -1 lost, for the
        mover) and the moves keeping it: the first winning column found, or every
        column that does not lose; or None if the solver ran out of time. A weak solve
        (win, draw or loss, not how soon) is far cheaper than the exact score.

        The root is searched here, not in `Solver.solve`: a win is proven by finding a
        winning move, so the first one found is the answer, with no second search to
        tell which move it was. Moves are tried in the search's order (most threats
        created first), which finds a win soonest."""
        geo, current, mask = self.geo, self.current, self.mask
        theirs = winning_cells(current ^ mask, mask, geo.h1, geo.board)
        possible = geo.possible(mask)
        candidates = possible & ~(theirs >> 1) & (possible & theirs or possible)
        order = [geo.column_of(move) for move in self.ordered(candidates, 0)]
        try:
            with self.solver_for(seconds) as solver:
                for c in order:
                    if solver.achieves(current, mask, c, 1):
                        return 1, [c]
                safe = [c for c in order if solver.achieves(current, mask, c, 0)]
        except SearchStopped:
            return None
        return (0, sorted(safe, key=geo.centre_order.index)) if safe else (-1, [])

    def try_solver(self, seconds: float) -> tuple[int, int] | None:
        """(a best column, the exact score), or None if the solver ran out of time."""
        try:
            with self.solver_for(seconds) as solver:
                score = solver.solve(self.current, self.mask)
                column = solver.best_move(self.current, self.mask, score)
        except SearchStopped:
            return None
        return column, score

    @contextmanager
    def solver_for(self, seconds: float) -> Iterator[Solver]:
        """The solver, stopped (SearchStopped) after `seconds` or by the kernel's stop;
        afterwards its nodes are counted as the kernel's and its table is cleared for
        the next use."""
        width, height, capacity, native = self.keep.solver_size
        with self.keep.solvers.lend(lambda: Solver(width, height, capacity=capacity,
                                                   native=native)) as solver:
            solver.clock, solver.stop = self.stop.clock, self.stop
            solver.limit(seconds=seconds)
            try:
                yield solver
            finally:
                self.base += solver.nodes
                self.sync()
                solver.reset()
                solver.limit()
                solver.stop = None
