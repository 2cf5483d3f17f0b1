"""zerosum.running: a search in a worker thread, its Info stream, progress, stop, wait
and result, as the terminal (players.terminal.Watch), the page's sockets and notebooks use it."""

from __future__ import annotations

import threading

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.players.agents import SearchAgent
from zerosum.result import Info, InfoSink, Limit, SearchResult
from zerosum.running import Running
from zerosum.stop import Stop


def test_a_finished_search_gives_its_infos_and_result() -> None:
    game = TicTacToe()
    agent = SearchAgent("iterative", depth=9)
    seen: list[Info] = []
    done = threading.Event()
    running = Running(lambda on_info, stop: agent.analyse(game, game.initial_state(),
                                                          Limit(depth=9), on_info, stop),
                      on_info=seen.append, on_done=lambda r: done.set())
    assert running.wait(30) and done.wait(30) and running.done
    result = running.result()
    # Iterative deepening reports each depth, 1 to 9; the empty board is a draw.
    assert [i.depth for i in running.infos] == list(range(1, 10))
    assert seen == running.infos and running.latest is running.infos[-1]
    assert result.value == 0 and result.complete and running.error() is None
    assert not running.stopped


def test_stop_ends_a_search_with_its_best_so_far_and_progress_is_live() -> None:
    started, released = threading.Event(), threading.Event()

    def search(on_info: InfoSink, stop: Stop) -> SearchResult:
        stop.depth, stop.nodes_used, stop.best = 3, 5000, 4
        started.set()
        while not stop.requested:  # a search checking its stop
            released.wait(0.001)
        return SearchResult(value=0.0, action=4, pv=[4], complete=False)

    clock = iter([10.0, 12.5]).__next__
    running = Running(search, Stop(), clock=clock)
    assert started.wait(10)
    progress = running.progress()
    assert (progress.depth, progress.nodes, progress.unit, progress.best) == (3, 5000, "nodes", 4)
    assert progress.elapsed == 2.5 and progress.rate == 2000
    assert not running.done
    with pytest.raises(RuntimeError, match="still running"):
        running.result()
    running.stop()
    assert running.wait(10) and running.stopped
    assert running.result().action == 4 and not running.result().complete


def test_what_the_search_raised_is_raised_by_result() -> None:
    def search(on_info: InfoSink, stop: Stop) -> None:
        raise ValueError("broken")

    running: Running[None] = Running(search)
    assert running.wait(10)
    assert isinstance(running.error(), ValueError)
    with pytest.raises(ValueError, match="broken"):
        running.result()
