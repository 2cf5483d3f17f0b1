"""`zerosum solve GAME POSITION`: the exact value of a position, its best moves and a
principal variation, from a game's perfect solver.

The games offered are those whose GameSpec declares a `solver` (see games/registry.py):
it adds its arguments to the game's subparser and returns the report as (label, text)
rows, yielded as each is proven (the command prints each at once).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from zerosum.cli.table import StderrProgress
from zerosum.games.registry import all_games, get_game

LABEL_WIDTH = 20  # the longest label, 'principal variation', and its colon


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a position exactly (score, best moves, line)",
                       description="Solve a position with a game's perfect solver.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="solve_game", required=True)
    for spec in all_games():
        if spec.solver is not None:
            g = games.add_parser(spec.name, help=spec.solver.help,
                                 description=spec.solver.description)
            spec.solver.add_arguments(g)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    solver = get_game(args.solve_game).solver
    assert solver is not None  # only games with a solver have a subparser
    cpu0 = time.process_time()
    # Long solves report on stderr as `zerosum table` does (after 2 s); stdout keeps
    # only the answer.
    args.progress = StderrProgress()
    for label, text in solver.rows(args):
        print(f"{label + ':':<{LABEL_WIDTH}} {text}", flush=True)
    print(f"{'CPU time:':<{LABEL_WIDTH}} {time.process_time() - cpu0:.3f} s")
    return 0
