"""The classic assignment front-ends: one module each, `main(argv) -> exit status`.

They only parse arguments, call the library and print. `guarded` gives them all the
same behaviour on bad input: one line on stderr naming the problem, exit status 2.

They are not programs themselves: the assignment launchers and `zerosum assignment NAME`
run them; `python -m zerosum.frontends.X` prints a one-line pointer to those, exit 2.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TypeVar

from zerosum.convert import one_line
from zerosum.game import InputError

T = TypeVar("T")
Main = Callable[[T], int]  # a front-end's main takes argv; the command's, its Namespace


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
