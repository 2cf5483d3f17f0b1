"""The conformance suite of the native twins: every compiled kernel of
zerosum.native.KERNELS against its Python reference, by the same checks (tests/twins.py
says how each is driven). On fixed positions, the same values, moves, principal
variations, node counts, table hits, Info streams and table entries, at fixed depths,
with each enhancement off, with a table made room in many times and kept from search to
search, and under node budgets (stopping at the same node); a stop from another thread;
the kernel freed; ZEROSUM_NATIVE=0; and each built under AddressSanitizer and UBSan
(`-m sanitizer`). What only one twin has (checkers' perft, Connect Four's C table, the
solver's analyses) is checked at the end."""

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
from twins import DATA, Twin, compare, open_positions, played, twins

from zerosum import native
from zerosum.kernel import ALL, Enhancements, bound_memory
from zerosum.result import Limit
from zerosum.stop import Stop

TWINS = twins()
# Every native kernel that searches has its entry in twins.py; the n-tuple network's
# twin (a value and an update, and whole self-play games; no search) is held to the same
# games and weights in test_learn.py.
NOT_SEARCHES = {"ntuple"}
assert set(TWINS) == set(native.KERNELS) - NOT_SEARCHES, \
    "every native kernel has its entry in twins.py"


def built(twin: Twin) -> bool:
    return native.load(native.KERNELS[twin.name][0]) is not None


def needs(twin: Twin) -> None:
    if not built(twin):
        pytest.skip(f"{twin.name} is not built here (no C compiler at install time, or "
                    "ZEROSUM_NATIVE=0)")


each = pytest.mark.parametrize("twin", TWINS.values(), ids=str)
each_depth = pytest.mark.parametrize(
    ("twin", "depth"), [(t, d) for t in TWINS.values() for d in t.depths],
    ids=lambda x: str(x))
each_off = pytest.mark.parametrize(
    ("twin", "off"), [(t, off) for t in TWINS.values() for off in ("none", *t.uses) if t.uses],
    ids=lambda x: str(x))


@each
def test_a_compiler_here_means_a_native_build(twin: Twin) -> None:
    """`make setup` on a machine with gcc builds every kernel (a silent build failure
    would leave everything passing, slowly)."""
    if not native.enabled():
        pytest.skip("ZEROSUM_NATIVE=0")
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler here: the pure path is the expected one")
    assert built(twin), f"a C compiler is here but {twin.name} was not built"


@each_depth
def test_the_same_search_at_fixed_depths(twin: Twin, depth: int) -> None:
    needs(twin)
    seen = compare(twin, twin.cases(depth, 8), Limit(depth=depth))
    assert sum(s.nodes > 1 for s in seen) >= 5  # most searched (not decided at once)


@each_off
def test_the_same_search_with_each_enhancement_off(twin: Twin, off: str) -> None:
    needs(twin)
    enhancements = Enhancements.none() if off == "none" else Enhancements(**{off: False})
    compare(twin, twin.cases(21, 3), Limit(depth=min(twin.depths[-1], 6)), enhancements)


@each
def test_a_node_budget_stops_both_at_the_same_node(twin: Twin) -> None:
    needs(twin)
    for budget in twin.budgets:
        for seen in compare(twin, twin.cases(budget, 2), Limit(nodes=budget)):
            # Stopped at the first call back past the budget, or done before it.
            assert seen.nodes < budget + twin.every


@each
def test_a_small_table_made_room_in_many_times_and_kept_alike(twin: Twin) -> None:
    """A table bounded to a few hundred entries, kept from one search to the next (as
    from move to move): the same entries, in the same order, after each."""
    needs(twin)
    assert twin.memory is not None
    for game, state in twin.cases(9, 2):
        bound_memory(game, 300)
        memories = twin.memory(game, True), twin.memory(game, False)
        for _ in range(2):
            fast, pure = (twin.run(game, state, Limit(depth=twin.depths[-1]), path, ALL,
                                   None, memory)
                          for path, memory in zip((True, False), memories, strict=True))
            assert fast == pure


@each
def test_a_stop_from_another_thread_stops_the_native_search(twin: Twin) -> None:
    needs(twin)
    assert twin.endless is not None
    game, state = twin.endless()
    stop = Stop()
    timer = threading.Timer(0.3, stop.request)
    timer.start()
    try:
        seen = twin.run(game, state, Limit(seconds=600), True, ALL, stop, None)
    finally:
        timer.cancel()
    assert stop.requested and seen.nodes > twin.every


@each
def test_a_native_kernel_is_freed(twin: Twin) -> None:
    """Freed at its last reference, or where the kernel and its C search refer to each
    other (the stop's callback), by the collector: never kept, or every move would leak
    one (and a C table)."""
    needs(twin)
    gc.disable()
    try:
        kernel = twin.make(True)
        assert twin.native(kernel)
        gone = weakref.ref(kernel)
        del kernel
        if twin.cycle:
            gc.collect()
        assert gone() is None
    finally:
        gc.enable()


@each
def test_native_0_forces_the_pure_path(twin: Twin, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    assert native.twin(twin.name) is None
    assert not twin.native(twin.make(True))


def test_the_version_line_names_the_path() -> None:
    env = {**os.environ, "ZEROSUM_NATIVE": "0"}
    done = subprocess.run([sys.executable, "-m", "zerosum", "--version"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "zerosum 0.1.0 (pure Python: ZEROSUM_NATIVE=0)\n"
    if all(built(t) for t in TWINS.values()):
        # A narrow terminal: the line stays one line (argparse's own action wrapped it).
        env.update(ZEROSUM_NATIVE="1", COLUMNS="40")
        done = subprocess.run([sys.executable, "-m", "zerosum", "--version"], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.stdout == ("zerosum 0.1.0 (native kernels: connect4 solver, connect4 "
                               "engine, checkers, maxconnect4 engine, ntuple)\n")


# --- under the sanitizers --------------------------------------------------------------------

SANITIZED_RUN = r"""
import importlib.util, sys
name, module_name, tests = sys.argv[2], sys.argv[3], sys.argv[4]
spec = importlib.util.spec_from_file_location(module_name, sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules[module_name] = module
sys.path.insert(0, tests)
from twins import compare, twins
from zerosum.kernel import bound_memory, Enhancements
from zerosum.result import Limit
import test_twins

twin = twins()[name]
cases = twin.cases(5, 3)
compare(twin, cases, Limit(depth=twin.depths[0]))
compare(twin, cases[:1], Limit(depth=twin.depths[0]), Enhancements.none())
compare(twin, cases, Limit(nodes=twin.budgets[0]))
for game, _ in cases:
    bound_memory(game, 300)
compare(twin, cases, Limit(depth=twin.depths[-1]))
test_twins.ONLY_ONE[name](module)
print("sanitized ok")
"""


@pytest.mark.sanitizer
@each
def test_the_twin_under_address_and_undefined_behaviour_sanitizers(twin: Twin,
                                                                    tmp_path: Path) -> None:
    run_sanitized(twin.name, SANITIZED_RUN, tmp_path, twin.name,
                  native.KERNELS[twin.name][0], str(Path(__file__).parent))


# --- what only one twin has ------------------------------------------------------------------
# Each also runs in the sanitized build (ONLY_ONE), given the compiled module.

def checkers_moves_evaluation_and_perft(c: Any) -> None:
    """The same moves in the same order, the same evaluation and the same perft counts,
    on every board size under both capture rules."""
    from zerosum.games.checkers import Checkers
    from zerosum.games.checkers.board import SIZES, generate
    from zerosum.games.checkers.evaluation import WEIGHTS, score
    from zerosum.games.checkers.perft import perft

    for size in SIZES:
        for capture in ("english", "max"):
            game = Checkers(size, capture)
            b, rng = game.board, random.Random(size)
            states = [random_checkers_position(game, rng) for _ in range(60)]
            states += [played(game, rng, rng.randrange(60)) for _ in range(20)]
            captures = 0
            for s in states:
                mine = [m[0] for m in generate(b, s.black, s.white, s.kings, s.black_to_move,
                                               game.max_capture)]
                assert c.generate(size, s.black, s.white, s.kings, s.black_to_move, 0,
                                  game.max_capture) == mine
                assert c.score(size, s.black, s.white, s.kings, WEIGHTS) == score(
                    b, s.black, s.white, s.kings)
                # Other weights (learned ones), a man's sometimes below a king's loss.
                other = tuple(rng.randrange(-40, 200) for _ in WEIGHTS)
                assert c.score(size, s.black, s.white, s.kings, other) == score(
                    b, s.black, s.white, s.kings, other)
                captures += any(abs(p[1] - p[0]) > size + 2 for p in mine)
            assert captures > 5  # the random positions do test captures
            start = game.initial_state()
            depth = {4: 7, 6: 5, 8: 4}.get(size, 3)
            assert c.perft(size, start.black, start.white, start.kings, True, depth,
                           game.max_capture) == perft(b, start.black, start.white,
                                                      start.kings, True, depth,
                                                      game.max_capture)


def random_checkers_position(game: Any, rng: random.Random) -> Any:
    """Pieces scattered at random, many of them kings (king loops, long captures); no man
    on its crowning row."""
    b = game.board
    start = b.black_start.bit_count()
    squares = rng.sample(b.squares, rng.randint(2, min(len(b.squares), 2 * start)))
    black = white = kings = 0
    for i, sq in enumerate(squares):
        bit = 1 << sq
        is_black = i % 2 == 0
        crown = b.black_crown if is_black else b.white_crown
        if bit & crown or rng.random() < 0.4:
            kings |= bit
        if is_black:
            black |= bit
        else:
            white |= bit
    return game.make_state(black, white, kings, rng.random() < 0.5)


def maxconnect4_evaluation(c: Any) -> None:
    from zerosum.games.maxconnect4 import MaxConnect4, potential
    from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS

    game, rng = MaxConnect4(), random.Random(1)
    for _ in range(1000):
        s = played(game, rng, rng.randrange(43))
        for mine, theirs in ((s.p1, s.p2), (s.p2, s.p1)):
            assert c.potential(mine, theirs, s.mask, POTENTIAL_WEIGHTS) == potential(
                mine, theirs, s.mask)


def connect4_table_behaves_as_the_dict(c: Any) -> None:
    """The engine's C table against a TranspositionTable, through the node function's
    own steps (make room at capacity, then store), on random keys with repeats: the same
    entries in the same order, the same answers to get, the same length, at every step."""
    from zerosum.table import TranspositionTable

    rng = random.Random(7)
    for capacity in (2, 3, 50, 1000):
        c_table, reference = c.Table(capacity), TranspositionTable(capacity)
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
    past = c.Table(2)  # stored past its capacity without make_room: it grows, as a dict
    for key in range(5000):
        past[key] = (0, 0, key, 0)
    assert len(past) == 5000 and past[4321] == (0, 0, 4321, 0)


def solver_null_windows_and_a_small_table(c: Any) -> None:
    """Any window, any position: the fail-soft value and the nodes, with a table of 500
    entries (61 near buckets of 4 and 61 others). Then a table full from the start: a
    position of Pons's L2_R2 (score +2, 93,079 nodes with the default 2M entries)
    solved with 1,000 entries (113 near buckets and 137 others), the near buckets
    giving up their deepest entries over and over, the same ones in both."""
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves
    from zerosum.games.connect4.solver import Solver

    rng = random.Random(24)
    fast, pure = Solver(capacity=500), Solver(capacity=500, native=False)
    assert fast.native
    for _, (p, score) in twins()["connect4 solver"].cases(24, 6):
        n = p.mask.bit_count()
        for window in (score - 1, score, rng.randint(-5, 5)):
            got = [s._negamax(p.current, p.mask, n, window, window + 1, -1)
                   for s in (fast, pure)]
            assert got[0] == got[1] and fast.nodes == pure.nodes, window
        wide = [s._negamax(p.current, p.mask, n, -21, 21, -1) for s in (fast, pure)]
        assert wide[0] == wide[1] == score and fast.nodes == pure.nodes
        assert fast._kernel.size == len(pure.table)  # the same entries kept
    fast, pure = Solver(capacity=1000, book=False), Solver(capacity=1000, book=False,
                                                         native=False)
    p = position_from_stones(parse_moves("2531276566711153"))
    assert fast.solve(p.current, p.mask) == pure.solve(p.current, p.mask) == 2
    assert fast.nodes == pure.nodes == 224_729  # the replacement policy's count
    table = pure.table
    assert (table.near, table.buckets) == (113, 137)
    assert all(len(table.held[b]) == 4 for b in range(table.near))  # the near ones full
    assert fast._kernel.size == len(table) == 880


ONLY_ONE = {
    "checkers": checkers_moves_evaluation_and_perft,
    "maxconnect4 engine": maxconnect4_evaluation,
    "connect4 engine": connect4_table_behaves_as_the_dict,
    "connect4 solver": solver_null_windows_and_a_small_table,
}


@each
def test_what_only_this_twin_has(twin: Twin) -> None:
    needs(twin)
    ONLY_ONE[twin.name](native.load(native.KERNELS[twin.name][0]))


def test_checkers_perft_reproduces_the_published_english_counts() -> None:
    from zerosum.games.checkers import Checkers

    english = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]
    game = Checkers(8)
    assert [game.perft(game.initial_state(), d) for d in range(1, 8)] == english[:7]


def test_the_twins_refuse_what_is_not_a_position() -> None:
    for twin in TWINS.values():
        needs(twin)
    from zerosum.games.checkers.evaluation import WEIGHTS
    from zerosum.games.connect4 import Connect4
    from zerosum.games.connect4.engine import Connect4Kernel
    from zerosum.games.connect4.solver import Solver

    c = native.load(native.KERNELS["checkers"][0])
    with pytest.raises(ValueError, match="board size"):
        c.perft(7, 0, 0, 0, True, 1, False)
    with pytest.raises(ValueError, match="beyond the board"):
        c.perft(8, 1 << 200, 0, 0, True, 1, False)
    with pytest.raises(ValueError, match="depth"):
        c.perft(8, 0, 0, 0, True, -1, False)
    # Squares off the board (the padding column, past the last row), a square for both
    # sides, a king with no piece: refused, never read past the tables.
    for black, white, kings in ((1 << 8, 0, 0), (1 << 150, 0, 0), (2, 2, 0), (2, 0, 8)):
        with pytest.raises(ValueError, match="not a position"):
            c.generate(8, black, white, kings, True, 0, False)
    with pytest.raises(ValueError, match="not a position"):
        c.score(8, 1 << 8, 0, 0, WEIGHTS)
    with pytest.raises(ValueError, match="9 weights"):
        c.score(8, 0, 0, 0, WEIGHTS[:3])
    game = Connect4()
    kernel = Connect4Kernel(game, game.initial_state(), Stop(), ALL, native=True)
    for current, mask, moves in ((1, 1, 0), (2, 1, 1), (1 << 6, 1 << 6, 1), (-1, 0, 0)):
        with pytest.raises((ValueError, OverflowError)):
            kernel.search(current, mask, moves, 3, -100, 100, -1)
    with pytest.raises(ValueError):
        kernel.search(0, 0, 0, 3, -10**10, 100, -1)
    solver = Solver()._kernel
    never = 1 << 62
    for current, mask, moves in ((1, 1, 0), (2, 1, 1), (1 << 6, 1 << 6, 1), (-1, 0, 0)):
        with pytest.raises((ValueError, OverflowError)):
            solver.negamax(current, mask, moves, -1, 1, -1, never, lambda: never)


def test_a_connect4_engine_game_keeping_its_memory_from_move_to_move() -> None:
    """Each path plays the other's moves from one game object: every move's result and
    the table carried over are the same."""
    twin = TWINS["connect4 engine"]
    needs(twin)
    assert twin.memory is not None
    game, state = twin.endless()  # type: ignore[misc]
    memories = twin.memory(game, True), twin.memory(game, False)
    for _ in range(12):
        fast, pure = (twin.run(game, state, Limit(depth=7), path, ALL, None, memory)
                      for path, memory in zip((True, False), memories, strict=True))
        assert fast == pure
        state = game.result(state, fast.result[2])


def test_boards_past_63_bits_stay_in_python() -> None:
    from zerosum.games.connect4 import Connect4
    from zerosum.games.connect4.engine import Connect4Kernel

    game = Connect4(9, 7)  # 9 x 8 = 72 bits
    kernel = Connect4Kernel(game, game.initial_state(), Stop())
    assert not kernel.native
    seen = TWINS["connect4 engine"].run(game, game.initial_state(), Limit(depth=3), False,
                                        ALL, None, None)
    assert seen.result[2] in range(9) and seen.nodes > 9


def test_another_maxconnect4_evaluation_keeps_the_python_path() -> None:
    from zerosum.games.maxconnect4 import MaxConnect4
    from zerosum.games.maxconnect4.engine import MaxConnect4Kernel

    game = MaxConnect4()
    kernel = MaxConnect4Kernel(game, game.initial_state(), Stop(),
                               evaluation=lambda mine, theirs, mask: 0)
    assert kernel.compiled is None


@pytest.mark.parametrize("name", ["connect4 engine", "connect4 solver"])
def test_ctrl_c_reaches_a_native_search_with_no_limit(name: str) -> None:
    """Ctrl-C raises KeyboardInterrupt in the native search, as in the pure one: the
    interpreter sees the signal when the search calls back (the solver, with no limit,
    never calls back, yet it yields)."""
    import signal
    import time

    needs(TWINS[name])
    code = ("import sys\n"
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "from twins import twins\n"
            "from zerosum.kernel import ALL\n"
            "from zerosum.result import Limit\n"
            f"twin = twins()[{name!r}]\n"
            "game, state = twin.endless()\n"
            "print('searching', flush=True)\n"
            "try:\n"
            "    twin.run(game, state, Limit(), True, ALL, None, None)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "ZEROSUM_NATIVE": "1"})
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "searching\n"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()  # an endless search left behind would take a core for good
        child.wait()
    assert out == "interrupted\n"


def test_the_solver_progress_reports_are_the_same_and_change_nothing() -> None:
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves
    from zerosum.games.connect4.solver import Progress, Solver

    needs(TWINS["connect4 solver"])
    moves = (DATA / "Test_L1_R1").read_text().split()[0]
    p = position_from_stones(parse_moves(moves))
    reports: list[list[Progress]] = [[], []]
    for solver, seen in zip((Solver(), Solver(native=False)), reports, strict=True):
        solver.watch(seen.append, every=500)
        solver.solve(p.current, p.mask)
    assert reports[0] == reports[1]
    assert any(not r.answered for r in reports[0]) and reports[0][-1].answered
    # Watching adds no node: the count is the one without a report.
    quiet = Solver()
    quiet.solve(p.current, p.mask)
    assert quiet.nodes == reports[0][-1].nodes


def test_the_positions_are_seeded() -> None:
    """The suite's positions are the same from run to run (node counts are compared on
    them, and a failure must be reproducible)."""
    for twin in TWINS.values():
        first, again = twin.cases(3, 2), twin.cases(3, 2)
        assert [repr(s) for _, s in first] == [repr(s) for _, s in again]
    from zerosum.games.maxconnect4 import MaxConnect4

    assert open_positions(MaxConnect4(), 1, 2, 0, 9) == open_positions(MaxConnect4(), 1, 2,
                                                                       0, 9)
    assert DATA.is_dir()


def test_a_native_solver_refuses_a_second_search_while_it_searches() -> None:
    """The native search lets other threads run at its checks; one that entered the same
    kernel would grow or clear its table under it (a crash, seen with a server's value
    graph beside its analysis). Here the second search comes from the checkpoint itself:
    refused with an error, and the first one's score is still right."""
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves
    from zerosum.games.connect4.solver import Progress, Solver

    needs(TWINS["connect4 solver"])
    line = (DATA / "Test_L1_R1").read_text().split("\n")[0].split()
    p = position_from_stones(parse_moves(line[0]))
    solver = Solver(book=False)
    kernel = solver._kernel
    refused: list[str] = []

    def report(progress: Progress) -> None:
        if progress.answered:  # between two searches: the kernel is free
            return
        moves = p.mask.bit_count()
        for second in (kernel.clear, lambda: kernel.negamax(p.current, p.mask, moves, -1, 1,
                                                            -1, 1 << 62, lambda: 1 << 62)):
            try:
                second()
            except RuntimeError as e:
                refused.append(str(e))

    solver.watch(report, every=500)
    assert solver.solve(p.current, p.mask) == int(line[1])
    assert refused and set(refused) == {"this solver is searching in another thread"}
    assert len(refused) % 2 == 0
