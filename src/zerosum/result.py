"""The contract between a search and whoever runs it: what it is given (`Limit`), what
it reports while it runs (`Info`), what it returns (`SearchResult`, `SearchStats`), and
what a tracer receives.

On the ground floor beside the protocol (zerosum.game): games' own engine kernels and
every agent speak these types, and they know no search algorithm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from zerosum.stop import Stop


@dataclass(frozen=True)
class Limit:
    """How much a search may do: a depth (plies), a time (seconds, wall clock unless the
    search is given another clock) and a node budget. Any of them may be None (no
    limit); with none at all, a search runs to its own end (full depth, or its default
    budget: see each agent)."""

    depth: int | None = None
    seconds: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 0:
            raise ValueError(f"depth must be 0 or more, not {self.depth}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be 1 or more, not {self.nodes}")

    def __str__(self) -> str:
        parts = [f"depth {self.depth}" if self.depth is not None else "",
                 f"{self.seconds:g} s" if self.seconds is not None else "",
                 f"{self.nodes:,} nodes" if self.nodes is not None else ""]
        return ", ".join(p for p in parts if p) or "no limit"


@dataclass(frozen=True)
class MoveStats:
    """One root move of a running MCTS, as UCB1 (UCT) weighs it for the next selection.

    `visits`: the simulations through it; `mean`: their mean value from Max's side on
    the search's value scale (as `Info.value`: [-1, 1] unless bounds are given); the
    selection score is `uct_exploit + uct_explore`: the mean reward in [0, 1] of the
    player to move at the root, and c * sqrt(ln N / n), the bonus for few visits.
    `proven`: the value MCTS-Solver proved for the move (Max's side), else None; a
    proven move is scored by that value alone (uct_explore 0).

    PUCT (zerosum.learn.alphazero) reports its moves in the same terms: the exploitation
    is Q in [-1, 1] for the player to move, the exploration c * P * sqrt(N) / (1 + n),
    `prior` the network's P (None for MCTS), `proven` a finished game's result."""

    action: Any
    visits: int
    mean: float
    uct_exploit: float
    uct_explore: float
    proven: float | None = None
    prior: float | None = None


@dataclass(frozen=True)
class Info:
    """What a running search reports each time something worth showing happens: each
    finished depth (iterative deepening), every so many simulations (MCTS).

    `depth`: the depth finished (MCTS: the depth its tree reached; None: to the end of
    the game, e.g. a solver's answer). `value` is from Max's side; `decided` says it is
    the game's value rather than an estimate, `plies` its minimax distance to the end
    when known (see SearchResult). `nodes` counts the search's unit (MCTS: simulations;
    `unit` says which), `elapsed` is wall time in seconds. `visits`: MCTS's visit
    counts of the root moves; `root_moves`: MCTS's figures of each root move
    (MoveStats: visits, mean value, the two terms of UCB1), empty for other searches.
    """

    depth: int | None
    value: float
    pv: tuple[Any, ...]
    nodes: int
    elapsed: float
    decided: bool = False
    plies: int | None = None
    seldepth: int | None = None
    table_hits: int = 0
    unit: str = "nodes"
    visits: tuple[tuple[Any, int], ...] = ()
    root_moves: tuple[MoveStats, ...] = ()

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


InfoSink = Callable[[Info], None]


class Analyser(Protocol):
    """The one way to run a search on a game (a game's engine, an agent's `analyse`):
    the result from `state` within `limit`, each `Info` handed to `on_info` as it comes
    (nothing is built when no one listens), stopped early, with the best result so far,
    within milliseconds of `stop` firing (a request from another thread, its deadline
    or its node budget). While it runs, the stop's count (nodes_used) stays up to date
    for a display; the depth reached and best move so far come in its Infos."""

    def __call__(self, game: Any, state: Any, limit: Limit, on_info: InfoSink | None = None,
                 stop: Stop | None = None) -> SearchResult: ...


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
    the action is then the best found so far. `depth` is the depth searched (None for
    a search to the end of the game; MCTS: the depth its tree reached). `decided` says
    the value is the game's value under perfect play (no estimate took part, or a
    proof such as MCTS-Solver's); otherwise the value is an estimate. `plies` is given
    only when it is the minimax distance to the end of the game (the search prefers
    faster wins and slower losses), not merely the length of the line it found.
    `unit` names what `stats.nodes` counts: "nodes", or MCTS's "simulations".
    """

    value: float
    action: Any
    pv: list[Any] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    depth: int | None = None
    complete: bool = True
    decided: bool = False
    algorithm: str = ""
    details: dict[str, Any] = field(default_factory=dict)  # an algorithm's extras (mcts: visits)
    plies: int | None = None  # of a decided value: its minimax distance to the end, if known
    unit: str = "nodes"

    def rows(self, move: Callable[[Any], str] = repr,
             value: str | None = None) -> list[tuple[str, str]]:
        """The result as (label, text) rows, moves written by `move` and the value as
        `value` (a game's own words, zerosum.game.format_value; else the number with
        "decided" or "estimate"): a notebook's table of it."""
        if value is None:
            value = f"{self.value:+g} ({'decided' if self.decided else 'estimate'})"
        stopped = "" if self.complete else " (stopped)"
        return [("value", value),
                ("best move", "none" if self.action is None else move(self.action)),
                ("principal variation", " ".join(map(move, self.pv))),
                ("depth", depth_text(self.depth, self.unit) + stopped),
                (self.unit, f"{self.stats.nodes:,}"),
                ("time", f"{self.stats.wall_time:.3f} s"),
                ("algorithm", self.algorithm or "?")]

    def _repr_html_(self) -> str:
        """A table in a notebook (moves as Python writes them: zerosum.notebook.show
        writes them in the game's notation)."""
        return html_table(self.rows())


def html_table(rows: list[tuple[str, str]]) -> str:
    """(label, text) rows as an HTML table, the text escaped."""
    body = "".join(f"<tr><th style='text-align:left'>{escape(label)}</th>"
                   f"<td style='text-align:left'>{escape(text)}</td></tr>"
                   for label, text in rows)
    return f"<table class='zerosum-result'>{body}</table>"


def depth_text(depth: int | None, unit: str = "nodes") -> str:
    """How deep a search looked: "depth 6", "depth end" (to the end of the game) or,
    for MCTS (whose unit is simulations), "tree depth 9", the deepest node of its tree."""
    if depth is None:
        return "depth end"
    return f"tree depth {depth}" if unit == "simulations" else f"depth {depth}"


@dataclass(frozen=True)
class TraceEvent:
    """Sent to a tracer each time a node returns (kind "exit": events arrive in
    post-order) and, when the search is asked for entries too (`trace_entries`), each
    time an inner node is entered (kind "enter"), before its children are searched.

    An exit carries the node's value and its final alpha and beta; an entry, the window
    passed down to the node (before a table's bound narrows it) and the textbook's
    starting v (-inf at a Max node, +inf at a Min node). A leaf (terminal, or cut off
    by the depth) has only its exit. Minimax has no window: (-inf, +inf) throughout."""

    state: Any
    action: Any  # the action that led here (None at the root)
    depth: int
    alpha: float
    beta: float
    value: float
    pruned: bool = False  # True when this node's remaining children were cut off
    kind: Literal["enter", "exit"] = "exit"


Tracer = Callable[[TraceEvent], None]


class Clock:
    """CPU (process) and wall time of one search."""

    def __init__(self) -> None:
        self.cpu0 = time.process_time()
        self.wall0 = time.perf_counter()

    def stamp(self, stats: SearchStats) -> None:
        stats.cpu_time = time.process_time() - self.cpu0
        stats.wall_time = time.perf_counter() - self.wall0
