"""The terminal's side of a match: the person at the keyboard (`HumanAgent`) and `Watch`,
which runs a computer player's search in a worker thread while the person waits: a live
progress line, and Ctrl-C turned into a question (play the best move so far, think on,
quit). The web server and tournament workers never import it.
"""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TextIO

from zerosum.console import read_answer
from zerosum.game import AnyGame, InputError, Unresponsive
from zerosum.match import Move
from zerosum.players.agents import playable
from zerosum.result import SearchResult, depth_text
from zerosum.running import Progress, Running

WIDTH = 79  # of a line a person reads, wrapped between words


class Quit(Exception):
    """The person chose to leave while the computer was thinking (or pressed Ctrl-C twice)."""


def progress_line(p: Progress) -> str:
    """The live line shown while a search runs: depth reached, nodes, speed, time."""
    depth = f"{depth_text(p.depth, p.unit)}, " if p.depth else ""
    return (f"Thinking: {depth}{p.nodes:,} {p.unit}, {p.rate:,.0f} {p.unit}/s, "
            f"{p.elapsed:.1f} s (Ctrl-C to stop)")


STOPPED_HELP = """  p (or Enter): play the best move found so far
  c: continue thinking (the search starts again, keeping what it can)
  q: quit the game"""


STOP_WAIT = 2.0  # seconds a stopped search may take to answer before it is given up


class Watch:
    """Runs a computer player's search in a worker thread while the calling thread
    waits: after `delay` seconds it shows a live progress line (redrawn every
    `interval` seconds, only when `out` is a terminal), and Ctrl-C stops the search and
    asks whether to play the best move so far, think on, or quit.

    `clock` measures the elapsed time shown (tests give a stepping one). `start()`
    starts the search afresh (a Running: ComputerAgent.start, PlayerKind.start), each
    time the person asks it to think on; its Infos feed the live line.
    """

    def __init__(self, inp: TextIO, out: TextIO, clock: Callable[[], float] = time.perf_counter,
                 delay: float = 0.5, interval: float = 0.25) -> None:
        self.inp, self.out, self.clock = inp, out, clock
        self.delay, self.interval = delay, interval
        self.shown = 0  # length of the progress line on the screen, 0 if none

    def run(self, game: AnyGame, state: Any,
            start: Callable[[], Running[SearchResult]]) -> SearchResult:
        while True:
            running = start()
            try:
                self.wait(running)
            except KeyboardInterrupt:
                running.stop()  # every search answers a stop within a few milliseconds
                self.clear()
                try:
                    answered = running.wait(STOP_WAIT)
                except KeyboardInterrupt:
                    raise Quit from None
                if not answered:  # stuck in a game's own code, which checks no stop
                    raise Unresponsive(f"the search did not stop within {STOP_WAIT:g} s "
                                       "of Ctrl-C") from None
                result = playable(game, state, running.result())
                if self.ask(game, running.progress(), result) == "c":
                    continue
                return result
            self.clear()
            return running.result()

    def wait(self, running: Running[SearchResult]) -> None:
        start = self.clock()
        tty = self.out.isatty()
        while not running.wait(self.interval):
            elapsed = self.clock() - start
            if tty and elapsed >= self.delay:
                self.draw(progress_line(replace(running.progress(), elapsed=elapsed)))

    def draw(self, text: str) -> None:
        self.out.write("\r" + text.ljust(self.shown))
        self.out.flush()
        self.shown = max(self.shown, len(text))  # what clear() must blank

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r" + " " * self.shown + "\r")
            self.out.flush()
            self.shown = 0

    def ask(self, game: AnyGame, progress: Progress, result: SearchResult) -> str:
        """'p' or 'c'; raises Quit on 'q', end of input or a second Ctrl-C."""
        where = f"at {depth_text(progress.depth, progress.unit)}" if progress.depth else "early"
        move = game.format_move(result.action) if result.action is not None else "none"
        if math.isinf(result.value):
            move = f"none judged yet; it would play {move}"
        question = (f"\nSearch stopped {where} (best so far: {move}). "
                    "[p]lay it, [c]ontinue thinking, [q]uit? ")
        while True:
            self.out.write(question)
            self.out.flush()
            try:
                line = self.inp.readline()
            except KeyboardInterrupt:
                raise Quit from None
            if not line:
                raise Quit
            answer = line.strip().lower()
            if answer in ("", "p", "play"):
                return "p"
            if answer in ("c", "continue"):
                return "c"
            if answer in ("q", "quit"):
                raise Quit
            if answer != "?":
                self.out.write(f"Please answer p, c or q (not {line.strip()!r}).")
            self.out.write("\n" + STOPPED_HELP)
            question = "\n[p]lay it, [c]ontinue thinking, [q]uit? "


class HumanAgent:
    """Reads moves from a text stream; re-asks on an illegal move, `?` shows help."""

    def __init__(self, inp: TextIO, out: TextIO, prompt: str = "Your move (? for help): "):
        self.name = "human"
        self.inp, self.out, self.prompt = inp, out, prompt

    def legal_moves(self, game: AnyGame, state: Any) -> str:
        """`Legal moves: ...` in the game's notation, wrapped between moves (a terminal
        would split a move where the line reaches its edge)."""
        moves = " ".join(game.format_move(a) for a in game.actions(state))
        return textwrap.fill(f"Legal moves: {moves}", WIDTH, subsequent_indent="  ",
                             break_long_words=False, break_on_hyphens=False)

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        while True:
            text = read_answer(self.inp, self.out, self.prompt)
            if not text:
                continue
            if text == "?":
                help_lines = [textwrap.fill(line, WIDTH, break_long_words=False,
                                            break_on_hyphens=False) if line else line
                              for line in game.move_help().splitlines()]
                self.out.write("\n".join(help_lines) + f"\n{self.legal_moves(game, state)}\n")
                continue
            try:
                action = game.parse_move(state, text)
            except InputError as e:
                self.out.write(f"Invalid move: {e}\n{self.legal_moves(game, state)}\n")
                continue
            except ValueError:  # a game's own parse gave no message for a person
                self.out.write(f"Invalid move: {text!r} is not a move here\n"
                               f"{self.legal_moves(game, state)}\n")
                continue
            return Move(action, None, time.perf_counter() - t0)


