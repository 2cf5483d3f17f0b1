"""DPLL satisfiability (AIMA section 7.6.1, figure 7.17) and entailment by refutation.

The textbook's DPLL(clauses, symbols, model), with its three improvements on plain
enumeration:
- early termination: a clause is true as soon as one literal is, the clauses are
  satisfied as soon as every clause is (the remaining symbols can take any value), and a
  partial model fails as soon as one clause has every literal false;
- pure symbols: a symbol that appears with one sign only in the clauses not yet true is
  given the value that makes those literals true;
- unit clauses: a clause not yet true with all literals but one false forces that one.
Then it branches on the first unassigned symbol, true first. (Unit clauses are taken
before pure symbols, the cheaper and more often decisive of the two; the answer is the
same in either order.) Symbols are numbered in order of appearance and Tseitin's
auxiliary variables after them, so the search branches on the sentences' own symbols;
the auxiliaries then follow by unit propagation.

The representation is what makes it fast in Python: each clause keeps counts of its true
and false literals, updated when a symbol is assigned (and restored when the assignment is
undone), so unit clauses, false clauses and satisfied clauses are noticed at once instead
of by re-reading every clause at every node. The recursion of figure 7.17 is kept as an
explicit stack of decisions (chronological backtracking: the same search, no recursion
limit).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from zerosum.logic.cnf import Clause, clause_form
from zerosum.logic.expr import Expr, Not


class DPLL:
    """One satisfiability problem: clauses over variables 1..num_vars."""

    def __init__(self, clauses: Iterable[Clause], num_vars: int) -> None:
        self.clauses: list[Clause] = list(clauses)
        n = self.n = num_vars
        self.value = [0] * (n + 1)  # per variable: 1 true, -1 false, 0 unassigned
        # Clauses containing each literal; literal l is at index n + l.
        self.where: list[list[int]] = [[] for _ in range(2 * n + 1)]
        for c, clause in enumerate(self.clauses):
            for lit in clause:
                self.where[n + lit].append(c)
        self.true_count = [0] * len(self.clauses)
        self.false_count = [0] * len(self.clauses)
        self.unsatisfied = len(self.clauses)  # clauses with no true literal yet
        # Per literal, how many clauses not yet true contain it (for pure symbols).
        self.live = [len(cs) for cs in self.where]
        self.trail: list[int] = []  # assigned literals, in order
        self.units = [c for c, clause in enumerate(self.clauses) if len(clause) == 1]
        self.conflict = any(not clause for clause in self.clauses)
        self.decisions = 0  # branches taken, for statistics

    # -- assigning and undoing ------------------------------------------------------------

    def assign(self, lit: int) -> None:
        """Make `lit` true; note clauses that become true, unit, or false."""
        n, clauses = self.n, self.clauses
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.trail.append(lit)
        for c in self.where[n + lit]:
            self.true_count[c] += 1
            if self.true_count[c] == 1:
                self.unsatisfied -= 1
                for m in clauses[c]:
                    self.live[n + m] -= 1
        for c in self.where[n - lit]:
            self.false_count[c] += 1
            if self.true_count[c] == 0:
                free = len(clauses[c]) - self.false_count[c]
                if free == 0:
                    self.conflict = True
                elif free == 1:
                    self.units.append(c)

    def undo_to(self, mark: int) -> None:
        """Unassign the literals assigned after the trail had `mark` entries."""
        n, clauses = self.n, self.clauses
        while len(self.trail) > mark:
            lit = self.trail.pop()
            self.value[abs(lit)] = 0
            for c in self.where[n + lit]:
                self.true_count[c] -= 1
                if self.true_count[c] == 0:
                    self.unsatisfied += 1
                    for m in clauses[c]:
                        self.live[n + m] += 1
            for c in self.where[n - lit]:
                self.false_count[c] -= 1
        self.units.clear()
        self.conflict = False

    # -- the three heuristics ---------------------------------------------------------

    def propagate(self) -> bool:
        """Assign what unit clauses and pure symbols force; False on a false clause."""
        while not self.conflict:
            if self.units:
                self.assign_unit(self.units.pop())
            elif not self.assign_pure_symbols():
                break
        return not self.conflict

    def assign_unit(self, c: int) -> None:
        if self.true_count[c]:
            return  # satisfied since it was queued
        for lit in self.clauses[c]:
            if not self.value[abs(lit)]:
                self.assign(lit)
                return

    def assign_pure_symbols(self) -> bool:
        """Assign every symbol that is pure now; whether any was."""
        n, live, value = self.n, self.live, self.value
        found = False
        for v in range(1, n + 1):
            if not value[v] and (live[n + v] == 0) != (live[n - v] == 0):
                self.assign(v if live[n + v] else -v)
                found = True
        return found

    def choose_symbol(self) -> int:
        """The first unassigned variable still in a clause that is not yet true."""
        n, live, value = self.n, self.live, self.value
        for v in range(1, n + 1):
            if not value[v] and (live[n + v] or live[n - v]):
                return v
        raise AssertionError("an unsatisfied clause has no unassigned literal")

    # -- the search ------------------------------------------------------------------------

    def solve(self) -> dict[int, bool] | None:
        """A model (the assigned variables; the others may take any value) or None."""
        stack: list[tuple[int, int, bool]] = []  # (trail mark, variable, tried false yet)
        while True:
            if self.propagate():
                if self.unsatisfied == 0:  # early termination: every clause is true
                    return {abs(lit): lit > 0 for lit in self.trail}
                v = self.choose_symbol()
                self.decisions += 1
                stack.append((len(self.trail), v, False))
                self.assign(v)
                continue
            # A clause is false: back up to the latest branch with a value left to try.
            while stack:
                mark, v, tried_false = stack.pop()
                self.undo_to(mark)
                if not tried_false:
                    stack.append((mark, v, True))
                    self.assign(-v)
                    break
            else:
                return None


def dpll_satisfiable(clauses: Sequence[Clause], num_vars: int) -> dict[int, bool] | None:
    """A model of the clauses (variables assigned by the search), or None."""
    return DPLL(clauses, num_vars).solve()


def dpll_entails(kb: Sequence[Expr], alpha: Expr) -> bool:
    """KB |= alpha: KB and (not alpha) has no model."""
    cnf = clause_form([*kb, Not(alpha)])
    return dpll_satisfiable(cnf.clauses, cnf.num_vars) is None


def dpll_check(kb: Sequence[Expr], alpha: Expr) -> tuple[bool, bool]:
    """(KB |= alpha, KB |= not alpha), from one clause form of the KB and alpha's
    definition, solved twice: with alpha's literal false, then true."""
    cnf = clause_form(kb)
    a = cnf.literal(alpha)
    entails = dpll_satisfiable([*cnf.clauses, (-a,)], cnf.num_vars) is None
    entails_not = dpll_satisfiable([*cnf.clauses, (a,)], cnf.num_vars) is None
    return entails, entails_not
