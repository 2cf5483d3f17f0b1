"""The terminal layer every front end shares: the `zerosum` command (cli/) and the
classic assignment programs (frontends/) both build on it and not on each other.

- Parser: an ArgumentParser whose usage errors are one line on stderr, exit status 2.
- guarded: the error guard around a main (bad input -> one line on stderr, exit 2).
- read_answer, ask, choose: prompts that read a line; the end of the input (Ctrl-D,
  the end of a piped file) raises EndOfInput so a session stops cleanly.
- DEPTH_HELP, SECONDS_HELP: the help texts of questions that more than one front end asks.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TextIO, TypeVar

from zerosum.convert import one_line, parse_int
from zerosum.game import InputError

T = TypeVar("T")
Main = Callable[[T], int]  # a front-end's main takes argv; the command's, its Namespace

DEPTH_HELP = """\
  The depth is how many plies ahead the computer looks (a ply: one move, its own
  or yours). Deeper plays better but takes longer: each extra ply multiplies the work.
  0 means to the end of the game: perfect play, offered only where it can finish."""
SECONDS_HELP = "  How long the computer may think about each move, in seconds (e.g. 0.5, 2)."


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are a single line on stderr, exit status 2."""

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # Python 3.11's argparse drops a second '--' given as a positional's value and
        # hands the action [] instead of a string; take it literally, as 3.12 does.
        if action.nargs is None and action.option_strings == [] and arg_strings == ["--"]:
            return self._get_value(action, "--")
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        print(one_line(f"{self.prog}: error: {message} (see {self.prog} --help)"),
              file=sys.stderr)
        raise SystemExit(2)


def guarded(prog: str, label: str | None = None) -> Callable[[Main[T]], Main[T]]:
    """Wrap a main: InputError, undecodable input and OS errors become one line
    `label: message` on stderr (label defaults to `prog`), exit 2; a closed pipe ends
    quietly; Ctrl-C exits 130."""
    head = label or prog

    def wrap(main: Main[T]) -> Main[T]:
        @functools.wraps(main)
        def run(argv: T) -> int:
            try:
                return main(argv)
            except InputError as e:
                print(one_line(f"{head}: {e}"), file=sys.stderr)
                return 2
            except UnicodeDecodeError as e:
                print(f"{head}: input is not UTF-8 text (byte {e.start})", file=sys.stderr)
                return 2
            except BrokenPipeError:
                # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                return 0
            except OSError as e:
                name = f" {e.filename}:" if e.filename else ""
                print(one_line(f"{head}:{name} {e.strerror or e}"), file=sys.stderr)
                return 2
            except KeyboardInterrupt:
                print(f"\n{prog}: interrupted", file=sys.stderr)
                return 130

        return run

    return wrap


class EndOfInput(EOFError):
    """A human's input ended (Ctrl-D, end of a piped file): the game stops cleanly."""


def read_answer(inp: TextIO, out: TextIO, prompt: str) -> str:
    """Show `prompt` and read one line, stripped; at the end of the input, end the
    prompt's line and raise EndOfInput."""
    out.write(prompt)
    out.flush()
    line = inp.readline()
    if not line:
        out.write("\n")
        raise EndOfInput
    return line.strip()


def ask(inp: TextIO, out: TextIO, prompt: str, parse: Callable[[str], T], default: T,
        help: str = "") -> T:
    """Ask until the answer parses; an empty answer takes the default, `?` shows `help`.

    `parse` raises InputError or argparse.ArgumentTypeError with a message for a person.
    """
    while True:
        text = read_answer(inp, out, f"{prompt} [{default}]: ")
        if not text:
            return default
        if text == "?":
            out.write((help or "  Type an answer, or press Enter for the default.") + "\n")
            continue
        try:
            return parse(text)
        except (InputError, argparse.ArgumentTypeError) as e:
            out.write(f"  not valid: {e} (? for help)\n")


def choose(inp: TextIO, out: TextIO, title: str, items: list[tuple[str, str]],
           default: int = 1, help: str = "") -> str:
    """A numbered menu; returns the chosen item's key."""
    out.write(f"\n{title}\n")
    for i, (_, text) in enumerate(items, 1):
        out.write(f"  {i}. {text}\n")

    def pick(text: str) -> int:
        return parse_int(text, "the choice", lo=1, hi=len(items))

    help = help or "\n".join(f"  {i}: {text}" for i, (_, text) in enumerate(items, 1))
    return items[ask(inp, out, "Choice", pick, default,
                     help + "\n  Type the number of your choice.") - 1][0]
