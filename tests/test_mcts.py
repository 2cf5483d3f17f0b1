"""Monte Carlo tree search: the solver's proofs, budgets, stopping and replays."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from clocks import SteppingClock

from zerosum.cli.play import menu
from zerosum.games.connect4.game import Connect4
from zerosum.games.registry import all_games, get_game
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import TreeGame
from zerosum.players.agents import SearchAgent
from zerosum.players.catalogue import names_for
from zerosum.result import Info
from zerosum.search import Stop, alphabeta_search, mcts_search

TTT = TicTacToe()
FIG_5_2 = "A[B[3 12 8] C[2 4 6] D[14 5 2]]"


def test_win_in_one_is_proven_and_played() -> None:
    # X X . / O O . / . . . : X wins at 3 (index 2); the solver needs one
    # simulation per root move at most.
    r = mcts_search(TTT, ("XX.OO....", "X"), simulations=1000)
    assert (r.action, r.value, r.decided) == (2, 1.0, True)
    assert r.stats.nodes <= 5 and r.pv == [2]
    # The same for O, whose win is -1 from Max's side.
    r = mcts_search(TTT, ("XX.OO.X..", "O"), simulations=1000)
    assert (r.action, r.value, r.decided) == (5, -1.0, True)


def test_proven_loss_when_every_move_loses() -> None:
    # O O . / . X . / O X X with X to move: O threatens 3 and 4 at once.
    r = mcts_search(TTT, ("OO..X.OXX", "X"), simulations=1000)
    assert (r.value, r.decided) == (-1.0, True)
    assert r.action in (2, 3, 5)  # every move loses; a legal one is still played
    assert r.stats.nodes < 1000


def test_proven_values_agree_with_alphabeta() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(30):
        state = TTT.initial_state()
        for _ in range(rng.randrange(3, 7)):
            if TTT.is_terminal(state):
                break
            state = TTT.result(state, rng.choice(TTT.actions(state)))
        if TTT.is_terminal(state):
            continue
        r = mcts_search(TTT, state, simulations=3000, seed=checked)
        truth = alphabeta_search(TTT, state)
        assert r.decided, TTT.render(state)
        assert r.value == truth.value
        after = alphabeta_search(TTT, TTT.result(state, r.action))
        assert after.value == truth.value  # the move keeps the game value
        checked += 1
    assert checked >= 20


def test_empty_board_picks_no_losing_move_and_finds_no_proof() -> None:
    r = mcts_search(TTT, TTT.initial_state(), simulations=3000, seed=1)
    assert not r.decided and -1.0 < r.value < 1.0
    assert sum(r.details["visits"].values()) == 3000
    # After X takes the centre, every edge loses for O: MCTS answers with a corner.
    r = mcts_search(TTT, ("....X....", "O"), simulations=6000, seed=1)
    assert r.action in (0, 2, 6, 8)


def test_aima_figure_5_2_reaches_the_minimax_choice() -> None:
    tree = TreeGame.from_text(FIG_5_2)
    # All its leaves are positive: by sign every move wins, so the solver needs the
    # utility range to tell 3 from 2.
    r = mcts_search(tree, (), simulations=1000, bounds=(2, 14))
    assert (r.action, r.value, r.decided, r.pv) == (0, 3.0, True, [0, 0])
    assert r.stats.nodes < 1000  # the root was proven
    by_sign = mcts_search(tree, (), simulations=1000)
    assert by_sign.decided and by_sign.value > 0


def test_solver_win_rule_by_sign() -> None:
    # B and C each let Min win; D wins for Max whatever Min does.
    tree = TreeGame.from_text("A[B[-1 1] C[1 -1] D[1 1]]")
    r = mcts_search(tree, (), simulations=1000)
    assert (r.action, r.value, r.decided, r.pv) == (2, 1.0, True, [2, 0])


def test_never_misses_a_win_in_one_in_connect_four() -> None:
    game = Connect4()
    rng = random.Random(7)
    found = 0
    while found < 12:
        state = game.initial_state()
        for _ in range(rng.randrange(6, 30)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if game.is_terminal(state):
            continue
        wins = [a for a in game.actions(state) if game.is_terminal(game.result(state, a))
                and game.utility(game.result(state, a)) != 0]
        if not wins:
            continue
        r = mcts_search(game, state, simulations=500, seed=found)
        assert r.action in wins and r.decided
        assert r.stats.nodes <= len(game.actions(state))
        found += 1


def test_stop_requested_before_the_start_still_gives_a_legal_move() -> None:
    stop = Stop()
    stop.request()
    r = mcts_search(Connect4(), Connect4().initial_state(), stop=stop)
    assert r.action == 3 and r.pv == [3]  # the game's first move in its order: the centre
    assert (r.stats.nodes, r.complete, r.decided, r.details["visits"]) == (0, False, False, {})


def test_budgets_are_exact_and_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []

    def progress(info: Info) -> None:
        seen.append((info.nodes, sum(n for _, n in info.visits)))
        assert info.unit == "simulations" and info.depth >= 1 and info.pv

    r = mcts_search(TTT, TTT.initial_state(), simulations=357, on_info=progress, every=100)
    assert r.stats.nodes == 357 and sum(r.details["visits"].values()) == 357
    assert seen == [(100, 100), (200, 200), (300, 300)]
    assert r.complete and r.depth == r.stats.max_depth >= 1 and r.algorithm == "mcts"
    assert r.unit == "simulations" and r.plies is None
    # A Stop's node budget counts simulations; it carries the live progress too.
    stop = Stop(nodes=250)
    r = mcts_search(TTT, TTT.initial_state(), stop=stop)
    assert (r.stats.nodes, stop.nodes_used, stop.best) == (250, 250, r.action)
    assert stop.depth == r.stats.max_depth >= 2
    # A time budget on a stepping clock: the clock is read once per simulation.
    r = mcts_search(TTT, TTT.initial_state(), seconds=1.0, clock=SteppingClock(0.01))
    assert r.stats.nodes == 99


def test_same_seed_same_search() -> None:
    def run(seed: int) -> tuple[Any, float, dict[Any, int], list[Any]]:
        r = mcts_search(Connect4(), Connect4().initial_state(), simulations=400, seed=seed)
        return r.action, r.value, r.details["visits"], r.pv

    assert run(5) == run(5)
    assert run(5)[2] != run(6)[2]


def test_search_agent_plays_mcts() -> None:
    agent = SearchAgent("mcts", seconds=5.0, seed=1)
    assert agent.name == "mcts (5 s)"
    move = agent.choose(TTT, ("XX.OO....", "X"))  # proven at once, long before 5 s
    assert move.action == 2 and move.result is not None and move.result.decided


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="every must be 1 or more, not 0"):
        mcts_search(TTT, TTT.initial_state(), every=0)
    with pytest.raises(ValueError, match=r"low < high, not \(1, 1\)"):
        mcts_search(TTT, TTT.initial_state(), bounds=(1, 1))


def test_menu_offers_mcts_with_a_time_per_move() -> None:
    n = [s.name for s in all_games()].index("tictactoe") + 1
    kind = names_for(get_game("tictactoe")).index("mcts") + 1
    out = io.StringIO()
    # Opponent help, then mcts with 0.05 s per move, watching it play itself.
    assert menu(io.StringIO(f"{n}\n?\n{kind}\n0.05\n3\n"), out) == 0
    text = out.getvalue()
    assert ("  mcts: Monte Carlo tree search: plays many random games from each move and\n"
            "    prefers the moves that win most often; proven wins are played at once.\n"
            ) in text
    assert "Seconds per move [1.0]: " in text
    assert "Tic-tac-toe: X = mcts (0.05 s), O = mcts (0.05 s)" in text
    assert "Game over. " in text


def test_the_live_line_counts_simulations() -> None:
    from zerosum.players.terminal import progress_line

    game = TicTacToe()
    stop = Stop()
    mcts_search(game, game.initial_state(), simulations=50, stop=stop, every=25)
    assert stop.nodes_used == 50 and stop.unit == "simulations"
    assert progress_line(stop, 2.0).startswith(
        f"Thinking: tree depth {stop.depth}, 50 simulations, 25 simulations/s, 2.0 s")
