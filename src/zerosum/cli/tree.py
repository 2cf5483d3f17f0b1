"""`zerosum tree FILE`: minimax or alpha-beta over an explicit game tree, explained."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from zerosum.explain import explain_tree
from zerosum.fileio import read_text
from zerosum.games.tree import FILE_LIMIT, TreeGame


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tree",
        help="search an explicit game tree (textbook exercises)",
        description="Search a game tree given in the bracket format, e.g. "
        "'A[B[3 12 8] C[2 4 6] D[14 5 2]]' (AIMA figure 5.2), and report every node's "
        "value, alpha and beta, and the pruned branches. FILE '-' reads standard input.",
    )
    p.add_argument("file", metavar="FILE", help="the tree file ('-' for standard input)")
    p.add_argument("--algorithm", choices=("minimax", "alphabeta"), default="alphabeta")
    p.add_argument("--explain", action="store_true", help="show every node, not just the answer")
    p.add_argument("--steps", action="store_true",
                   help="show the search step by step: each node entered with its window, "
                   "each return, each cut")
    p.add_argument("--min-first", action="store_true", help="Min moves at the root")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file, "tree file", FILE_LIMIT)
    game = TreeGame.from_text(text, max_first=not args.min_first)
    sys.stdout.write(explain_tree(game, args.algorithm, args.explain, args.steps))
    return 0
