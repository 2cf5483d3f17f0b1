"""Agents and matches: seeded randomness, search agents, the human's prompt loop."""

from __future__ import annotations

import io

import pytest

from zerosum.agents import HumanAgent, RandomAgent, SearchAgent, play_match
from zerosum.game import InputError
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta_search


def test_random_agent_is_seeded() -> None:
    game = TicTacToe()
    a = play_match(game, [RandomAgent(7), RandomAgent(8)])
    b = play_match(game, [RandomAgent(7), RandomAgent(8)])
    assert [m.action for _, m in a.moves] == [m.action for _, m in b.moves]
    assert a.utility == b.utility


def test_perfect_players_draw_and_beat_random() -> None:
    game = TicTacToe()
    record = play_match(game, [SearchAgent("alphabeta"), SearchAgent("minimax")])
    assert record.utility == 0 and record.winner is None
    assert len(record.moves) == 9
    for seed in range(10):
        r = play_match(game, [RandomAgent(seed), SearchAgent("alphabeta")])
        assert r.utility is not None and r.utility <= 0  # never loses as O
        r = play_match(game, [SearchAgent("alphabeta"), RandomAgent(seed)])
        assert r.utility is not None and r.utility >= 0


def test_search_agent_reports_its_search() -> None:
    game = TicTacToe()
    record = play_match(game, [SearchAgent("depth-limited", depth=2),
                               SearchAgent("iterative", seconds=0.5)], max_moves=2)
    (side0, m0), (side1, m1) = record.moves
    assert (side0, side1) == (0, 1)
    assert m0.result is not None and m0.result.depth == 2
    direct = alphabeta_search(game, game.initial_state(), 2)
    assert m0.result.stats.nodes == direct.stats.nodes < 82  # minimax would examine 82
    assert m0.action == direct.action == 4  # the centre: most lines left open
    assert m1.result is not None and m1.result.algorithm == "iterative"
    assert record.utility is None  # not finished


def test_search_agent_rejects_bad_settings() -> None:
    with pytest.raises(InputError):
        SearchAgent("bogus")
    with pytest.raises(InputError):
        SearchAgent("alphabeta", depth=-3)
    with pytest.raises(InputError):
        SearchAgent("iterative", seconds=0)


def test_human_reasks_and_helps() -> None:
    game = TicTacToe()
    out = io.StringIO()
    human = HumanAgent(io.StringIO("?\n0\nx\n\n5\n"), out)
    move = human.choose(game, game.initial_state())
    assert move.action == 4
    text = out.getvalue()
    assert "Type the cell number" in text
    assert text.count("Legal moves: 1 2 3 4 5 6 7 8 9") == 3  # after ?, 0 and x
    assert "Invalid move: a move is a cell number 1-9" in text


def test_match_transcript_and_end_of_input() -> None:
    game = TicTacToe()
    out = io.StringIO()
    record = play_match(game, [HumanAgent(io.StringIO("5\n"), out), SearchAgent("alphabeta")],
                        out=out)
    assert record.abandoned and len(record.moves) == 2
    text = out.getvalue()
    assert "X (human) plays 5" in text
    assert "O (alphabeta) plays 1: value 0 (even), depth end, nodes " in text
    assert "Input ended: the game is abandoned." in text
    assert text.rstrip().endswith("s")
    assert "Thinking time: X" in text
