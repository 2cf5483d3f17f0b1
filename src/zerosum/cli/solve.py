"""`zerosum solve GAME`: the exact value of a position, its best moves and a principal
variation.

A game whose GameSpec declares a `solver` (Connect Four: see games/registry.py) brings
its own: it adds its arguments to the game's subparser and returns the report as
(label, text) rows, yielded as each is proven (the command prints each at once). Every
other game is solved by the generic solver (search/solve.py), which solves every
position reachable from the one asked about, within a budget of positions, and says so
when the game is too big for it; so is a person's own game, `zerosum solve --game-file
mygame.py [--moves "..."]`.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from typing import Any

from zerosum.cli.table import StderrProgress
from zerosum.convert import int_arg
from zerosum.game import AnyGame, InputError, format_value, replay, side_to_move
from zerosum.gamefile import GAME_FILE_HELP, NO_CHECK_HELP, blame, load_checked
from zerosum.games.registry import GameSpec, add_options, all_games, get_game
from zerosum.search.solve import DEFAULT_BUDGET, Solved, TooBig, Unsolvable, solve

LABEL_WIDTH = 20  # the longest label, 'principal variation', and its colon
MAX_BUDGET = 100_000_000
PV_SHOWN = 30  # moves of a principal variation shown (a drawn checkers line is 100 plies)


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a position exactly (value, best moves, line)",
                       description="Solve a position exactly: with a game's own perfect "
                       "solver where it has one (Connect Four), else by searching every "
                       "position reachable from it (small games, or late positions).")
    # A person's own game: these stand before any GAME name (the file is read when run).
    p.add_argument("--game-file", metavar="FILE", help=GAME_FILE_HELP)
    p.add_argument("--moves", dest="file_moves", metavar="MOVES",
                   help="with --game-file: the moves from the start, separated by spaces, "
                   "as you would type them in play")
    p.add_argument("--all-moves", action="store_true", dest="file_all_moves",
                   help="with --game-file: also every legal move's value")
    p.add_argument("--no-pv", action="store_true", dest="file_no_pv",
                   help="with --game-file: skip the principal variation")
    p.add_argument("--budget", type=int_arg(1, MAX_BUDGET), dest="file_budget",
                   metavar="POSITIONS", help="with --game-file: the most positions to solve "
                   f"(default: {DEFAULT_BUDGET}, about 300 bytes of memory each)")
    p.add_argument("--no-check", action="store_true",
                   help=NO_CHECK_HELP)
    games = p.add_subparsers(title="games", metavar="GAME", dest="solve_game")
    for spec in all_games():
        command = None if spec.solver is None else spec.solver.command
        if command is not None:
            g = games.add_parser(spec.name, help=command.help,
                                 description=command.description)
            command.add_arguments(g)
        else:
            add_generic(games, spec)
    p.set_defaults(func=run)


def add_generic(games: Any, spec: GameSpec) -> None:
    g = games.add_parser(
        spec.name, help=f"{spec.title}: every position reachable, exhaustively",
        description=f"Solve a {spec.title} position by searching every position reachable "
        "from it: its value under perfect play and the plies to the end (the winner "
        "hurries, the loser delays). Games too big for the budget are refused, saying so.")
    g.add_argument("line", nargs="*", metavar="MOVE",
                   help="moves from the start, as you would type them in play")
    g.add_argument("--all-moves", action="store_true", help="also every legal move's value")
    g.add_argument("--no-pv", action="store_true", help="skip the principal variation")
    g.add_argument("--budget", type=int_arg(1, MAX_BUDGET), default=DEFAULT_BUDGET,
                   metavar="POSITIONS",
                   help="the most positions to solve (default: %(default)s, about 300 "
                   "bytes of memory each)")
    add_options(g, spec.options)


FILE_FLAGS = ("file_moves", "file_all_moves", "file_no_pv", "file_budget", "no_check")


def run(args: argparse.Namespace) -> int:
    cpu0 = time.process_time()
    # Long solves report on stderr as `zerosum table` does (after 2 s); stdout keeps
    # only the answer.
    args.progress = StderrProgress()
    if args.game_file is not None:
        if args.solve_game is not None:
            raise InputError(f"give a game name or --game-file, not both ({args.solve_game})")
        spec, game = load_checked(args.game_file, check=not args.no_check)
        args.line = (args.file_moves or "").split()
        args.all_moves, args.no_pv = args.file_all_moves, args.file_no_pv
        args.budget = args.file_budget or DEFAULT_BUDGET
        with blame(args.game_file):
            show(generic_rows(spec, args, game))
    else:
        if any(getattr(args, flag) for flag in FILE_FLAGS):
            raise InputError("these flags go with --game-file; for a named game they follow "
                             "its name, e.g. zerosum solve tictactoe --all-moves")
        if args.solve_game is None:
            raise InputError("name a game (e.g. zerosum solve tictactoe) or give --game-file")
        spec = get_game(args.solve_game)
        command = None if spec.solver is None else spec.solver.command
        show(command.rows(args) if command is not None else generic_rows(spec, args))
    print(f"{'CPU time:':<{LABEL_WIDTH}} {time.process_time() - cpu0:.3f} s")
    return 0


def show(rows: Iterator[tuple[str, str]]) -> None:
    for label, text in rows:
        print(f"{label + ':':<{LABEL_WIDTH}} {text}", flush=True)


def generic_rows(spec: GameSpec, args: argparse.Namespace,
                 game: AnyGame | None = None) -> Iterator[tuple[str, str]]:
    if game is None:
        game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    state = replay(game, game.initial_state(), args.line)
    if game.is_terminal(state):
        raise InputError(f"the game is over in that position: {game.outcome(state)}")
    try:
        solution = solve(game, state, args.budget, on_progress=every_second(args.progress))
    except TooBig as e:
        raise InputError(f"{spec.name}: {e}; try a position nearer the end, or a larger "
                         "--budget") from None
    except Unsolvable as e:
        raise InputError(f"{spec.name}: {e}") from None
    # Both from the side to move: the position's value and each of its moves' values
    # for the player who chooses among them (docs/search.md, "Values as shown").
    side = side_to_move(game, state)
    yield "value", solved_text(game, solution[state], side)
    yield "best move", game.format_move(solution.best_move(state))
    if args.all_moves:
        for action, solved in solution.move_values(state):
            yield f"move {game.format_move(action)}", solved_text(game, solved, side)
    if not args.no_pv:
        line = solution.principal_variation(state)
        more = f" ... ({len(line)} plies)" if len(line) > PV_SHOWN else ""
        yield "principal variation", " ".join(map(game.format_move, line[:PV_SHOWN])) + more
    yield "positions", f"{solution.positions:,} solved in {solution.seconds:.2f} s"


def solved_text(game: AnyGame, solved: Solved, side: int) -> str:
    """A solved value in words, its number from player `side`'s point of view. The plies
    are a minimax distance (so worth saying) only for a win or a loss: a draw's or a
    score's line is one of many."""
    distance = game.values.kind == "outcome" and solved.value != 0
    return format_value(game, solved.value, decided=True,
                        plies=solved.plies if distance else None, side=side)


def every_second(progress: Callable[[str], None]) -> Callable[[int], None]:
    """The solver's count of positions, to `progress` at most once a second."""
    last = [time.perf_counter()]

    def show(positions: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 1.0:
            last[0] = now
            progress(f"{positions:,} positions solved")

    return show
