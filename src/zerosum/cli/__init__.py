"""The `zerosum` command. Each module of this package adds one subcommand through its
`register(subparsers)`; nothing here needs to change when a command is added."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from zerosum.console import Parser, guarded
from zerosum.plugins import import_submodules


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="zerosum",
        description="Play and solve two-player, perfect-information, zero-sum games "
        "with adversarial search.",
    )
    from zerosum import __version__, native

    parser.add_argument("--version", action="version",
                        version=f"zerosum {__version__} ({native.status()})")
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
    return run(args)


@guarded("zerosum", label="zerosum: error")
def run(args: argparse.Namespace) -> int:
    status: int = args.func(args)
    return status
