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

A tree's size says little about how many distinct positions a solver must keep (the
same position is reached by many move orders). For that, the birthday paradox: among m
positions drawn at random from N, about m*m/(2N) pairs coincide, so few coincidences
among many draws mean a large N (`positions_at_least`).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Hashable
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


WALK_PLIES = 200  # how far each random game of `positions_at_least` is followed


def positions_at_least(game: AnyGame, state: Any, walks: int = 256, seed: int = 0) -> float:
    """A cautious figure below the number of distinct positions reachable from `state`
    (by `game.key`, as the solver counts them), from `walks` seeded random games.

    At each ply the positions the games pass through are a sample: with c pairs of
    them equal among m, that ply holds about m*m/(2c) positions. Random games do not
    draw every position alike, which only makes coincidences likelier and the figure
    smaller; c is raised to a 95 % upper bound (as for a Poisson count) for the same
    reason. A ply is never counted below the distinct positions actually met, and a
    position met at two plies (a game that can reach it by lines of unequal length) is
    counted once: such plies count only what was met."""
    rng = random.Random(seed)
    by_ply: defaultdict[int, Counter[Hashable]] = defaultdict(Counter)
    for _ in range(walks):
        s = state
        for ply in range(1, WALK_PLIES + 1):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
            by_ply[ply][game.key(s)] += 1
    plies_of: Counter[Hashable] = Counter(k for met in by_ply.values() for k in met)
    total = 1.0 + len(plies_of)  # `state` itself and every position met
    for met in by_ply.values():
        if any(plies_of[k] > 1 for k in met):
            continue
        drawn = sum(met.values())
        pairs = sum(n * (n - 1) // 2 for n in met.values())
        at_most_pairs = pairs + 3 * (pairs + 1) ** 0.5  # 3 when none coincide
        total += max(0.0, drawn * (drawn - 1) / (2 * at_most_pairs) - len(met))
    return total


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
