"""The checkers heuristic, in points from black's side (a man is worth 100).

Terms: material (kings worth more), advancement of men, back-row guard (men still on
their own first row keep the other side from crowning), centre control, mobility
(steps available), and, when one side is ahead, a bonus for trading down (a lead counts
for more with fewer pieces left) and for bringing its kings near the enemy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from zerosum.games.bits import bits
from zerosum.games.checkers.board import Board, board, count_steps

MAN, KING = 100, 140
ADVANCE, BACK_ROW, CENTRE, KING_CENTRE, MOBILITY, TRADE, CHASE = 3, 10, 4, 6, 2, 3, 2
# The weights in one tuple, as the compiled twin is given them (native/evaluation.c).
WEIGHTS = (MAN, KING, ADVANCE, BACK_ROW, CENTRE, KING_CENTRE, MOBILITY, TRADE, CHASE)


@dataclass(frozen=True)
class Masks:
    rows: tuple[int, ...]
    black_back: int  # black's own first row (the top)
    white_back: int
    centre: int
    start_pieces: int  # pieces on each side at the start


@cache
def masks(n: int) -> Masks:
    b = board(n)
    rows = tuple(sum(1 << s for s in b.squares if s // b.stride == r) for r in range(n))
    lo, hi = (2, n - 3) if n >= 6 else (1, n - 2)
    centre = sum(1 << s for s in b.squares
                 if lo <= s // b.stride <= hi and lo <= s % b.stride <= hi)
    return Masks(rows, rows[0], rows[n - 1], centre, b.black_start.bit_count())


def score(b: Board, black: int, white: int, kings: int) -> int:
    m = masks(b.n)
    bm, wm = black & ~kings, white & ~kings
    bk, wk = black & kings, white & kings
    nbm, nwm, nbk, nwk = bm.bit_count(), wm.bit_count(), bk.bit_count(), wk.bit_count()
    material = MAN * (nbm - nwm) + KING * (nbk - nwk)
    s = material
    if bm or wm:
        last = b.n - 1
        for r, row in enumerate(m.rows):
            s += ADVANCE * (r * (bm & row).bit_count() - (last - r) * (wm & row).bit_count())
        s += BACK_ROW * ((bm & m.black_back).bit_count() - (wm & m.white_back).bit_count())
    s += CENTRE * ((bm & m.centre).bit_count() - (wm & m.centre).bit_count())
    s += KING_CENTRE * ((bk & m.centre).bit_count() - (wk & m.centre).bit_count())
    empty = b.valid & ~(black | white)
    s += MOBILITY * (count_steps(b, black, kings, empty, True)
                     - count_steps(b, white, kings, empty, False))
    if material:
        # Ahead: fewer pieces left is better (trade down); behind: keep pieces on.
        left = 2 * m.start_pieces - (nbm + nwm + nbk + nwk)
        s += TRADE * left if material > 0 else -TRADE * left
        # Ahead with kings: bring them to the enemy (a lead is won by attacking).
        if material > 0 and bk:
            s -= CHASE * king_distance(b, bk, white)
        elif material < 0 and wk:
            s += CHASE * king_distance(b, wk, black)
    return s


def king_distance(b: Board, kings: int, targets: int) -> int:
    """Sum over `kings` of the distance (in king steps) to the nearest of `targets`."""
    if not targets:
        return 0
    stride = b.stride
    spots = [divmod(t, stride) for t in bits(targets)]
    total = 0
    for k in bits(kings):
        r, c = divmod(k, stride)
        total += min(max(abs(r - tr), abs(c - tc)) for tr, tc in spots)
    return total


def to_utility_scale(points: float) -> float:
    """Points to (-1, 1), the utility's scale (a win is 1): monotone, so order is kept."""
    return points / (abs(points) + 1000.0)
