"""What every search returns (SearchResult, SearchStats) and what a tracer receives.

On the ground floor beside the protocol (zerosum.game): games' own engines return these
types too, and they know no search algorithm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SearchStats:
    """Effort figures of one search.

    A node is *examined* when its terminal test runs (the root included) and
    *evaluated* when its value comes from `utility` or `evaluate` (a leaf).
    """

    nodes: int = 0
    evaluated: int = 0
    max_depth: int = 0
    cutoffs: int = 0  # nodes where the depth limit stopped the search
    table_hits: int = 0
    cpu_time: float = 0.0
    wall_time: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.cpu_time if self.cpu_time > 0 else 0.0

    def add(self, other: SearchStats) -> None:
        """Accumulate another search's figures (iterative deepening sums its passes)."""
        self.nodes += other.nodes
        self.evaluated += other.evaluated
        self.max_depth = max(self.max_depth, other.max_depth)
        self.cutoffs += other.cutoffs
        self.table_hits += other.table_hits
        self.cpu_time += other.cpu_time
        self.wall_time += other.wall_time


@dataclass
class SearchResult:
    """Value (from Max's side), best action, principal variation and effort of a search.

    `complete` is False when the search was stopped from outside before it finished;
    the action is then the best found so far. `depth` is the depth limit searched
    (None for a search to the end of the game).
    """

    value: float
    action: Any
    pv: list[Any] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    depth: int | None = None
    complete: bool = True
    exact: bool = False  # True when no depth cutoff was needed: the value is the game value
    algorithm: str = ""
    details: dict[str, Any] = field(default_factory=dict)  # an algorithm's extras (mcts: visits)


@dataclass(frozen=True)
class TraceEvent:
    """Sent to a tracer each time a node returns (so events arrive in post-order)."""

    state: Any
    action: Any  # the action that led here (None at the root)
    depth: int
    alpha: float
    beta: float
    value: float
    pruned: bool = False  # True when this node's remaining children were cut off


Tracer = Callable[[TraceEvent], None]


class Clock:
    """CPU (process) and wall time of one search."""

    def __init__(self) -> None:
        self.cpu0 = time.process_time()
        self.wall0 = time.perf_counter()

    def stamp(self, stats: SearchStats) -> None:
        stats.cpu_time = time.process_time() - self.cpu0
        stats.wall_time = time.perf_counter() - self.wall0
