"""Connect Four: 7 columns, 6 rows (or another size), four in a row wins.

`game.Connect4` is the Game; `notation` reads and writes boards; `solver` is the perfect
solver (declared here as the game's one Solver capability: its player `solver_player`,
its `zerosum solve` command, a tournament's verdict and the page's proven moves);
`engine` the tournament engine's search (its kernel, declared here with a KernelSpec,
which the "engine" player runs); `course` the classic assignment's variant (its
utility and evaluation, for exact node counts).
"""

import argparse
from collections.abc import Iterator
from typing import Any

from zerosum.convert import int_arg
from zerosum.game import InputError
from zerosum.games.connect4.game import Connect4, Position
from zerosum.games.registry import (
    Cells,
    GameSpec,
    InARow,
    MoveValue,
    Option,
    PositionFormat,
    SolveCommand,
    Solver,
    View,
    register,
)
from zerosum.kernel import KernelSpec
from zerosum.result import InfoSink, Limit, SearchResult
from zerosum.stop import SearchStopped, Stop


def solver_player(game: Any, state: Any, limit: Limit, on_info: InfoSink | None = None,
                  stop: Stop | None = None) -> SearchResult:
    """The perfect solver as a player (analysis.solver_analyser), loaded when it first plays."""
    from zerosum.games.connect4.analysis import solver_analyser

    assert isinstance(game, Connect4) and isinstance(state, Position)
    return solver_analyser(game, state, limit, on_info, stop)


ADJUDICATE_EMPTY = 12  # cells: with this few left, the solver settles a game in moments
ADJUDICATE_NODES = 2_000_000  # a bound that a position so near the end never reaches


def adjudicate(game: Any, state: Any) -> float | None:
    """The exact result of a position with few empty cells (Max's utility), by a fresh
    solver (the same nodes every time: a rerun adjudicates alike); None earlier on."""
    from zerosum.games.connect4.solver import Solver as PerfectSolver

    assert isinstance(game, Connect4) and isinstance(state, Position)
    if game.geo.cells - state.mask.bit_count() > ADJUDICATE_EMPTY:
        return None
    solver = PerfectSolver(game.geo.width, game.geo.height, capacity=1 << 16)
    solver.limit(nodes=ADJUDICATE_NODES)
    try:
        score = solver.solve(state.current, state.mask)
    except SearchStopped:
        return None
    sign = 1 if state.red_to_move else -1
    return float((score > 0) - (score < 0)) * sign


def _solver_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", metavar="POSITION", nargs="?",
                   help="the columns played from the empty board, 1 = leftmost (e.g. 4455 or "
                        "'4 4 5 5'; '-' for the empty board), or a course string of rows "
                        "bottom first (e.g. '.ryyrry,.rryry.,..y.r..,..y....,.......,.......')")
    p.add_argument("--file", metavar="FILE",
                   help="instead of POSITION, each position of FILE ('-': standard input), one "
                   "a line, optionally followed by its score to check (Pascal Pons's test "
                   "sets' format): its score, each solved from a cleared table, N at a "
                   "time (--threads)")
    p.add_argument("--weak", action="store_true",
                   help="only win, draw or loss (faster), no best moves")
    p.add_argument("--no-pv", action="store_true", help="skip the principal variation")
    p.add_argument("--all-moves", action="store_true",
                   help="also the exact score of every move (can be much slower)")
    p.add_argument("--threads", type=int_arg(1, 256), default=None, metavar="N",
                   help="search threads sharing the table (native solver; default: the "
                   "cores; the pure solver uses N worker processes for --all-moves); with "
                   "--file, N positions are solved at once")
    p.add_argument("--cache", metavar="FILE", default=None,
                   help="the file remembering solved positions (default: $ZEROSUM_CACHE, "
                   "else zerosum/connect4.sqlite in $XDG_CACHE_HOME or ~/.cache; 'off': "
                   "none)")
    p.add_argument("--width", type=int_arg(4, 12), default=7, help="columns (default: %(default)s)")
    p.add_argument("--height", type=int_arg(4, 12), default=6, help="rows (default: %(default)s)")


def _solver_rows(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    # loaded only when it solves
    from zerosum.games.connect4.analysis import solve_file_rows, solve_rows

    if (args.position is None) == (args.file is None):
        raise InputError("give a POSITION or --file FILE (one of them)")
    if args.file is not None:
        extra = [flag for flag, given in (("--weak", args.weak), ("--all-moves", args.all_moves),
                                          ("--cache", args.cache is not None)) if given]
        if extra:
            raise InputError(f"--file solves each position's score, without {extra[0]} "
                             "(that goes with one POSITION)")
        return solve_file_rows(args.file, args.width, args.height,
                               progress=getattr(args, "progress", None), threads=args.threads)
    return solve_rows(args.position, args.width, args.height, weak=args.weak,
                      pv=not args.no_pv, all_scores=args.all_moves,
                      progress=getattr(args, "progress", None), threads=args.threads,
                      cache=args.cache)


SOLVE_COMMAND = SolveCommand(
    "Connect Four (strong solver; native kernel where built)",
    "Solve a Connect Four position exactly. Score as in Pascal Pons's benchmark sets: "
    "0 draw; +n: the player to move wins with the stone that is their (22-n)-th "
    "on 7x6; -n: they lose likewise. Positions with many empty cells can take "
    "long (the empty board's score: 9 CPU-minutes with the native kernel, hours in pure "
    "Python; its best moves and line, longer still); "
    "long solves show their progress on stderr.",
    _solver_arguments,
    _solver_rows,
)


def _parse_position(game: Any, text: str) -> Position:
    """A move sequence (4455, spaces allowed), a course string or a grid."""
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_position

    if "," not in text and "\n" not in text.strip():
        text = "".join(text.split())  # a move sequence typed with spaces: 4 4 5 5
    return position_from_stones(parse_position(text, game.geo))


def _format_position(game: Any, state: Position) -> str:
    from zerosum.games.connect4.notation import format_course

    return format_course(state.stones, game.geo)


def _view(game: Any, state: Any, last: Any = None) -> View:
    from zerosum.games.connect4.view import view

    return view(game, state, last)


def _move_values(game: Any, state: Any, stop: Stop) -> Iterator[MoveValue]:
    from zerosum.games.connect4.moves import move_values  # loaded only when it analyses

    return move_values(game, state, stop)


def _cells(game: Any) -> Cells:
    """The board as cells, row by row from the top (see Cells); its one symmetry the
    mirror image."""
    geo = game.geo
    width, height = geo.width, geo.height
    bits = [geo.bit(c, height - 1 - r) for r in range(height) for c in range(width)]

    def read(state: Position) -> list[int]:
        red, yellow = state.stones
        return [1 if red & b else 2 if yellow & b else 0 for b in bits]

    identity = tuple(range(width * height))
    mirror = tuple(r * width + width - 1 - c for r in range(height) for c in range(width))
    return Cells(height, width, read, (identity, mirror), in_a_row=InARow(4, drop=True))


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
        kernel=KernelSpec("zerosum.games.connect4.engine", "Connect4Kernel"),
        default_depth=6,
        summary="drop stones into 7 columns, four in a row wins; the first player wins",
        solver=Solver(solver_player, SOLVE_COMMAND, verdict=adjudicate,
                      move_values=_move_values),
        position=PositionFormat("move sequence, e.g. 4455", _parse_position,
                                _format_position),
        view=_view,
        record="move-string",
        programs=("course:comp3608",),
        cells=_cells,
    )
)

__all__ = ["Connect4", "Position"]
