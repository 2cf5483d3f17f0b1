"""`zerosum review GAME RECORD`: every move of a recorded game with the value after it,
and the moves that threw a win away or turned a draw into a loss (zerosum.review).

The record is a file in the formats the project writes (`zerosum results --export`, the
browser's "Download record"): checkers PDN, Connect Four's move string, the moves one a
line. The game's options (a board size) come as flags, as in `zerosum play GAME`, since
a record does not say them.
"""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.table import StderrProgress
from zerosum.convert import int_arg, positive_depth_arg
from zerosum.fileio import read_text
from zerosum.game import InputError, side_to_move
from zerosum.games.registry import add_options, all_games, get_game
from zerosum.review import (
    DEFAULT_BUDGET,
    Valuer,
    read_records,
    replay_record,
    review,
    undecided,
)

MAX_BUDGET = 100_000_000
# What a record file holds, by the style a game's registration declares (GameSpec.record).
RECORD_HELP = {
    "pdn": "the record file, in PDN (1. 11-15 22-18 ...)",
    "move-string": "the record file: the moves one a line, numbered (1. 4) or bare (4), "
                   "or the move string (4453)",
    "plain": "the record file: the moves one a line, numbered (1. 5) or bare (5)",
}


def register(sub: Any) -> None:
    p = sub.add_parser("review", help="a recorded game's value after every move, "
                       "and its mistakes",
                       description="Review a recorded game: the value after each move "
                       "(exact where a solver settles it within its budget, else the "
                       "engine's estimate at a stated depth) and the moves that threw a "
                       "win away or turned a draw into a loss.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="review_game",
                             required=True)
    for spec in all_games():
        g = games.add_parser(spec.name, help=f"review a {spec.title} record",
                             description=f"Review a {spec.title} record.")
        g.add_argument("record", metavar="RECORD",
                       help=RECORD_HELP[spec.record])
        g.add_argument("--number", type=int_arg(1, 1_000_000, "games"), default=1,
                       metavar="N", help="which game of a file holding several "
                       "(a tournament's export; default: %(default)s)")
        g.add_argument("--budget", type=int_arg(1, MAX_BUDGET), default=DEFAULT_BUDGET,
                       metavar="N", help="the exact solver's budget for a position: "
                       "positions for the generic solver, nodes for a game's own "
                       "(default: %(default)s)")
        g.add_argument("--depth", type=positive_depth_arg, default=spec.default_depth,
                       help="the depth of the estimates where no exact value is found "
                       "(default: %(default)s)")
        add_options(g, spec.options)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = get_game(args.review_game)
    game = spec.create(**{o.name: getattr(args, o.name) for o in spec.options})
    text = read_text(args.record, "record")
    records = read_records(text, spec.record)  # the style its game declares
    if args.number > len(records):
        raise InputError(f"{args.record} holds {len(records)} game"
                         f"{'s' if len(records) != 1 else ''}, not {args.number}")
    record = records[args.number - 1]
    states = replay_record(spec, game, record)
    valuer = Valuer(spec, game, args.budget, args.depth, StderrProgress())
    values = valuer.all(states)
    which = f", game {args.number} of {len(records)}" if len(records) > 1 else ""
    print(f"{spec.title}{which}: {len(record.moves)} moves; values {valuer.describe()}")
    rows = [("start", values[0].text(game, side_to_move(game, states[0])), "")]
    reviewed = review(game, states, record.moves, values)
    for r in reviewed:
        marked = f"  <- {r.mover} {r.verdict}" if r.verdict else ""
        rows.append((f"{r.number}. {r.mover} {r.text}", r.value_text(game), marked))
    width = max(len(label) for label, _, _ in rows)
    for label, value, marked in rows:
        print(f"{label:<{width}}  {value}{marked}".rstrip())
    end = states[-1]
    print(game.outcome(end) if game.is_terminal(end) else "unfinished")
    left = undecided(reviewed)
    if left:
        # Said, so that no flagged mistake reads as "no mistake was made".
        print(f"not decided: after move{'s' if '-' in left or ',' in left else ''} {left} "
              "the value is an estimate, and a mistake there cannot be told; a larger "
              f"--budget (now {args.budget:,}) may decide more")
    return 0
