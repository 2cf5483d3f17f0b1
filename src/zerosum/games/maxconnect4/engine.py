"""The Max-Connect4 kernel: negamax alpha-beta on bitboards, with a transposition table,
for the one iterative-deepening driver (zerosum.search.driver, zerosum.kernel).

It is the textbook alpha-beta (AIMA figure 5.7) written in negamax form: the value of
a position for the player to move is the best over its moves of minus the value of the
position after it for the opponent, so one function serves both Max and Min. Values are
whole hundredths of a point (exact integers), from the mover's side.

What makes it fast (each switchable through `Enhancements`):
- compact positions: the mover's bitboard and the opponent's, ints only; the score
  difference is updated from the quadruples through each new piece (no rescan), and
  the evaluation counts all quadruples at once with bit-parallel arithmetic;
- move ordering (`ordering`): the table's best move first, then moves that score,
  then the centre columns before the edges (without it: left to right);
- a transposition table (`table`; zerosum.table, kept between searches by whoever
  makes the kernels: `Memory`) keyed by Pons's `mine + mask`, which identifies a position
  uniquely; in the opening a position and its mirror image share an entry;
- principal variation search (`pvs`): after the first move, each move is first searched
  with a null window (alpha, alpha + 1), which only asks "is it better?", and searched
  again with the full window only when it is.
The driver adds iterative deepening (depth 1, 2, ... sharing the table) and the root.

With EXACT_EMPTIES (16) or fewer empty cells at the root there is one pass, to the end
of the game: its value is the exact final score difference and its move perfect (the
shallower passes would cost more than they save there). That pass runs to its end
whatever the clock says (it takes well under a second); only a request to stop or the
node budget end it. With more empty cells a depth limit that reaches the end of the game
is iterative deepening like any other, the last pass to the end, and every pass obeys
the clock: from the start a pass to the end is a solve of the whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import cast

from zerosum.games.maxconnect4.bitboard import (
    BOARD,
    BOTTOM_OF,
    CELLS,
    CENTRE_FIRST,
    COLS,
    COLUMN,
    EXACT_EMPTIES,
    POTENTIAL_WEIGHTS,
    QUADRUPLES_AT,
    Position,
    potential,
)
from zerosum.kernel import ALL, Enhancements, Verdict, capacity_for, evaluation_weights
from zerosum.native import twin
from zerosum.result import Limit
from zerosum.stop import SearchStopped, Stop
from zerosum.table import Bound, TranspositionTable

EXACT, LOWER, UPPER = Bound.EXACT.value, Bound.LOWER.value, Bound.UPPER.value
INFINITY = 1_000_000  # beyond any value in hundredths (69 points at most)
TABLE_CAPACITY = 2_000_000
CHECK_EVERY = 1024  # nodes between two looks at the stop (a power of two)
LEFT_TO_RIGHT = tuple(range(COLS))


def weights_of(game: object) -> PotentialWeights:
    """The evaluation weights the engine uses for `game`: its own `evaluation_weights`
    if it carries some (weights fitted to exact values, zerosum.learn.texel), else the
    hand-written POTENTIAL_WEIGHTS."""
    w = evaluation_weights(game, POTENTIAL_WEIGHTS, "Max-Connect4")
    return (w[0], w[1], w[2], w[3], w[4])


def orders(base: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """The column orders starting with the table's move (-1: none), then `base`."""
    return {-1: base} | {first: (first, *(c for c in base if c != first)) for first in base}


# The search order of the columns: the table's move first, then the centre columns
# before the edges (they lie in more quadruples); without ordering, left to right.
ORDERS = orders(CENTRE_FIRST)
PLAIN_ORDERS = orders(LEFT_TO_RIGHT)
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
PotentialWeights = tuple[int, int, int, int, int]
Child = tuple[int, int, int]  # (points the move scores, column, the mover's pieces after it)


def children(mine: int, mask: int, columns: Sequence[int], ordering: bool,
             first: int) -> list[Child]:
    """The moves in search order: `columns` (the table's move, if any, first), and with
    `ordering` the moves that score before the others (they often cut), the first kept."""
    found = []
    for col in columns:
        move = (mask + BOTTOM_OF[col]) & COLUMN[col]
        if not move:
            continue  # the column is full
        mine2 = mine | move
        gained = 0
        for q in QUADRUPLES_AT[move.bit_length() - 1]:
            if mine2 & q == q:
                gained += 1
        found.append((gained, col, mine2))
    if ordering:
        start = 1 if first >= 0 else 0
        found[start:] = sorted(found[start:], key=by_points, reverse=True)
    return found


def by_points(child: Child) -> int:
    return child[0]


class Memory:
    """What the engine keeps for one game object from move to move: its table, sized by
    `kernel.capacity_for` (the interactive program keeps one game object for the whole
    game, so later moves reuse earlier work; a one-move run starts afresh)."""

    def __init__(self, game: object) -> None:
        self.table = TranspositionTable(capacity_for(game, TABLE_CAPACITY), same_depth=False)


class MaxConnect4Kernel:
    """A Kernel (zerosum.kernel) for one root position.

    `evaluation(mine, theirs, mask)` estimates the mover's further gain in hundredths of
    a point (the score so far is added to it); replace it to experiment with other
    heuristics. By default it is `potential` with the game's weights (`weights_of`),
    in Python and C alike. `memory`: the table to use and fill (a new one if None).
    """

    grain: float | None = 1  # values are whole hundredths
    uses = frozenset({"table", "ordering", "pvs", "aspiration"})
    aspiration: float = 200  # two points

    def __init__(self, game: object, pos: Position, stop: Stop,
                 enhancements: Enhancements = ALL, memory: Memory | None = None,
                 evaluation: Evaluation | None = None, native: bool = True) -> None:
        self.stop = stop
        self.enhancements = enhancements
        if memory is None:
            memory = Memory(game)
        self.table = memory.table if enhancements.table else None
        self.weights = weights_of(game)
        weights = self.weights
        self.evaluation = evaluation or (
            lambda mine, theirs, mask: potential(mine, theirs, mask, weights))
        self.mine, self.theirs = (pos.p1, pos.p2) if pos.p1_to_move else (pos.p2, pos.p1)
        self.diff = pos.score1 - pos.score2 if pos.p1_to_move else pos.score2 - pos.score1
        self.sign = 1 if pos.p1_to_move else -1
        self.empties = CELLS - pos.pieces
        self.counter = [1, 0]  # nodes (the root, examined once for all passes), table hits
        self.nodes, self.hits, self.seldepth = 1, 0, 0
        self.to_the_end = self.empties <= EXACT_EMPTIES
        self.label = self.empties  # the depth the driver knows the pass to the end by
        self.searched = 0  # how deep the current pass searches
        # The node function's compiled twin (_engine.c), where it is built, allowed
        # (zerosum.native) and asked for (native=False: the closure below); it knows
        # only the evaluation `potential` (with any weights).
        self.compiled: ModuleType | None = None
        if evaluation is None:
            self.compiled = twin("maxconnect4 engine", native)
        self.negamax = self.node_function()

    # --- what the driver calls ---------------------------------------------------------

    def prepare(self, limit: Limit) -> None:
        """Nothing is decided before a search. Near the end (one pass to the end, see the
        module doc) the pass is labelled with the limit's depth, at most. A depth limit
        that reaches the end from further back leaves the passes as they are: the
        deepest reaches the end, each within the clock."""
        if limit.depth is not None:
            self.label = max(1, min(limit.depth, self.empties))
        return None

    def depths(self) -> Iterable[int]:
        if self.to_the_end:
            return (self.label,)
        return range(1, self.empties + 1)

    def start_pass(self, depth: int) -> Sequence[int]:
        self.searched = self.empties if self.to_the_end else depth
        self.seldepth = max(self.seldepth, min(self.searched, self.empties))
        first = self.table_move(self.mine, self.theirs)
        mask = self.mine | self.theirs
        ordering = self.enhancements.ordering
        columns = (ORDERS if ordering else PLAIN_ORDERS)[first]
        return [col for _, col, _ in children(self.mine, mask, columns, ordering, first)]

    def search_move(self, move: int, depth: int, alpha: float, beta: float) -> float:
        mine, theirs = self.mine, self.theirs
        drop = ((mine | theirs) + BOTTOM_OF[move]) & COLUMN[move]
        mine2 = mine | drop
        gained = sum(1 for q in QUADRUPLES_AT[drop.bit_length() - 1] if mine2 & q == q)
        low = int(max(alpha, -INFINITY))
        high = int(min(beta, INFINITY))
        try:
            return -self.negamax(theirs, mine2, -(self.diff + gained), self.searched - 1,
                                 -high, -low)
        finally:
            self.nodes, self.hits = self.counter

    def action(self, move: int) -> int:
        return move

    def verdict(self, value: float) -> Verdict:
        """Hundredths from the mover's side -> points from player 1's side; decided when
        the pass reached the end of the game everywhere."""
        decided = self.searched >= self.empties
        return Verdict(self.sign * value / 100, decided, self.empties if decided else None)

    def principal_variation(self, move: int, depth: int) -> list[int]:
        """`move`, then the table's best moves, as far as they go."""
        longest = self.empties if self.to_the_end else depth
        mine, theirs = self.mine, self.theirs
        pv = [move]
        mask = mine | theirs
        mine, theirs = theirs, mine | ((mask + BOTTOM_OF[move]) & COLUMN[move])
        while len(pv) < longest:
            col = self.table_move(mine, theirs)
            if col < 0:
                break
            mask = mine | theirs
            drop = (mask + BOTTOM_OF[col]) & COLUMN[col]
            if not drop:
                break
            pv.append(col)
            mine, theirs = theirs, mine | drop
        return pv

    def table_move(self, mine: int, theirs: int) -> int:
        """The table's best column for this position, or -1."""
        if self.table is None:
            return -1
        key, flipped = table_key(mine, mine | theirs)
        entry = self.table.entries.get(key)
        if entry is None or entry[3] < 0:
            return -1
        col: int = entry[3]
        return 6 - col if flipped else col

    def observe(self, nodes: int) -> bool:
        """The stop's verdict at a periodic check; the one pass to the end near the end
        of the game ignores the deadline (see the module doc: it is short), no other."""
        stop = self.stop
        if not self.to_the_end or stop.deadline is None:
            return stop.observe(nodes)
        deadline, stop.deadline = stop.deadline, None
        try:
            return stop.observe(nodes)
        finally:
            stop.deadline = deadline

    # --- the node function -------------------------------------------------------------

    def node_function(self) -> Negamax:
        """The search function, a closure rather than a method: local names are the
        fastest in Python, and this function runs once per node."""
        table = self.table
        # This kernel's entries: (remaining, bound, hundredths, column).
        entries = cast(dict[int, tuple[int | None, int, int, int]],
                       {} if table is None else table.entries)
        get = entries.get
        make_room = entries.clear if table is None else table.make_room  # (unused if None)
        capacity = TABLE_CAPACITY if table is None else table.capacity
        use_table = table is not None
        ordering = self.enhancements.ordering
        pvs = self.enhancements.pvs
        column_orders = ORDERS if ordering else PLAIN_ORDERS
        evaluation = self.evaluation
        observe = self.observe
        counter = self.counter
        if self.compiled is not None:
            search = self.compiled.Search(None if table is None else entries, capacity,
                                          make_room, observe, counter, SearchStopped,
                                          ordering, pvs, self.weights)
            compiled: Negamax = search.negamax
            return compiled

        def negamax(mine: int, theirs: int, diff: int, depth: int,
                    alpha: int, beta: int) -> int:
            """The value for the mover (hundredths of a point) of the position where
            the mover holds `mine`, the opponent `theirs` and the mover leads by `diff`
            points, searched `depth` plies deep. Fail-soft: outside (alpha, beta) it
            is a bound on the true value."""
            counter[0] += 1
            if counter[0] % CHECK_EVERY == 0 and observe(counter[0]):
                raise SearchStopped
            mask = mine | theirs
            if mask == BOARD:
                return 100 * diff
            if depth <= 0:
                return 100 * diff + evaluation(mine, theirs, mask)
            table_move = -1
            key, flipped = 0, False
            if use_table:
                key, flipped = table_key(mine, mask)
                entry = get(key)
                if entry is not None:
                    remaining, bound, stored, table_move = entry
                    if flipped:
                        table_move = 6 - table_move
                    if remaining is None or remaining >= depth:
                        counter[1] += 1
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
            first = True
            for gained, col, mine2 in children(mine, mask, column_orders[table_move],
                                               ordering, table_move):
                if pvs and not first:  # first a null window: is it better?
                    v = -negamax(theirs, mine2, -(diff + gained), depth - 1, -alpha - 1, -alpha)
                    if alpha < v < beta:  # it may be: search it properly
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
            if use_table:
                if best <= alpha0:
                    bound = UPPER
                elif best >= beta:
                    bound = LOWER
                else:
                    bound = EXACT
                if flipped:
                    best_move = 6 - best_move
                if len(entries) >= capacity:
                    # Within a pass too: one deep pass alone can outgrow any memory.
                    make_room()
                exact = depth >= CELLS - mask.bit_count()  # reached the end everywhere
                entries[key] = (None if exact else depth, bound, best, best_move)
            return best

        return negamax
