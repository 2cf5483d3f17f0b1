"""Connect Four: 7 columns, 6 rows (or another size), four in a row wins.

`game.Connect4` is the Game; `notation` reads and writes boards; `solver` is the perfect
solver; `engine` the tournament engine (offered to players by `tournament_engine` here);
`course` the classic assignment's variant (its utility and evaluation, for exact node
counts).
"""

import time
from typing import Any

from zerosum.convert import int_arg
from zerosum.games.connect4.game import Connect4, Position
from zerosum.games.registry import GameSpec, Option, register
from zerosum.result import SearchResult, SearchStats
from zerosum.stop import Stop


def tournament_engine(game: Any, state: Any, seconds: float,
                      stop: Stop | None = None) -> SearchResult:
    """The tournament engine (engine.Engine) as GameSpec.engines wants it; the value is
    from red's (Max's) side. The engine module is loaded when it first plays."""
    from zerosum.games.connect4.engine import SCALE, engine_for

    assert isinstance(game, Connect4) and isinstance(state, Position)
    t0, c0 = time.perf_counter(), time.process_time()
    engine = engine_for(game.geo)
    column, value, exact, depth = engine.choose(state.current, state.mask, seconds, stop)
    red_value = value if state.red_to_move else -value
    stats = SearchStats(nodes=engine.nodes, max_depth=depth,
                        cpu_time=time.process_time() - c0, wall_time=time.perf_counter() - t0)
    value_out = red_value // SCALE if exact else red_value / SCALE
    return SearchResult(float(value_out), column, [column], stats,
                        depth=None if depth == 0 else depth, complete=True, exact=exact,
                        algorithm="connect4 engine")


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
