"""The classic terminal checkers program (CSC 242 style): menus, board, prompts, timings.

It asks for the game (4x4 or 8x8), the opponent's algorithm, its depth limit or time,
and your colour, then plays on standard input and output. End of input at any prompt
ends the program cleanly. Everything it computes comes from zerosum.games.checkers and
zerosum.search; this module only asks, calls and prints.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TextIO, TypeVar

from zerosum.console import DEPTH_HELP, SECONDS_HELP, EndOfInput, Parser, guarded, read_answer
from zerosum.convert import MAX_DEPTH, int_arg, parse_float, parse_int, seed_arg
from zerosum.game import AnyGame, InputError
from zerosum.games.checkers import MAX_MOVES, Checkers, State
from zerosum.games.checkers.board import Path
from zerosum.games.registry import get_game
from zerosum.kernel import ALL, Enhancements
from zerosum.match import Agent, MatchObserver, MatchRecord, Move, play_match
from zerosum.players.agents import ComputerAgent, SearchAgent, playable
from zerosum.players.catalogue import Choice, PlayerKind, kind_of
from zerosum.players.terminal import Quit, Watch
from zerosum.players.text import value_text
from zerosum.result import SearchResult
from zerosum.search import alphabeta
from zerosum.table import TranspositionTable

GAMES = [("small 4x4", 4), ("standard 8x8", 8)]


@dataclass(frozen=True)
class Offer:
    """How the course program offers one kind of the catalogue: `enhancements`, those of
    the course's version of it searching to a depth (its plain alpha-beta has neither a
    table nor a move order; its depth-limited search orders moves); `to_the_end`, the
    board sizes on which it may search to the end of the game (alpha-beta on 4x4, with
    a table kept for the whole game: the small game's transpositions)."""

    enhancements: Enhancements = ALL
    to_the_end: tuple[int, ...] = ()


# The course program's choice of players (no MCTS); what each is, from the catalogue.
OFFERED = {"random": Offer(), "minimax": Offer(),
           "alphabeta": Offer(Enhancements.none(), to_the_end=(4,)),
           "depth-limited": Offer(replace(ALL, table=False)), "iterative": Offer(),
           "engine": Offer()}


def opponents() -> list[PlayerKind]:
    spec = get_game("checkers")
    return [kind_of(spec, name) for name in OFFERED]


def to_the_end(kind: str, size: int) -> bool:
    return size in OFFERED[kind].to_the_end


NAMES = ("BLACK", "WHITE")
INPUT_ENDED = "Input ended. Bye."


@dataclass
class Opponent:
    kind: str
    depth: int | None = None  # None: to the end of the game
    seconds: float = 1.0

    def describe(self) -> str:
        label = self.kind
        kind = kind_of(get_game("checkers"), self.kind)
        if kind.timed:
            return f"{label}, {self.seconds:g} s"
        if not kind.fixed_depth:
            return label
        return f"{label}, {'to the end' if self.depth is None else f'depth {self.depth}'}"


T = TypeVar("T")


class Console:
    """The terminal session: its input, its output, and the clock that times each move
    (tests give one that steps, so the printed times are exact)."""

    def __init__(self, inp: TextIO, out: TextIO,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.inp, self.out, self.clock = inp, out, clock

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str:
        return read_answer(self.inp, self.out, prompt)

    def ask(self, prompt: str, parse: Callable[[str], T], help: str = "") -> T:
        """Ask until `parse` accepts the answer (it raises ValueError with the reason);
        `?` shows `help`."""
        while True:
            text = self.read(prompt)
            if text == "?" and help:
                self.say(help)
                continue
            try:
                return parse(text)
            except ValueError as e:
                self.say(f"Invalid answer: {e}")

    def menu(self, title: str, items: Sequence[str], help: str = "") -> int:
        self.say(title)
        for i, item in enumerate(items, 1):
            self.say(f"  {i}. {item}")

        def pick(text: str) -> int:
            try:
                return parse_int(text, lo=1, hi=len(items)) - 1
            except InputError:
                raise ValueError(f"answer a number from 1 to {len(items)}") from None

        return self.ask(f"Your choice (1-{len(items)}): ", pick,
                        help or f"  Type a number from 1 to {len(items)}.")


def ask_setup(con: Console) -> tuple[int, Opponent, bool]:
    """(board size, opponent, True if the person plays black)."""
    size = GAMES[con.menu("Choose a game:", [g for g, _ in GAMES], GAME_HELP)][1]
    kinds = opponents()
    chosen = kinds[con.menu("Choose your opponent:", [f"{k.name}: {k.help}" for k in kinds],
                            opponent_help(kinds))]
    kind = chosen.name
    opponent = Opponent(kind)
    if chosen.fixed_depth:
        opponent.depth = con.ask(depth_prompt(kind, size), depth_parser(kind, size),
                                 depth_help(kind, size))
    elif chosen.timed:
        opponent.seconds = con.ask("Time limit in seconds per move: ", parse_seconds,
                                   SECONDS_HELP)

    def colour(text: str) -> bool:
        t = text.lower()
        if t in ("b", "black"):
            return True
        if t in ("w", "white"):
            return False
        raise ValueError("answer b (black, moves first) or w (white)")

    black = con.ask("Your colour (b or w): ", colour,
                    "  b: you play black and move first; w: you play white.")
    return size, opponent, black


GAME_HELP = """  1: the small game on a 4x4 board, two men each: quick, and solved exactly.
  2: standard checkers on an 8x8 board, twelve men each."""
def opponent_help(kinds: list[PlayerKind]) -> str:
    return "\n".join(textwrap.fill(f"{n}: {k.explain or k.help}", 76, initial_indent="  ",
                                   subsequent_indent="     ")
                     for n, k in enumerate(kinds, 1))


def depth_help(kind: str, size: int) -> str:
    lines = DEPTH_HELP.splitlines()
    if to_the_end(kind, size):
        return "\n".join(lines)
    return "\n".join([*lines[:-1], "  To the end of the game is offered only for alpha-beta "
                      "on 4x4: any other would not finish."])


def depth_prompt(kind: str, size: int) -> str:
    if to_the_end(kind, size):
        return "Depth limit (0 = search to the end of the game): "
    return "Depth limit (1 or more): "


def depth_parser(kind: str, size: int) -> Callable[[str], int | None]:
    def parse(text: str) -> int | None:
        depth = parse_int(text, "the depth", lo=0, hi=MAX_DEPTH)
        if depth == 0:
            if to_the_end(kind, size):
                return None
            raise ValueError("this game is too big to search to the end: give a depth of 1 "
                             "or more")
        return depth

    return parse


def parse_seconds(text: str) -> float:
    return parse_float(text, "the time limit", lo=0.0, hi=3600.0, lo_open=True)


class Thinker:
    """The computer player: a player of the chosen kind of the catalogue, made once for
    the game; its searches start as every search does (ComputerAgent.start)."""

    def __init__(self, game: Checkers, opponent: Opponent, seed: int | None,
                 watch: Watch | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        """With `watch`, the search runs under it: progress shown, Ctrl-C asks."""
        self.game, self.opponent, self.watch, self.clock = game, opponent, watch, clock
        self.name = opponent.describe()
        spec = get_game("checkers")
        kind = kind_of(spec, opponent.kind)
        to_end = kind.fixed_depth and opponent.depth is None
        choice = Choice(depth=0 if to_end else opponent.depth,
                        seconds=opponent.seconds if kind.timed else None, seed=seed,
                        enhancements=ALL if to_end else OFFERED[opponent.kind].enhancements)
        self.limit = kind.limit(spec, choice)
        self.agent = kind.make(spec, choice, self.limit)
        self.searches = kind.analyser is not None  # random moves judge nothing: no report
        # To the end (4x4 alpha-beta), one table for the whole game: each move's search
        # finds the positions the last one proved.
        self.table = TranspositionTable() if to_end else None
        if self.table is not None:
            self.agent = SearchAgent(self.agent.name, partial(
                alphabeta.analyse, order=True, table=self.table), self.limit)

    def choose(self, game: AnyGame, state: State) -> Move:
        t0 = self.clock()
        action, result = self.think(state)
        return Move(action, result, self.clock() - t0)

    def think(self, state: State) -> tuple[Path, SearchResult | None]:
        game, agent = self.game, self.agent
        if not self.searches or not isinstance(agent, ComputerAgent):
            return agent.choose(game, state).action, None
        if self.watch is None:
            result = agent.analyse(game, state, self.limit)
        else:
            result = self.watch.run(game, state, lambda: agent.start(game, state, self.limit))
        result = playable(game, state, result)
        action: Path = result.action
        return action, result


class Person:
    """The person at the terminal: asks for a move until a legal one is typed."""

    name = "you"

    def __init__(self, con: Console, game: Checkers) -> None:
        self.con, self.game = con, game

    def choose(self, game: AnyGame, state: State) -> Move:
        con = self.con
        t0 = con.clock()
        legal = " ".join(self.game.describe_move(state, a) for a in self.game.actions(state))
        while True:
            text = con.read("Your move (? for help): ")
            if not text:
                continue
            if text == "?":
                con.say(self.game.move_help())
                con.say(f"Legal moves: {legal}")
                continue
            try:
                action = self.game.parse_move(state, text)
            except InputError as e:
                con.say(f"Invalid move: {e}.")
                con.say(f"Valid moves: {legal}")
                continue
            return Move(action, None, con.clock() - t0)


class Commentary(MatchObserver):
    """What the program prints around the moves: the board before each, what the
    computer found and each move with its time, the result and the total times."""

    def __init__(self, con: Console, game: Checkers, human_black: bool) -> None:
        self.con, self.game, self.human_black = con, game, human_black
        self.thinker = ""  # the computer's description

    def is_human(self, side: int) -> bool:
        return (side == 0) == self.human_black

    def start(self, game: AnyGame, state: State, agents: Sequence[Agent]) -> None:
        self.thinker = agents[1 if self.human_black else 0].name
        self.con.say()
        self.con.say(f"You play {NAMES[0 if self.human_black else 1]}; the computer plays "
                     f"{NAMES[1 if self.human_black else 0]} ({self.thinker}).")

    def before_move(self, game: AnyGame, state: State, side: int) -> None:
        self.con.say()
        self.con.say(self.game.render(state))
        if not self.is_human(side):
            self.con.say(f"Thinking... ({self.thinker})")

    def after_move(self, game: AnyGame, state: State, side: int, move: Move) -> None:
        con, result = self.con, move.result
        described = self.game.describe_move(state, move.action)
        if self.is_human(side):
            con.say(f"You moved {described}")
            con.say(f"Elapsed time: {move.seconds:.3f} secs")
            return
        if result is not None:
            con.say(f"visited {result.stats.nodes} states")
            con.say(f"best move: {described}, value: {value_text(game, result, side)}")
        con.say(f"Elapsed time: {move.seconds:.3f} secs")
        con.say(f"{NAMES[side]} moves {described}")

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        con = self.con
        if record.abandoned:
            con.say(INPUT_ENDED)
            return
        con.say()
        con.say(self.game.render(record.final_state))
        con.say(f"Game over. {self.game.outcome(record.final_state)}.")
        con.say(f"Total thinking time: BLACK {record.seconds[0]:.3f} secs, "
                f"WHITE {record.seconds[1]:.3f} secs")


def play(con: Console, game: Checkers, opponent: Opponent, human_black: bool,
         seed: int | None) -> None:
    computer = Thinker(game, opponent, seed, Watch(con.inp, con.out), con.clock)
    person = Person(con, game)
    agents: list[Agent] = [person, computer] if human_black else [computer, person]
    play_match(game, agents, observer=Commentary(con, game, human_black))


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="checkers", description="Play checkers against the computer in the "
               "terminal; the menus ask for the board, the opponent and your colour.")
    p.add_argument("--capture", choices=("max", "english"), default="max",
                   help="capture rule: max (take the most pieces, the course rule) or "
                   "english (any sequence) (default: %(default)s)")
    p.add_argument("--moves", type=int_arg(0, MAX_MOVES), default=50,
                   help="draw after this many moves by each side (0 = no limit; "
                   "default: %(default)s)")
    p.add_argument("--seed", type=seed_arg, default=None, help="seed of the random opponent")
    return p


@guarded("checkers")
def main(argv: Sequence[str]) -> int:
    return run(argv, sys.stdin, sys.stdout)


def run(argv: Sequence[str], inp: TextIO, out: TextIO,
        clock: Callable[[], float] = time.perf_counter) -> int:
    args = build_parser().parse_args(list(argv))
    con = Console(inp, out, clock)
    con.say("CHECKERS")
    try:
        size, opponent, human_black = ask_setup(con)
        game = Checkers(size, args.capture, "course", args.moves)
        play(con, game, opponent, human_black, args.seed)
    except Quit:
        return 130
    except EndOfInput:
        con.say(INPUT_ENDED)
    except UnicodeDecodeError as e:
        raise InputError(f"input is not UTF-8 text (byte {e.start})") from None
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
