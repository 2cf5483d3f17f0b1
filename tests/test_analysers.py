"""Every search module's `analyse(game, state, limit, on_info, stop, **options)`: the
textbook function within a Limit, with the same figures; depth checked once, by Limit."""

from __future__ import annotations

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.result import Info, Limit
from zerosum.search import (
    alphabeta,
    alphabeta_search,
    iterative,
    mcts,
    mcts_search,
    minimax,
    minimax_search,
    solve,
)

GAME = TicTacToe()
START = GAME.initial_state()


def test_one_pass_searches_by_depth() -> None:
    for depth in (2, 4):
        a, b = minimax.analyse(GAME, START, Limit(depth=depth)), minimax_search(GAME, START, depth)
        assert (a.value, a.action, a.stats.nodes) == (b.value, b.action, b.stats.nodes)
    a = alphabeta.analyse(GAME, START, Limit(), order=True)
    b = alphabeta_search(GAME, START, order=True)
    assert (a.value, a.action, a.stats.nodes, a.decided) == (0, 0, b.stats.nodes, True)
    assert b.stats.nodes == 18297
    assert minimax.analyse(GAME, START, Limit(depth=2)).stats.nodes == 1 + 9 + 72


def test_a_node_budget_stops_a_one_pass_search() -> None:
    stopped = minimax.analyse(GAME, START, Limit(nodes=1000))
    # Stopped inside the first root move: no move judged yet (a player then plays the
    # first move in search order: zerosum.players.agents.playable).
    assert (stopped.complete, stopped.action, stopped.stats.nodes) == (False, None, 1001)


def test_iterative_deepening_and_mcts_report_within_their_limit() -> None:
    infos: list[Info] = []
    r = iterative.analyse(GAME, START, Limit(depth=3), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3] and r.depth == 3
    a = mcts.analyse(GAME, START, Limit(nodes=500), seed=4)
    b = mcts_search(GAME, START, simulations=500, seed=4)
    assert (a.action, a.stats.nodes, a.unit) == (b.action, 500, "simulations")
    assert solve.analyse(GAME, START, Limit()).value == 0


def test_a_depth_is_checked_once_by_the_limit() -> None:
    with pytest.raises(ValueError, match="depth must be 0 or more, not -3"):
        Limit(depth=-3)
    with pytest.raises(ValueError, match="depth must be 0 or more, not -3"):
        minimax_search(GAME, START, -3)  # the textbook function asks Limit too
