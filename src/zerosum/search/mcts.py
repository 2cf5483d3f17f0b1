"""Monte Carlo tree search: UCT (AIMA section 5.4) with MCTS-Solver (Winands, Björnsson
and Saito, "Monte-Carlo Tree Search Solver", 2008).

Each simulation has AIMA's four steps: *select* a path down the tree by the UCB1 rule,
*expand* one untried move at its end, *simulate* a playout from there to the end of the
game, and *back-propagate* the playout's reward along the path. After the budget, the
most visited root move is played.

Rewards are seen from the player who moved into a node (so every node's own statistics
say how good the move into it was for whoever chose it): a win 1, a draw 0.5, a loss 0
by the sign of the utility; given `bounds=(lo, hi)` (a game's utility range), a
utility u scores (u - lo) / (hi - lo) instead.

The solver proves nodes: a terminal node is proven with its utility; a node with a
child proven at the best end of the scale for the player to move (a win; with bounds,
`hi` for Max, `lo` for Min) is proven with that child's value; a node whose moves are
all expanded and proven takes the best of them for its mover (so all children proven
wins for the opponent make a loss). Selection never enters a proven node: it scores
its proven value. A proven root ends the search at once.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import Clock, Info, InfoSink, Limit, MoveStats, SearchResult
from zerosum.stop import Stop

DEFAULT_SIMULATIONS = 10_000  # the budget when none is given


@dataclass(frozen=True)
class Selection:
    """One step of a simulation's selection: the children of a fully expanded node as
    UCB1 weighed them (MoveStats, before this simulation's update) and the one chosen
    (the first of the highest score: uct_exploit + uct_explore)."""

    options: tuple[MoveStats, ...]
    chosen: Any


@dataclass(frozen=True)
class Update:
    """A node's statistics after a simulation's back-propagation: `path` the moves from
    the root to it, `visits`, `reward` (summed, for the player who moved into it; its
    mean is reward / visits) and `proven` (Max's side) once MCTS-Solver has proven it."""

    path: tuple[Any, ...]
    visits: int
    reward: float
    proven: float | None


@dataclass(frozen=True)
class Simulation:
    """What one simulation did, in AIMA's four steps, for a tracer (an explanation).

    `number` counts from 1. `selected`: the path down by UCB1, a Selection a level
    (empty while the root has untried moves). `expanded`: the path to the node it added
    (None when the node selected was terminal or proven: nothing to expand). `playout`:
    the moves played out from there (empty from a terminal or proven node); `utility`:
    the value it ended with (Max's side; a proven node's value), `reward` Max's reward
    for it. `updates`: the nodes back-propagated, from the deepest up to the root.
    `root_moves`: the root's moves after it, as the next selection weighs them (what
    `Info.root_moves` reports)."""

    number: int
    selected: tuple[Selection, ...]
    expanded: tuple[Any, ...] | None
    playout: tuple[Any, ...]
    utility: float
    reward: float
    updates: tuple[Update, ...]
    root_moves: tuple[MoveStats, ...]


SimulationTracer = Callable[[Simulation], None]


@dataclass(eq=False)
class Node:
    """A tree node: the state, how it was reached, and its simulation statistics."""

    state: Any
    parent: Node | None
    action: Any  # the move into this node (None at the root)
    max_moved: bool  # did Max make the move into this node? (rewards are that player's)
    untried: list[Any]
    depth: int = 0
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    reward: float = 0.0  # summed rewards of the player who moved into this node
    proven: float | None = None  # the node's value (Max's side) once the solver knows it
    plies: int = 0  # of a proven node: plies to the end under the proof's best play

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.5


class Scale:
    """Maps utilities to rewards in [0, 1] for Max, and says which values decide a node."""

    def __init__(self, bounds: tuple[float, float] | None) -> None:
        if bounds is not None and not bounds[0] < bounds[1]:
            raise ValueError(f"bounds must be (low, high) with low < high, not {bounds}")
        self.bounds = bounds
        self.lo, self.hi = bounds if bounds is not None else (-1.0, 1.0)

    def reward(self, utility: float) -> float:
        """Max's reward for a utility."""
        if self.bounds is None:
            return 1.0 if utility > 0 else 0.0 if utility < 0 else 0.5
        return min(1.0, max(0.0, (utility - self.lo) / (self.hi - self.lo)))

    def best_for(self, maxs_turn: bool, value: float) -> bool:
        """Is `value` the best the player to move can get (a win)?"""
        if self.bounds is None:
            return value > 0 if maxs_turn else value < 0
        return value >= self.hi if maxs_turn else value <= self.lo

    def value(self, max_reward: float) -> float:
        """A mean reward of Max back on the utility scale: [-1, 1] by default."""
        return self.lo + max_reward * (self.hi - self.lo)


def mcts_search(
    game: AnyGame,
    state: Any,
    *,
    seconds: float | None = None,
    simulations: int | None = None,
    stop: Stop | None = None,
    seed: int | None = 0,
    c: float = 1.41,
    bounds: tuple[float, float] | None = None,
    on_info: InfoSink | None = None,
    every: int = 1000,
    clock: Callable[[], float] = time.perf_counter,
    tracer: SimulationTracer | None = None,
) -> SearchResult:
    """UCT with MCTS-Solver from `state`, within `seconds` (measured by `clock`) and/or
    `simulations`, until `stop` fires or the root is proven.

    With no budget at all, DEFAULT_SIMULATIONS. The same seed and simulation budget give
    the same result. `c` is UCB1's exploration constant; `bounds` see the module notes.

    The result: `action` the most visited root move (a proven best move first), `value`
    from Max's side (a proven root: its proven value, decided, whose sign is the
    game's result; otherwise Max's mean reward on the scale, [-1, 1] by default), `pv`
    the most visited line, `stats.nodes` the number of *simulations* (`unit`), `depth`
    and `stats.max_depth` the deepest tree node, and `details["visits"]` the root
    moves' visit counts (in the order they were expanded). `on_info` receives an Info
    every `every` simulations (nodes: simulations; depth: the tree's depth; visits:
    the root moves' visits; root_moves: each root move's MoveStats). `tracer` receives
    a Simulation after each simulation (what each of its four steps did); it draws
    nothing from the random generator, so a traced search is the same search. A node
    budget on `stop` counts simulations (its nodes_used: the simulations so far). A
    proven root is decided (MCTS-Solver), with no plies: see Tree.result.
    """
    if every < 1:
        raise ValueError(f"every must be 1 or more, not {every}")
    if seconds is None and simulations is None and stop is None:
        simulations = DEFAULT_SIMULATIONS
    budget = Stop(seconds=seconds, nodes=simulations, clock=clock)
    rng = random.Random(seed)
    scale = Scale(bounds)
    timer = Clock()
    tree = Tree(game, scale, rng, c)
    root = tree.new_node(state, None, None)
    done = 0
    while root.proven is None and not budget.expired() and not (stop and stop.expired()):
        if tracer is None:
            tree.simulate_once(root)
        else:
            tracer(tree.traced_simulation(root, done + 1))
        done += 1
        budget.nodes_used = done
        if stop is not None:
            stop.nodes_used += 1  # a node budget on `stop` counts simulations too
        if done % every == 0 and on_info is not None:
            on_info(_info(tree, root, done, timer))
    stopped = stop is not None and stop.requested
    return tree.result(root, done, timer, complete=not stopped)


class Tree:
    """One search's tree and the four steps of a simulation."""

    def __init__(self, game: AnyGame, scale: Scale, rng: random.Random, c: float) -> None:
        self.game, self.scale, self.rng, self.c = game, scale, rng, c
        self.max_depth = 0
        self.last_utility = 0.0  # the utility the last playout ended with
        policy = getattr(game, "playout_policy", None)
        self.policy: Callable[[Any, random.Random], Any] = policy or (
            lambda s, r: r.choice(list(game.actions(s))))

    def new_node(self, state: Any, parent: Node | None, action: Any) -> Node:
        game = self.game
        depth = 0 if parent is None else parent.depth + 1
        self.max_depth = max(self.max_depth, depth)
        # Into the root "moved" whoever does not move there.
        max_moved = (game.is_maxs_turn(parent.state) if parent is not None
                     else not game.is_maxs_turn(state))
        node = Node(state, parent, action, max_moved, [], depth)
        if game.is_terminal(state):
            node.proven = game.utility(state)
        else:
            # Expanded in the game's search order, popped from the end.
            node.untried = list(reversed(game.order(state, game.actions(state))))
        return node

    def simulate_once(self, root: Node) -> None:
        leaf = self.select(root)
        if leaf.proven is None and leaf.untried:
            leaf = self.expand(leaf)
        reward = self.simulate(leaf)
        self.back_propagate(leaf, reward)

    def traced_simulation(self, root: Node, number: int) -> Simulation:
        """simulate_once, telling what each step did."""
        selected: list[Selection] = []
        node = root
        while node.proven is None and not node.untried:
            options = tuple(self.move_stats(node, child) for child in node.children)
            node = max(node.children, key=lambda child: self.ucb(node, child))
            selected.append(Selection(options, node.action))
        expanded = None
        if node.proven is None and node.untried:
            node = self.expand(node)
            expanded = path_of(node)
        playout: list[Any] = []
        reward = self.simulate(node, playout)
        utility = node.proven if node.proven is not None else self.last_utility
        self.back_propagate(node, reward)
        updates = []
        up: Node | None = node
        while up is not None:
            updates.append(Update(path_of(up), up.visits, up.reward, up.proven))
            up = up.parent
        root_moves = tuple(self.move_stats(root, child) for child in root.children)
        return Simulation(number, tuple(selected), expanded, tuple(playout), utility, reward,
                          tuple(updates), root_moves)

    def select(self, node: Node) -> Node:
        """Down by UCB1 while the node is fully expanded and not yet proven."""
        while node.proven is None and not node.untried:
            node = max(node.children, key=lambda child: self.ucb(node, child))
        return node

    def ucb(self, parent: Node, child: Node) -> float:
        exploit, explore = self.uct_terms(parent, child)
        return exploit + explore

    def uct_terms(self, parent: Node, child: Node) -> tuple[float, float]:
        """UCB1's two terms for `child`: its mean reward for the player choosing it, and
        the exploration bonus c * sqrt(ln N / n)."""
        if child.proven is not None:
            return self.reward_of(child, child.proven), 0.0  # known: no need to explore it
        return child.mean(), self.c * math.sqrt(math.log(parent.visits) / child.visits)

    def move_stats(self, parent: Node, child: Node) -> MoveStats:
        """The figures of the move into `child` (see zerosum.result.MoveStats)."""
        exploit, explore = self.uct_terms(parent, child) if child.visits else (0.0, math.inf)
        max_mean = child.mean() if child.max_moved else 1.0 - child.mean()
        return MoveStats(child.action, child.visits, self.scale.value(max_mean), exploit,
                         explore, child.proven)

    def reward_of(self, node: Node, utility: float) -> float:
        """The reward of `utility` for the player who moved into `node`."""
        r = self.scale.reward(utility)
        return r if node.max_moved else 1.0 - r

    def expand(self, node: Node) -> Node:
        action = node.untried.pop()
        child = self.new_node(self.game.result(node.state, action), node, action)
        node.children.append(child)
        return child

    def simulate(self, node: Node, moves: list[Any] | None = None) -> float:
        """Max's reward of a playout from `node` (its proven value if it has one); the
        moves played go to `moves` when given, the final utility to last_utility."""
        if node.proven is not None:
            return self.scale.reward(node.proven)
        game, state = self.game, node.state
        while not game.is_terminal(state):
            action = self.policy(state, self.rng)
            if moves is not None:
                moves.append(action)
            state = game.result(state, action)
        self.last_utility = game.utility(state)
        return self.scale.reward(self.last_utility)

    def back_propagate(self, node: Node | None, max_reward: float) -> None:
        proving = True  # a node can become proven only when its child just did
        while node is not None:
            node.visits += 1
            node.reward += max_reward if node.max_moved else 1.0 - max_reward
            if proving and node.proven is None:
                node.proven = self.solve(node)
                proving = node.proven is not None
            node = node.parent

    def solve(self, node: Node) -> float | None:
        """MCTS-Solver's rule: the node's value if its children decide it, else None.
        Its plies: the fastest of the winning children, else the slowest of the best."""
        maxs_turn = self.game.is_maxs_turn(node.state)
        proven = [(child.proven, child.plies) for child in node.children
                  if child.proven is not None]
        wins = [(plies, value) for value, plies in proven if self.scale.best_for(maxs_turn, value)]
        if wins:
            plies, value = min(wins)
            node.plies = plies + 1
            return value
        if node.untried or len(proven) < len(node.children):
            return None
        values = [value for value, _ in proven]
        best = max(values) if maxs_turn else min(values)
        node.plies = max(plies for value, plies in proven if value == best) + 1
        return best

    def result(self, root: Node, done: int, timer: Clock, complete: bool) -> SearchResult:
        action = best_child_action(root)
        if action is None and not self.game.is_terminal(root.state):
            # Stopped before the first simulation: still a legal move to play.
            action = self.game.order(root.state, self.game.actions(root.state))[0]
        if root.proven is not None:
            value, decided = root.proven, True
        elif root.visits:
            max_mean = root.mean() if root.max_moved else 1.0 - root.mean()
            value, decided = self.scale.value(max_mean), False
        else:
            value, decided = -math.inf, False  # nothing judged yet
        pv: list[Any] = [] if root.children or action is None else [action]
        node = root
        while node.children:
            node = best_child(node)
            pv.append(node.action)
        # A proof's length is not the minimax distance (a faster win may be unproven
        # yet), so a proven value says no plies; its depth is the tree's.
        result = SearchResult(value, action, pv, depth=self.max_depth, complete=complete,
                              decided=decided, algorithm="mcts", unit="simulations")
        result.stats.nodes = done
        result.stats.max_depth = self.max_depth
        result.details["visits"] = {child.action: child.visits for child in root.children}
        timer.stamp(result.stats)
        return result


def _info(tree: Tree, root: Node, done: int, timer: Clock) -> Info:
    """The Info of the search so far (see mcts_search)."""
    r = tree.result(root, done, timer, complete=True)
    return Info(depth=tree.max_depth, value=r.value, pv=tuple(r.pv), nodes=done,
                elapsed=r.stats.wall_time, decided=r.decided,
                unit="simulations", visits=tuple(r.details["visits"].items()),
                root_moves=tuple(tree.move_stats(root, child) for child in root.children))


def path_of(node: Node) -> tuple[Any, ...]:
    """The moves from the root to `node`."""
    moves = []
    while node.parent is not None:
        moves.append(node.action)
        node = node.parent
    return tuple(reversed(moves))


def best_child(node: Node) -> Node:
    """A child keeping a proven node's value, by the shortest way to the end for a win
    and the longest for a loss or a draw (as `Tree.solve` counted); else the most
    visited child."""
    if node.proven is not None:
        keeping = [child for child in node.children
                   if child.proven == node.proven and child.plies + 1 == node.plies]
        if keeping:
            return max(keeping, key=lambda child: child.visits)
    return max(node.children, key=lambda child: (child.visits, child.mean()))


def best_child_action(node: Node) -> Any:
    return best_child(node).action if node.children else None


def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
            stop: Stop | None = None, seed: int | None = 0, c: float = 1.41,
            bounds: tuple[float, float] | None = None, every: int = 1000,
            clock: Callable[[], float] = time.perf_counter,
            tracer: SimulationTracer | None = None) -> SearchResult:
    """mcts_search as an Analyser (zerosum.result): within `limit.seconds` and
    `limit.nodes` simulations (a depth means nothing to it: its tree grows where the
    simulations lead)."""
    return mcts_search(game, state, seconds=limit.seconds, simulations=limit.nodes,
                       stop=stop, seed=seed, c=c, bounds=bounds, on_info=on_info,
                       every=every, clock=clock, tracer=tracer)
