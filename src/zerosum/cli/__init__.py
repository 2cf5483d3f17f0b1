"""The `zerosum` command. Each module of this package adds one subcommand through its
`register(subparsers)`; nothing here needs to change when a command is added."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from zerosum.cli.common import Parser
from zerosum.game import InputError
from zerosum.plugins import import_submodules


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="zerosum",
        description="Play and solve two-player, perfect-information, zero-sum games "
        "with adversarial search.",
    )
    from zerosum import __version__

    parser.add_argument("--version", action="version", version=f"zerosum {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=Parser)
    for module in import_submodules("zerosum.cli"):
        if hasattr(module, "register"):
            module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
        return status
    except InputError as e:
        print(f"zerosum: error: {e}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        print(f"zerosum: error: input is not UTF-8 text (byte {e.start})", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as e:
        name = f" {e.filename}:" if e.filename else ""
        print(f"zerosum: error:{name} {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
