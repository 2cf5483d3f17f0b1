"""The `zerosum` command. Each module of this package adds one subcommand through its
`register(subparsers)`; nothing here needs to change when a command is added."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from zerosum.console import Parser, guarded
from zerosum.plugins import import_submodules


class Version(argparse.Action):
    """--version: the line as it is (argparse's own action wraps it at the terminal's
    width, and the list of native kernels makes it long)."""

    def __init__(self, option_strings: Sequence[str], dest: str, version: str,
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         **kwargs)
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(self.version)
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="zerosum",
        description="Play and solve two-player, perfect-information, zero-sum games "
        "with adversarial search.",
    )
    from zerosum import __version__, native

    parser.add_argument("--version", action=Version, nargs=0,
                        version=f"zerosum {__version__} ({native.status()})",
                        help="show the version and which native kernels are in use, and exit")
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
