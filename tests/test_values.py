"""Values that say what they are: one format_value for every game, results that are
decided or estimates, and engines that take the fastest win and the slowest loss."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from zerosum.agents import RandomAgent, SearchAgent, engines_of
from zerosum.game import OUTCOME_BOUNDED, AnyGame, Values, format_value
from zerosum.games.maxconnect4.game import MaxConnect4
from zerosum.games.registry import all_games
from zerosum.games.tictactoe import TicTacToe
from zerosum.result import Limit
from zerosum.search import iterative_deepening_search, mcts_search

TTT = TicTacToe()


def test_one_format_for_every_game() -> None:
    assert format_value(TTT, 1, decided=True, plies=3) == "+1 (X wins in 3 plies)"
    assert format_value(TTT, -1, decided=True, plies=1) == "-1 (O wins in 1 ply)"
    assert format_value(TTT, -1, decided=True) == "-1 (O wins, proven)"  # distance unknown
    assert format_value(TTT, 0, decided=True, plies=9) == "0 (draw in 9 plies)"
    assert format_value(TTT, 0, decided=True) == "0 (draw, proven)"
    assert format_value(TTT, 0.25) == "+0.25 (estimate, good for X)"
    assert format_value(TTT, 0.05) == "+0.05 (estimate, good for X)"  # the band's edge
    assert format_value(TTT, -0.049) == "-0.049 (estimate, about even)"
    assert format_value(TTT, 0) == "0 (estimate, about even)"
    assert format_value(TTT, float("-inf")) == "none yet"
    mc4 = MaxConnect4()  # a score game: points ahead, not wins
    assert format_value(mc4, 3, decided=True) == "+3 (proven: Player 1 ahead by 3)"
    assert format_value(mc4, 3, decided=True, plies=10) == \
        "+3 (proven: Player 1 ahead by 3 after 10 plies)"
    assert format_value(mc4, -1.5) == "-1.5 (estimate: Player 2 ahead)"
    assert format_value(mc4, 0.04) == "+0.04 (estimate: about level)"
    assert format_value(mc4, 0, decided=True) == "0 (proven: level)"


def test_every_game_says_what_its_values_are() -> None:
    for spec in all_games():
        values = spec.create().values
        assert values.kind in ("outcome", "score") and values.lo < 0 < values.hi, spec.name
    assert OUTCOME_BOUNDED.decides(1.0) and not OUTCOME_BOUNDED.decides(0.999)
    assert not Values().decides(5.0)  # unbounded estimates decide nothing


@functools.cache
def distance(state: Any) -> tuple[float, int]:
    """(game value, plies to the end) of a tic-tac-toe position under play that wins
    as fast and loses as slowly as it can (a draw: as long as it lasts)."""
    if TTT.is_terminal(state):
        return TTT.utility(state), 0
    maximize = TTT.is_maxs_turn(state)
    children = [distance(TTT.result(state, a)) for a in TTT.actions(state)]
    best = max(v for v, _ in children) if maximize else min(v for v, _ in children)
    wins = best != 0 and (best > 0) == maximize
    plies = [p for v, p in children if v == best]
    return best, (min(plies) if wins else max(plies)) + 1


def positions(count: int, seed: int = 3) -> list[Any]:
    """Seeded random positions of tic-tac-toe that are won for one side."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = TTT.initial_state()
        for _ in range(rng.randrange(2, 7)):
            if TTT.is_terminal(state):
                break
            state = TTT.result(state, rng.choice(TTT.actions(state)))
        if not TTT.is_terminal(state) and distance(state)[0] != 0 and state not in found:
            found.append(state)
    return found


@pytest.mark.parametrize("state", positions(12), ids=lambda s: s[0])
def test_iterative_deepening_takes_the_fastest_win(state: Any) -> None:
    value, plies = distance(state)
    r = iterative_deepening_search(TTT, state, seconds=60)
    assert (r.value, r.decided, r.plies) == (value, True, plies)
    # The move played keeps the value and is one ply shorter (a loss: one ply longer
    # is impossible, so a loser's move also lasts `plies - 1` after it).
    assert distance(TTT.result(state, r.action)) == (value, plies - 1)


def win_in_one(game: AnyGame, state: Any) -> list[Any]:
    return [a for a in game.actions(state)
            if game.is_terminal(s := game.result(state, a)) and game.utility(s) != 0]


def test_no_search_misses_a_win_in_one() -> None:
    # X: 0 1 _ / O O _ / _ _ _ : X wins at 2 at once (and O threatens 5).
    state = ("XX.OO....", "X")
    assert win_in_one(TTT, state) == [2]
    r = iterative_deepening_search(TTT, state, seconds=60)
    assert (r.action, r.value, r.plies) == (2, 1, 1)
    r = mcts_search(TTT, state, simulations=2000, seed=1)
    assert (r.action, r.value, r.decided, r.plies) == (2, 1, True, None)  # proven, no distance


def test_every_agent_answers_the_one_contract() -> None:
    # analyse(game, state, limit, on_info, stop) -> SearchResult, and play -> the move.
    state = ("XX.OO....", "X")
    for agent in (SearchAgent("alphabeta"), SearchAgent("iterative"), SearchAgent("mcts", seed=2),
                  SearchAgent("minimax", depth=3)):
        r = agent.analyse(TTT, state, Limit(seconds=5))
        assert r.action == 2 and agent.play(TTT, state, Limit(seconds=5)) == 2, agent.name
    r = RandomAgent(4).analyse(TTT, state, Limit(depth=1))
    assert r.action in TTT.actions(state) and r.algorithm == "random"
    for spec in all_games():
        for name, engine in engines_of(spec).items():
            assert callable(engine), (spec.name, name)
