"""Propositional logic (AIMA chapter 7): sentences in the classic prefix format,
entailment by truth-table enumeration and by DPLL, and the wumpus world's rules.

    from zerosum.logic import parse, check
    kb = parse(open("wumpus_rules.txt").read(), "wumpus_rules.txt")
    check(kb, parse("(not M_1_3)")[0])          # Answer.UNKNOWN
"""

from zerosum.logic.check import METHODS, Answer, check
from zerosum.logic.cnf import ClauseForm, clause_form
from zerosum.logic.dpll import DPLL, dpll_check, dpll_entails, dpll_satisfiable
from zerosum.logic.expr import (
    CONNECTIVES,
    And,
    Compound,
    Expr,
    If,
    Iff,
    Not,
    Or,
    Symbol,
    Xor,
    pl_true,
    symbols_in,
    to_prefix,
)
from zerosum.logic.parser import (
    LogicSyntaxError,
    parse,
    parse_lines,
    parse_sentence,
    read_sentences,
)
from zerosum.logic.truthtable import directly_fixed, tt_entails
from zerosum.logic.wumpus import WUMPUS_SYMBOLS, wumpus_rules, wumpus_rules_text

__all__ = [
    "CONNECTIVES",
    "DPLL",
    "METHODS",
    "WUMPUS_SYMBOLS",
    "And",
    "Answer",
    "ClauseForm",
    "Compound",
    "Expr",
    "If",
    "Iff",
    "LogicSyntaxError",
    "Not",
    "Or",
    "Symbol",
    "Xor",
    "check",
    "clause_form",
    "directly_fixed",
    "dpll_check",
    "dpll_entails",
    "dpll_satisfiable",
    "parse",
    "parse_lines",
    "parse_sentence",
    "pl_true",
    "read_sentences",
    "symbols_in",
    "to_prefix",
    "tt_entails",
    "wumpus_rules",
    "wumpus_rules_text",
]
