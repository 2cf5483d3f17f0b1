"""The Connect Four solver's native kernel (games/connect4/_solver.c) against its
reference, the pure-Python search: the same scores, best moves, principal variations and
node counts, on samples of Pons's test sets, on bare null-window searches, with a table
small enough to be cleared many times, and stopped by node budgets at the same node.
Also: the C compiled and run under AddressSanitizer and UBSan, and ZEROSUM_NATIVE=0."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sanitized import run_sanitized

from zerosum import native
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Progress, Solver
from zerosum.stop import SearchStopped

DATA = Path(__file__).parent / "data" / "connect4"
SOURCE = Path(native.__file__).parent / "games" / "connect4" / "_solver.c"
BUILT = native.load(native.KERNELS["connect4 solver"][0]) is not None
needs_native = pytest.mark.skipif(not BUILT, reason="the native solver is not built here "
                                  "(no C compiler at install time, or ZEROSUM_NATIVE=0)")


def load(name: str, step: int, limit: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in rows[::step][:limit]]


def pair(capacity: int = 2_000_000) -> tuple[Solver, Solver]:
    fast, pure = Solver(capacity=capacity), Solver(capacity=capacity, native=False)
    assert fast.native and not pure.native
    return fast, pure


def test_a_compiler_here_means_a_native_build() -> None:
    """`make setup` on a machine with gcc builds the kernel (a silent build failure
    would leave everything passing, slowly)."""
    if not native.enabled():
        pytest.skip("ZEROSUM_NATIVE=0")
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler here: the pure path is the expected one")
    assert BUILT, "a C compiler is here but zerosum.games.connect4._solver was not built"


@needs_native
@pytest.mark.parametrize("name, step, limit", [
    ("Test_L3_R1", 50, 20), ("Test_L2_R1", 50, 20), ("Test_L1_R1", 100, 10),
    ("Test_L2_R2", 150, 5)])
def test_native_solves_as_the_pure_search_does(name: str, step: int, limit: int) -> None:
    fast, pure = pair()
    for moves, score in load(name, step, limit):
        p = position_from_stones(parse_moves(moves))
        for solver in (fast, pure):
            solver.reset()
            assert solver.solve(p.current, p.mask) == score, moves
        assert fast.nodes == pure.nodes, moves


@needs_native
def test_native_analysis_moves_and_lines_match() -> None:
    fast, pure = pair()
    for moves, _ in load("Test_L2_R1", 97, 5) + load("Test_L3_R1", 111, 4):
        p = position_from_stones(parse_moves(moves))
        a = fast.analyse(p.current, p.mask, all_scores=True)
        b = pure.analyse(p.current, p.mask, all_scores=True)
        assert a == b, moves  # score, best moves, every move's score, the line, the nodes
        assert fast.solve(p.current, p.mask, weak=True) == pure.solve(p.current, p.mask,
                                                                      weak=True)
        assert fast.nodes == pure.nodes


@needs_native
def test_bare_null_windows_and_a_small_table_match() -> None:
    """Any window, any position: the fail-soft value and the nodes. A table of 500
    entries is cleared hundreds of times, as the dict is."""
    rng = random.Random(24)
    fast, pure = pair(capacity=500)
    for moves, score in load("Test_L2_R1", 137, 6) + load("Test_L3_R1", 201, 4):
        p = position_from_stones(parse_moves(moves))
        n = p.mask.bit_count()
        for window in (score - 1, score, rng.randint(-5, 5)):
            got = [s._negamax(p.current, p.mask, n, window, window + 1, -1)
                   for s in (fast, pure)]
            assert got[0] == got[1], (moves, window)
            assert fast.nodes == pure.nodes, (moves, window)
        wide = [s._negamax(p.current, p.mask, n, -21, 21, -1) for s in (fast, pure)]
        assert wide[0] == wide[1] == score
        assert fast.nodes == pure.nodes
        assert fast._kernel.size == len(pure.table)  # the same entries kept


@needs_native
def test_a_node_budget_stops_both_at_the_same_node() -> None:
    fast, pure = pair()
    p = position_from_stones(parse_moves(load("Test_L2_R2", 1, 1)[0][0]))
    for solver in (fast, pure):
        solver.limit(nodes=5000)
        with pytest.raises(SearchStopped):
            solver.solve(p.current, p.mask)
        solver.limit()
    assert fast.nodes == pure.nodes
    assert 5000 <= fast.nodes < 5000 + 1024


@needs_native
def test_progress_reports_are_the_same_and_change_nothing() -> None:
    moves = load("Test_L1_R1", 1, 1)[0][0]
    p = position_from_stones(parse_moves(moves))
    reports: list[list[Progress]] = [[], []]
    for solver, seen in zip(pair(), reports, strict=True):
        solver.watch(seen.append, every=500)
        solver.solve(p.current, p.mask)
    assert reports[0] == reports[1]
    assert any(not r.answered for r in reports[0]) and reports[0][-1].answered
    # Watching adds no node: the count is the one without a report.
    quiet = Solver()
    quiet.solve(p.current, p.mask)
    assert quiet.nodes == reports[0][-1].nodes


def test_native_0_forces_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    assert not Solver().native
    assert native.status() == "pure Python: ZEROSUM_NATIVE=0"
    env = {**os.environ, "ZEROSUM_NATIVE": "0"}
    done = subprocess.run([sys.executable, "-m", "zerosum", "--version"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "zerosum 0.1.0 (pure Python: ZEROSUM_NATIVE=0)\n"
    if BUILT:
        env["ZEROSUM_NATIVE"] = "1"
        done = subprocess.run([sys.executable, "-m", "zerosum", "--version"], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.stdout.startswith(
            "zerosum 0.1.0 (native kernels: connect4 solver, connect4 engine")


SANITIZED_RUN = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("zerosum.games.connect4._solver", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["zerosum.games.connect4._solver"] = module
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver
fast, pure = Solver(capacity=300), Solver(capacity=300, native=False)
assert fast.native
for line in open(sys.argv[2]).read().splitlines()[::97][:6]:
    moves, score = line.split()
    p = position_from_stones(parse_moves(moves))
    a, b = fast.analyse(p.current, p.mask), pure.analyse(p.current, p.mask)
    assert a == b and a.score == int(score), (moves, a, b)
grown = Solver()  # a table that starts small and grows (to 2^18 slots)
for line in open(sys.argv[2].replace("L2_R1", "L2_R2")).read().splitlines()[:1]:
    moves, score = line.split()
    p = position_from_stones(parse_moves(moves))
    assert grown.solve(p.current, p.mask) == int(score)
assert grown._kernel.size > 1 << 15
fast.limit(nodes=3000)
try:
    fast.solve(2097152, 6291456)  # after 4 4, past the book: stopped by the budget
    raise AssertionError("the node budget did not stop the search")
except Exception as e:
    assert type(e).__name__ == "SearchStopped", e
print("sanitized ok")
"""


def test_the_kernel_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    run_sanitized("connect4 solver", SANITIZED_RUN, tmp_path, str(DATA / "Test_L2_R1"))


def test_solve_rows_report_each_null_window_and_the_bounds() -> None:
    from zerosum.games.connect4.analysis import solve_rows

    lines: list[str] = []
    moves, score = load("Test_L1_R1", 1, 1)[0]
    rows = dict(solve_rows(moves, progress=lines.append))
    assert rows["score"].startswith(f"{score:+d}:")
    answers = [line for line in lines if line.startswith("score > ")]
    assert answers and all("? yes: " in a or "? no: " in a for a in answers)
    # The last answer closes the interval on the score.
    assert f"the score is in [{score:+d}, {score:+d}]" in answers[-1]


@needs_native
def test_ctrl_c_reaches_a_native_search_with_no_limit() -> None:
    """With no limit the kernel never calls back, yet it yields: Ctrl-C raises
    KeyboardInterrupt in the search, as in the pure one (not after minutes)."""
    import signal
    import time

    # After 4 4: past the opening book, which answers the empty board at once.
    code = ("from zerosum.games.connect4.solver import Solver\n"
            "s = Solver()\nprint('solving', flush=True)\n"
            "try:\n    s.solve(2097152, 6291456)\nexcept KeyboardInterrupt:\n"
            "    print('interrupted at', s.nodes > 0, flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout is not None
    assert child.stdout.readline() == "solving\n"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert out == "interrupted at True\n"


@needs_native
def test_a_stop_from_another_thread_stops_the_native_search() -> None:
    import threading

    from zerosum.stop import Stop

    solver = Solver()
    stop = Stop()
    solver.stop = stop
    solver.limit(seconds=600)
    timer = threading.Timer(0.3, stop.request)
    timer.start()
    try:
        with pytest.raises(SearchStopped):
            solver.solve(2097152, 6291456)  # after 4 4: past the opening book
    finally:
        timer.cancel()
    assert solver.nodes > 0


@needs_native
def test_a_native_solver_goes_with_its_last_reference() -> None:
    """Its table lives outside the garbage collector's sight: no reference cycle may
    keep it until the next collection (a server makes a solver per analysis)."""
    import gc
    import weakref

    gc.disable()
    try:
        solver = Solver()
        p = position_from_stones(parse_moves(load("Test_L2_R1", 1, 1)[0][0]))
        solver.solve(p.current, p.mask)
        gone = weakref.ref(solver)
        del solver
        assert gone() is None
    finally:
        gc.enable()


@needs_native
def test_the_kernel_refuses_what_is_not_a_position() -> None:
    kernel = Solver()._kernel
    never = 1 << 62
    for current, mask, moves in ((1, 1, 0), (2, 1, 1), (1 << 6, 1 << 6, 1), (-1, 0, 0)):
        with pytest.raises((ValueError, OverflowError)):
            kernel.negamax(current, mask, moves, -1, 1, -1, never, lambda: never)
    pure = Solver(native=False)
    # A real position, with a window wider than the scores.
    p = position_from_stones(parse_moves(load("Test_L3_R1", 1, 1)[0][0]))
    n = p.mask.bit_count()
    assert kernel.negamax(p.current, p.mask, n, -30, 30, -1, never, lambda: never) == \
        pure._negamax(p.current, p.mask, n, -30, 30, -1)
