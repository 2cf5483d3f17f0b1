"""`zerosum solve GAME POSITION`: the exact value of a position, its best moves and a
principal variation, from a game's perfect solver.

Each game with a solver adds one entry to SOLVERS: a function adding its arguments to
its subparser and a function returning the report as (label, text) rows, yielded as each
is proven (the command prints each at once). The entry imports its game only when run,
so `zerosum --help` stays quick.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

Rows = Iterator[tuple[str, str]]
LABEL_WIDTH = 20  # the longest label, 'principal variation', and its colon


@dataclass(frozen=True)
class SolverEntry:
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Rows]


def _connect4_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", metavar="POSITION",
                   help="the columns played from the empty board, 1 = leftmost (e.g. 4455; "
                        "'-' for the empty board), or a course string of rows bottom first "
                        "(e.g. '.ryyrry,.rryry.,..y.r..,..y....,.......,.......')")
    p.add_argument("--weak", action="store_true",
                   help="only win, draw or loss (faster), no best moves")
    p.add_argument("--no-pv", action="store_true", help="skip the principal variation")
    p.add_argument("--all-moves", action="store_true",
                   help="also the exact score of every move (can be much slower)")
    from zerosum.convert import int_arg

    p.add_argument("--width", type=int_arg(4, 12), default=7, help="columns (default: %(default)s)")
    p.add_argument("--height", type=int_arg(4, 12), default=6, help="rows (default: %(default)s)")


def _connect4_run(args: argparse.Namespace) -> Rows:
    from zerosum.games.connect4.analysis import solve_rows

    return solve_rows(args.position, args.width, args.height, weak=args.weak,
                      pv=not args.no_pv, all_scores=args.all_moves)


SOLVERS: dict[str, SolverEntry] = {
    "connect4": SolverEntry(
        "Connect Four (pure-Python strong solver)",
        "Solve a Connect Four position exactly. Score as in Pascal Pons's benchmark sets: "
        "0 draw; +n: the player to move wins with the stone that is their (22-n)-th "
        "on 7x6; -n: they lose likewise. Positions with many empty cells can take "
        "very long (the empty board: hours).",
        _connect4_arguments,
        _connect4_run,
    ),
}


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a position exactly (score, best moves, line)",
                       description="Solve a position with a game's perfect solver.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="solve_game", required=True)
    for name, entry in SOLVERS.items():
        g = games.add_parser(name, help=entry.help, description=entry.description)
        entry.add_arguments(g)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    entry = SOLVERS[args.solve_game]
    cpu0 = time.process_time()
    for label, text in entry.run(args):
        print(f"{label + ':':<{LABEL_WIDTH}} {text}", flush=True)
    print(f"{'CPU time:':<{LABEL_WIDTH}} {time.process_time() - cpu0:.3f} s")
    return 0
