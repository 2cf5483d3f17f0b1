"""Propositional sentences: an immutable expression tree, its truth value in a model,
and the printer back to the prefix format the parser reads.

A sentence is a `Symbol` or a `Compound`: a connective applied to a tuple of operands.
The connectives and their meaning (`xor` is "exactly one", as in the classic wumpus
assignment, not parity):

    and, or, xor   any number of operands: (and) is true, (or) and (xor) are false
    not            exactly one operand
    if, iff        exactly two: (if A B) is A => B, (iff A B) is A <=> B
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

# Connective -> number of operands it takes (None: any number, zero included).
ARITY: dict[str, int | None] = {
    "and": None,
    "or": None,
    "xor": None,
    "not": 1,
    "if": 2,
    "iff": 2,
}
CONNECTIVES = tuple(ARITY)


@dataclass(frozen=True, slots=True)
class Symbol:
    """A proposition symbol such as P_1_1."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Compound:
    """A connective applied to its operands, e.g. (if M_1_3 (and S_1_2 S_1_4))."""

    connective: str
    operands: tuple[Expr, ...]

    def __post_init__(self) -> None:
        if self.connective not in ARITY:
            raise ValueError(f"unknown connective {self.connective!r}")
        arity = ARITY[self.connective]
        if arity is not None and len(self.operands) != arity:
            raise ValueError(
                f"{self.connective!r} takes {arity} operand{'s' * (arity > 1)}, "
                f"not {len(self.operands)}"
            )

    def __str__(self) -> str:
        return to_prefix(self)


Expr = Symbol | Compound


# Constructors that read like the connectives.
def Not(a: Expr) -> Compound:
    return Compound("not", (a,))


def And(*operands: Expr) -> Compound:
    return Compound("and", operands)


def Or(*operands: Expr) -> Compound:
    return Compound("or", operands)


def Xor(*operands: Expr) -> Compound:
    return Compound("xor", operands)


def If(a: Expr, b: Expr) -> Compound:
    return Compound("if", (a, b))


def Iff(a: Expr, b: Expr) -> Compound:
    return Compound("iff", (a, b))


def to_prefix(e: Expr) -> str:
    """The sentence in the strict prefix format: `parse(to_prefix(e)) == [e]`."""
    if isinstance(e, Symbol):
        return e.name
    return "(" + " ".join([e.connective, *map(to_prefix, e.operands)]) + ")"


def symbols_in(sentences: Iterable[Expr]) -> list[str]:
    """The symbol names in the sentences, each once, in order of first appearance."""
    seen: dict[str, None] = {}
    for s in sentences:
        for name in _symbols(s):
            seen.setdefault(name)
    return list(seen)


def _symbols(e: Expr) -> Iterator[str]:
    if isinstance(e, Symbol):
        yield e.name
    else:
        for a in e.operands:
            yield from _symbols(a)


def literal_of(e: Expr) -> tuple[str, bool] | None:
    """(name, value) when the sentence is a bare symbol or (not S), else None: such a
    sentence in a knowledge base fixes the symbol's value directly."""
    if isinstance(e, Symbol):
        return e.name, True
    if e.connective == "not" and isinstance(e.operands[0], Symbol):
        return e.operands[0].name, False
    return None


def pl_true(e: Expr, model: Mapping[str, bool]) -> bool:
    """The sentence's truth value in a model that gives every one of its symbols a value
    (AIMA's PL-True?). KeyError names a symbol the model leaves out."""
    if isinstance(e, Symbol):
        return model[e.name]
    values = (pl_true(a, model) for a in e.operands)
    match e.connective:
        case "and":
            return all(values)
        case "or":
            return any(values)
        case "xor":
            return sum(values) == 1
        case "not":
            return not next(values)
        case "if":
            a, b = values
            return not a or b
        case _:  # iff
            a, b = values
            return a == b
