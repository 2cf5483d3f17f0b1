"""Monte Carlo tree search: the solver's proofs, budgets, stopping and replays."""

from __future__ import annotations

import io
import math
import random
from dataclasses import replace
from typing import Any

import pytest
from clocks import SteppingClock

from zerosum.cli.play import menu
from zerosum.games.connect4.game import Connect4
from zerosum.games.registry import all_games, get_game
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import TreeGame
from zerosum.players.catalogue import names_for, searcher
from zerosum.result import Info
from zerosum.running import Running
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
    # A Stop's node budget counts simulations (its live count too).
    stop = Stop(nodes=250)
    r = mcts_search(TTT, TTT.initial_state(), stop=stop)
    assert (r.stats.nodes, stop.nodes_used) == (250, 250) and r.stats.max_depth >= 2
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
    agent = searcher("mcts", seconds=5.0, seed=1)
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
    running = Running(lambda on_info, stop: mcts_search(game, game.initial_state(),
                                                        simulations=50, stop=stop,
                                                        on_info=on_info, every=25))
    assert running.wait(30)
    p = replace(running.progress(), elapsed=2.0)
    depth = running.infos[-1].depth
    assert p.nodes == 50 and p.unit == "simulations" and p.depth == depth
    assert progress_line(p).startswith(
        f"Thinking: tree depth {depth}, 50 simulations, 25 simulations/s, 2.0 s")


def test_each_simulation_traced_on_figure_5_2() -> None:
    """AIMA figure 5.2 with the leaves' range as the reward scale, seed 1, worked by
    hand: simulations 1-3 expand B, C, D (the root has untried moves: no selection) and
    play out to a random leaf; from the 4th UCB1 selects (D: 1 + 1.41 sqrt(ln 3 / 1)),
    a Min node's leaves are added one a simulation, and MCTS-Solver proves C at once by
    its 2 (the least leaf: Min's best), D by its last leaf, B at the 10th, and so the
    root: 3, the minimax value, after 10 simulations."""
    from zerosum.search.mcts import Simulation, Update

    tree = TreeGame.from_text(FIG_5_2)
    sims: list[Simulation] = []
    r = mcts_search(tree, (), simulations=100, seed=1, bounds=(2, 14), tracer=sims.append)
    assert (r.action, r.value, r.decided, r.stats.nodes) == (0, 3.0, True, 10)
    assert r.details["visits"] == {0: 4, 1: 2, 2: 4}
    assert [(s.number, tuple(x.chosen for x in s.selected), s.expanded, s.playout, s.utility)
            for s in sims] == [
        (1, (), (0,), (0,), 3), (2, (), (1,), (2,), 6), (3, (), (2,), (0,), 14),
        (4, (2,), (2, 0), (), 14), (5, (2,), (2, 1), (), 5), (6, (1,), (1, 0), (), 2),
        (7, (0,), (0, 0), (), 3), (8, (2,), (2, 2), (), 2), (9, (0,), (0, 1), (), 12),
        (10, (0,), (0, 2), (), 8)]
    fourth = sims[3]
    [level] = fourth.selected
    assert [(o.action, o.visits, round(o.uct_exploit, 3), round(o.uct_explore, 3))
            for o in level.options] == [(0, 1, 0.083, 1.478), (1, 1, 0.333, 1.478),
                                        (2, 1, 1.0, 1.478)]
    assert fourth.reward == 1.0
    # back-propagated bottom up: D.1 proven 14 (Min moved into it: its reward 0), D (Max
    # moved into it: 1 + 1), the root (Min's rewards: 11/12 + 2/3 + 0 + 0)
    assert [(u.path, u.visits, u.reward, u.proven) for u in fourth.updates] == [
        ((2, 0), 1, 0.0, 14), ((2,), 2, 2.0, None), ((), 4, pytest.approx(19 / 12), None)]
    assert sims[5].updates[1] == Update((1,), 2, 1 / 3, 2)  # C proven by its first leaf, 2
    assert sims[-1].updates[-1].proven == 3 and sims[-1].root_moves[0].proven == 3
    # tracing draws nothing from the generator: the same search without it
    again = mcts_search(tree, (), simulations=100, seed=1, bounds=(2, 14))
    assert (again.details, again.pv) == (r.details, r.pv)


def test_tiny_game_visit_counts_from_a_seed() -> None:
    """Tic-tac-toe after 1 5 9 3 (X to move, five cells free), seed 1: the root moves'
    visits, MCTS-Solver's proof of X's win by 7 (a fork), and the Info's root moves."""
    state = TTT.initial_state()
    for move in ("1", "5", "9", "3"):
        state = TTT.result(state, TTT.parse_move(state, move))
    infos: list[Info] = []
    r = mcts_search(TTT, state, simulations=100, seed=1, on_info=infos.append, every=10)
    assert r.stats.nodes == 30 and r.decided and r.value == 1
    assert {TTT.format_move(a): n for a, n in r.details["visits"].items()} == {
        "2": 4, "4": 4, "6": 4, "7": 13, "8": 5}
    last = infos[-1]
    assert last.nodes == 30
    assert [(TTT.format_move(m.action), m.visits, m.proven) for m in last.root_moves] == [
        ("2", 4, -1), ("4", 4, -1), ("6", 4, -1), ("7", 13, 1), ("8", 5, -1)]
    assert last.visits == tuple((m.action, m.visits) for m in last.root_moves)
    # each move's UCB1 terms, as the selection weighs it: a proven move by its value alone
    assert all(m.uct_explore == 0 for m in last.root_moves)
    assert [m.uct_exploit for m in last.root_moves] == [0, 0, 0, 1, 0]
    early = infos[0]  # after 10 simulations, nothing proven at the root yet
    assert early.nodes == 10
    for m in early.root_moves:
        assert m.uct_explore == pytest.approx(1.41 * math.sqrt(math.log(10) / m.visits))
        assert m.mean == pytest.approx(2 * m.uct_exploit - 1)  # X moves: Max's mean
    assert sum(m.visits for m in early.root_moves) == 10
