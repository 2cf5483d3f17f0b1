"""`zerosum perft GAME --depth N`: count the move paths of each length, the standard test
of a move generator (and a speed benchmark of it).

Any registered game works through the Game protocol (actions and result). A game may add
its own faster counter and a position format by defining two methods:

    perft(state, depth) -> int          leaf count of the move tree, depth plies deep
    parse_position(text) -> state       a position as the game writes it (e.g. PDN FEN)

and `format_position(state) -> str` to echo the position. Checkers does all three.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from zerosum.convert import positive_depth_arg
from zerosum.game import AnyGame, InputError
from zerosum.games.registry import all_games, get_game


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move paths of each length (tests a move generator)",
        description="Count the leaves of the move tree from a position, depth 1 to N. "
        "Prints the count, CPU seconds and leaves per second of each depth.",
    )
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--depth", type=positive_depth_arg, required=True,
                       help="deepest depth to count")
        g.add_argument("--fen", metavar="POSITION", help="start from this position "
                       "(the game's own format; checkers: PDN FEN like B:W21-32:B1-12)")
        g.add_argument("--divide", action="store_true",
                       help="also print the count below each first move at the last depth")
        for o in spec.options:
            g.add_argument(f"--{o.name.replace('_', '-')}", dest=o.name, type=o.type,
                           default=o.default, choices=o.choices,
                           help=f"{o.help} (default: %(default)s)")
    p.set_defaults(func=run)


def perft(game: AnyGame, state: Any, depth: int) -> int:
    """The leaf count `depth` plies below `state`: the game's own counter if it has one."""
    own = getattr(game, "perft", None)
    if own is not None:
        count: int = own(state, depth)
        return count
    return generic_perft(game, state, depth)


def generic_perft(game: AnyGame, state: Any, depth: int) -> int:
    if depth == 0:
        return 1
    actions = game.actions(state)
    if depth == 1:
        return len(actions)
    return sum(generic_perft(game, game.result(state, a), depth - 1) for a in actions)


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        raise InputError("name a game, e.g. zerosum perft checkers --depth 6")
    spec = get_game(args.game)
    game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    if args.fen is not None:
        parse = getattr(game, "parse_position", None)
        if parse is None:
            raise InputError(f"{spec.name} has no position format for --fen")
        state = parse(args.fen)
    else:
        state = game.initial_state()
    fmt = getattr(game, "format_position", None)
    where = fmt(state) if fmt is not None else "the start"
    out = sys.stdout
    out.write(f"perft {spec.name} from {where}\n")
    out.write(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>11}\n")
    for depth in range(1, args.depth + 1):
        t0 = time.process_time()
        count = perft(game, state, depth)
        cpu = time.process_time() - t0
        rate = f"{count / cpu:,.0f}" if cpu > 0 else "-"
        out.write(f"{depth:>5} {count:>14,} {cpu:>9.3f} {rate:>11}\n")
        out.flush()
    if args.divide:
        out.write(f"divide at depth {args.depth}:\n")
        for action in game.actions(state):
            count = perft(game, game.result(state, action), args.depth - 1)
            out.write(f"  {game.format_move(action)} {count}\n")
    return 0
