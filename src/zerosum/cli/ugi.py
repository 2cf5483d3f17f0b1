"""`zerosum ugi GAME [--player SPEC]`: any zerosum player as a UGI engine on standard
input and output (zerosum.ugi), for match runners and GUIs that speak the protocol."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from zerosum.convert import seed_arg
from zerosum.game import AnyGame, InputError
from zerosum.games.registry import add_options, all_games, get_game
from zerosum.players.agents import ComputerAgent
from zerosum.players.catalogue import default_kind
from zerosum.players.spec import agent_from_spec
from zerosum.result import InfoSink, Limit, SearchResult
from zerosum.stop import Stop
from zerosum.ugi import UgiEngine, serve


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ugi", help="run a player as a UGI engine (stdin/stdout) for other match runners",
        description="Speak the Universal Game Interface (UCI's shape for any game) on "
        "standard input and output: ugi, isready, uginewgame, position startpos|fen TEXT "
        "[moves ...], go [p1time p2time p1inc p2inc movetime depth nodes infinite], stop, "
        "query gameover|p1turn|result, quit. Moves in the game's notation.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="ugi_game", required=True)
    for spec in all_games():
        default = default_kind(spec)
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--player", metavar="SPEC", default=default,
                       help="who searches, as a tournament's agent spec (e.g. engine, "
                       "alphabeta:depth=6, mcts:seed=3, myagent.py); `go` limits override "
                       "its own (default: %(default)s)")
        g.add_argument("--seed", type=seed_arg, default=None, help="seed of random and mcts")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = get_game(args.ugi_game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    agent = agent_from_spec(spec, args.player, args.seed)  # a bad spec: one line, before ugi
    if not isinstance(agent, ComputerAgent):
        raise InputError(f"player {args.player} cannot analyse a position")

    def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None,
                stop: Stop) -> SearchResult:
        # What `go` leaves open, the player's own settings fill (alphabeta:depth=6).
        own = agent.limit
        limit = replace(limit, depth=limit.depth if limit.depth is not None else own.depth,
                        nodes=limit.nodes if limit.nodes is not None else own.nodes,
                        seconds=limit.seconds if limit.seconds is not None else
                        own.seconds if limit.depth is None and limit.nodes is None else None)
        return agent.analyse(game, state, limit, on_info, stop)

    position = spec.position
    engine = UgiEngine(agent.name, lambda: spec.create(**options), analyse, sys.stdout,
                       None if position is None else position.parse)
    return serve(engine, sys.stdin)
