"""Max-Connect4's bitboards, scoring and evaluation, shared by the game and its engine.

A board is a 49-bit integer per player, seven bits per column, bit `7*c + r` for
column c (0 = left) and row r (0 = bottom); the seventh bit of each column stays empty
as a sentinel, so shifting by 1 (vertical), 7 (horizontal), 6 and 8 (diagonals) never
wraps from one line into the next (Pons's layout). The game (game.py) and the engine
(engine.py) both build on this module; it imports neither of them.
"""

from __future__ import annotations

from typing import NamedTuple

ROWS, COLS = 6, 7
H = ROWS + 1  # bits per column: six cells and the sentinel
CELLS = ROWS * COLS
EXACT_EMPTIES = 16  # with this many empty cells or fewer the engine searches to the end

BOTTOM = sum(1 << (H * c) for c in range(COLS))
BOARD = BOTTOM * ((1 << ROWS) - 1)  # every real cell
COLUMN = tuple(((1 << ROWS) - 1) << (H * c) for c in range(COLS))
BOTTOM_OF = tuple(1 << (H * c) for c in range(COLS))
# Rows 1, 3, 5 counted from the bottom (bit rows 0, 2, 4) and rows 2, 4, 6.
ODD_ROWS = BOTTOM * 0b010101
EVEN_ROWS = BOTTOM * 0b101010
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
DIRECTIONS = (1, H, H - 1, H + 1)  # vertical, horizontal, the two diagonals


def cell(col: int, row: int) -> int:
    """The bit of column `col`, row `row` (both from 0; row 0 at the bottom)."""
    return 1 << (H * col + row)


def _quadruples() -> list[int]:
    quads = []
    for c in range(COLS):
        for r in range(ROWS):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < COLS and 0 <= y < ROWS for x, y in cells):
                    quads.append(sum(cell(x, y) for x, y in cells))
    return quads


QUADRUPLES = tuple(_quadruples())  # all 69 of them
# For each bit index, the quadruples through that cell (3 to 13 of them).
QUADRUPLES_AT = tuple(
    tuple(q for q in QUADRUPLES if q >> i & 1) for i in range(H * COLS)
)


class Position(NamedTuple):
    """A Max-Connect4 state: bitboards of both players, the mover, both scores."""

    p1: int
    p2: int
    p1_to_move: bool
    score1: int
    score2: int

    @property
    def mask(self) -> int:
        return self.p1 | self.p2

    @property
    def pieces(self) -> int:
        return (self.p1 | self.p2).bit_count()

    @property
    def next_player(self) -> int:
        return 1 if self.p1_to_move else 2


# ----------------------------------------------------------------- scoring


def count_points(pieces: int) -> int:
    """Quadruples wholly inside `pieces` (one player's bitboard): the score from scratch."""
    total = 0
    for d in DIRECTIONS:
        total += (pieces & pieces >> d & pieces >> 2 * d & pieces >> 3 * d).bit_count()
    return total


def points_through(pieces: int, index: int) -> int:
    """Quadruples through bit `index` wholly inside `pieces`: what a new piece scores."""
    n = 0
    for q in QUADRUPLES_AT[index]:
        if pieces & q == q:
            n += 1
    return n


def drop_cell(mask: int, col: int) -> int:
    """The bit where a piece dropped in `col` lands, or 0 when the column is full.

    Adding the column's bottom bit to the occupied cells carries up to the lowest
    empty cell; a full column carries into the sentinel, outside COLUMN[col].
    """
    return (mask + BOTTOM_OF[col]) & COLUMN[col]


def playable_cells(mask: int) -> int:
    """The cells where a piece would land now, one per column that is not full."""
    return (mask + BOTTOM) & BOARD


# -------------------------------------------------------------- evaluation

# Weights of the evaluation in hundredths of a point (see eval_explanation.txt in
# assignments/uta-maxconnect4/). An open quadruple is one the other side has no piece in.
OPEN_ONE = 12  # an open quadruple holding one piece
OPEN_TWO = 40  # holding two
THREAT_NOW = 90  # holding three, and the mover can complete it with this move
THREAT_OWN_ROW = 80  # holding three, the empty cell on a row its owner can expect to get
THREAT_OTHER_ROW = 10  # holding three, the empty cell on a row the other side can expect
# The weights in one tuple, as the engine's compiled twin is given them (_engine.c).
POTENTIAL_WEIGHTS = (OPEN_ONE, OPEN_TWO, THREAT_NOW, THREAT_OWN_ROW, THREAT_OTHER_ROW)

# Both players' boards side by side in one integer ("SIMD within a register"): the
# mover's at bits 0-48, the opponent's from bit THEIRS up. The gap between them is
# wider than the longest shift (3 * 8), so no bit strays from one half into the
# other's cells, and one pass over the four directions counts for both at once.
THEIRS = 73
LOW = (1 << THEIRS) - 1
BOARD2 = BOARD | BOARD << THEIRS


def potential(mine: int, theirs: int, mask: int,
              weights: tuple[int, int, int, int, int] = POTENTIAL_WEIGHTS) -> int:
    """The mover's expected gain of further points minus the opponent's, in hundredths,
    under `weights` (OPEN_ONE, OPEN_TWO, THREAT_NOW, THREAT_OWN_ROW, THREAT_OTHER_ROW: the
    hand-written ones, or others a game carries, e.g. fitted by zerosum.learn.texel).

    Open quadruples (free of the other side's pieces) count by the pieces they hold.
    A quadruple holding three is a threat on its empty cell; who can expect which
    empty cells: the player who moves when the number of pieces is even fills rows 1,
    3 and 5 (from the bottom) if the other keeps replying in the same column, and the
    other gets rows 2, 4 and 6: the parity rule of Connect Four endgames (Allis 1988).
    A threat the mover can complete now is worth nearly a point; the opponent's
    threats that are playable now, the mover can block, so they count for nothing.

    Bit-parallel: for each direction d, bit s of `a_k` says whether cell s + k*d of
    the quadruple starting at cell s holds a piece of its owner; adding the four a_k
    bit by bit (a small adder circuit) counts the pieces of every quadruple at once.
    """
    open_one, open_two, threat_now, threat_own_row, threat_other_row = weights
    empty = BOARD & ~mask
    own = mine | theirs << THEIRS
    free = (mine | empty) | (theirs | empty) << THEIRS
    value = 0
    threats = 0
    for d in DIRECTIONS:
        starts = free & free >> d & free >> 2 * d & free >> 3 * d & BOARD2
        a0, a1, a2, a3 = own, own >> d, own >> 2 * d, own >> 3 * d
        low1, high1 = a0 ^ a1, a0 & a1
        low2, high2 = a2 ^ a3, a2 & a3
        ones = starts & (low1 ^ low2)  # bit 0 of the count (a count of 4 has
        twos = starts & (high1 ^ high2 ^ (low1 & low2))  # neither bit 0 nor bit 1)
        holding1, holding2, holding3 = ones & ~twos, twos & ~ones, ones & twos
        value += open_one * ((holding1 & LOW).bit_count() - (holding1 >> THEIRS).bit_count())
        value += open_two * ((holding2 & LOW).bit_count() - (holding2 >> THEIRS).bit_count())
        if holding3:
            threats |= holding3 & ~a0 | (holding3 & ~a1) << d | (holding3 & ~a2) << 2 * d
            threats |= (holding3 & ~a3) << 3 * d
    if threats:
        playable = playable_cells(mask)
        my_rows = ODD_ROWS if mask.bit_count() % 2 == 0 else EVEN_ROWS
        mine_later = threats & empty & ~playable
        their_later = threats >> THEIRS & empty & ~playable
        value += threat_now * (threats & playable).bit_count()
        value += threat_own_row * (mine_later & my_rows).bit_count()
        value += threat_other_row * (mine_later & ~my_rows).bit_count()
        value -= threat_own_row * (their_later & ~my_rows).bit_count()
        value -= threat_other_row * (their_later & my_rows).bit_count()
    return value
