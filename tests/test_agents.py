"""Agents and matches: seeded randomness, search agents, the human's prompt loop."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest

from zerosum.game import AnyGame, InputError
from zerosum.games.registry import get_game
from zerosum.games.tictactoe import TicTacToe
from zerosum.match import Agent, MatchObserver, MatchRecord, Move, Rules, play_match
from zerosum.players.agents import EngineAgent, RandomAgent, SearchAgent
from zerosum.players.catalogue import searcher
from zerosum.players.spec import agent_from_spec
from zerosum.players.terminal import HumanAgent
from zerosum.players.text import MatchPrinter
from zerosum.result import Limit
from zerosum.search import alphabeta_search


def test_random_agent_is_seeded() -> None:
    game = TicTacToe()
    a = play_match(game, [RandomAgent(7), RandomAgent(8)])
    b = play_match(game, [RandomAgent(7), RandomAgent(8)])
    assert [m.action for m in a.moves] == [m.action for m in b.moves]
    assert a.utility == b.utility


def test_perfect_players_draw_and_beat_random() -> None:
    game = TicTacToe()
    record = play_match(game, [searcher("alphabeta"), searcher("minimax")])
    assert record.utility == 0 and record.winner is None
    assert len(record.moves) == 9
    for seed in range(10):
        r = play_match(game, [RandomAgent(seed), searcher("alphabeta")])
        assert r.utility is not None and r.utility <= 0  # never loses as O
        r = play_match(game, [searcher("alphabeta"), RandomAgent(seed)])
        assert r.utility is not None and r.utility >= 0


def test_search_agent_reports_its_search() -> None:
    game = TicTacToe()
    record = play_match(game, [searcher("depth-limited", depth=2),
                               searcher("iterative", seconds=0.5)], rules=Rules(max_moves=2))
    m0, m1 = record.moves
    assert (m0.side, m1.side) == (0, 1)
    assert m0.result is not None and m0.result.depth == 2
    direct = alphabeta_search(game, game.initial_state(), 2)
    assert m0.result.stats.nodes == direct.stats.nodes < 82  # minimax would examine 82
    assert m0.action == direct.action == 4  # the centre: most lines left open
    assert m1.result is not None and m1.result.algorithm == "iterative"
    assert record.utility is None  # not finished


def test_search_agent_rejects_bad_settings() -> None:
    with pytest.raises(InputError):
        searcher("bogus")
    with pytest.raises(InputError):
        searcher("alphabeta", depth=-3)
    with pytest.raises(InputError):
        searcher("iterative", seconds=0)


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
    record = play_match(game, [HumanAgent(io.StringIO("5\n"), out), searcher("alphabeta")],
                        observer=MatchPrinter(out))
    assert record.abandoned and len(record.moves) == 2
    text = out.getvalue()
    assert "X (human) plays 5" in text
    assert "O (alphabeta) plays 1: value 0 (draw, proven), depth end, nodes " in text
    assert "Input ended: the game is abandoned." in text
    assert text.rstrip().endswith("s")
    assert "Thinking time: X" in text


class Log(MatchObserver):
    """Writes down every event of a match, with the state it was told of."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def start(self, game: AnyGame, state: Any, agents: Sequence[Agent]) -> None:
        self.events.append(("start", state, [a.name for a in agents]))

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        self.events.append(("before", state, side))

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        self.events.append(("after", state, side, move.action))

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        self.events.append(("end", record.final_state, record.utility, record.abandoned))


def test_observer_is_told_every_event_in_order_and_nothing_is_printed(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = TicTacToe()
    log = Log()
    human = HumanAgent(io.StringIO("5\n"), io.StringIO())
    record = play_match(game, [human, searcher("alphabeta")], observer=log)
    s0 = game.initial_state()
    s1 = game.result(s0, 4)
    s2 = game.result(s1, 0)  # O's best reply to the centre: a corner, the first in order
    assert log.events == [("start", s0, ["human", "alphabeta"]),
                          ("before", s0, 0), ("after", s0, 0, 4),
                          ("before", s1, 1), ("after", s1, 1, 0),
                          ("before", s2, 0),
                          ("end", s2, None, True)]
    assert record.final_state == s2 and record.abandoned
    assert capsys.readouterr().out == ""


def test_observer_hears_the_end_of_a_finished_and_of_a_stopped_match() -> None:
    game = TicTacToe()
    log = Log()
    record = play_match(game, [searcher("alphabeta"), searcher("alphabeta")],
                        observer=log)
    assert [e[0] for e in log.events] == ["start"] + ["before", "after"] * 9 + ["end"]
    assert log.events[-1] == ("end", record.final_state, 0, False)
    log = Log()
    play_match(game, [RandomAgent(1), RandomAgent(2)], rules=Rules(max_moves=3), observer=log)
    assert [e[0] for e in log.events] == ["start"] + ["before", "after"] * 3 + ["end"]
    assert log.events[-1][2:] == (None, False)


def test_players_from_their_written_form() -> None:
    c4 = get_game("connect4")
    engine = agent_from_spec(c4, "engine:time=0.1")
    assert isinstance(engine, EngineAgent) and engine.limit == Limit(seconds=0.1)
    ab = agent_from_spec(c4, "alphabeta:depth=6")
    assert isinstance(ab, SearchAgent) and ab.limit == Limit(depth=6)
    mcts = agent_from_spec(c4, " mcts:time=0.2,seed=3 ")
    assert mcts.name == "mcts:time=0.2,seed=3" and mcts.limit == Limit(seconds=0.2)
    it = agent_from_spec(c4, "iterative:time=0.5,off=pvs+aspiration,nodes=1000")
    assert isinstance(it, SearchAgent) and it.limit == Limit(seconds=0.5, nodes=1000)
    assert not it.enhancements.pvs and not it.enhancements.aspiration and it.enhancements.table
    game = c4.create()
    assert agent_from_spec(c4, "random:seed=1").play(game, game.initial_state()) in range(7)
    with pytest.raises(InputError, match=r"^player 'alphabeta:depth=-1': depth must be a "
                       r"whole number from 0 to 99, not '-1'$"):
        agent_from_spec(c4, "alphabeta:depth=-1")
    for text, message in [("engine:speed=3", "'speed=3' is unknown"),
                          ("engine:time", "'time' is not SETTING=VALUE"),
                          ("engine:time=1,time=2", "'time=2' is repeated"),
                          ("engine:off=pvs+magic", "no enhancement 'magic'"),
                          ("wizard", "unknown player 'wizard' for connect4")]:
        with pytest.raises(InputError, match=message):
            agent_from_spec(c4, text)
