"""The Connect Four engine's native node function (games/connect4/_engine.c) against its
reference, the Python closure of engine.py: at fixed depths on many positions, the same
values, moves, principal variations, node counts, table hits and table entries (in the
same order); with each enhancement off; with a table small enough to make room many
times; over a game that keeps its memory from move to move; the same Info stream; node
budgets stopping both at the same node; a stop from another thread. Also: the C
compiled and run under AddressSanitizer and UBSan, and ZEROSUM_NATIVE=0."""

from __future__ import annotations

import gc
import os
import random
import shutil
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from sanitized import run_sanitized

from zerosum import native
from zerosum.games.connect4 import Connect4
from zerosum.games.connect4.engine import Connect4Kernel, Memory
from zerosum.games.connect4.game import Position
from zerosum.kernel import ALL, Enhancements, KernelFactory, bound_memory
from zerosum.result import Info, Limit, SearchResult
from zerosum.search.driver import analyse_with
from zerosum.stop import SearchStopped, Stop

SOURCE = Path(native.__file__).parent / "games" / "connect4" / "_engine.c"
BUILT = native.twin("connect4 engine") is not None
needs_native = pytest.mark.skipif(not BUILT, reason="the native engine is not built here "
                                  "(no C compiler at install time, or ZEROSUM_NATIVE=0)")


def engine(native_path: bool) -> KernelFactory:
    """The engine's kernels on one path, with a memory on that path kept by the game
    object (the pure one: a TranspositionTable and the pure solver; the native one: the
    C table)."""
    def make(game: Any, state: Any, stop: Stop, enhancements: Enhancements) -> Connect4Kernel:
        memory = game.memory if hasattr(game, "memory") else Memory(game, native_path)
        game.memory = memory
        assert memory.native == native_path
        kernel = Connect4Kernel(game, state, stop, enhancements, memory, native=native_path)
        assert kernel.native == native_path
        return kernel
    return make


def positions(seed: int, count: int, most: int = 24) -> list[Position]:
    """Seeded random positions of 0 to `most` plies, the game not over."""
    rng = random.Random(seed)
    game = Connect4()
    found: list[Position] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, most + 1)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


def seen(result: SearchResult, game: Any) -> tuple[Any, ...]:
    """What must be identical: the result's figures and the table, entry by entry."""
    return (result.value, result.action, result.pv, result.depth, result.decided,
            result.plies, result.complete, result.stats.nodes, result.stats.table_hits,
            list(game.memory.table.entries.items()))


def both(state: Position, limit: Limit, enhancements: Enhancements = ALL,
         bound: int | None = None) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    out = []
    for path in (True, False):
        game = Connect4()
        if bound is not None:
            bound_memory(game, bound)
        out.append(seen(analyse_with(engine(path), game, state, limit,
                                     enhancements=enhancements), game))
    return out[0], out[1]


def test_a_compiler_here_means_a_native_build() -> None:
    if not native.enabled():
        pytest.skip("ZEROSUM_NATIVE=0")
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler here: the pure path is the expected one")
    assert BUILT, "a C compiler is here but zerosum.games.connect4._engine was not built"


@needs_native
@pytest.mark.parametrize("depth", [1, 2, 5, 8])
def test_fixed_depths_on_many_positions(depth: int) -> None:
    searched = 0
    for state in positions(depth, 40):
        fast, pure = both(state, Limit(depth=depth))
        assert fast == pure, state
        searched += fast[7] > 1  # not decided before the passes (a win at once)
    assert searched >= 25


@needs_native
@pytest.mark.parametrize("off", ["none", *Enhancements.names()])
def test_each_enhancement_off(off: str) -> None:
    enhancements = Enhancements.none() if off == "none" else Enhancements(**{off: False})
    for state in positions(21, 8):
        fast, pure = both(state, Limit(depth=7), enhancements)
        assert fast == pure, state


@needs_native
def test_a_table_that_makes_room_many_times() -> None:
    for state in positions(4, 6, most=8):
        fast, pure = both(state, Limit(depth=9), bound=300)
        assert fast == pure, state
        assert len(fast[-1]) <= 150  # half the bound: the table's share


@needs_native
def test_a_game_keeping_its_memory_from_move_to_move() -> None:
    """Each path plays the other's moves from one game object: every move's result and
    the table carried over are the same."""
    games = Connect4(), Connect4()
    state = games[0].initial_state()
    for _ in range(12):
        fast, pure = (seen(analyse_with(engine(path), game, state, Limit(depth=7)), game)
                      for path, game in zip((True, False), games, strict=True))
        assert fast == pure
        state = games[0].result(state, fast[1])


@needs_native
def test_the_info_stream_is_the_same() -> None:
    def stream(path: bool, state: Position) -> list[tuple[Any, ...]]:
        infos: list[Info] = []
        analyse_with(engine(path), Connect4(), state, Limit(depth=11), infos.append)
        return [(i.depth, i.value, i.pv, i.nodes, i.table_hits, i.decided) for i in infos]

    for state in positions(8, 4, most=6):
        fast = stream(True, state)
        assert fast == stream(False, state) and len(fast) >= 5


@needs_native
@pytest.mark.parametrize("budget", [700, 5000, 40_000])
def test_a_node_budget_stops_both_at_the_same_node(budget: int) -> None:
    state = Connect4().initial_state()
    fast, pure = both(state, Limit(nodes=budget))
    assert fast == pure
    assert budget <= fast[7] < budget + 256  # stopped at the first look past the budget


@needs_native
def test_a_stop_from_another_thread_stops_the_native_search() -> None:
    stop = Stop()
    timer = threading.Timer(0.3, stop.request)
    timer.start()
    try:
        result = analyse_with(engine(True), Connect4(), Connect4().initial_state(),
                              Limit(seconds=600), stop=stop)
    finally:
        timer.cancel()
    # Stopped in a pass long before the end of the game, within moments of the request.
    assert result.depth is not None and 3 <= result.depth < 42
    assert result.action in range(7) and result.stats.wall_time < 5


@needs_native
def test_ctrl_c_reaches_a_native_search_with_no_limit() -> None:
    """Ctrl-C raises KeyboardInterrupt in the native search, as in the pure one: the
    interpreter sees the signal when the search calls back (every 256 nodes)."""
    import signal
    import time

    code = ("from zerosum.games.connect4 import Connect4\n"
            "from zerosum.games.registry import kernel_of\n"
            "from zerosum.result import Limit\n"
            "from zerosum.search.driver import analyse_with\n"
            "from zerosum.stop import Stop\n"
            "stop = Stop()\nsaid = []\n"
            "def said_once(info):\n"  # the search has started: its first pass is done
            "    if not said:\n"
            "        said.append(print('searching', flush=True))\n"
            "try:\n"
            "    analyse_with(kernel_of('connect4'), Connect4(), Connect4().initial_state(),"
            " Limit(), said_once, stop=stop)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted at', stop.nodes_used > 0, flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "ZEROSUM_NATIVE": "1"})
    assert child.stdout is not None
    assert child.stdout.readline() == "searching\n"
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert out == "interrupted at True\n"


@needs_native
def test_stopped_inside_the_c_recursion_raises_search_stopped() -> None:
    game = Connect4()
    stop = Stop(nodes=1000)
    kernel = Connect4Kernel(game, game.initial_state(), stop, ALL, native=True)
    with pytest.raises(SearchStopped):
        kernel.search_move(1 << 21, 20, -10**9, 10**9)  # the centre column, deep
    assert 1000 <= kernel.nodes < 1000 + 256


@needs_native
def test_a_native_kernel_goes_with_the_garbage_collector() -> None:
    """The kernel and its C search refer to each other (the stop's callback): a cycle
    the collector must see, or every move would leak one."""
    game = Connect4()
    kernel = Connect4Kernel(game, game.initial_state(), Stop(), ALL, native=True)
    kernel.search_move(1 << 21, 5, -10**9, 10**9)
    gone = weakref.ref(kernel)
    del kernel
    gc.collect()
    assert gone() is None


@needs_native
def test_the_search_refuses_what_is_not_a_position() -> None:
    game = Connect4()
    kernel = Connect4Kernel(game, game.initial_state(), Stop(), ALL, native=True)
    for current, mask, moves in ((1, 1, 0), (2, 1, 1), (1 << 6, 1 << 6, 1), (-1, 0, 0)):
        with pytest.raises((ValueError, OverflowError)):
            kernel.search(current, mask, moves, 3, -100, 100, -1)
    with pytest.raises(ValueError):
        kernel.search(0, 0, 0, 3, -10**10, 100, -1)


@needs_native
def test_the_native_table_behaves_as_the_dict() -> None:
    """The C table against a TranspositionTable, through the node function's own steps
    (make room at capacity, then store), on random keys with repeats: the same entries
    in the same order, the same answers to get, the same length, at every step."""
    from zerosum.table import TranspositionTable

    twin = native.twin("connect4 engine")
    assert twin is not None
    rng = random.Random(7)
    for capacity in (2, 3, 50, 1000):
        c_table, reference = twin.Table(capacity), TranspositionTable(capacity)
        for step in range(3000):
            key = rng.randrange(200 if step % 2 else 1 << 49)
            entry = (rng.randrange(40), rng.randrange(3), rng.randrange(-10**6, 10**6),
                     1 << rng.randrange(49))
            for table in (c_table, reference):
                if len(table.entries) >= table.capacity:
                    table.make_room()
                table.entries[key] = entry
            probe = rng.randrange(200)
            assert c_table.get(probe) == reference.get(probe)
            assert len(c_table) == len(reference)
        assert c_table.items() == list(reference.entries.items())
        assert c_table.entries is c_table and c_table.capacity == capacity
        c_table.clear()
        assert len(c_table) == 0 and c_table.get(1) is None and c_table.get("x", 5) == 5
    with pytest.raises(TypeError):
        del c_table[1]
    with pytest.raises(TypeError):
        c_table[1] = (1, 2)
    with pytest.raises(KeyError):
        c_table[12345]
    with pytest.raises(ValueError):
        twin.Table(1)
    past = twin.Table(2)  # stored past its capacity without make_room: it grows, as a dict
    for key in range(5000):
        past[key] = (0, 0, key, 0)
    assert len(past) == 5000 and past[4321] == (0, 0, 4321, 0)


def test_native_0_forces_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    game = Connect4()
    kernel = Connect4Kernel(game, game.initial_state(), Stop())
    assert not kernel.native and not kernel.keep.native and not kernel.keep.solver.native
    assert native.twin("connect4 engine") is None


def test_boards_past_63_bits_stay_in_python() -> None:
    game = Connect4(9, 7)  # 9 x 8 = 72 bits
    kernel = Connect4Kernel(game, game.initial_state(), Stop())
    assert not kernel.native
    result = analyse_with(engine(False), game, game.initial_state(), Limit(depth=3))
    assert result.action in range(9) and result.stats.nodes > 9


SANITIZED_RUN = r"""
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("zerosum.games.connect4._engine", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["zerosum.games.connect4._engine"] = module
from zerosum.games.connect4 import Connect4
from zerosum.games.connect4.engine import Connect4Kernel, Memory
from zerosum.kernel import ALL, bound_memory
from zerosum.result import Limit
from zerosum.search.driver import analyse_with

def make(path):
    def kernel(game, state, stop, enhancements):
        if not hasattr(game, "memory"):
            game.memory = Memory(game, native=path)
        k = Connect4Kernel(game, state, stop, enhancements, game.memory, native=path)
        assert k.native == path
        return k
    return kernel

rng = random.Random(3)
for n in range(8):
    state = Connect4().initial_state()
    for _ in range(rng.randrange(0, 20)):
        moves = Connect4().actions(state)
        if not moves:
            break
        state = Connect4().result(state, rng.choice(moves))
    if Connect4().is_terminal(state):
        continue
    out = []
    for path in (True, False):
        game = Connect4()
        bound_memory(game, 400)  # make_room from C, many times
        r = analyse_with(make(path), game, state, Limit(depth=8))
        table = list(game.memory.table.entries.items())
        out.append((r.value, r.action, r.pv, r.stats.nodes, table))
    assert out[0] == out[1], state
game = Connect4()
r = analyse_with(make(True), game, game.initial_state(), Limit(nodes=3000))
assert 3000 <= r.stats.nodes < 3256, r.stats.nodes
t = module.Table(3)
for k in (5, 0, 7, 5, 9, 11, 1 << 60):
    if len(t) >= t.capacity:
        t.make_room()
    t[k] = (1, 2, -3, k)
assert t.items() == [(9, (1, 2, -3, 9)), (11, (1, 2, -3, 11)), (1 << 60, (1, 2, -3, 1 << 60))]
past = module.Table(2)
for k in range(5000):
    past[k] = (0, 0, k, 0)
assert len(past) == 5000 and past[4321] == (0, 0, 4321, 0)
print("sanitized ok")
"""


def test_the_search_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    run_sanitized("connect4 engine", SANITIZED_RUN, tmp_path)
