"""What a knowledge base says about a statement: the four answers of the wumpus checker."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

from zerosum.logic.dpll import dpll_check
from zerosum.logic.expr import Expr, Not
from zerosum.logic.truthtable import check_table_size, tt_entails


class Answer(enum.Enum):
    """KB |= statement?  KB |= (not statement)?"""

    TRUE = "definitely true"  # yes, no
    FALSE = "definitely false"  # no, yes
    UNKNOWN = "possibly true, possibly false"  # no, no
    CONTRADICTION = "both true and false"  # yes, yes: the KB has no model

    def __str__(self) -> str:
        return self.value


def _tt_check(kb: Sequence[Expr], alpha: Expr) -> tuple[bool, bool]:
    check_table_size(kb, alpha)  # both tables have the same rows and work
    return tt_entails(kb, alpha), tt_entails(kb, Not(alpha))


METHODS: dict[str, Callable[[Sequence[Expr], Expr], tuple[bool, bool]]] = {
    "dpll": dpll_check,
    "tt": _tt_check,
}


def check(kb: Sequence[Expr], statement: Expr, method: str = "dpll") -> Answer:
    """Decide whether the KB (its sentences all true) makes the statement definitely
    true, definitely false, neither, or both (the KB is unsatisfiable). `method` is
    "dpll" (satisfiability of KB and not-statement, the default) or "tt" (truth-table
    enumeration, exponential in the symbols the KB does not fix directly; a table too
    large to finish raises TableTooLarge, an InputError)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of: {', '.join(METHODS)})")
    entails, entails_not = METHODS[method](kb, statement)
    if entails:
        return Answer.CONTRADICTION if entails_not else Answer.TRUE
    return Answer.FALSE if entails_not else Answer.UNKNOWN
