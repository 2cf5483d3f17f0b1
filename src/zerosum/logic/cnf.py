"""Clause form for DPLL, built in linear size (Tseitin's encoding).

Converting to CNF by distributing `or` over `and` can blow up exponentially
(`(xor A1 ... A16)`, or an `iff` of two disjunctions). Instead each compound subsentence
that is not already a literal gets an auxiliary variable t, with clauses saying
t <=> (the subsentence over its operands' literals). A formula's clause form is then
equisatisfiable with it, and every model of the sentences extends to exactly one model
of the clauses, so "KB and not alpha is unsatisfiable" still decides KB |= alpha.

Sentences asserted at the top level (`add`) skip the auxiliary variable where a clause
says the same directly: an `and` becomes its operands, an `or` (or `if`) of literals one
clause, and `(if A (and B C))` the clauses (-A B) and (-A C). The wumpus rules thus become
mostly plain clauses; only `xor` and nested connectives need auxiliaries.

Literals are ints: variable v > 0 is true (v) or false (-v). Symbols get variables
1, 2, ... in order of first appearance, auxiliaries the numbers after.
"""

from __future__ import annotations

from collections.abc import Iterable

from zerosum.logic.expr import Compound, Expr, Not, Symbol

Clause = tuple[int, ...]


class ClauseForm:
    """Clauses under construction, with the symbol <-> variable numbering."""

    def __init__(self) -> None:
        self.clauses: list[Clause] = []
        self.variables: dict[str, int] = {}  # symbol name -> variable
        self.num_vars = 0
        self._defined: dict[Expr, int] = {}  # subsentence -> its literal (shared)
        self._true = 0  # a variable fixed true, made when first needed

    def symbol_var(self, name: str) -> int:
        if name not in self.variables:
            self.num_vars += 1
            self.variables[name] = self.num_vars
        return self.variables[name]

    def new_var(self) -> int:
        self.num_vars += 1
        return self.num_vars

    def add_clause(self, literals: list[int]) -> None:
        """Add a clause, without repeated literals; a tautology (P or not P) is dropped."""
        clause = tuple(dict.fromkeys(literals))
        if any(-lit in clause for lit in clause):
            return
        self.clauses.append(clause)

    # -- asserting sentences -------------------------------------------------------------

    def add(self, e: Expr) -> None:
        """Add clauses that hold exactly when the sentence is true."""
        if isinstance(e, Symbol):
            self.add_clause([self.symbol_var(e.name)])
            return
        ops = e.operands
        match e.connective:
            case "and":
                for a in ops:
                    self.add(a)
            case "or":
                self.add_or(list(ops))
            case "if":
                self.add_or([Not(ops[0]), ops[1]])
            case "not":
                self.add_not(ops[0])
            case _:  # xor, iff
                self.add_clause([self.literal(e)])

    def add_not(self, a: Expr) -> None:
        """Assert (not a), pushing the negation inwards where that stays linear."""
        if isinstance(a, Symbol):
            self.add_clause([-self.symbol_var(a.name)])
            return
        ops = a.operands
        match a.connective:
            case "not":
                self.add(ops[0])
            case "or":  # De Morgan: every operand false
                for b in ops:
                    self.add_not(b)
            case "and":
                self.add_or([Not(b) for b in ops])
            case "if":
                self.add(ops[0])
                self.add_not(ops[1])
            case _:
                self.add_clause([-self.literal(a)])

    def add_or(self, disjuncts: list[Expr]) -> None:
        """Assert a disjunction. Nested ors (and ifs, and negated ands) are flattened;
        a single `and` among the disjuncts is distributed, a clause per conjunct (still
        linear); any other compound disjunct gets a literal."""
        flat: list[Expr] = []
        pending = list(disjuncts)
        while pending:
            d = pending.pop()
            if isinstance(d, Compound):
                inner = d.operands[0] if d.connective == "not" else None
                if d.connective == "or":
                    pending.extend(d.operands)
                    continue
                if d.connective == "if":
                    pending.extend([Not(d.operands[0]), d.operands[1]])
                    continue
                if isinstance(inner, Compound) and inner.connective == "and":
                    pending.extend(Not(b) for b in inner.operands)
                    continue
                if isinstance(inner, Compound) and inner.connective == "not":
                    pending.append(inner.operands[0])
                    continue
            flat.append(d)
        flat.reverse()  # keep the written order (pending was a stack)
        conjunctions = [d for d in flat if isinstance(d, Compound) and d.connective == "and"]
        if len(conjunctions) == 1:
            others = [d for d in flat if d is not conjunctions[0]]
            for c in conjunctions[0].operands:
                self.add_or([*others, c])
            return
        self.add_clause([self.literal(d) for d in flat])

    # -- literals for subsentences (the Tseitin definitions) ---------------------------

    def literal(self, e: Expr) -> int:
        """A literal equivalent to the sentence, adding the definitions it needs."""
        if isinstance(e, Symbol):
            return self.symbol_var(e.name)
        if e.connective == "not":
            return -self.literal(e.operands[0])
        if e in self._defined:
            return self._defined[e]
        lits = [self.literal(a) for a in e.operands]
        match e.connective:
            case "and":
                t = self.and_gate(lits)
            case "or":
                t = self.or_gate(lits)
            case "xor":
                t = self.exactly_one(lits)
            case "if":
                t = self.or_gate([-lits[0], lits[1]])
            case _:  # iff
                t = self.iff_gate(lits[0], lits[1])
        self._defined[e] = t
        return t

    def true(self) -> int:
        """A literal that is always true: (and) is it, (or) and (xor) its negation."""
        if not self._true:
            self._true = self.new_var()
            self.add_clause([self._true])
        return self._true

    def and_gate(self, lits: list[int]) -> int:
        """t <=> (l1 and ... and ln)."""
        if not lits:
            return self.true()
        if len(lits) == 1:
            return lits[0]
        t = self.new_var()
        for lit in lits:
            self.add_clause([-t, lit])
        self.add_clause([t, *(-lit for lit in lits)])
        return t

    def or_gate(self, lits: list[int]) -> int:
        """t <=> (l1 or ... or ln)."""
        return -self.and_gate([-lit for lit in lits])

    def iff_gate(self, a: int, b: int) -> int:
        """t <=> (a <=> b)."""
        t = self.new_var()
        self.add_clause([-t, -a, b])
        self.add_clause([-t, a, -b])
        self.add_clause([t, a, b])
        self.add_clause([t, -a, -b])
        return t

    def exactly_one(self, lits: list[int]) -> int:
        """t <=> exactly one of the literals is true, in linear size: scanning left to
        right, `some` says one of those so far is true and `two` that two are."""
        if len(lits) <= 1:
            return lits[0] if lits else -self.true()
        some, two = lits[0], 0  # 0: no `two` yet (false)
        for lit in lits[1:]:
            both = self.and_gate([some, lit])
            two = self.or_gate([two, both]) if two else both
            some = self.or_gate([some, lit])
        return self.and_gate([some, -two])


def clause_form(kb: Iterable[Expr]) -> ClauseForm:
    """The clauses of a knowledge base (its sentences all asserted)."""
    cnf = ClauseForm()
    for sentence in kb:
        cnf.add(sentence)
    return cnf
