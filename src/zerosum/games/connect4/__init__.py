"""Connect Four: 7 columns, 6 rows (or another size), four in a row wins.

`game.Connect4` is the Game; `notation` reads and writes boards; `solver` is the perfect
solver; `engine` the tournament engine; `course` the classic assignment's variant
(its utility and evaluation, for exact node counts).
"""

from typing import Any

from zerosum.convert import int_arg
from zerosum.games.connect4.game import Connect4, Position
from zerosum.games.registry import GameSpec, Option, register


def tournament_engine(game: Any, state: Any, seconds: float, stop: Any = None) -> Any:
    """The tournament engine (engine.tournament_engine), imported when first used."""
    from zerosum.games.connect4.engine import tournament_engine as engine

    return engine(game, state, seconds, stop)


def _size(low: int, high: int) -> tuple[int, ...]:
    return tuple(range(low, high + 1))


register(
    GameSpec(
        "connect4",
        "Connect Four",
        Connect4,
        options=(
            Option("width", int_arg(4, 12), 7, "number of columns", _size(4, 12)),
            Option("height", int_arg(4, 12), 6, "number of rows", _size(4, 12)),
        ),
        engines={"engine": tournament_engine},
        default_depth=6,
        summary="drop stones into 7 columns, four in a row wins; the first player wins",
    )
)

__all__ = ["Connect4", "Position"]
