"""`zerosum grade GAME PLAYER [--set NAME] [--positions N]`: a player's mistake rate
against perfect play, with its 95 % interval, and the share of its moves that keep the
exact score (zerosum.learn.grade)."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.convert import int_arg
from zerosum.games.registry import add_options, all_games, get_game


def register(sub: Any) -> None:
    p = sub.add_parser(
        "grade", help="a player's mistake rate against perfect play",
        description="Grade a player against perfect play: on positions whose every move's "
        "exact value is known, how often its move is a mistake (worse than the best move: "
        "a draw or a loss where a win, or a loss where a draw, was to be had), with a 95 % "
        "interval, and how often it keeps the exact score. Small games grade on every "
        "reachable position (set 'all'); Connect Four 7x6 on Pascal Pons's test sets.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="game", required=True)
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("player", metavar="PLAYER",
                       help="a player, e.g. alphabeta:depth=4, engine:depth=6, "
                       "learned:FILE (see zerosum play --help)")
        g.add_argument("--set", metavar="NAME", action="append", dest="sets",
                       help="grade on this set only (repeatable; default: every set)")
        g.add_argument("--positions", type=int_arg(1, None), metavar="N",
                       help="at most N positions of each set, spread evenly over it")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.learn import grade
    from zerosum.players.spec import agent_from_spec

    spec = get_game(args.game)
    game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    sets = [grade.set_name(spec, game, s) for s in args.sets] if args.sets \
        else grade.set_names(spec, game)
    agent = agent_from_spec(spec, args.player, default_seed=0)
    print(f"{agent.name} on {spec.title}:", flush=True)
    for result in grade.grades(spec, game, lambda g, s: agent.choose(g, s).action, sets,
                               args.positions):
        print("  " + result.line(), flush=True)
    return 0
