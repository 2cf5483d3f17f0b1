"""Checkers' compiled twin (native/*.c): whether it is in use, and perft through it.

The C files mirror board.py's move generator, perft.py, evaluation.py's score and
CheckersKernel.negamax, under the same names; the Python stays the reference, and the
twin gives identical perft counts, node counts, values and principal variations
(tests/test_twins.py). It is used when it was built (setup.py, with a C
compiler) unless `ZEROSUM_NATIVE=0` (zerosum.native). CheckersKernel asks
`zerosum.native.twin("checkers", native)` in its constructor and replaces only its node
function with the compiled one.
"""

from __future__ import annotations

from types import ModuleType

from zerosum import native
from zerosum.games.checkers import perft as pure
from zerosum.games.checkers.board import Board


def twin() -> ModuleType | None:
    """The compiled module, or None (not built, or ZEROSUM_NATIVE=0)."""
    return native.twin("checkers")


def perft(b: Board, black: int, white: int, kings: int, black_to_move: bool, depth: int,
          max_capture: bool = False) -> int:
    """perft.perft, compiled where it can be."""
    module = twin()
    if module is None:
        return pure.perft(b, black, white, kings, black_to_move, depth, max_capture)
    count: int = module.perft(b.n, black, white, kings, black_to_move, depth, max_capture)
    return count
