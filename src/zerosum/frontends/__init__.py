"""The classic assignment front-ends: one module each, `main(argv) -> exit status`.

They only parse arguments, call the library and print. `guarded` gives them all the
same behaviour on bad input: one line on stderr naming the problem, exit status 2.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence

from zerosum.game import InputError

Main = Callable[[Sequence[str]], int]


def guarded(prog: str) -> Callable[[Main], Main]:
    """Wrap a front-end's main: InputError and OS errors become `prog: message`, exit 2."""

    def wrap(main: Main) -> Main:
        @functools.wraps(main)
        def run(argv: Sequence[str]) -> int:
            try:
                return main(argv)
            except InputError as e:
                print(f"{prog}: {e}", file=sys.stderr)
                return 2
            except OSError as e:
                name = f" {e.filename}:" if e.filename else ""
                print(f"{prog}:{name} {e.strerror or e}", file=sys.stderr)
                return 2
            except KeyboardInterrupt:
                print(f"\n{prog}: interrupted", file=sys.stderr)
                return 130

        return run

    return wrap
