"""Connect Four bitboards: a board is two Python ints.

Layout (the one of John Tromp's and Pascal Pons's solvers): column c uses bits
c*(H+1) .. c*(H+1)+H-1 from the bottom up, plus one spare bit on top that always stays 0.
The spare bit is what makes line detection a handful of shifts: a shift never carries a
stone from the top of one column into the bottom of the next.

A position is `(current, mask)`: the stones of the player to move, and all stones. The
other player's stones are `current ^ mask`. Playing a move `bit` (a single bit, the lowest
empty cell of its column) gives `(current ^ mask, mask | bit)`: the roles swap.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache


class Geometry:
    """The masks of a W x H board, computed once."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        if not (4 <= width <= 12 and 4 <= height <= 12):
            raise ValueError(f"board size must be 4-12 by 4-12, not {width}x{height}")
        self.width = width
        self.height = height
        self.cells = width * height
        h1 = height + 1
        self.h1 = h1
        self.bottom = sum(1 << (c * h1) for c in range(width))
        self.board = self.bottom * ((1 << height) - 1)
        self.columns = tuple(((1 << height) - 1) << (c * h1) for c in range(width))
        self.bottoms = tuple(1 << (c * h1) for c in range(width))
        self.tops = tuple(1 << (height - 1 + c * h1) for c in range(width))
        # Centre first, then alternately left and right: the usual best-first guess.
        mid = (width - 1) / 2
        self.centre_order = tuple(sorted(range(width), key=lambda c: (abs(c - mid), c)))
        # (shift, name) of the four line directions.
        self.directions = ((1, "vertical"), (h1, "horizontal"), (height, "diagonal \\"),
                           (height + 2, "diagonal /"))

    def bit(self, col: int, row: int) -> int:
        return 1 << (col * self.h1 + row)

    def column_of(self, move: int) -> int:
        return (move.bit_length() - 1) // self.h1

    def playable(self, mask: int, col: int) -> bool:
        return not mask & self.tops[col]

    def move_bit(self, mask: int, col: int) -> int:
        """The cell a stone dropped in `col` lands on."""
        return (mask + self.bottoms[col]) & self.columns[col]

    def possible(self, mask: int) -> int:
        """The lowest empty cell of every column that is not full."""
        return (mask + self.bottom) & self.board

    def has_four(self, stones: int) -> bool:
        for shift in (1, self.h1, self.height, self.height + 2):
            m = stones & (stones >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells (playable now or not) that would complete a four of `stones`."""
        return winning_cells(stones, mask, self.h1, self.board)

    def height_of(self, mask: int, col: int) -> int:
        return (mask & self.columns[col]).bit_count()


def winning_cells(p: int, mask: int, h1: int, board: int) -> int:
    """Empty cells that complete a four of `p`: the threats. Vertical: three stones
    below. Other directions: for each of the four cells of a line, the other three."""
    r = (p << 1) & (p << 2) & (p << 3)
    for s in (h1, h1 - 1, h1 + 1):
        pair = (p << s) & (p << 2 * s)
        r |= pair & (p << 3 * s)  # xxx.
        r |= pair & (p >> s)  # xx.x
        pair = (p >> s) & (p >> 2 * s)
        r |= pair & (p >> 3 * s)  # .xxx
        r |= pair & (p << s)  # x.xx
    return r & (board ^ mask)


def threat_finder(geo: Geometry, memo: dict[int, int] | None = None,
                  capacity: int = 1 << 19) -> Callable[[int, int], int]:
    """`winning_cells` for one board size, unrolled into a closure over its constants:
    the solver and the engine call it for every candidate move of every node, and in
    CPython closure variables are much faster to read than attributes or loop steps.

    The cells that would complete a four of `p` depend on `p` alone (the mask only
    removes the occupied ones), and a search meets the same stone sets again and again
    (65-75 % of the calls in the solver's benchmark sets), so they are remembered in
    `memo`, which is cleared when it holds `capacity` entries. A look-up costs a few
    percent of the ~40 big-integer operations it saves."""
    h1, board = geo.h1, geo.board
    h0, h2 = h1 - 1, h1 + 1  # the shifts of the two diagonals
    h1x2, h1x3, h0x2, h0x3, h2x2, h2x3 = 2 * h1, 3 * h1, 2 * h0, 3 * h0, 2 * h2, 3 * h2
    if memo is None:
        memo = {}
    known = memo.get

    def threats(p: int, mask: int) -> int:
        r = known(p)
        if r is None:
            r = (p << 1) & (p << 2) & (p << 3)
            # Per direction, as in winning_cells: xxx. and xx.x, then .xxx and x.xx
            # (`up` and `down` are the stones one step away, each used twice).
            up, down = p << h1, p >> h1
            r |= up & (p << h1x2) & ((p << h1x3) | down)
            r |= down & (p >> h1x2) & ((p >> h1x3) | up)
            up, down = p << h0, p >> h0
            r |= up & (p << h0x2) & ((p << h0x3) | down)
            r |= down & (p >> h0x2) & ((p >> h0x3) | up)
            up, down = p << h2, p >> h2
            r |= up & (p << h2x2) & ((p << h2x3) | down)
            r |= down & (p >> h2x2) & ((p >> h2x3) | up)
            r &= board
            if len(memo) >= capacity:
                memo.clear()
            memo[p] = r
        return r & ~mask

    return threats


@lru_cache(maxsize=8)
def geometry(width: int = 7, height: int = 6) -> Geometry:
    return Geometry(width, height)
