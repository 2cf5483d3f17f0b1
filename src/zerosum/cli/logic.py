"""`zerosum logic`: propositional entailment over files in the prefix format, and the
wumpus world's rules."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from zerosum.game import InputError
from zerosum.logic import (
    METHODS,
    check,
    clause_form,
    parse,
    read_sentences,
    wumpus_rules,
    wumpus_rules_text,
)
from zerosum.logic.truthtable import unfixed_symbols


def register(sub: Any) -> None:
    p = sub.add_parser(
        "logic",
        help="propositional entailment (truth table, DPLL) and the wumpus rules",
        description="Propositional logic in the prefix format of the classic wumpus-world "
        "assignment: one sentence a line, a symbol or (connective operand ...), connectives "
        "and, or, xor (exactly one), not, if, iff.",
    )
    commands = p.add_subparsers(title="commands", metavar="COMMAND")
    c = commands.add_parser(
        "check",
        help="what a knowledge base says about a statement",
        description="Decide whether the knowledge (all the sentences of the files, any "
        "symbols) makes the statement definitely true, definitely false, possibly true or "
        "false, or both (the knowledge is contradictory). FILE '-' reads standard input.",
    )
    c.add_argument("files", metavar="FILE", nargs="*", help="knowledge base files")
    what = c.add_mutually_exclusive_group(required=True)
    what.add_argument("-s", "--statement", metavar="SENTENCE", help="the statement itself")
    what.add_argument("-f", "--statement-file", metavar="FILE", help="its first sentence")
    c.add_argument("--wumpus", action="store_true", help="add the wumpus world's rules")
    c.add_argument("--method", choices=(*METHODS, "both"), default="dpll")
    c.add_argument("--stats", action="store_true", help="sizes and CPU time on stderr")
    c.set_defaults(func=run_check)
    r = commands.add_parser(
        "rules",
        help="print the wumpus world's rules",
        description="Print the rules of the 4x4 wumpus world, as in "
        "assignments/uta-logic/wumpus_rules.txt.",
    )
    r.set_defaults(func=run_rules)
    p.set_defaults(func=lambda args: p.print_help() or 0)


def run_check(args: argparse.Namespace) -> int:
    kb = wumpus_rules() if args.wumpus else []
    for path in args.files:
        kb += read_sentences(path, "knowledge file")
    if args.statement is not None:
        statements = parse(args.statement, "--statement")
    else:
        statements = read_sentences(args.statement_file, "statement file")
    if not statements:
        raise InputError("no statement given")
    statement = statements[0]
    answers = set()
    for method in METHODS if args.method == "both" else (args.method,):
        start = time.process_time()
        answer = check(kb, statement, method)
        seconds = time.process_time() - start
        answers.add(answer)
        if args.stats:
            if method == "tt":
                size = f"{len(unfixed_symbols(kb, statement))} symbols enumerated"
            else:
                cnf = clause_form(kb)
                size = f"knowledge base: {len(cnf.clauses)} clauses, {cnf.num_vars} variables"
            print(f"{method}: {answer} ({size}; {seconds:.4f} s CPU)", file=sys.stderr)
    for answer in answers:
        print(answer)
    return 0


def run_rules(args: argparse.Namespace) -> int:
    sys.stdout.write(wumpus_rules_text())
    return 0
