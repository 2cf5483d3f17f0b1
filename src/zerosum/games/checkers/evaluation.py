"""The checkers heuristic, in points from black's side (a man is worth 100).

Terms: material (kings worth more), advancement of men, back-row guard (men still on
their own first row keep the other side from crowning), centre control, mobility
(steps available), and, when one side is ahead, a bonus for trading down (a lead counts
for more with fewer pieces left) and for bringing its kings near the enemy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from zerosum.games.bits import bits
from zerosum.games.checkers.board import Board, board, count_steps
from zerosum.kernel import evaluation_weights

MAN, KING = 100, 140
ADVANCE, BACK_ROW, CENTRE, KING_CENTRE, MOBILITY, TRADE, CHASE = 3, 10, 4, 6, 2, 3, 2
# The weights in one tuple, as the compiled twin is given them (native/evaluation.c).
WEIGHTS = (MAN, KING, ADVANCE, BACK_ROW, CENTRE, KING_CENTRE, MOBILITY, TRADE, CHASE)
# What each weight multiplies (`terms`), in the same order.
TERMS = ("man", "king", "advance", "back_row", "centre", "king_centre", "mobility", "trade",
         "chase")


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


def terms(b: Board, black: int, white: int, kings: int,
          weights: Sequence[float] = WEIGHTS) -> tuple[int, ...]:
    """The counts each of WEIGHTS multiplies (named TERMS), from black's side: `score`
    is their weighted sum. Linear in the weights but for one thing: whether a side is
    ahead (which turns the trading and chasing terms) is judged by the material under
    `weights`."""
    m = masks(b.n)
    bm, wm = black & ~kings, white & ~kings
    bk, wk = black & kings, white & kings
    nbm, nwm, nbk, nwk = bm.bit_count(), wm.bit_count(), bk.bit_count(), wk.bit_count()
    advance = back_row = 0
    if bm or wm:
        last = b.n - 1
        advance = sum(r * (bm & row).bit_count() - (last - r) * (wm & row).bit_count()
                      for r, row in enumerate(m.rows))
        back_row = (bm & m.black_back).bit_count() - (wm & m.white_back).bit_count()
    empty = b.valid & ~(black | white)
    material = weights[0] * (nbm - nwm) + weights[1] * (nbk - nwk)
    trade = chase = 0
    if material:
        # Ahead: fewer pieces left is better (trade down); behind: keep pieces on.
        left = 2 * m.start_pieces - (nbm + nwm + nbk + nwk)
        trade = left if material > 0 else -left
        # Ahead with kings: bring them to the enemy (a lead is won by attacking).
        if material > 0 and bk:
            chase = -king_distance(b, bk, white)
        elif material < 0 and wk:
            chase = king_distance(b, wk, black)
    return (nbm - nwm, nbk - nwk, advance, back_row,
            (bm & m.centre).bit_count() - (wm & m.centre).bit_count(),
            (bk & m.centre).bit_count() - (wk & m.centre).bit_count(),
            count_steps(b, black, kings, empty, True) - count_steps(b, white, kings, empty, False),
            trade, chase)


def score(b: Board, black: int, white: int, kings: int,
          weights: Sequence[int] = WEIGHTS) -> int:
    """Points from black's side under `weights` (WEIGHTS' order)."""
    return sum(w * t for w, t in zip(weights, terms(b, black, white, kings, weights),
                                     strict=True))


def weights_of(game: Any) -> tuple[int, ...]:
    """The weights the engine evaluates `game` by: those it carries (learned ones,
    kernel.Weighted: zerosum.learn.samuel), else WEIGHTS."""
    return evaluation_weights(game, WEIGHTS, "Checkers")


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
