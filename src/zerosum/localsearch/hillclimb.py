"""Greedy (steepest-descent) hill climbing, AIMA figure 4.2, over any `Problem`.

We minimise a cost, so "higher" in the textbook's pseudocode reads "cheaper" here:

    current <- initial
    loop:
        neighbour <- the cheapest neighbour of current (ties: the smallest tie_key)
        if cost(neighbour) >= cost(current): return current
        current <- neighbour

Every state visited, and (for explanation) every neighbour looked at, is recorded.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S", bound=Hashable)


class Problem(Protocol[S]):
    """What hill climbing needs to know about a problem."""

    def cost(self, state: S) -> float: ...

    def neighbours(self, state: S) -> Sequence[S]:
        """The distinct states one move away, `state` itself excluded."""
        ...

    def tie_key(self, state: S) -> Any:
        """Among equally cheap neighbours, the one with the smallest key is chosen."""
        ...


class Halt(Enum):
    """Why the climb ended."""

    LOCAL_MINIMUM = "every neighbour costs more: a strict local minimum"
    PLATEAU = "the cheapest neighbour costs the same: a plateau (or shoulder), no strict gain"
    NO_NEIGHBOURS = "the state has no neighbours"
    STEP_LIMIT = "the step limit was reached"


@dataclass
class Step(Generic[S]):
    state: S
    cost: float
    # The neighbours looked at from this state, cheapest first (ties by tie_key).
    neighbours: list[tuple[S, float]] = field(default_factory=list)


@dataclass
class Climb(Generic[S]):
    steps: list[Step[S]]
    stop: Halt

    @property
    def final(self) -> Step[S]:
        return self.steps[-1]

    @property
    def evaluations(self) -> int:
        """Cost evaluations: the initial state plus every neighbour looked at."""
        return 1 + sum(len(s.neighbours) for s in self.steps)


def ranked_neighbours(problem: Problem[S], state: S) -> list[tuple[S, float]]:
    """The neighbours with their costs, cheapest first; ties by the problem's tie_key."""
    scored = [(n, problem.cost(n)) for n in problem.neighbours(state)]
    scored.sort(key=lambda nc: (nc[1], problem.tie_key(nc[0])))
    return scored


def hill_climb(problem: Problem[S], initial: S, max_steps: int | None = None) -> Climb[S]:
    """Move to the cheapest neighbour while that strictly lowers the cost.

    Terminates without `max_steps`: the cost falls at every move and there are finitely
    many states.
    """
    current = Step(initial, problem.cost(initial))
    steps = [current]
    while True:
        current.neighbours = ranked_neighbours(problem, current.state)
        if not current.neighbours:
            return Climb(steps, Halt.NO_NEIGHBOURS)
        best, cost = current.neighbours[0]
        if cost > current.cost:
            return Climb(steps, Halt.LOCAL_MINIMUM)
        if cost == current.cost:
            return Climb(steps, Halt.PLATEAU)
        if max_steps is not None and len(steps) - 1 >= max_steps:
            return Climb(steps, Halt.STEP_LIMIT)
        current = Step(best, cost)
        steps.append(current)
