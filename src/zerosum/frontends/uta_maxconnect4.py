"""The Max-Connect4 assignment program (launcher: assignments/uta-maxconnect4/maxconnect4.py).

    maxconnect4.py one-move INPUT OUTPUT DEPTH
    maxconnect4.py interactive INPUT computer-next|human-next DEPTH

It prints what the classic sample program printed (the framed board, the score, one
line per move) and writes boards in the classic file format with CRLF line ends,
atomically. The game and the engine's kernel live in zerosum.games.maxconnect4; the one
search driver (zerosum.search.driver) runs it; this module only parses, calls and prints.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from zerosum.console import guarded, read_answer
from zerosum.convert import parse_int, shown
from zerosum.fileio import check_writable, read_text, write_atomic
from zerosum.game import AnyGame, InputError
from zerosum.games.maxconnect4 import (
    BOARD,
    COLS,
    FILE_LIMIT,
    MaxConnect4,
    Position,
    drop_cell,
    empty_position,
    format_board,
    framed,
    parse_board,
    play,
    score_line,
)
from zerosum.games.registry import get_game
from zerosum.match import Agent, MatchObserver, Move, play_match
from zerosum.players.agents import ComputerAgent
from zerosum.players.catalogue import Choice, kind_of
from zerosum.players.terminal import Quit, Watch

PROG = "maxconnect4.py"
USAGE = (
    f"usage: {PROG} one-move INPUT OUTPUT DEPTH | "
    f"interactive INPUT computer-next|human-next DEPTH"
)
COMPUTER_FILE = "computer.txt"
HUMAN_FILE = "human.txt"
MAX_DEPTH = 42  # the cells of the board: no search goes deeper
# Whether the computer moves next. The course's command line says computer-next and
# human-next, its description of that argument computer-first and human-first: both.
WHO_MOVES = {"computer-next": True, "human-next": False,
             "computer-first": True, "human-first": False}


class UsageError(InputError):
    """A malformed command line: its message ends with the usage, on the same line."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem} ({USAGE})")


@guarded(PROG)
def main(argv: Sequence[str]) -> int:
    mode, source, third, depth = parse_args(argv)
    if mode == "one-move":
        check_writable(third)  # before the search: a typo costs no time
        return one_move(source, third, depth, sys.stdout)
    check_writable(COMPUTER_FILE)
    check_writable(HUMAN_FILE)
    return interactive(source, WHO_MOVES[third], depth, sys.stdin, sys.stdout)


def parse_args(argv: Sequence[str]) -> tuple[str, str, str, int]:
    if len(argv) != 4:
        raise UsageError(f"expected 4 arguments, got {len(argv)}")
    mode, source, third, depth_text = argv
    if mode not in ("one-move", "interactive"):
        raise UsageError(f"unknown mode {shown(mode)}: use one-move or interactive")
    if mode == "interactive" and third not in WHO_MOVES:
        raise UsageError(f"expected computer-next or human-next, not {shown(third)}")
    try:
        depth = parse_int(depth_text, "DEPTH", lo=1, hi=MAX_DEPTH)
    except InputError as e:
        raise UsageError(str(e)) from None
    return mode, source, third, depth


def show(out: TextIO, title: str, pos: Position) -> None:
    out.write(f"{title}\n{framed(pos)}\n{score_line(pos)}\n\n")


def board_full(out: TextIO) -> None:
    out.write("BOARD FULL\n\nGame Over!\n\n")


def announce(out: TextIO, before: Position, col: int, after: Position) -> None:
    out.write(f"\n\nmove {after.pieces}: Player {before.next_player}, column {col + 1}\n\n")
    show(out, "Game state after move:", after)


def read_board(source: str) -> Position:
    """The board in INPUT, or the empty board (player 1 next) if INPUT does not exist, in
    both modes as the course says. Any board the file format allows is played: the
    course limits a file only by its format (a 6x7 grid of 0, 1, 2 with no piece
    floating, then the next player), not by piece counts that alternating play gives."""
    if not os.path.exists(source):
        return empty_position()
    return parse_board(read_text(source, "input file", FILE_LIMIT), source, counts=False)


def one_move(source: str, target: str, depth: int, out: TextIO) -> int:
    pos = read_board(source)
    out.write("\nMaxConnect-4 game\n\n")
    show(out, "Game state before move:", pos)
    if (pos.p1 | pos.p2) == BOARD:
        board_full(out)
        return 0
    col = engine(depth).analyse(MaxConnect4(), pos).action
    after = play(pos, col)
    announce(out, pos, col, after)
    write_atomic(target, format_board(after), "\r\n")
    return 0


def interactive(source: str, computer_next: bool, depth: int, inp: TextIO, out: TextIO) -> int:
    pos = read_board(source)
    game = MaxConnect4()
    # The search runs under a Watch: a progress line while it thinks, Ctrl-C asks.
    computer = Computer(depth, Watch(inp, out))
    human = Human(inp, out)
    first, second = (computer, human) if computer_next else (human, computer)
    agents: list[Agent] = [first, second] if pos.p1_to_move else [second, first]
    out.write("\nMaxConnect-4 game\n\n")
    show(out, "Game state before move:", pos)
    try:
        record = play_match(game, agents, pos, observer=Recorder(out, agents.index(computer)))
    except Quit:
        return 130
    if record.abandoned:
        out.write("\nEnd of input: the game stops here.\n")
        return 0
    board_full(out)
    out.write(outcome(record.final_state) + "\n")
    return 0


def engine(depth: int) -> ComputerAgent:
    """The game's engine player of the catalogue, to a fixed depth."""
    spec = get_game("maxconnect4")
    player = kind_of(spec, "engine").make(spec, Choice(depth=depth))
    assert isinstance(player, ComputerAgent)  # the engine searches
    return player


class Computer:
    """The engine to a fixed depth; one table for the whole game (the memory kept for the
    game object), so later moves reuse earlier work."""

    name = "computer"

    def __init__(self, depth: int, watch: Watch) -> None:
        self.engine, self.watch = engine(depth), watch

    def choose(self, game: AnyGame, state: Position) -> Move:
        engine = self.engine
        result = self.watch.run(game, state, lambda: engine.start(game, state))
        return Move(result.action, result)


class Human:
    """The person: asked for a column until a valid one is typed."""

    name = "human"

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out

    def choose(self, game: AnyGame, state: Position) -> Move:
        return Move(ask_column(state, self.inp, self.out))


class Recorder(MatchObserver):
    """After each move: the move and the board as the sample program printed them, and
    the board saved to computer.txt or human.txt, by who moved."""

    def __init__(self, out: TextIO, computer_side: int) -> None:
        self.out, self.computer_side = out, computer_side

    def after_move(self, game: AnyGame, state: Position, side: int, move: Move) -> None:
        after = game.result(state, move.action)
        announce(self.out, state, move.action, after)
        saved = COMPUTER_FILE if side == self.computer_side else HUMAN_FILE
        write_atomic(saved, format_board(after), "\r\n")


def ask_column(pos: Position, inp: TextIO, out: TextIO) -> int:
    """The human's column (0-6), asked until valid; EndOfInput at the end of the input."""
    mask = pos.p1 | pos.p2
    while True:
        text = read_answer(inp, out, f"Player {pos.next_player}, your move: a column 1-7: ")
        try:
            return check_column(text, mask)
        except InputError as e:
            out.write(f"{e}\n")


def check_column(text: str, mask: int) -> int:
    try:
        number = parse_int(text)
    except InputError:
        raise InputError(f"Not a column number: {shown(text)}. Type 1-7.") from None
    if not 1 <= number <= COLS:
        raise InputError(f"There is no column {number}. Type 1-7.")
    if not drop_cell(mask, number - 1):
        raise InputError(f"Column {number} is full. Choose another.")
    return number - 1


def outcome(pos: Position) -> str:
    return MaxConnect4().outcome(pos) + "."


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
