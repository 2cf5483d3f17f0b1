"""How every program of zerosum starts: the assignment launchers, the `zerosum` command
and `python -m zerosum`.

1. Ctrl-C while the program is still starting (importing its modules) exits with status
   130 and prints nothing: a KeyboardInterrupt traceback from the middle of an import
   says nothing useful. Python's own handler comes back just before the program's main,
   so a program's own Ctrl-C handling (the front-ends' guard) works as before. The
   launchers install the same handler in their first lines, before finding this module.
2. On a Python older than the package supports, one line names the version needed, exit
   status 2. That is why this module, and zerosum/__init__.py that is imported with it,
   must stay valid Python 3.6: no `from __future__ import annotations`, no `:=`, no
   `match`, no `X | Y` or `list[str]` evaluated at run time.

Nothing is imported at the top but what the interpreter has loaded already (sys, and
os which site imports, and this package's root, loaded to find this module), so that the
handler is in place before any real work.
"""

import os
import sys

from zerosum import REQUIRES

TYPE_CHECKING = False  # typing itself would be one more import before the handler
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    Main = Callable[[Sequence[str] | None], int]

# _signal, the core of signal, comes loaded with CPython; `import signal` would first
# import enum, tens of milliseconds on a busy machine, all of them open to Ctrl-C.
signals = sys.modules.get("_signal") or __import__("signal")


def quiet_interrupt(signum: int, frame: object) -> None:
    # At once: nothing of the program has run yet. (SystemExit would do, but an exception
    # raised where Python ignores them, e.g. in a weakref callback, would only be printed.)
    os._exit(130)


def start(prog: str) -> None:
    """Ctrl-C quiet from here on; stop with one line on a Python that is too old."""
    signals.signal(signals.SIGINT, quiet_interrupt)
    if sys.version_info < REQUIRES:
        needed = ".".join(map(str, REQUIRES))
        this = ".".join(map(str, sys.version_info[:3]))
        sys.stderr.write(f"{prog}: needs Python {needed} or newer (this is Python {this})\n")
        sys.exit(2)


def ready() -> None:
    """Start-up is over: Ctrl-C raises KeyboardInterrupt again, for the program to handle."""
    signals.signal(signals.SIGINT, signals.default_int_handler)


def launch(target: str, *extra: str) -> int:
    """Run `module:function` as the program named by sys.argv[0], with the command-line
    arguments followed by `extra`; its exit status."""
    start(os.path.basename(sys.argv[0]))
    module, _, name = target.partition(":")
    __import__(module)
    main = getattr(sys.modules[module], name)
    ready()
    return run(main, sys.argv[1:] + list(extra))


def zerosum_main() -> int:
    """The `zerosum` command (console script and `python -m zerosum`)."""
    start("zerosum")
    from zerosum.cli import main
    from zerosum.plugins import import_submodules

    import_submodules("zerosum.cli")  # the subcommands: the rest of the start-up's imports
    ready()
    return run(main, None)


def run(main: "Main", argv: "Sequence[str] | None") -> int:
    """main(argv)'s exit status. Its own guard answers Ctrl-C; one before it has started
    (the command line being parsed) still exits 130 quietly."""
    try:
        status: int = main(argv)
    except KeyboardInterrupt:
        return 130
    return status
