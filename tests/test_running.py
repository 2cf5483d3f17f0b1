"""zerosum.running: a search in a worker thread, its Info stream, progress, stop, wait
and result, as the terminal (players.terminal.Watch), the page's sockets and notebooks use it."""

from __future__ import annotations

import threading

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.players.catalogue import searcher
from zerosum.result import Info, InfoSink, Limit, SearchResult
from zerosum.running import Running
from zerosum.search import mcts
from zerosum.stop import Stop


def test_a_finished_search_gives_its_infos_and_result() -> None:
    game = TicTacToe()
    agent = searcher("iterative", depth=9)
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
        # The count on the stop (as `tick` or a kernel's `observe` keeps it), the depth
        # and best move in an Info.
        stop.nodes_used = 5000
        on_info(Info(depth=3, value=0.5, pv=(4, 0), nodes=4000, elapsed=0.1))
        started.set()
        while not stop.requested:  # a search checking its stop
            released.wait(0.001)
        return SearchResult(value=0.0, action=6, pv=[6], complete=False)

    clock = iter([10.0, 12.5, 13.0]).__next__
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
    assert running.result().action == 6 and not running.result().complete
    assert running.progress().best == 6  # a finished search's best: its answer


def test_progress_starts_from_what_the_caller_knows_then_follows_the_infos() -> None:
    """Before its first Info a search shows the depth and unit it was started with (a
    fixed-depth search works at its limit; MCTS counts simulations)."""
    started, go, released = threading.Event(), threading.Event(), threading.Event()

    def search(on_info: InfoSink, stop: Stop) -> SearchResult:
        started.set()
        go.wait(10)
        on_info(Info(depth=7, value=0.0, pv=(2,), nodes=10, elapsed=0.1, unit="simulations"))
        released.set()
        return SearchResult(value=0.0, action=2, pv=[2], depth=7, unit="simulations")

    running = Running(search, depth=5, unit="simulations")
    assert started.wait(10)
    before = running.progress()
    assert (before.depth, before.unit, before.best) == (5, "simulations", None)
    go.set()
    assert released.wait(10) and running.wait(10)
    after = running.progress()
    assert (after.depth, after.unit, after.best) == (7, "simulations", 2)


def test_mcts_progress_comes_through_its_infos() -> None:
    """MCTS reports its tree depth, most visited move and unit in its Infos; the count
    is the stop's simulations (which its node budget counts)."""
    game = TicTacToe()
    agent = searcher("mcts", seconds=None, nodes=250, seed=1)
    running = Running(lambda on_info, stop: mcts.analyse(game, game.initial_state(), Limit(),
                                                         on_info, stop, every=100),
                      Stop(nodes=250), unit=agent.unit)
    assert running.wait(30)
    r, progress = running.result(), running.progress()
    assert [i.nodes for i in running.infos] == [100, 200]
    assert (r.stats.nodes, progress.nodes, progress.unit) == (250, 250, "simulations")
    assert progress.depth == running.infos[-1].depth >= 2 and progress.best == r.action


def test_what_the_search_raised_is_raised_by_result() -> None:
    def search(on_info: InfoSink, stop: Stop) -> None:
        raise ValueError("broken")

    running: Running[None] = Running(search)
    assert running.wait(10)
    assert isinstance(running.error(), ValueError)
    with pytest.raises(ValueError, match="broken"):
        running.result()


def test_a_running_search_is_read_as_a_stream_of_its_infos() -> None:
    game = TicTacToe()
    agent = searcher("iterative", depth=9)
    with Running(lambda on_info, stop: agent.analyse(game, game.initial_state(),
                                                     Limit(depth=9), on_info, stop)) as running:
        depths = [info.depth for info in running]
    # The iterator ends when the search has: each depth once, 1 to 9; a finished search
    # is not stopped by leaving the block.
    assert depths == list(range(1, 10)) and running.done and not running.stopped
    assert [i.depth for i in running] == depths  # read again: the same stream


def test_an_event_loop_reads_the_same_stream_without_blocking() -> None:
    import asyncio
    import concurrent.futures

    game = TicTacToe()
    agent = searcher("iterative", depth=9)

    async def read() -> list[int | None]:
        running = Running(lambda on_info, stop: agent.analyse(
            game, game.initial_state(), Limit(depth=9), on_info, stop))
        return [info.depth async for info in running]

    # In a thread of its own: a browser test before this one in the same process may
    # leave its event loop set in this thread, where asyncio.run() refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, read()).result() == list(range(1, 10))


def test_leaving_the_block_stops_the_search_and_waits_for_it() -> None:
    started = threading.Event()

    def search(on_info: InfoSink, stop: Stop) -> SearchResult:
        started.set()
        while not stop.expired():
            stop.tick()
        return SearchResult(0.0, None, [], complete=False)

    with Running(search) as running:
        assert started.wait(30)
    assert running.done and running.stopped and not running.result().complete
