"""`zerosum ugi GAME [--player SPEC]`: any zerosum player as a UGI engine on standard
input and output (zerosum.ugi), for match runners and GUIs that speak the protocol. The
player's settings (the catalogue's: depth, time, nodes, seed, off) are its UGI options:
offered in the handshake, changed by `setoption`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from zerosum.convert import MAX_DEPTH, seed_arg
from zerosum.game import InputError
from zerosum.games.registry import GameSpec, add_options, all_games, get_game
from zerosum.players.agents import ComputerAgent
from zerosum.players.catalogue import default_kind, kind_of
from zerosum.players.spec import agent_from_spec, split_name
from zerosum.result import Limit
from zerosum.ugi import Configure, Option, Start, UgiEngine, serve

UNSET = ("", "none")  # a setoption value that takes the setting back to the default


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ugi", help="run a player as a UGI engine (stdin/stdout) for other match runners",
        description="Speak the Universal Game Interface (UCI's shape for any game) on "
        "standard input and output: ugi, setoption, isready, uginewgame, position "
        "startpos|fen TEXT [moves ...], go [p1time p2time p1inc p2inc | movetime | depth "
        "| nodes | infinite], stop, query gameover|p1turn|result, quit. Moves in the "
        "game's notation.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="ugi_game", required=True)
    for spec in all_games():
        default = default_kind(spec)
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--player", metavar="SPEC", default=default,
                       help="who searches, as a tournament's agent spec (e.g. engine, "
                       "alphabeta:depth=6, mcts:seed=3, myagent.py); `go` limits override "
                       "its own; its settings are the engine's options (default: "
                       "%(default)s)")
        g.add_argument("--seed", type=seed_arg, default=None, help="seed of random and mcts")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def searcher(spec: GameSpec, text: str, seed: int | None) -> ComputerAgent:
    agent = agent_from_spec(spec, text, seed)  # a bad spec: one line, before ugi
    if not isinstance(agent, ComputerAgent):
        raise InputError(f"player {text} cannot analyse a position")
    return agent


def player_options(spec: GameSpec, text: str, agent: ComputerAgent,
                   seed: int | None) -> tuple[list[Option], Configure | None]:
    """The player's settings as UGI options, with the values it has (written, or the
    kind's defaults: `none` where it has none), and what applies a `setoption`: the
    player made anew from its spec with that setting. A program or an agent file
    offers none."""
    name, rest, argument = split_name(spec, text.strip())
    if argument is not None or name.endswith(".py"):
        return [], None
    kind = kind_of(spec, name)
    settings = dict(item.strip().partition("=")[::2] for item in rest.split(",")
                    if item.strip())
    own = agent.limit
    has = {"time": own.seconds, "depth": own.depth, "nodes": own.nodes, "seed": seed}
    options = []
    for setting in kind.readers():
        value = settings.get(setting, has.get(setting))
        if setting == "depth":  # 0: to the end of the game, where the kind allows it
            options.append(Option("depth", str(value or 0), 0 if kind.to_the_end else 1,
                                  MAX_DEPTH))
        else:
            options.append(Option(setting, "none" if value is None else f"{value:g}"
                                  if isinstance(value, float) else str(value)))

    def configure(option: str, value: str) -> tuple[Start, Limit]:
        chosen = dict(settings)
        if value.strip().lower() in UNSET:
            chosen.pop(option, None)
        else:
            chosen[option] = value.strip()
        written = ",".join(f"{k}={v}" for k, v in chosen.items())
        player = searcher(spec, f"{name}:{written}" if written else name, seed)
        settings.clear()
        settings.update(chosen)
        return player.start, player.limit

    return options, configure


def run(args: argparse.Namespace) -> int:
    spec = get_game(args.ugi_game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    agent = searcher(spec, args.player, args.seed)
    offered, configure = player_options(spec, args.player, agent, args.seed)
    position = spec.position
    engine = UgiEngine(agent.name, lambda: spec.create(**options), agent.start, sys.stdout,
                       None if position is None else position.parse, agent.limit, offered,
                       configure)
    return serve(engine, sys.stdin)
