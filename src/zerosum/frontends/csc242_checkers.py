"""The classic terminal checkers program (CSC 242 style): menus, board, prompts, timings.

It asks for the game (4x4 or 8x8), the opponent's algorithm, its depth limit or time,
and your colour, then plays on standard input and output. End of input at any prompt
ends the program cleanly. Everything it computes comes from zerosum.games.checkers and
zerosum.search; this module only asks, calls and prints.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO, TypeVar

from zerosum.cli.common import Parser
from zerosum.convert import nonneg_int
from zerosum.frontends import guarded
from zerosum.game import InputError
from zerosum.games.checkers import Checkers, State
from zerosum.games.checkers.board import Path
from zerosum.games.checkers.engine import engine_move
from zerosum.search import (
    SearchResult,
    TranspositionTable,
    alphabeta_search,
    iterative_deepening_search,
    minimax_search,
)

GAMES = [("small 4x4", 4), ("standard 8x8", 8)]
OPPONENTS = [
    ("random", "random"),
    ("minimax", "minimax"),
    ("alphabeta", "minimax with alpha-beta"),
    ("depth-limited", "depth-limited alpha-beta with a heuristic"),
    ("iterative", "iterative deepening with a time limit"),
    ("engine", "the strong checkers engine with a time limit"),
]
NAMES = ("BLACK", "WHITE")


class EndOfInput(Exception):
    pass


@dataclass
class Opponent:
    kind: str
    depth: int | None = None  # None: to the end of the game
    seconds: float = 1.0

    def describe(self) -> str:
        label = dict(OPPONENTS)[self.kind]
        if self.kind in ("iterative", "engine"):
            return f"{label}, {self.seconds:g} s"
        if self.kind == "random":
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
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise EndOfInput
        return line.strip()

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask until `parse` accepts the answer (it raises ValueError with the reason)."""
        while True:
            text = self.read(prompt)
            try:
                return parse(text)
            except ValueError as e:
                self.say(f"Invalid answer: {e}")

    def menu(self, title: str, items: Sequence[str]) -> int:
        self.say(title)
        for i, item in enumerate(items, 1):
            self.say(f"  {i}. {item}")

        def pick(text: str) -> int:
            if not text.isdigit() or not 1 <= int(text) <= len(items):
                raise ValueError(f"answer a number from 1 to {len(items)}")
            return int(text) - 1

        return self.ask(f"Your choice (1-{len(items)}): ", pick)


def ask_setup(con: Console) -> tuple[int, Opponent, bool]:
    """(board size, opponent, True if the person plays black)."""
    size = GAMES[con.menu("Choose a game:", [g for g, _ in GAMES])][1]
    kind = OPPONENTS[con.menu("Choose your opponent:", [o for _, o in OPPONENTS])][0]
    opponent = Opponent(kind)
    if kind in ("minimax", "alphabeta", "depth-limited"):
        opponent.depth = con.ask(depth_prompt(kind, size), depth_parser(kind, size))
    elif kind in ("iterative", "engine"):
        opponent.seconds = con.ask("Time limit in seconds per move: ", parse_seconds)

    def colour(text: str) -> bool:
        t = text.lower()
        if t in ("b", "black"):
            return True
        if t in ("w", "white"):
            return False
        raise ValueError("answer b (black, moves first) or w (white)")

    black = con.ask("Your colour (b or w): ", colour)
    return size, opponent, black


def depth_prompt(kind: str, size: int) -> str:
    if kind == "alphabeta" and size == 4:
        return "Depth limit (0 = search to the end of the game): "
    return "Depth limit (1 or more): "


def depth_parser(kind: str, size: int) -> Callable[[str], int | None]:
    def parse(text: str) -> int | None:
        try:
            depth = nonneg_int(text)
        except argparse.ArgumentTypeError as e:
            raise ValueError(str(e)) from None
        if depth == 0:
            if kind == "alphabeta" and size == 4:
                return None
            raise ValueError("this game is too big to search to the end: give a depth of 1 "
                             "or more")
        return depth

    return parse


def parse_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"not a number: {text!r}") from None
    if not 0 < seconds < 3600:
        raise ValueError("give a number of seconds above 0 (and below an hour)")
    return seconds


class Thinker:
    """The computer player: calls the chosen algorithm of the library."""

    def __init__(self, game: Checkers, opponent: Opponent, seed: int | None) -> None:
        self.game, self.opponent = game, opponent
        self.rng = random.Random(seed)
        # Full-depth alpha-beta on 4x4 needs a table to finish quickly (transpositions).
        self.table = TranspositionTable() if opponent.depth is None else None

    def think(self, state: State) -> tuple[Path, SearchResult | None]:
        game, o = self.game, self.opponent
        if o.kind == "random":
            return self.rng.choice(game.actions(state)), None
        if o.kind == "minimax":
            result = minimax_search(game, state, o.depth)
        elif o.kind == "alphabeta":
            result = alphabeta_search(game, state, o.depth, table=self.table,
                                      order=self.table is not None)
        elif o.kind == "depth-limited":
            result = alphabeta_search(game, state, o.depth, order=True)
        elif o.kind == "iterative":
            result = iterative_deepening_search(game, state, seconds=o.seconds)
        else:
            result = engine_move(game, state, o.seconds)
        action: Path = result.action
        return action, result


def format_value(value: float) -> str:
    return str(round(value, 3) + 0.0)  # + 0.0 turns -0.0 into 0.0


def play(con: Console, game: Checkers, opponent: Opponent, human_black: bool,
         seed: int | None) -> None:
    thinker = Thinker(game, opponent, seed)
    state = game.initial_state()
    totals = [0.0, 0.0]
    con.say()
    con.say(f"You play {NAMES[0 if human_black else 1]}; the computer plays "
            f"{NAMES[1 if human_black else 0]} ({opponent.describe()}).")
    while not game.is_terminal(state):
        con.say()
        con.say(game.render(state))
        side = 0 if state.black_to_move else 1
        if state.black_to_move == human_black:
            action, seconds = human_move(con, game, state)
        else:
            action, seconds = computer_move(con, game, state, thinker)
        totals[side] += seconds
        state = game.result(state, action)
    con.say()
    con.say(game.render(state))
    winner = game.winner(state)
    if winner is not None:
        con.say(f"Winner: {winner.upper()}")
    else:
        con.say(f"Draw: {game.draw_reason(state)}.")
    con.say(f"Total thinking time: BLACK {totals[0]:.3f} secs, WHITE {totals[1]:.3f} secs")


def computer_move(con: Console, game: Checkers, state: State,
                  thinker: Thinker) -> tuple[Path, float]:
    con.say(f"Thinking... ({thinker.opponent.describe()})")
    t0 = con.clock()
    action, result = thinker.think(state)
    seconds = con.clock() - t0
    move = game.describe_move(state, action)
    if result is not None:
        con.say(f"visited {result.stats.nodes} states")
        con.say(f"best move: {move}, value: {format_value(result.value)}")
    con.say(f"Elapsed time: {seconds:.3f} secs")
    con.say(f"{'BLACK' if state.black_to_move else 'WHITE'} moves {move}")
    return action, seconds


def human_move(con: Console, game: Checkers, state: State) -> tuple[Path, float]:
    t0 = con.clock()
    legal = " ".join(game.describe_move(state, a) for a in game.actions(state))
    while True:
        text = con.read("Your move (? for help): ")
        if not text:
            continue
        if text == "?":
            con.say(game.move_help())
            con.say(f"Legal moves: {legal}")
            continue
        try:
            action = game.parse_move(state, text)
        except InputError as e:
            con.say(f"Invalid move: {e}.")
            con.say(f"Valid moves: {legal}")
            continue
        seconds = con.clock() - t0
        con.say(f"You moved {game.describe_move(state, action)}")
        con.say(f"Elapsed time: {seconds:.3f} secs")
        return action, seconds


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="checkers", description="Play checkers against the computer in the "
               "terminal; the menus ask for the board, the opponent and your colour.")
    p.add_argument("--capture", choices=("max", "english"), default="max",
                   help="capture rule: max (take the most pieces, the course rule) or "
                   "english (any sequence) (default: %(default)s)")
    p.add_argument("--moves", type=nonneg_int, default=50,
                   help="draw after this many moves by each side (0 = no limit; "
                   "default: %(default)s)")
    p.add_argument("--seed", type=int, default=None, help="seed of the random opponent")
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
    except EndOfInput:
        con.say("Input ended. Bye.")
    except UnicodeDecodeError as e:
        raise InputError(f"input is not UTF-8 text (byte {e.start})") from None
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.cli.assignment import not_a_program

    raise SystemExit(not_a_program())
