"""How big a search to the end of the game would be, before running it.

First a probe: the chosen search itself, run for a moment (a node budget). What it
visits is what counts: alpha-beta with ordering and a table may examine a few thousand
nodes of a tree of millions (8-Queens, variation 2: 3,095 of about 2e5 alpha-beta's
textbook average predicts). A probe that finishes gives the search's own figures; one
that does not is extrapolated from the tree's size, at the probe's measured speed.

Knuth's estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs",
Mathematics of Computation 29, 1975): along a random path from the root, the sum
1 + b1 + b1*b2 + ... of the products of the branching factors met is an unbiased
estimate of the number of nodes of the tree; the mean over many paths is used.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import SearchResult

HUGE = 1e30  # beyond any search: a path whose estimate passes this ends there


def tree_size(game: AnyGame, state: Any, samples: int = 200, seed: int = 0,
              max_plies: int = 2000) -> float:
    """Estimated number of nodes of the full game tree below `state` (what minimax to
    the end of the game examines); seeded, so the same game gives the same figure."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(samples):
        s, width, size = state, 1.0, 1.0
        for _ in range(max_plies):
            if game.is_terminal(s):
                break
            actions = game.actions(s)
            width *= len(actions)
            size += width
            if size > HUGE:
                return HUGE
            s = game.result(s, rng.choice(actions))
        total += size
    return total / samples


@dataclass(frozen=True)
class Cost:
    """What a search to the end costs, by the tree's size: it examines size ** exponent
    nodes, at a rough `speed` (nodes a second in CPython; `bench/` measures it). A
    search's kind of player carries its cost (zerosum.players.kinds)."""

    exponent: float
    speed: float


MINIMAX_COST = Cost(1.0, 100_000)  # every node of the tree
# Alpha-beta with ordering and a table: b^(3d/4) is its textbook average; transpositions
# save more.
ALPHABETA_COST = Cost(0.7, 30_000)


PROBE_NODES = 10_000  # the probe's budget: a fraction of a second of either search


def full_search_cost(game: AnyGame, state: Any, cost: Cost,
                     probe: SearchResult | None = None) -> tuple[float, float]:
    """(estimated nodes, estimated seconds) of a search of this `cost` (MINIMAX_COST,
    ALPHABETA_COST) from `state` to the end of the game. `probe`: that very search from
    `state` under a node budget (PROBE_NODES); if it finished, its own figures, else
    the tree's estimated size to the power of the cost's exponent, at least what the
    probe visited, at the probe's speed. Without a probe, the size at the cost's
    typical speed: a rough figure, good enough to tell a search of seconds from one of
    years."""
    if probe is not None and probe.complete:
        return float(probe.stats.nodes), probe.stats.wall_time
    size = tree_size(game, state, samples=1000)
    nodes = size ** cost.exponent
    speed = cost.speed
    if probe is not None:
        nodes = max(nodes, float(probe.stats.nodes))
        if probe.stats.wall_time > 0:
            speed = probe.stats.nodes / probe.stats.wall_time
    return nodes, nodes / speed
