"""Checkers (draughts) on even boards 4x4 to 12x12: English and maximum-capture rules.

Registers `checkers` for `zerosum play checkers --size 8 --capture english`, with the
game's own engine (`--opponent engine`, the kernel in engine.py) beside the generic
searches.
"""

from typing import Any

from zerosum.convert import int_arg
from zerosum.games.checkers.rules import CAPTURE_RULES, DRAW_RULES, Checkers, State
from zerosum.games.registry import GameSpec, Option, PositionFormat, register
from zerosum.kernel import Enhancements, Kernel
from zerosum.stop import Stop

__all__ = ["Checkers", "State"]


def _kernel(game: Any, state: Any, stop: Stop, enhancements: Enhancements) -> Kernel:
    from zerosum.games.checkers.engine import checkers_kernel  # loaded only when it plays

    return checkers_kernel(game, state, stop, enhancements)


def _view(game: Any, state: Any, last: Any = None) -> dict[str, Any]:
    from zerosum.games.checkers.view import view

    return view(game, state, last)


MAX_MOVES = 100_000  # the course draw rule's move limit; 0 = no limit


register(
    GameSpec(
        name="checkers",
        title="Checkers",
        make=Checkers,
        options=(
            Option("size", int_arg(4, 12), 8,
                   "board size (4 = the small course game, 8 = standard)",
                   choices=(4, 6, 8, 10, 12)),
            Option("capture", str, "english", "capture rule: english (any sequence) or max "
                   "(the most pieces, the course rule)", choices=CAPTURE_RULES),
            Option("draw", str, "course", "draw rule: course (move limit) or tournament "
                   "(threefold repetition, 40-move rule)", choices=DRAW_RULES),
            Option("moves", int_arg(0, MAX_MOVES), 50, "course rule: draw after this many "
                   "moves by each side (0 = no limit)"),
        ),
        kernel=_kernel,
        default_depth=6,
        summary="draughts on 4x4 to 12x12 boards, English or maximum-capture rules",
        perft=Checkers.perft,
        position=PositionFormat("PDN FEN", Checkers.from_fen, Checkers.to_fen),
        view=_view,
        record="pdn",
    )
)
