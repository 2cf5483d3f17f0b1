"""check_true_false.py: the wumpus-world checker of the classic logic assignment.

    check_true_false.py RULES ADDITIONAL_KB STATEMENT [--method dpll|tt]

Reads the rules, the additional knowledge (facts an agent gathered) and the first sentence
of the statement file, all in the strict prefix format with the wumpus world's symbols
only; decides what the rules and facts together say about the statement; writes that
answer to result.txt in the working directory and prints it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from zerosum.cli.common import Parser
from zerosum.fileio import read_text, write_atomic
from zerosum.frontends import guarded
from zerosum.game import InputError
from zerosum.logic import METHODS, WUMPUS_SYMBOLS, Expr, check, parse
from zerosum.logic.truthtable import unfixed_symbols

PROG = "check_true_false.py"
RESULT = "result.txt"
# Beyond this many symbols to enumerate, warn that the truth table will take long.
TT_WARN = 28
SYMBOLS_HELP = "the wumpus world's symbols are M_i_j, S_i_j, P_i_j and B_i_j, i and j in 1..4"


def read_sentences(path: str, what: str) -> list[Expr]:
    return parse(read_text(path, what), path, WUMPUS_SYMBOLS, SYMBOLS_HELP)


@guarded(PROG)
def main(argv: Sequence[str]) -> int:
    parser = Parser(
        prog=PROG,
        description="Decide whether the wumpus rules plus the additional knowledge make a "
        "statement definitely true, definitely false, possibly true or false, or both "
        "(the knowledge is contradictory). Writes the answer to result.txt and prints it.",
    )
    parser.add_argument("rules", metavar="RULES", help="the wumpus rules file")
    parser.add_argument("knowledge", metavar="ADDITIONAL_KB", help="the additional knowledge")
    parser.add_argument("statement", metavar="STATEMENT", help="the statement (first one used)")
    parser.add_argument(
        "--method",
        choices=tuple(METHODS),
        default="dpll",
        help="dpll (default: fast) or tt (truth-table enumeration, fast when the "
        "knowledge fixes most symbols)",
    )
    args = parser.parse_args(argv)

    kb = read_sentences(args.rules, "rules file")
    kb += read_sentences(args.knowledge, "additional knowledge file")
    statements = read_sentences(args.statement, "statement file")
    if not statements:
        raise InputError(f"statement file {args.statement}: no statement in it")
    statement = statements[0]

    if args.method == "tt" and len(unfixed := unfixed_symbols(kb, statement)) > TT_WARN:
        print(
            f"{PROG}: note: the truth table has 2^{len(unfixed)} rows (the knowledge fixes "
            f"only {len(WUMPUS_SYMBOLS) - len(unfixed)} symbols): this may take very long; "
            "--method dpll answers at once",
            file=sys.stderr,
        )
    answer = check(kb, statement, args.method)
    write_atomic(RESULT, f"{answer}\n")
    print(answer)
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.cli.assignment import not_a_program

    raise SystemExit(not_a_program())
