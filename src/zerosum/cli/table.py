"""`zerosum table GAME`: one search per case (e.g. per board size), printed as a table.

Each game with a table registers a `zerosum.reports.TableSpec`; its options become the
flags of `zerosum table GAME`, so a new game adds its table without touching this file.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from zerosum.console import Parser
from zerosum.reports import FORMATS, TableSpec, all_tables, write


def register(sub: Any) -> None:
    p = sub.add_parser(
        "table",
        help="tables of game values, best moves, nodes and times (e.g. per board size)",
        description="Run one search per case and print a row for each.",
    )
    games = p.add_subparsers(title="games", metavar="GAME", dest="game", parser_class=Parser)
    for spec in all_tables():
        g = games.add_parser(spec.name, help=spec.title, description=spec.description or None)
        for o in spec.options:
            flag = f"--{o.name.replace('_', '-')}"
            if o.type is bool:
                g.add_argument(flag, dest=o.name, action="store_true", help=o.help)
            else:
                default = "" if o.default is None else " (default: %(default)s)"
                g.add_argument(flag, dest=o.name, type=o.type, default=o.default,
                               choices=o.choices, help=f"{o.help}{default}")
        g.add_argument("--format", choices=FORMATS, default="text",
                       help="text (aligned columns), csv or markdown (default: %(default)s)")
        g.set_defaults(spec=spec)
    p.set_defaults(func=run, table_parser=p)


class StderrProgress:
    """Progress lines on stderr, shown once a run has taken more than `after` seconds."""

    def __init__(self, after: float = 2.0) -> None:
        self.start = time.perf_counter()
        self.after = after

    def __call__(self, text: str) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed >= self.after:
            print(f"[{elapsed:6.1f} s] {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        args.table_parser.print_help()
        return 0
    spec: TableSpec = args.spec
    options = {o.name: getattr(args, o.name) for o in spec.options}
    table = spec.build(StderrProgress(), **options)
    write(table, args.format, sys.stdout)  # each row as soon as its search is done
    return 0
