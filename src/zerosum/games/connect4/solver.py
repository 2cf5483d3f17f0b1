"""The perfect Connect Four solver: the exact score of a position, its best moves and a
principal variation. Pure Python, on the bitboards of `bitboard.py`.

Scores follow Pascal Pons's benchmark sets ("Solving Connect 4: how to build a perfect AI",
blog.gamesolver.org): 0 for a draw; if the player to move wins, (cells + 1 - n) // 2
where n is the number of stones on the board just before the winning stone (on 7x6:
22 minus the number of stones the winner has played); negative when the player to move
loses. The method is the one his series builds up step by step:

- negamax with alpha-beta, values bounded from the start by what is still possible
  (nobody can win sooner than the next free move, nor later than the last one);
- null-window searches: `solve` narrows the score's interval [lo, hi] by asking
  "is the score above med?" with the window (med, med+1), med chosen by bisection but
  pulled towards 0 so that the quick, shallow answers come first (iterative tightening);
- no move that lets the opponent win at once is ever explored: an opponent's threat
  in a playable cell must be blocked, two of them lose, and a cell just below an
  opponent's threat is never played;
- move ordering by the number of threats a move creates (cells that would complete a
  four), ties broken centre first;
- a bounded transposition table (from the position key to one bound: the upper bound
  of a fail-low node or the lower bound of a fail-high one, with the move that refuted
  it, tried first when the position comes back). Only the speed, never the result,
  depends on what it keeps: see `Table` for what it keeps when it is full.

Before searching, `solve` and `achieves` consult the opening book (book.py) when the
position is within its depth: the empty board and the first moves are answered at once.
Then, if the solver was given one, the cache of what earlier solves proved (cache.py):
`solve` bisects from the interval known and stores the one it proves (stopped or not),
`achieves` answers from a bound that settles the question and stores the bound it finds.

Two additions of ours, on top of his method:
- a move that creates two threats the opponent cannot both stop (two playable ones, or
  one playable with another right above it) wins with our next stone, the best score
  left once we cannot win at once: the node returns it without searching anything;
  with the refutation move first, it cuts the nodes per position by 10 % (L2_R2) to
  34 % (L1_R1);
- the threats of a set of stones are remembered (see `bitboard.threat_finder`): a search
  meets the same stone sets again and again.

The search has a compiled twin, `_solver.c` (see zerosum/native.py): the same steps, the
same table behaviour, so the same values, moves and node counts, 20-30 times faster. It
is used when it was built and the board fits in a 63-bit word (7x6 does); this Python
stays the reference and the fallback (`Solver(native=False)`, or ZEROSUM_NATIVE=0).
`Solver(threads=N)`: the compiled search's N threads over the one table, sharing out the
moves of the nodes that fail low (see `_solver.c` and docs/connect4.md): the same scores,
more nodes in all, fewer each; the Python search always searches with one, and only one
thread's node count is the twin's.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from zerosum import native as native_kernels
from zerosum.games.connect4.bitboard import Geometry, geometry, threat_finder
from zerosum.games.connect4.book import Book, shipped
from zerosum.stop import SearchStopped

if TYPE_CHECKING:
    from zerosum.games.connect4.cache import SolvedCache
    from zerosum.stop import Stop


class Solution(NamedTuple):
    """What `Solver.analyse` finds out about a position. (A NamedTuple rather than a
    dataclass: importing dataclasses costs ConnectFour.py's 1-second budget ~20 ms.)"""

    score: int
    best_moves: list[int]  # columns, 0-based, in centre-first order
    move_scores: dict[int, int]  # column -> score after it, from our side (if asked)
    pv: list[int]  # columns, 0-based
    nodes: int


NEVER = (1 << 62)  # the native kernel's "no check": its node count is a 64-bit int
# A table entry's low bits: the rank in centre order of the move that proved a lower
# bound, 0 to 11 (boards up to 12 wide). Three bits once held only ranks 0-7, so on
# boards 9 or more wide a rank spilled into the bound.
RANK_BITS = 4
RANK_MASK = (1 << RANK_BITS) - 1


class Progress(NamedTuple):
    """What a long solve reports (see `Solver.watch`): the score's interval [lo, hi]
    proven so far, the null window being searched (score > window?), the nodes so far;
    `answered` when the report is the window's answer, else a periodic one."""

    lo: int
    hi: int
    window: int
    nodes: int
    answered: bool


def _half_toward_zero(x: int) -> int:
    return x // 2 if x >= 0 else -((-x) // 2)


def plies_to_end(geo: Geometry, moves: int, score: int) -> int:
    """How many plies a game of score `score` (for the player to move, `moves` stones on
    the board) lasts with best play: the winning stone lands when the board holds
    `cells + 1 - 2|score|` stones, or one fewer (the count of the winner's parity); a
    draw fills the board."""
    if score == 0:
        return geo.cells - moves
    winner_parity = moves % 2 if score > 0 else (moves + 1) % 2
    before = geo.cells + 1 - 2 * abs(score)
    if before % 2 != winner_parity:
        before -= 1
    return before - moves + 1


BUCKET = 4  # the table's entries per bucket: 4 C slots of 16 bytes, one cache line
# The near table (see Table): the positions with at most NEAR_EMPTY empty cells, in at
# most NEAR_BUCKETS buckets (a prime: 2 MiB of C slots).
NEAR_EMPTY = 18
NEAR_BUCKETS = 32_749
# Positions with more than ETC_EMPTY empty cells look their children up in the table
# before searching any (see negamax): fewer nodes, and as fast (docs/connect4.md, "The
# children looked up first").
ETC_EMPTY = 12


_PRIMES: dict[int, int] = {}


def largest_prime(n: int) -> int:
    """The largest prime <= n (1 below 2): the number of buckets, a prime so that
    `key % buckets` depends on every bit of the key (a power of two would take the
    lowest column's bits alone)."""
    if n not in _PRIMES:
        _PRIMES[n] = next((m for m in range(n, 1, -1)
                           if all(m % d for d in range(2, int(m ** 0.5) + 1))), 1)
    return _PRIMES[n]


class Table:
    """The solver's transposition table: at most `capacity` entries (rounded down to
    whole buckets), in buckets of BUCKET; a position's bucket is its key modulo a prime.
    A bucket fills in order; when it is full a new position replaces the one with the
    most stones (a deep position's subtree is small, so forgetting it costs least), the
    first of them on ties. Pons's table keeps one entry a slot and always replaces; a
    table cleared when full (ours until now) forgets everything at once. On L1_R3's
    first six positions, at 2M entries: cleared 204.4M nodes, one entry a slot 152.9M,
    buckets of 4 131.8M; on the small sets, where the table never fills, within 0.001 %
    of the exact map (bench/connect4_solver.py).

    Two tables in one: the positions near the end of the game (at most NEAR_EMPTY empty
    cells, from `near_from` stones on) have `near` buckets of their own, 2 MiB of C
    slots; the others share the rest of the capacity (`buckets`). Most of a search's
    nodes are near the end, and their probes then stay in the processor's caches
    instead of missing them in a table of tens of megabytes, which was most of the time
    a node took: the forgetting this costs (more nodes) is worth far less than the
    misses saved (L1_R3's first 6 positions, 2M entries: 131.8M nodes in 13.3-13.8 s
    before, 157.7M in 7.0-7.1 s; docs/connect4.md, "The near table").

    The reference for the C table in `_solver.c` (which holds the same entries in the
    same slots): `entries` maps a key to its entry (the searches read only that),
    `held` a bucket (the near ones first) to its keys in slot order, `stones` a key to
    its stone count."""

    def __init__(self, capacity: int, cells: int) -> None:
        # A small capacity keeps its bound: the near table takes at most half of it.
        self.near = largest_prime(min(NEAR_BUCKETS, max(1, capacity // (2 * BUCKET))))
        self.buckets = largest_prime(max(1, (capacity - self.near * BUCKET) // BUCKET))
        self.near_from = cells - NEAR_EMPTY
        self.entries: dict[int, int] = {}
        self.held: dict[int, list[int]] = {}
        self.stones: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()
        self.held.clear()
        self.stones.clear()

    def store(self, key: int, entry: int, moves: int) -> None:
        """`entries[key] = entry`, making room in the key's bucket if it is full."""
        entries = self.entries
        if key not in entries:
            bucket = key % self.near if moves >= self.near_from else \
                self.near + key % self.buckets
            keys = self.held.get(bucket)
            if keys is None:
                self.held[bucket] = [key]
            elif len(keys) < BUCKET:
                keys.append(key)
            else:
                stones = self.stones
                depths = [stones[k] for k in keys]
                slot = depths.index(max(depths))
                del entries[keys[slot]], stones[keys[slot]]
                keys[slot] = key
            self.stones[key] = moves
        entries[key] = entry


class Solver:
    """Solves positions `(current, mask)` of one board geometry; keeps its table between
    calls (call `reset()` to forget it, as the benchmark does before each position).

    One search at a time: its table, limits and stop belong to the search running, and
    the native search lets other threads run at its checks (the kernel refuses a second
    search then). Code that may search from several threads at once (a server's
    sessions, a value graph beside a game) borrows its solvers from a `kernel.Lender`."""

    def __init__(self, width: int = 7, height: int = 6, capacity: int = 2_000_000,
                 clock: Callable[[], float] = time.perf_counter, native: bool = True,
                 book: bool | Book = True, cache: SolvedCache | None = None,
                 threads: int = 1) -> None:
        """`native`: use the compiled search if there is one (the pure one otherwise).
        `threads`: the threads of each search (split nodes, see `_solver.c`); the pure
        search always uses one (CPython runs one thread's bytecode at a time, so helper
        threads there would only take turns).
        `book`: consult the opening book shipped for this board size (or this one).
        `cache`: remember the bounds proven at the top of each solve there, and start
        from what it knows (cache.py); none by default, so node counts are the search's."""
        self.clock = clock  # for `limit(seconds=...)`: wall time by default
        self.geo: Geometry = geometry(width, height)
        self.book: Book | None = book if isinstance(book, Book) else \
            shipped(self.geo) if book else None
        self.cache = cache
        self.capacity = capacity
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self._threads = threads
        self.table = Table(capacity, self.geo.cells)
        self.wins: dict[int, int] = {}  # stones -> the cells completing a four of them
        self.deadline: float | None = None
        self.node_budget: int | None = None
        module = native_kernels.twin("connect4 solver", native)
        self.native = module is not None and self.geo.width * self.geo.h1 <= 63
        if self.native:
            self._bind_native(module)
        else:
            self._negamax = self._build_negamax()

    @property
    def threads(self) -> int:
        """The threads of each search (see `__init__`); may be changed between searches."""
        return self._threads

    @threads.setter
    def threads(self, value: int) -> None:
        if value < 1:
            raise ValueError(f"threads must be at least 1, not {value}")
        if self.native:
            self._kernel.threads = value
        self._threads = value

    def reset(self) -> None:
        """Forget the table and zero the node count."""
        self.table.clear()
        self.wins.clear()
        if self.native:
            self._kernel.clear()
        self.nodes = 0

    @property
    def nodes(self) -> int:
        """Nodes searched so far (negamax calls), as in Pons's benchmark."""
        return int(self._counter(None))

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._counter(value)

    # -- the search -------------------------------------------------------------------

    def _build_negamax(self) -> Callable[[int, int, int, int, int, int], int]:
        """The recursive search as a closure over the board's constants: in CPython,
        local and closure variables are much faster to read than attributes."""
        geo = self.geo
        cells, board, bottom = geo.cells, geo.board, geo.bottom
        ordered_columns = [geo.columns[c] for c in geo.centre_order]
        ranks = range(len(ordered_columns))
        table_get = self.table.entries.get
        store = self.table.store
        # Table entries are one int: an upper bound u as u + offset > 0; a lower bound l
        # with the move that proved it, of rank k in centre order, as
        # -((l + offset) * 16 + k) < 0 (RANK_BITS: k is up to 11 on a board 12 wide).
        offset = cells + 1
        solver = self
        nodes = 0

        # The bounds that depend only on the number of stones, looked up rather than
        # recomputed at every node: the score when the opponent wins with their next
        # stone, and the lowest and highest scores possible when neither side can win
        # with its next stone.
        lost = [-((cells - n) // 2) for n in range(cells + 1)]
        lowest_at = [-((cells - 2 - n) // 2) for n in range(cells + 1)]
        highest_at = [(cells - 1 - n) // 2 for n in range(cells + 1)]
        last_two = cells - 2
        etc_before = cells - ETC_EMPTY
        threats = threat_finder(geo, self.wins)
        rank_of = {geo.move_bit(0, c) << r: k for k, c in enumerate(geo.centre_order)
                   for r in range(geo.height)}

        def negamax(current: int, mask: int, moves: int, alpha: int, beta: int,
                    opp_threats: int) -> int:
            """The score within (alpha, beta), fail-soft; the player to move cannot win
            with this move (the caller checked). `opp_threats` are the opponent's threats
            if the caller knows them (it computed them to order its moves), else -1."""
            nonlocal nodes
            nodes += 1
            if nodes >= solver.next_check:
                solver.check()
            opponent = current ^ mask
            possible = (mask + bottom) & board
            if opp_threats < 0:
                opp_threats = threats(opponent, mask)
            forced = possible & opp_threats
            if forced:
                if forced & (forced - 1):
                    return lost[moves]  # two threats to block
                possible = forced
            candidates = possible & ~(opp_threats >> 1)
            if not candidates:
                return lost[moves]  # every move lets the opponent win
            if moves >= last_two:
                return 0  # we play one, they the last, nobody can win: a draw
            lowest = lowest_at[moves]
            if alpha < lowest:
                alpha = lowest
                if alpha >= beta:
                    return alpha
            highest = highest_at[moves]
            key = current + mask
            entry = table_get(key)
            first = 0
            if entry is not None:
                if entry > 0:
                    highest = min(highest, entry - offset)
                else:
                    bound = (-entry >> RANK_BITS) - offset
                    if alpha < bound:
                        alpha = bound
                        if alpha >= beta:
                            return alpha
                    # The move that refuted this position last time is tried first:
                    # it usually refutes it again, and then ordering the others
                    # (a threat computation each) is work saved.
                    first = candidates & ordered_columns[-entry & RANK_MASK]
            if beta > highest:
                beta = highest
                if alpha >= beta:
                    return beta
            # The enhanced transposition cutoff (Plaat, Schaeffer, Pijls and de Bruin,
            # 1996): a child whose upper bound is in the table gives this position a
            # lower bound, which may cut it off before any child is searched. Its
            # lookups cost more than they save near the end, where subtrees are small.
            if moves < etc_before:
                rest = candidates
                while rest:
                    move = rest & -rest
                    child = table_get(opponent + (mask | move))
                    if child is not None and child > 0 and offset - child >= beta:
                        score = offset - child
                        store(key, -(((score + offset) << RANK_BITS) | rank_of[move]), moves)
                        return score
                    rest ^= move
            if first:
                score = -negamax(opponent, mask | first, moves + 1, -beta, -alpha, -1)
                if score >= beta:
                    store(key, -(((score + offset) << RANK_BITS) | rank_of[first]), moves)
                    return score
                if score > alpha:
                    alpha = score
                candidates ^= first
            # Order: most threats created first, ties centre first, as one descending
            # sort of threats * 16 + (15 - rank in centre order).
            # A move's threats are the child's opponent threats: passed down, not redone.
            # (Equal, as the move itself cannot complete a four: we cannot win now.)
            # A move creating two threats the opponent cannot both stop, two playable
            # ones or one playable with another right above it, wins with our next
            # stone (the opponent has no four to make first: see the candidates). That
            # is the best score left, so no move needs to be searched.
            if candidates & (candidates - 1):
                order = []
                for k in ranks:
                    move = candidates & ordered_columns[k]
                    if move:
                        t = threats(current | move, mask)
                        playable = t & ((mask | move) + bottom)
                        if playable and (playable & (playable - 1) or (playable << 1) & t):
                            return highest_at[moves]
                        order.append(((t.bit_count() << 4) | (15 - k), move, t))
                order.sort(reverse=True)
            else:  # one move left (or none, if it was the refutation tried above)
                order = [(0, candidates, -1)] if candidates else []
            for _, move, move_threats in order:
                score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, move_threats)
                if score >= beta:
                    store(key, -(((score + offset) << RANK_BITS) | rank_of[move]), moves)
                    return score
                if score > alpha:
                    alpha = score
            store(key, alpha + offset, moves)
            return alpha

        def counter(value: int | None) -> int:
            nonlocal nodes
            if value is not None:
                nodes = value
            return nodes

        self._threats = threats
        self._counter = counter
        return negamax

    def _bind_native(self, module: Any) -> None:
        """Search with the compiled twin of `_build_negamax`'s closure: it keeps its own
        table (a twin of `table`, which stays empty) and node count."""
        geo = self.geo
        table = self.table
        kernel = module.Kernel(geo.width, geo.height, table.near, table.buckets,
                               table.near_from, geo.centre_order)
        kernel.threads = self._threads
        never = NEVER
        # A weak reference: no cycle through the closure, so the solver and its table
        # (tens of megabytes outside the garbage collector's sight) go as soon as the
        # last reference does, not at the next collection.
        solver = weakref.proxy(self)

        def negamax(current: int, mask: int, moves: int, alpha: int, beta: int,
                    opp_threats: int) -> int:
            next_check = solver.next_check
            return int(kernel.negamax(current, mask, moves, alpha, beta, opp_threats,
                                      never if next_check >= never else int(next_check),
                                      solver._checkpoint))

        def counter(value: int | None) -> int:
            if value is not None:
                kernel.nodes = value
            return int(kernel.nodes)

        self._kernel = kernel
        self._negamax = negamax
        self._counter = counter
        self._threats = kernel.threats

    def _checkpoint(self) -> int:
        """The native kernel's call back, every `next_check`: `check`, then when to
        call again."""
        self.check()
        return int(min(self.next_check, NEVER))

    next_check: float = float("inf")
    stop: Stop | None = None  # a search's stop, obeyed too (see Connect4Kernel.solver_for)
    report: Callable[[Progress], None] | None = None  # see `watch`
    report_every = 1 << 22
    next_report = 0
    _progress = Progress(0, 0, 0, 0, False)  # where `solve` is

    def watch(self, report: Callable[[Progress], None] | None, every: int = 1 << 22) -> None:
        """Have `solve` call `report` after each null-window search and about every
        `every` nodes (None: stop reporting). Reporting changes no node count."""
        self.report, self.report_every = report, every
        self.next_report = self.nodes + every
        self.next_check = min(self.next_check, self.nodes) if report is not None \
            else (self.nodes if self.deadline is not None or self.node_budget is not None
                  else float("inf"))

    def check(self) -> None:
        """Called every thousand nodes when a deadline, budget or report is set."""
        self.next_check = self.nodes + 1024
        if self.report is not None and self.nodes >= self.next_report:
            self.next_report = self.nodes + self.report_every
            self.report(self._progress._replace(nodes=self.nodes, answered=False))
        if self.stop is not None and self.stop.observe(self.nodes):
            raise SearchStopped
        if self.node_budget is not None and self.nodes >= self.node_budget:
            raise SearchStopped
        if self.deadline is not None and self.clock() >= self.deadline:
            raise SearchStopped

    def limit(self, seconds: float | None = None, nodes: int | None = None) -> None:
        """Stop (raise SearchStopped) after `seconds` of wall time or `nodes` more nodes."""
        self.deadline = None if seconds is None else self.clock() + seconds
        self.node_budget = None if nodes is None else self.nodes + nodes
        self.next_check = self.nodes if (seconds is not None or nodes is not None
                                         or self.report is not None) else float("inf")

    # -- the public questions ---------------------------------------------------------

    def can_win_now(self, current: int, mask: int) -> bool:
        geo = self.geo
        return bool(self._threats(current, mask) & geo.possible(mask))

    def solve(self, current: int, mask: int, weak: bool = False,
              known: tuple[int, int] | None = None) -> int:
        """The exact score of the position (with `weak`, only its sign: -1, 0 or 1).
        `known`: an interval [lo, hi] the score is already proven to lie in (an earlier
        solve's, stopped: see `watch`); the bisection starts from it."""
        geo = self.geo
        moves = mask.bit_count()
        if moves >= geo.cells:
            return 0
        if self.can_win_now(current, mask):
            return 1 if weak else (geo.cells + 1 - moves) // 2
        booked = None if self.book is None else self.book.score(current, mask)
        if booked is not None:
            return (booked > 0) - (booked < 0) if weak else booked
        # The true interval (tlo, thi) and the one searched (lo, hi): the same, but a
        # weak solve searches scores clamped to -1..1.
        tlo = -((geo.cells - moves) // 2)
        thi = (geo.cells + 1 - moves) // 2
        cached = None if self.cache is None else self.cache.bounds(geo, current, mask)
        if cached is not None:
            tlo, thi = max(tlo, cached[0]), min(thi, cached[1])
        if known is not None:
            tlo, thi = max(tlo, known[0]), min(thi, known[1])
        lo, hi = (max(tlo, -1), min(thi, 1)) if weak else (tlo, thi)
        try:
            while lo < hi:
                med = lo + (hi - lo) // 2
                # Bisect, but try windows nearer 0 first: they are cheaper to refute.
                if med <= 0 and _half_toward_zero(lo) < med:
                    med = _half_toward_zero(lo)
                elif med >= 0 and _half_toward_zero(hi) > med:
                    med = _half_toward_zero(hi)
                self._progress = Progress(lo, hi, med, self.nodes, False)
                r = self._negamax(current, mask, moves, med, med + 1, -1)
                if r <= med:
                    hi = thi = min(thi, r)
                else:
                    lo = tlo = max(tlo, r)
                if self.report is not None:
                    self.report(Progress(lo, hi, med, self.nodes, True))
        finally:  # stopped or not, what was proven is kept
            if self.cache is not None and (tlo, thi) != cached:
                self.cache.store(geo, current, mask, tlo, thi)
        if weak:  # a fail-soft search may have found more than the sign
            return (lo > 0) - (lo < 0)
        return lo

    def move_score(self, current: int, mask: int, column: int,
                   known: tuple[int, int] | None = None) -> int:
        """The score of playing `column`, from the mover's side (`known`: an interval
        of it already proven, as `solve`'s)."""
        geo = self.geo
        move = geo.move_bit(mask, column)
        moves = mask.bit_count()
        if geo.has_four(current | move):
            return (geo.cells + 1 - moves) // 2
        child = None if known is None else (-known[1], -known[0])
        return -self.solve(current ^ mask, mask | move, known=child)

    def solve_each(self, positions: Sequence[tuple[int, int]], threads: int | None = None
                   ) -> list[tuple[int, int]]:
        """Each position's exact score and the nodes its search took, each position solved
        from a cleared table, as Pons's benchmark does: the book answers what it holds (in
        0 nodes); the cache is neither read nor written. `threads` (default: this
        solver's): positions solved at once by the native search, each thread over a
        table of its own, so the scores and the nodes are the same with any count; the
        pure search solves them one at a time. Stopped as `solve` is (`limit`, `stop`,
        Ctrl-C: the native search looks at the first thread's nodes), it raises
        SearchStopped and answers none. Afterwards `nodes` is the total."""
        threads = self.threads if threads is None else threads
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        if not self.native:
            return self._solve_each_pure(positions)
        booked = [None if self.book is None else self.book.score(c, m) for c, m in positions]
        searched = [p for p, b in zip(positions, booked, strict=True) if b is None]
        self.reset()
        next_check = self.next_check
        scores, nodes = self._kernel.solve_each(
            [c for c, _ in searched], [m for _, m in searched], threads,
            NEVER if next_check >= NEVER else int(next_check), self._checkpoint)
        answers = iter(zip(scores, nodes, strict=True))
        return [(b, 0) if b is not None else next(answers) for b in booked]

    def _solve_each_pure(self, positions: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """`solve_each` in Python: the reference of the native one."""
        cache, self.cache = self.cache, None
        self._solved = 0
        answers = []
        total = 0
        try:
            for current, mask in positions:
                self.reset()
                answers.append((self.solve(current, mask), self.nodes))
                total += self.nodes
                self._solved = len(answers)
        finally:
            self.cache = cache
        self.nodes = total
        return answers

    @property
    def solved(self) -> int:
        """While `solve_each` runs (read it from `watch`'s report): the positions answered
        so far by the native search."""
        return int(self._kernel.solved) if self.native else self._solved

    _solved = 0  # the pure solve_each's count

    def analyse(self, current: int, mask: int, pv: bool = True,
                all_scores: bool = False) -> Solution:
        """Score, the best moves, a principal variation and, with `all_scores`, the
        exact score of every move (costly early in the game: a bad move's exact score
        can take far longer to find than the proof that it is worse)."""
        geo = self.geo
        nodes0 = self.nodes
        score = self.solve(current, mask)
        best = self.best_moves(current, mask, score)
        scores: dict[int, int] = {}
        if all_scores:
            scores = {c: self.move_score(current, mask, c)
                      for c in geo.centre_order if geo.playable(mask, c)}
        line = self.principal_variation(current, mask, score) if pv else []
        return Solution(score, best, scores, line, self.nodes - nodes0)

    def achieves(self, current: int, mask: int, column: int, score: int) -> bool:
        """Does playing `column` keep the position's score `score`? One null-window
        search: far cheaper than the move's exact score."""
        geo = self.geo
        moves = mask.bit_count()
        move = geo.move_bit(mask, column)
        if geo.has_four(current | move):
            return (geo.cells + 1 - moves) // 2 == score
        if moves + 1 >= geo.cells:
            return score == 0
        child = (current ^ mask, mask | move)
        if self.can_win_now(*child):
            return -((geo.cells - moves) // 2) == score
        known = None if self.book is None else self.book.score(*child)
        if known is not None:
            return -known == score
        cached = None if self.cache is None else self.cache.bounds(geo, *child)
        if cached is not None and (cached[1] <= -score or cached[0] > -score):
            return cached[1] <= -score
        # The child's score is at most -score exactly when the search with the window
        # (-score, -score + 1) fails low.
        r = self._negamax(child[0], child[1], moves + 1, -score, -score + 1, -1)
        if self.cache is not None:  # a bound either way (fail-soft: r itself)
            lowest, highest = -((geo.cells - moves - 1) // 2), (geo.cells - moves) // 2
            self.cache.store(geo, *child, *((lowest, r) if r <= -score else (r, highest)))
        return r <= -score

    def best_moves(self, current: int, mask: int, score: int | None = None) -> list[int]:
        """Every column keeping the position's score, centre first."""
        geo = self.geo
        if score is None:
            score = self.solve(current, mask)
        return [c for c in geo.centre_order
                if geo.playable(mask, c) and self.achieves(current, mask, c, score)]

    def best_move(self, current: int, mask: int, score: int | None = None) -> int:
        """The most central best column; `score`, if known, saves a search."""
        geo = self.geo
        if score is None:
            score = self.solve(current, mask)
        playable = [c for c in geo.centre_order if geo.playable(mask, c)]
        for c in playable:
            if self.achieves(current, mask, c, score):
                return c
        raise AssertionError("no move keeps the solved score")  # cannot happen

    def principal_variation(self, current: int, mask: int, score: int) -> list[int]:
        """Best moves for both sides to the end of the game (most central when tied)."""
        geo = self.geo
        line: list[int] = []
        while mask.bit_count() < geo.cells:
            c = self.best_move(current, mask, score)
            line.append(c)
            move = geo.move_bit(mask, c)
            if geo.has_four(current | move):
                break
            current, mask = current ^ mask, mask | move
            score = -score
        return line

