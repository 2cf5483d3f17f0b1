"""The search algorithms against each other, on random trees and on a real game."""

from __future__ import annotations

import itertools
import math
import random
import threading

from clocks import SteppingClock
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Node, TreeGame
from zerosum.result import Info
from zerosum.search import (
    Stop,
    TraceEvent,
    TranspositionTable,
    alphabeta_search,
    iterative_deepening_search,
    minimax_search,
)

# ---------------------------------------------------------------- random trees


def trees(max_leaves: int = 60) -> st.SearchStrategy[Node]:
    leaves = st.integers(-20, 20).map(lambda v: Node("", float(v)))

    def inner(kids: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
        return st.lists(kids, min_size=1, max_size=4).map(lambda c: Node("", None, c))

    return st.recursive(leaves, inner, max_leaves=max_leaves)


@settings(max_examples=2000, deadline=None)
@given(trees(), st.booleans())
def test_alphabeta_equals_minimax_on_random_trees(root: Node, max_first: bool) -> None:
    game = TreeGame(root, max_first)
    mm = minimax_search(game, ())
    ab = alphabeta_search(game, ())
    assert ab.value == mm.value
    assert ab.action == mm.action  # ties go to the first best action in both
    assert ab.stats.nodes <= mm.stats.nodes
    assert mm.stats.nodes == len(game.paths())


@settings(max_examples=300, deadline=None)
@given(trees(), st.integers(0, 4))
def test_depth_limited_agree(root: Node, depth: int) -> None:
    game = TreeGame(root)
    mm = minimax_search(game, (), depth)
    ab = alphabeta_search(game, (), depth)
    tab = alphabeta_search(game, (), depth, table=TranspositionTable(), order=True)
    assert ab.value == mm.value == tab.value
    assert mm.stats.max_depth <= depth


@settings(max_examples=300, deadline=None)
@given(trees(), st.integers(-25, 25), st.integers(1, 30))
def test_window_bounds_are_sound(root: Node, lo: int, width: int) -> None:
    # Fail-soft alpha-beta: a value at or below alpha is an upper bound, at or above
    # beta a lower bound, and inside the window the exact value.
    game = TreeGame(root)
    true = minimax_search(game, ()).value
    v = alphabeta_search(game, (), alpha=lo, beta=lo + width).value
    if v <= lo:
        assert true <= v
    elif v >= lo + width:
        assert true >= v
    else:
        assert true == v


# ---------------------------------------------------------------- tic-tac-toe


def random_position(seed: int) -> tuple[str, str]:
    game = TicTacToe()
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randrange(0, 7)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    return state


def test_tictactoe_full_tree() -> None:
    # The full game tree of tic-tac-toe has 549,946 nodes (root included) and value 0.
    game = TicTacToe()
    r = minimax_search(game, game.initial_state())
    assert r.value == 0
    assert r.stats.nodes == 549_946
    assert r.stats.evaluated == 255_168  # the number of complete games


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5))
def test_alphabeta_equals_minimax_on_game_positions(seed: int, depth: int) -> None:
    game = TicTacToe()
    state = random_position(seed)
    mm = minimax_search(game, state, depth)
    ab = alphabeta_search(game, state, depth)
    ordered = alphabeta_search(game, state, depth, order=True, table=TranspositionTable())
    assert ab.value == mm.value == ordered.value
    assert ab.action == mm.action
    assert ab.stats.nodes <= mm.stats.nodes


def test_table_changes_counts_not_values() -> None:
    game = TicTacToe()
    s = game.initial_state()
    plain = alphabeta_search(game, s)
    tabled = alphabeta_search(game, s, table=TranspositionTable())
    assert plain.value == tabled.value == 0
    assert tabled.stats.nodes < plain.stats.nodes
    assert tabled.stats.table_hits > 0
    # A table too small to hold much still gives the same value.
    tiny = alphabeta_search(game, s, table=TranspositionTable(capacity=8))
    assert tiny.value == 0


def test_fixed_counts_are_deterministic() -> None:
    game = TicTacToe()
    s = game.initial_state()
    runs = [alphabeta_search(game, s, 4) for _ in range(3)]
    assert len({(r.value, r.action, r.stats.nodes, r.stats.evaluated) for r in runs}) == 1
    # Depth-limited minimax to depth 2 examines 1 + 9 + 72 nodes.
    assert minimax_search(game, s, 2).stats.nodes == 82
    assert minimax_search(game, s, 2).stats.evaluated == 72


def test_pv_replays_to_value() -> None:
    game = TicTacToe()
    state = ("X.O......", "X")
    r = alphabeta_search(game, state)
    for a in r.pv:
        state = game.result(state, a)
    assert game.is_terminal(state) and game.utility(state) == r.value


def test_tracer_sees_every_node_in_post_order() -> None:
    game = TicTacToe()
    events: list[TraceEvent] = []
    r = alphabeta_search(game, ("XO.X.O...", "X"), tracer=events.append)
    assert len(events) == r.stats.nodes
    assert events[-1].depth == 0 and events[-1].action is None and events[-1].value == r.value
    depths = [e.depth for e in events]
    assert max(depths) == r.stats.max_depth


# ---------------------------------------------------------------- stopping


def test_iterative_deepening_respects_node_budget() -> None:
    game = TicTacToe()
    s = game.initial_state()
    for budget in (1, 50, 500, 3000):
        r = iterative_deepening_search(game, s, nodes=budget)
        assert r.stats.nodes <= budget
        assert r.action in game.actions(s)


def test_iterative_deepening_reports_each_depth() -> None:
    game = TicTacToe()
    seen: list[Info] = []
    r = iterative_deepening_search(game, game.initial_state(), seconds=30, on_info=seen.append)
    # Stops once a pass needed no estimate: then the value is decided (a draw).
    assert [i.depth for i in seen] == list(range(1, 10))
    assert [i.decided for i in seen] == [False] * 8 + [True]
    assert r.decided and r.value == 0 and r.depth == 9 and r.plies is None
    assert seen[-1].nodes == r.stats.nodes and seen[-1].pv == tuple(r.pv)
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(seen))


def test_iterative_deepening_stops_at_its_depth_limit() -> None:
    game = TicTacToe()
    seen: list[Info] = []
    r = iterative_deepening_search(game, game.initial_state(), max_depth=3, on_info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3] and r.depth == 3 and not r.decided


def test_stop_from_outside_returns_best_so_far() -> None:
    game = TicTacToe()
    stop = Stop(check_every=1)
    stop.request()
    r = alphabeta_search(game, game.initial_state(), stop=stop)
    assert not r.complete and r.action is None and r.value == -math.inf

    # A stop requested from another thread during a long search.
    stop = Stop(check_every=64)
    timer = threading.Timer(0.05, stop.request)
    timer.start()
    r = minimax_search(game, game.initial_state(), stop=stop)
    timer.join()
    assert not r.complete
    assert r.stats.nodes < 549_946
    assert r.action is None or r.action in game.actions(game.initial_state())


def test_partial_result_keeps_completed_children() -> None:
    game = TicTacToe()
    s = game.initial_state()
    full_first = minimax_search(game, game.result(s, 0)).stats.nodes
    stop = Stop(nodes=1 + full_first + 1)
    r = minimax_search(game, s, stop=stop)
    assert not r.complete
    assert r.action == 0  # the only child searched to the end


# ---------------------------------------------------------------- clocks


def test_stop_reads_the_clock_it_is_given() -> None:
    clock = SteppingClock(0.0)
    stop = Stop(seconds=1.0, clock=clock)
    assert stop.time_left() == 1.0 and not stop.expired()
    clock.now = 1.0
    assert stop.time_left() == 0.0 and stop.expired()


def test_iterative_deepening_under_a_clock_of_its_own() -> None:
    # The clock is read when the Stop is made (t = 0.001: deadline 0.0025), after each
    # pass (0.002 after depth 1: going on; 0.003 after depth 2: over), and every 128
    # nodes (never reached): depths 1 and 2, the root once and 9 + 25 nodes below it,
    # whatever the real time.
    result = iterative_deepening_search(TicTacToe(), TicTacToe().initial_state(),
                                        seconds=0.0015, clock=SteppingClock(0.001))
    assert result.depth == 2 and result.stats.nodes == 35
    # A longer budget runs out inside a pass, at a check every 128 nodes; the figures
    # are the same on every run.
    result = iterative_deepening_search(TicTacToe(), TicTacToe().initial_state(),
                                        seconds=0.0095, clock=SteppingClock(0.001))
    assert result.depth == 4 and result.stats.nodes == 6 * 128 - 1  # the 768th: not searched
