"""Entailment by truth-table enumeration: TT-Entails (AIMA section 7.4, figure 7.10).

KB |= alpha when alpha is true in every model (row of the truth table) in which the
knowledge base is true. Two things keep the table small and the enumeration fast, neither
changing the answer:

- The symbols the knowledge base fixes directly (a sentence that is a bare symbol `P` or
  `(not P)`) are read first: in every model of the KB they have that value, so only the
  other symbols are enumerated. Each fixed symbol halves the table; a wumpus KB whose
  facts fix 48 of the 64 symbols leaves 2^16 rows instead of 2^64.
- Rows are checked a block at a time, as columns: an int whose bit r is a sentence's
  value in row r of the block. The last `block` symbols take the 2^block combinations of
  values across the bits (symbol i is true in the rows whose number has bit i set), so one
  bitwise `&` evaluates an `and` in every row of the block at once. The remaining (outer)
  symbols are enumerated one assignment at a time, as in the textbook; `block=0` is the
  textbook algorithm exactly, one row at a time.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from zerosum.game import InputError
from zerosum.logic.expr import Expr, Symbol, literal_of, symbols_in

# 2^20 rows a block: columns of 128 KiB, about a millisecond a bitwise operation.
BLOCK = 20
# The most work TT-Entails takes on: rows times the connectives evaluated in each row.
# Measured on the wumpus rules (134 connectives), a check (two entailments) takes about
# 3 s of CPU at 2^36 and doubles with each further symbol: 2^38 is about 10 s, and a few
# symbols more would not finish in any time a person waits.
MAX_WORK = 1 << 38


def directly_fixed(kb: Sequence[Expr]) -> dict[str, bool] | None:
    """The symbols the KB fixes by a sentence `S` or `(not S)`, with their values;
    None when it fixes a symbol both ways (the KB then has no model at all)."""
    model: dict[str, bool] = {}
    for sentence in kb:
        literal = literal_of(sentence)
        if literal is None:
            continue
        name, value = literal
        if model.setdefault(name, value) != value:
            return None
    return model


class TableTooLarge(InputError):
    """The truth table is too large to enumerate in a time a person would wait."""


def table_work(kb: Sequence[Expr], alpha: Expr) -> tuple[int, int]:
    """(symbols enumerated, connectives evaluated per row): the table has 2^symbols rows.
    A KB that fixes a symbol both ways has no model and no table to enumerate: (0, 0)."""
    if directly_fixed(kb) is None:
        return 0, 0
    rest = [s for s in kb if literal_of(s) is None]
    return len(unfixed_symbols(kb, alpha)), sum(connectives(s) for s in [*rest, alpha])


def check_table_size(kb: Sequence[Expr], alpha: Expr, max_work: int = MAX_WORK) -> None:
    """Refuse (TableTooLarge) a truth table whose enumeration would not finish."""
    n, size = table_work(kb, alpha)
    if (1 << n) * max(size, 1) > max_work:
        raise TableTooLarge(
            f"the truth table has 2^{n} rows of {size} connectives each: too large to "
            f"enumerate (at most about 2^{max_work.bit_length() - 1} row-connectives); "
            "DPLL (--method dpll) answers at once")


def connectives(e: Expr) -> int:
    """How many connectives the sentence has (a bare symbol: none)."""
    if isinstance(e, Symbol):
        return 0
    return 1 + sum(connectives(a) for a in e.operands)


def tt_entails(kb: Sequence[Expr], alpha: Expr, block: int = BLOCK) -> bool:
    """Does the knowledge base (a list of sentences, all true) entail alpha?"""
    model = directly_fixed(kb)
    if model is None:  # no model of the KB: it entails everything
        return True
    rest = [s for s in kb if literal_of(s) is None]  # true wherever `model` holds
    return tt_check_all(rest, alpha, unfixed_symbols(kb, alpha), model, block)


def unfixed_symbols(kb: Sequence[Expr], alpha: Expr) -> list[str]:
    """The symbols TT-Entails enumerates: those of the KB and alpha that the KB does not
    fix directly. The truth table has 2 to the power of their number rows."""
    model = directly_fixed(kb) or {}
    return [name for name in symbols_in([*kb, alpha]) if name not in model]


def tt_check_all(
    kb: Sequence[Expr],
    alpha: Expr,
    symbols: Sequence[str],
    model: Mapping[str, bool],
    block: int = BLOCK,
) -> bool:
    """Is alpha true in every model of the KB that extends `model` by giving values to
    `symbols`? Returns False at the first counterexample (early exit)."""
    split = max(0, len(symbols) - block)
    outer, inner = symbols[:split], symbols[split:]
    rows = 1 << len(inner)
    full = (1 << rows) - 1  # the column that is true in every row
    columns = {name: full if value else 0 for name, value in model.items()}
    columns.update({name: truth_column(i, len(inner)) for i, name in enumerate(inner)})
    for values in itertools.product((True, False), repeat=len(outer)):
        columns.update({name: full if v else 0 for name, v in zip(outer, values, strict=True)})
        kb_rows = full
        for sentence in kb:
            kb_rows &= column_value(sentence, columns, full)
            if not kb_rows:
                break
        if kb_rows & ~column_value(alpha, columns, full):
            return False  # a row where the KB is true and alpha false
    return True


def truth_column(i: int, n: int) -> int:
    """Symbol i's column in a table of n symbols: bit r is bit i of r, i.e. blocks of
    2^i false rows and 2^i true rows, repeated."""
    half = 1 << i
    column = ((1 << half) - 1) << half  # the first period: 2^i false, then 2^i true
    width = 2 * half
    while width < 1 << n:  # double the copies (shifts: linear, unlike a big division)
        column |= column << width
        width *= 2
    return column


def column_value(e: Expr, columns: Mapping[str, int], full: int) -> int:
    """The sentence's values in every row at once (PL-True? on columns)."""
    if isinstance(e, Symbol):
        return columns[e.name]
    ops = e.operands
    match e.connective:
        case "and":
            result = full
            for a in ops:
                result &= column_value(a, columns, full)
                if not result:
                    break
            return result
        case "or":
            result = 0
            for a in ops:
                result |= column_value(a, columns, full)
                if result == full:
                    break
            return result
        case "xor":  # exactly one: some operand true, and never two
            some = two = 0
            for a in ops:
                x = column_value(a, columns, full)
                two |= some & x
                some |= x
            return some & ~two
        case "not":
            return full ^ column_value(ops[0], columns, full)
        case "if":
            return (full ^ column_value(ops[0], columns, full)) | column_value(
                ops[1], columns, full
            )
        case _:  # iff
            return full ^ column_value(ops[0], columns, full) ^ column_value(ops[1], columns, full)
