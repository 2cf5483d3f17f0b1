"""`zerosum play`: a game against the engine in the terminal, from a menu or from flags.

`?` at any menu prompt explains the choices. While the computer thinks longer than half
a second, a live line shows its progress; Ctrl-C stops it and asks what to do. A search
to the end of the game is offered only where it can finish (see full_search_note).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable
from typing import Any, TextIO

from zerosum.console import DEPTH_HELP, SECONDS_HELP, EndOfInput, ask, choose
from zerosum.convert import MAX_DEPTH, depth_arg, parse_int, positive_float, seed_arg
from zerosum.game import AnyGame, InputError
from zerosum.gamefile import GAME_FILE_HELP, NO_CHECK_HELP, blame, load_checked
from zerosum.games.registry import GameSpec, Option, add_options, all_games, get_game
from zerosum.match import Agent, Move, play_match
from zerosum.players.agents import ComputerAgent, FileAgent
from zerosum.players.catalogue import (
    DEFAULT_SECONDS,
    Choice,
    default_kind,
    explain_kinds,
    kind_of,
    kinds_for,
    make_player,
    names_for,
    search_named,
    searcher,
)
from zerosum.players.spec import agent_from_spec
from zerosum.players.terminal import HumanAgent, Quit, Watch
from zerosum.players.text import MatchPrinter
from zerosum.result import Limit
from zerosum.search.estimate import PROBE_NODES, full_search_cost

OWN_AGENT_HELP = ("or your own agent, FILE.py[:SETTING=VALUE,...] (a file defining "
                  "make_agent(seed, **settings), as docs/examples/myagent.py; runs the "
                  "file's code), or a player as zerosum tournament writes it, e.g. "
                  "alphabeta:depth=6")


GAME_HELP = """\
  Every game here is for two players who take turns, and one side's gain is the
  other's loss. You play against the computer (or watch it play itself); the
  next questions set the game's options, the computer's way of playing and your side."""
SIDE_HELP = """\
  first: you make the first move.
  second: the computer moves first.
  none: the computer plays both sides while you watch."""
FULL_SEARCH_LIMIT = 30.0  # seconds: a search to the end estimated longer is not offered


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game against the engine (no arguments: a menu)",
        description="Play against the engine. Without a game, a menu asks for everything.",
    )
    add_game_file_arguments(p)
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--opponent", default=default_kind(spec), metavar="PLAYER",
                       help=f"who the engine is: {', '.join(names_for(spec))} (default: "
                       f"%(default)s); {OWN_AGENT_HELP}")
        g.add_argument("--depth", type=depth_arg,
                       help="depth limit of the engine's search; 0 = to the end of the game "
                       f"(default: {spec.default_depth})")
        g.add_argument("--time", type=positive_float,
                       help="seconds per move for iterative deepening, mcts and engines "
                       "(default: 1.0; an engine given --depth alone searches by depth)")
        g.add_argument("--side", choices=("first", "second", "none"), default="first",
                       help="your side; 'none' lets the engine play itself")
        g.add_argument("--seed", type=seed_arg, default=None,
                       help="seed of the random and mcts opponents (and of your own agent)")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def add_game_file_arguments(p: argparse.ArgumentParser) -> None:
    """`--game-file FILE` and the flags that go with it, before any GAME name (the file's
    game is known only when it is read). With none of the flags: the menu, for that game."""
    p.add_argument("--game-file", metavar="FILE", help=GAME_FILE_HELP)
    p.add_argument("--opponent", dest="file_opponent", metavar="PLAYER",
                   help="with --game-file: who the engine is (as for a named game), "
                   + OWN_AGENT_HELP)
    p.add_argument("--depth", type=depth_arg, dest="file_depth", metavar="N",
                   help="with --game-file: depth limit of the engine's search")
    p.add_argument("--time", type=positive_float, dest="file_time", metavar="SECONDS",
                   help="with --game-file: seconds per move (default: 1.0)")
    p.add_argument("--side", choices=("first", "second", "none"), dest="file_side",
                   help="with --game-file: your side (default: first)")
    p.add_argument("--seed", type=seed_arg, dest="file_seed", metavar="SEED",
                   help="with --game-file: seed of the random opponent (or your own agent)")
    p.add_argument("--no-check", action="store_true",
                   help=NO_CHECK_HELP)


def written_opponent(spec: GameSpec, text: str, depth: int | None, seconds: float | None,
                     seed: int | None) -> Agent | None:
    """The opponent `text` writes when it is more than a name (a player with settings,
    `alphabeta:depth=6`, or a person's agent file, `myagent.py:greed=2`), read by the one
    reader of players' specs (agents.agent_from_spec); None for a plain name."""
    if text in names_for(spec) or (":" not in text and not text.endswith(".py")):
        return None
    if depth is not None or seconds is not None:
        raise InputError(f"--depth and --time go with a player's name; {text} says its "
                         "own settings (e.g. alphabeta:depth=6,time=2)")
    agent = agent_from_spec(spec, text, default_seed=seed)
    return OwnAgent(agent, agent.path) if isinstance(agent, FileAgent) else agent


class OwnAgent:
    """A person's agent file in a game: what its code raises, and an illegal move, end
    the game in one line naming the file (a tournament scores them as forfeits)."""

    def __init__(self, agent: FileAgent, path: str) -> None:
        self.agent, self.path, self.name = agent, path, agent.name

    def choose(self, game: AnyGame, state: Any) -> Move:
        with blame(self.path, "agent file"):
            move = self.agent.choose(game, state)
        if move.action not in game.actions(state):
            raise InputError(f"agent file {self.path}: played an illegal move, "
                             f"{move.action!r}")
        return move


def make_opponent(spec: GameSpec, kind: str, depth: int | None, seconds: float | None,
                  seed: int | None) -> Agent:
    """A player of kind `kind` with the settings given (None: the kind's default)."""
    if kind not in names_for(spec):
        raise InputError(f"unknown opponent {kind!r}; choose from "
                         f"{', '.join(names_for(spec))}, or your own agent FILE.py")
    return make_player(spec, kind, Choice(depth=depth, seconds=seconds, seed=seed))


def full_search_note(game: AnyGame, kind: str) -> tuple[bool, str]:
    """(can `kind` search to the end of this game quickly?, a plain note saying how long
    it would take). Estimated from the start position (the game's longest search) by a
    probe of that very search and the kind's cost (zerosum.search.estimate)."""
    search = search_named(kind)
    if search is None or search.full_cost is None:
        return True, "its time is not estimated"
    state = game.initial_state()
    probe = searcher(kind).analyse(game, state, Limit(nodes=PROBE_NODES))
    nodes, seconds = full_search_cost(game, state, search.full_cost, probe)
    name = search.shown_name
    if seconds > FULL_SEARCH_LIMIT:
        return False, (f"{name} to the end of this game would not finish (estimated "
                       f"{nodes:.1e} positions, {duration(seconds)}); choose a depth")
    if seconds < 1:
        return True, "a second or less"
    return True, f"about {duration(seconds)} for the first move"


def duration(seconds: float) -> str:
    for unit, size in (("years", 3.15e7), ("days", 86400.0), ("hours", 3600.0),
                       ("minutes", 60.0)):
        if seconds >= 2 * size:
            if seconds >= 1e6 * size:
                return f"over a million {unit}"
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.0f} s"


def check_depth(game: AnyGame, kind: str, depth: int | None) -> str:
    """Refuse a search to the end of the game that would not finish (InputError); for
    one that takes a while, a note saying how long ("" if none is needed)."""
    search = search_named(kind)
    if depth != 0 or search is None:
        return ""
    if not search.to_the_end:
        raise InputError(f"{kind} search needs a depth of 1 or more")
    if search.full_cost is not None:
        ok, note = full_search_note(game, kind)
        if not ok:
            raise InputError(note)
        if note.startswith("about"):
            return f"Searching to the end of the game takes {note}.\n"
    return ""


def start(spec: GameSpec, options: dict[str, Any], opponent: Agent, side: str,
          inp: TextIO, out: TextIO) -> int:
    game = spec.create(**options)
    inner = opponent.agent if isinstance(opponent, OwnAgent) else opponent
    if isinstance(inner, ComputerAgent):
        inner.watch = Watch(inp, out)  # progress while it thinks; Ctrl-C asks
    human: Agent = HumanAgent(inp, out)
    if side == "none":
        agents = [opponent, opponent]
    elif side == "first":
        agents = [human, opponent]
    else:
        agents = [opponent, human]
    names = getattr(game, "players", ("Max", "Min"))
    out.write(f"{spec.title}: {names[0]} = {agents[0].name}, {names[1]} = {agents[1].name}\n")
    try:
        play_match(game, agents, observer=MatchPrinter(out))
    except Quit:
        return 130
    except KeyboardInterrupt:
        out.write("\nGame stopped (Ctrl-C).\n")
        return 130
    return 0


def run(args: argparse.Namespace) -> int:
    file_flags = (args.file_opponent, args.file_depth, args.file_time, args.file_side,
                  args.file_seed)
    if args.game_file is not None:
        if args.game is not None:
            raise InputError(f"give a game name or --game-file, not both ({args.game})")
        return run_game_file(args, all(flag is None for flag in file_flags))
    if args.no_check or any(flag is not None for flag in file_flags):
        raise InputError("options before the game's name go with --game-file; "
                         "put them after it, e.g. zerosum play tictactoe --side none")
    if args.game is None:
        return menu(sys.stdin, sys.stdout)
    spec = get_game(args.game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    opponent = written_opponent(spec, args.opponent, args.depth, args.time, args.seed)
    if opponent is None:
        depth = spec.default_depth if args.depth is None else args.depth
        sys.stdout.write(check_depth(spec.create(**options), args.opponent, depth))
        opponent = make_opponent(spec, args.opponent, args.depth, args.time, args.seed)
    return start(spec, options, opponent, args.side, sys.stdin, sys.stdout)


def run_game_file(args: argparse.Namespace, use_menu: bool) -> int:
    """A person's own game, from --game-file: the menu, or the flags as for a named game."""
    spec, game = load_checked(args.game_file, check=not args.no_check)
    with blame(args.game_file):
        return play_game_file(args, spec, game, use_menu)


def play_game_file(args: argparse.Namespace, spec: GameSpec, game: AnyGame,
                   use_menu: bool) -> int:
    if use_menu:
        return menu(sys.stdin, sys.stdout, spec)
    kind = args.file_opponent or default_kind(spec)
    opponent = written_opponent(spec, kind, args.file_depth, args.file_time, args.file_seed)
    if opponent is None:
        depth = spec.default_depth if args.file_depth is None else args.file_depth
        sys.stdout.write(check_depth(game, kind, depth))
        opponent = make_opponent(spec, kind, args.file_depth, args.file_time, args.file_seed)
    return start(spec, {}, opponent, args.file_side or "first", sys.stdin, sys.stdout)


def option_help(o: Option) -> str:
    text = o.explain or f"{o.help[0].upper()}{o.help[1:]}."
    lines = textwrap.wrap(text, 76, initial_indent="  ", subsequent_indent="  ")
    if o.choices:
        lines.append(f"  Possible answers: {', '.join(map(str, o.choices))}.")
    return "\n".join([*lines, f"  Enter keeps {o.default}."])


def ask_options(inp: TextIO, out: TextIO, spec: GameSpec) -> tuple[dict[str, Any], AnyGame]:
    """The game's options, asked until they make a game."""
    while True:
        options = {o.name: ask(inp, out, f"{o.help[0].upper()}{o.help[1:]}", o.read,
                               o.default, option_help(o)) for o in spec.options}
        try:
            return options, spec.create(**options)
        except InputError as e:
            out.write(f"  not valid: {e}\n")


def menu(inp: TextIO, out: TextIO, spec: GameSpec | None = None) -> int:
    """The menu; with `spec`, for that game (its question is skipped)."""
    try:
        spec = spec or choose_game(inp, out)
        options, game = ask_options(inp, out, spec)
        kinds = [k for k in kinds_for(spec) if k.argument is None]
        default = default_kind(spec)
        kind = kind_of(spec, choose(
            inp, out, "Opponent:", [(k.name, f"{k.name}: {k.help}") for k in kinds],
            default=[k.name for k in kinds].index(default) + 1, help=explain_kinds(kinds)))
        depth: int | None = None
        seconds: float | None = None
        if kind.fixed_depth:
            depth = ask_depth(inp, out, game, kind.name, spec.default_depth)
        if kind.timed:
            seconds = ask(inp, out, "Seconds per move", positive_float, DEFAULT_SECONDS,
                          SECONDS_HELP)
        side = choose(inp, out, "Your side:", [("first", "first (moves first)"),
                                              ("second", "second"),
                                              ("none", "none: watch the engine play itself")],
                      help=SIDE_HELP)
        opponent = make_opponent(spec, kind.name, depth, seconds, None)
        out.write("\n")
        return start(spec, options, opponent, side, inp, out)
    except EndOfInput:
        out.write("Bye.\n")
        return 0


def choose_game(inp: TextIO, out: TextIO) -> GameSpec:
    specs = all_games()
    name = choose(inp, out, "Game:", [(s.name, f"{s.title} - {s.summary}" if s.summary
                                       else s.title) for s in specs], help=GAME_HELP)
    return get_game(name)


def ask_depth(inp: TextIO, out: TextIO, game: AnyGame, kind: str, default: int) -> int:
    """The depth limit; 0 (to the end) only where that search can finish."""
    search = search_named(kind)
    if search is not None and not search.to_the_end:
        return ask(inp, out, "Depth limit (1 or more)", depth_parser(1, ""), default,
                   DEPTH_HELP.rsplit("\n", 1)[0])
    full, note = full_search_note(game, kind)
    if full:
        prompt = f"Depth limit (0 = to the end of the game: {note})"
        return ask(inp, out, prompt, depth_parser(0, ""), default, DEPTH_HELP)
    help = DEPTH_HELP.rsplit("\n", 1)[0] + f"\n  To the end is not offered: {note}."
    return ask(inp, out, "Depth limit (1 or more)", depth_parser(1, note), default, help)


def depth_parser(low: int, why_not_zero: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        depth = parse_int(text, "the depth", lo=0, hi=MAX_DEPTH)
        if depth < low:
            raise InputError(why_not_zero or "the depth must be 1 or more")
        return depth

    return parse
