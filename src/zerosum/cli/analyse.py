"""`zerosum analyse GAME`: watch one search work on one position, pass by pass.

Any player of the game (the generic searches, MCTS, the game's engine or solver) runs
through the one contract, `analyse(game, state, limit, on_info, stop)`; each `Info` it
reports is printed as a line as it comes (iterative deepening and the engines: each
finished depth; MCTS: every 1,000 simulations), then the result. Ctrl-C stops the
search: the best result so far is printed.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from zerosum.convert import depth_arg, int_arg, positive_float, seed_arg
from zerosum.game import AnyGame, InputError, format_value, replay, side_to_move
from zerosum.games.registry import GameSpec, add_options, all_games, get_game
from zerosum.kernel import ALL, Enhancements
from zerosum.players.catalogue import (
    DEFAULT_SECONDS,
    Choice,
    default_kind,
    kind_of,
    kinds_for,
    names_for,
    read_off,
)
from zerosum.players.text import value_text
from zerosum.result import Info, SearchResult, depth_text
from zerosum.stop import Stop

MAX_NODES = 10**12


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyse",
        help="watch a search work on a position, depth by depth",
        description="Search one position with any player and print what it reports as it "
        "goes: depth, value (decided or an estimate), nodes, speed and principal variation. "
        "Ctrl-C stops it and prints the best move so far.",
    )
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("line", nargs="*", metavar="MOVE",
                       help="moves from the start, as you would type them in play")
        if spec.position is not None:
            g.add_argument("--position", metavar="TEXT",
                           help=f"start from this position ({spec.position.name})")
        g.add_argument("--player", choices=names_for(spec), default=default_kind(spec),
                       help="who searches (default: %(default)s)")
        kinds = kinds_for(spec)
        fixed = ", ".join(k.name for k in kinds if k.fixed_depth)
        timed = ", ".join(k.name for k in kinds if k.timed)
        g.add_argument("--depth", type=depth_arg,
                       help=f"depth limit ({fixed}: default {spec.default_depth}; 0 = to the "
                       "end of the game)")
        g.add_argument("--time", type=positive_float,
                       help=f"seconds (default: {DEFAULT_SECONDS:g} for {timed}; an engine "
                       "given --depth alone searches by depth)")
        g.add_argument("--nodes", type=int_arg(1, MAX_NODES),
                       help="node budget (MCTS: simulations)")
        g.add_argument("--seed", type=seed_arg, default=None, help="seed of random and mcts")
        g.add_argument("--off", type=enhancements_off, default=ALL, metavar="NAME[+NAME]",
                       help="switch enhancements off, to see what each one saves: "
                       f"{', '.join(Enhancements.names())} (iterative and the engine)")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def enhancements_off(text: str) -> Enhancements:
    """`--off pvs+table`: the enhancements switched off, written as a player's `off=`
    setting is (catalogue.read_off, the one syntax)."""
    try:
        return read_off(text, "the enhancements")
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        raise InputError("name a game, e.g. zerosum analyse connect4 4 4 5")
    spec = get_game(args.game)
    game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    state = start(spec, game, getattr(args, "position", None), args.line)
    if game.is_terminal(state):
        raise InputError(f"the game is over in that position: {game.outcome(state)}")
    enhancements = args.off
    kind = kind_of(spec, args.player)
    choice = Choice(depth=args.depth, seconds=args.time, nodes=args.nodes, seed=args.seed,
                    enhancements=enhancements)
    limit = kind.limit(spec, choice)
    out = sys.stdout
    running = kind.start(spec, game, state, choice, limit)
    out.write(f"{spec.title}: {args.player} searches, {limit}\n{game.render(state)}\n")
    out.write(f"{'depth':>5}  {'value':<32} {kind.unit:>12} {'per s':>10} {'time':>7}  line\n")
    out.flush()
    side = side_to_move(game, state)  # every value from the side to move's point of view

    def show(info: Info) -> None:
        value = format_value(game, info.value, decided=info.decided, plies=info.plies,
                             side=side)
        line = " ".join(game.format_move(a) for a in info.pv[:12])
        depth = "end" if info.depth is None else info.depth
        out.write(f"{depth:>5}  {value:<32} {info.nodes:>12,} "
                  f"{info.nodes_per_second:>10,.0f} {info.elapsed:>6.2f}s  {line}\n")
        out.flush()

    with stopped_by_ctrl_c(running.stopper):
        for info in running:
            show(info)
    out.write(summary(game, running.result(), side))
    return 130 if running.stopped else 0


def start(spec: GameSpec, game: AnyGame, position: str | None, moves: list[str]) -> Any:
    """The position: `position` in the game's format, or the start, then `moves`."""
    state = game.initial_state() if position is None else spec.position.parse(game, position) \
        if spec.position is not None else game.initial_state()
    return replay(game, state, moves)


def summary(game: AnyGame, result: SearchResult, side: int) -> str:
    move = "none" if result.action is None else game.format_move(result.action)
    stopped = " (stopped)" if not result.complete else ""
    return (f"best move {move}: value {value_text(game, result, side)}, "
            f"{depth_text(result.depth, result.unit)}{stopped}, "
            f"{result.unit} {result.stats.nodes:,}, time {result.stats.wall_time:.2f} s\n")


@contextmanager
def stopped_by_ctrl_c(stop: Stop) -> Iterator[None]:
    """While the search runs, Ctrl-C asks it to stop (it returns its best so far)."""
    previous = signal.signal(signal.SIGINT, lambda *_: stop.request())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
