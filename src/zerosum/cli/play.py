"""`zerosum play`: a game against the engine in the terminal, from a menu or from flags."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from zerosum.agents import (
    Agent,
    EndOfInput,
    EngineAgent,
    HumanAgent,
    RandomAgent,
    SearchAgent,
    play_match,
)
from zerosum.convert import depth_arg, parse_int, positive_float, seed_arg
from zerosum.game import InputError
from zerosum.games.registry import GameSpec, all_games, get_game

OPPONENTS = {
    "random": "random moves",
    "minimax": "minimax (to the end, or to --depth)",
    "alphabeta": "alpha-beta (to the end, or to --depth)",
    "depth-limited": "depth-limited alpha-beta with the game's heuristic",
    "iterative": "iterative deepening alpha-beta with a time limit",
}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game against the engine (no arguments: a menu)",
        description="Play against the engine. Without a game, a menu asks for everything.",
    )
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        opponents = [*OPPONENTS, *spec.engines]
        g.add_argument("--opponent", choices=opponents, default=default_opponent(spec),
                       help="who the engine is (default: %(default)s)")
        g.add_argument("--depth", type=depth_arg,
                       help="depth limit of the engine's search; 0 = to the end of the game "
                       f"(default: {spec.default_depth})")
        g.add_argument("--time", type=positive_float, default=1.0,
                       help="seconds per move for iterative deepening and engines "
                       "(default: %(default)s)")
        g.add_argument("--side", choices=("first", "second", "none"), default="first",
                       help="your side; 'none' lets the engine play itself")
        g.add_argument("--seed", type=seed_arg, default=None, help="seed of the random opponent")
        for o in spec.options:
            g.add_argument(f"--{o.name.replace('_', '-')}", dest=o.name, type=o.type,
                           default=o.default, choices=o.choices,
                           help=f"{o.help} (default: %(default)s)")
    p.set_defaults(func=run)


def default_opponent(spec: GameSpec) -> str:
    if spec.engines:
        return next(iter(spec.engines))
    return "iterative"


def make_opponent(spec: GameSpec, kind: str, depth: int | None, seconds: float,
                  seed: int | None) -> Agent:
    if kind == "random":
        return RandomAgent(seed)
    if kind in spec.engines:
        return EngineAgent(kind, spec.engines[kind], seconds)
    if depth is None and kind in ("minimax", "alphabeta", "depth-limited"):
        depth = spec.default_depth
    if depth == 0 and kind != "depth-limited":
        depth = None  # 0 means: to the end of the game
    return SearchAgent(kind, depth=depth, seconds=seconds if kind == "iterative" else None)


def start(spec: GameSpec, options: dict[str, Any], opponent: Agent, side: str,
          inp: TextIO, out: TextIO) -> int:
    game = spec.create(**options)
    human: Agent = HumanAgent(inp, out)
    if side == "none":
        agents = [opponent, opponent]
    elif side == "first":
        agents = [human, opponent]
    else:
        agents = [opponent, human]
    names = getattr(game, "players", ("Max", "Min"))
    out.write(f"{spec.title}: {names[0]} = {agents[0].name}, {names[1]} = {agents[1].name}\n")
    play_match(game, agents, out=out)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        return menu(sys.stdin, sys.stdout)
    spec = get_game(args.game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    opponent = make_opponent(spec, args.opponent, args.depth, args.time, args.seed)
    return start(spec, options, opponent, args.side, sys.stdin, sys.stdout)


T = TypeVar("T")


def ask(inp: TextIO, out: TextIO, prompt: str, parse: Callable[[str], T], default: T) -> T:
    """Ask until the answer parses; an empty answer takes the default."""
    while True:
        out.write(f"{prompt} [{default}]: ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            raise EndOfInput
        text = line.strip()
        if not text:
            return default
        try:
            return parse(text)
        except (ValueError, InputError, argparse.ArgumentTypeError) as e:
            out.write(f"  not valid: {e}\n")


def choose(inp: TextIO, out: TextIO, title: str, items: list[tuple[str, str]],
           default: int = 1) -> str:
    """A numbered menu; returns the chosen item's key."""
    out.write(f"\n{title}\n")
    for i, (_, text) in enumerate(items, 1):
        out.write(f"  {i}. {text}\n")

    def pick(text: str) -> int:
        try:
            return parse_int(text, lo=1, hi=len(items))
        except InputError:
            raise ValueError(f"choose 1 to {len(items)}") from None

    return items[ask(inp, out, "Choice", pick, default) - 1][0]


def menu(inp: TextIO, out: TextIO) -> int:
    try:
        specs = all_games()
        name = choose(inp, out, "Game:", [(s.name, f"{s.title} - {s.summary}" if s.summary
                                           else s.title) for s in specs])
        spec = get_game(name)
        options: dict[str, Any] = {}
        for o in spec.options:
            if o.choices:
                parse: Callable[[str], Any] = _in_choices(o.type, o.choices)
            else:
                parse = o.type
            options[o.name] = ask(inp, out, f"{o.help}", parse, o.default)
        kinds = [*[(k, f"{k}: {v}") for k, v in OPPONENTS.items()],
                 *[(k, f"{k}: the game's own engine") for k in spec.engines]]
        kind = choose(inp, out, "Opponent:", kinds, default=len(OPPONENTS) if not spec.engines
                      else len(kinds))
        depth: int | None = None
        seconds = 1.0
        if kind in ("minimax", "alphabeta", "depth-limited"):
            depth = ask(inp, out, "Depth limit (0 = to the end of the game)", depth_arg,
                        spec.default_depth)
        if kind == "iterative" or kind in spec.engines:
            seconds = ask(inp, out, "Seconds per move", positive_float, 1.0)
        side = choose(inp, out, "Your side:", [("first", "first (moves first)"),
                                              ("second", "second"),
                                              ("none", "none: watch the engine play itself")])
        opponent = make_opponent(spec, kind, depth, seconds, None)
        out.write("\n")
        return start(spec, options, opponent, side, inp, out)
    except EndOfInput:
        out.write("Bye.\n")
        return 0


def _in_choices(convert: Callable[[str], Any], choices: tuple[Any, ...]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        value = convert(text)
        if value not in choices:
            raise ValueError(f"choose one of {', '.join(map(str, choices))}")
        return value

    return parse
