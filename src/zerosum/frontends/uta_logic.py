"""check_true_false.py: the wumpus-world checker of the classic logic assignment.

    check_true_false.py RULES ADDITIONAL_KB STATEMENT [--method dpll|tt]

Reads the rules, the additional knowledge (facts an agent gathered) and the first sentence
of the statement file (the lines after it are not read), all in the strict prefix format
with the wumpus world's symbols only, blank lines empty; decides what the rules and
facts together say about the statement; writes that answer to result.txt in the working
directory and prints it.
"""

from __future__ import annotations

from collections.abc import Sequence

from zerosum.console import Parser, guarded
from zerosum.fileio import check_writable, write_atomic
from zerosum.game import InputError
from zerosum.logic import METHODS, WUMPUS_SYMBOLS, Expr, check, read_sentences

PROG = "check_true_false.py"
RESULT = "result.txt"
SYMBOLS_HELP = "the wumpus world's symbols are M_i_j, S_i_j, P_i_j and B_i_j, i and j in 1..4"


def read_wumpus_sentences(path: str, what: str, first: bool = False) -> list[Expr]:
    """Sentences over the wumpus world's symbols only, read as the course states its
    format (a blank line is empty; with `first`, only the first sentence is read)."""
    return read_sentences(path, what, WUMPUS_SYMBOLS, SYMBOLS_HELP, classic=True, first=first)


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
    check_writable(RESULT)  # now, not after the search

    kb = read_wumpus_sentences(args.rules, "rules file")
    kb += read_wumpus_sentences(args.knowledge, "additional knowledge file")
    # "only the first one is read": the lines after it are not looked at
    statements = read_wumpus_sentences(args.statement, "statement file", first=True)
    if not statements:
        raise InputError(f"statement file {args.statement}: no statement in it")
    statement = statements[0]

    answer = check(kb, statement, args.method)
    write_atomic(RESULT, f"{answer}\n")
    print(answer)
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
