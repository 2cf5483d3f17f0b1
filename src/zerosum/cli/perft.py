"""`zerosum perft GAME --depth N`: count the move paths of each length, the standard test
of a move generator (and a speed benchmark of it).

Any registered game works through the Game protocol (actions and result); so does a
person's own game, `zerosum perft --game-file mygame.py --depth N`. A game may declare in
its GameSpec a faster counter of its own (`perft`) and a position format (`position`,
for `--fen` and to echo the start). Checkers declares both.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from zerosum.convert import positive_depth_arg
from zerosum.game import AnyGame, InputError, count_paths
from zerosum.gamefile import GAME_FILE_HELP, NO_CHECK_HELP, blame, load_checked
from zerosum.games.registry import GameSpec, add_options, all_games, get_game


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move paths of each length (tests a move generator)",
        description="Count the leaves of the move tree from a position, depth 1 to N. "
        "Prints the count, CPU seconds and leaves per second of each depth.",
    )
    # A person's own game: these stand before any GAME name (the file is read when run).
    p.add_argument("--game-file", metavar="FILE", help=GAME_FILE_HELP)
    p.add_argument("--depth", type=positive_depth_arg, dest="file_depth", metavar="N",
                   help="with --game-file: deepest depth to count")
    p.add_argument("--divide", action="store_true", dest="file_divide",
                   help="with --game-file: also print the count below each first move")
    p.add_argument("--no-check", action="store_true",
                   help=NO_CHECK_HELP)
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--depth", type=positive_depth_arg, required=True,
                       help="deepest depth to count")
        g.add_argument("--fen", metavar="POSITION", help="start from this position "
                       "(the game's own format; checkers: PDN FEN like B:W21-32:B1-12)")
        g.add_argument("--divide", action="store_true",
                       help="also print the count below each first move at the last depth")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def perft(spec: GameSpec, game: AnyGame, state: Any, depth: int) -> int:
    """The leaf count `depth` plies below `state`: the game's own counter if it has one."""
    if spec.perft is not None:
        return spec.perft(game, state, depth)
    return count_paths(game, state, depth)


def run(args: argparse.Namespace) -> int:
    if args.game_file is not None:
        if args.game is not None:
            raise InputError(f"give a game name or --game-file, not both ({args.game})")
        if args.file_depth is None:
            raise InputError("--game-file needs --depth N, e.g. zerosum perft "
                             "--game-file mygame.py --depth 4")
        spec, game = load_checked(args.game_file, check=not args.no_check)
        with blame(args.game_file):
            return count(spec, game, game.initial_state(), args.file_depth, args.file_divide)
    if args.file_depth is not None or args.file_divide or args.no_check:
        raise InputError("name a game, then its options, e.g. zerosum perft checkers --depth 6")
    if args.game is None:
        raise InputError("name a game, e.g. zerosum perft checkers --depth 6")
    spec = get_game(args.game)
    game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    if args.fen is not None:
        if spec.position is None:
            raise InputError(f"{spec.name} has no position format for --fen")
        state = spec.position.parse(game, args.fen)
    else:
        state = game.initial_state()
    return count(spec, game, state, args.depth, args.divide)


def count(spec: GameSpec, game: AnyGame, state: Any, depth: int, divide: bool) -> int:
    """Print the counts of depths 1 to `depth` (and the divide, if asked)."""
    where = spec.position.format(game, state) if spec.position is not None else "the start"
    out = sys.stdout
    out.write(f"perft {spec.name} from {where}\n")
    out.write(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>11}\n")
    for d in range(1, depth + 1):
        t0 = time.process_time()
        leaves = perft(spec, game, state, d)
        cpu = time.process_time() - t0
        rate = f"{leaves / cpu:,.0f}" if cpu > 0 else "-"
        out.write(f"{d:>5} {leaves:>14,} {cpu:>9.3f} {rate:>11}\n")
        out.flush()
    if divide:
        out.write(f"divide at depth {depth}:\n")
        for action in game.actions(state):
            leaves = perft(spec, game, game.result(state, action), depth - 1)
            out.write(f"  {game.format_move(action)} {leaves}\n")
    return 0
