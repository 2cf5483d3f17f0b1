"""The native solver's threads (`Solver(threads=N)`, `_solver.c`): helper threads sharing
out the moves of the nodes that fail low, over the one table, change the node count,
never the score; one thread is the search it was; a stop still stops all of them; the
helpers are kept between calls, and a fork's child starts its own; `--threads` is
checked like every number. `solve_each` shares out whole positions instead, each thread
over a table of its own: the same scores and nodes with any count, as the pure reference;
`zerosum solve connect4 --file` is it on the command line."""

from __future__ import annotations

import itertools
import multiprocessing
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sanitized import run_sanitized

from zerosum import native
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.parallel import move_scores
from zerosum.games.connect4.solver import Solver
from zerosum.stop import SearchStopped, Stop

DATA = Path(__file__).parent / "data" / "connect4"

needs_native = pytest.mark.skipif(native.twin("connect4 solver", True) is None,
                                  reason="the native solver is not built here")


def positions(name: str, step: int, first: int | None = None) -> list[tuple[str, int]]:
    """Every `step`-th of Pons's set `name` (moves, published score)."""
    lines = (DATA / f"Test_{name}").read_text().splitlines()[:first][::step]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


# Of each set a sample solved in well under a second; L1_R3's lines 49, 59 and 60 are
# its three of the first sixty under a million nodes.
SAMPLES = {
    "L3_R1": positions("L3_R1", 50),
    "L2_R1": positions("L2_R1", 50),
    "L1_R1": positions("L1_R1", 50),
    "L2_R2": positions("L2_R2", 20),
    "L1_R2": positions("L1_R2", 100),
    "L1_R3": [positions("L1_R3", 1)[i] for i in (48, 58, 59)],
}


def solve_all(solver: Solver, rows: list[tuple[str, int]]) -> tuple[list[int], int, int]:
    """The scores, the nodes and the helpers' part of them, each from a cleared table."""
    scores, nodes, helpers = [], 0, 0
    for moves, _ in rows:
        p = position_from_stones(parse_moves(moves))
        solver.reset()
        scores.append(solver.solve(p.current, p.mask))
        nodes += solver.nodes
        helpers += solver._kernel.helper_nodes
    return scores, nodes, helpers


@needs_native
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_two_threads_give_every_published_score(name: str) -> None:
    rows = SAMPLES[name]
    published = [score for _, score in rows]
    one, _, helpers1 = solve_all(Solver(book=False), rows)
    two, nodes2, helpers2 = solve_all(Solver(book=False, threads=2), rows)
    assert one == two == published
    assert helpers1 == 0 and nodes2 > helpers2  # the caller's own nodes are counted too
    if name in ("L2_R2", "L1_R2", "L1_R3"):  # searches long enough for a helper to start
        assert helpers2 > 0


@needs_native
def test_two_threads_find_the_same_best_moves_move_scores_and_line() -> None:
    """Only the exact answers count (best moves and the line are null windows' yes or
    no, the moves' scores exact), so the analysis is one thread's word for word."""
    moves, score = SAMPLES["L1_R2"][0]
    p = position_from_stones(parse_moves(moves))
    one = Solver(book=False).analyse(p.current, p.mask, all_scores=True)
    solver = Solver(book=False, threads=2)
    two = solver.analyse(p.current, p.mask, all_scores=True)
    assert one.score == two.score == score
    assert (one.best_moves, one.move_scores, one.pv) == (two.best_moves, two.move_scores,
                                                        two.pv)
    assert solver._kernel.helper_nodes > 0


@needs_native
def test_one_thread_visits_the_nodes_it_always_did() -> None:
    # Every 10th position of L2_R2, from a cleared table: the pure reference's count
    # (2,947,066 before the near table, 2,951,269 before the children were looked up
    # first: tests/test_twins.py checks the two agree).
    rows = positions("L2_R2", 10)
    scores, nodes, helpers = solve_all(Solver(book=False, threads=1), rows)
    assert scores == [score for _, score in rows]
    assert (nodes, helpers) == (2_750_991, 0)


def test_the_pure_search_keeps_one_thread() -> None:
    """More threads are the compiled search's alone: the reference's count is unchanged."""
    p = position_from_stones(parse_moves("2531276566711153"))
    counts = []
    for threads in (1, 2):
        solver = Solver(book=False, native=False, threads=threads)
        assert solver.solve(p.current, p.mask) == 2
        counts.append(solver.nodes)
    assert counts == [93_079, 93_079]


@needs_native
def test_the_helpers_kept_between_calls_and_a_new_count_change_no_score() -> None:
    rows = SAMPLES["L1_R2"]
    published = [score for _, score in rows]
    solver = Solver(book=False, threads=2)
    first, _, helpers = solve_all(solver, rows)  # the helpers start at the first call
    assert first == published and helpers > 0
    solver._kernel.threads = 3  # the two helpers end, two others start
    assert solve_all(solver, rows)[0] == published
    solver._kernel.threads = 1  # none: the one-thread search, node for node
    one = solve_all(solver, rows)
    assert one[1:] == solve_all(Solver(book=False), rows)[1:] and one[2] == 0
    assert one[0] == published


def _solve_in_child(solver: Solver, moves: str, score: int) -> None:
    p = position_from_stones(parse_moves(moves))
    solver.reset()
    ok = solver.solve(p.current, p.mask) == score and solver._kernel.helper_nodes > 0
    raise SystemExit(0 if ok else 1)


@needs_native
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="no fork here")
def test_a_forked_child_starts_helpers_of_its_own() -> None:
    """A fork copies the solver but not its parked helper threads (--all-moves forks its
    workers after its quick searches): the child's kernel must not count on them."""
    solver = Solver(book=False, threads=2)
    (moves, score), = SAMPLES["L1_R3"][:1]
    assert solve_all(solver, [(moves, score)])[2] > 0  # the parent's helpers started
    child = multiprocessing.get_context("fork").Process(
        target=_solve_in_child, args=(solver, *SAMPLES["L1_R2"][1]))
    child.start()
    child.join(120)
    assert child.exitcode == 0
    assert solve_all(solver, [(moves, score)])[0] == [score]  # the parent's still work


@needs_native
def test_a_node_budget_stops_two_threads_and_the_solver_goes_on() -> None:
    solver = Solver(book=False, threads=2)
    with pytest.raises(SearchStopped):
        solver.limit(nodes=300_000)
        solver.solve(0, 0)  # the empty board: billions of nodes
    assert solver.nodes < 2_000_000  # the caller stopped at its budget, the helper with it
    solver.limit()
    p = position_from_stones(parse_moves("2531276566711153"))
    solver.reset()
    assert solver.solve(p.current, p.mask) == 2  # nothing left running in the kernel


@needs_native
def test_a_deadline_stops_two_threads() -> None:
    ticks = itertools.count()  # a clock a second later at every reading

    solver = Solver(book=False, threads=2, clock=lambda: float(next(ticks)))
    solver.limit(seconds=5)
    with pytest.raises(SearchStopped):
        solver.solve(0, 0)
    assert solver.nodes < 100_000  # a few checks of 1,024 nodes, and the helper's part


@needs_native
def test_a_stop_requested_during_the_search_stops_two_threads() -> None:
    """The stop a page's button sends, here requested by the first progress report (the
    caller's, every 65,536 nodes): seen at the caller's next check."""
    stop = Stop()
    solver = Solver(book=False, threads=2)
    solver.stop = stop
    solver.watch(lambda progress: stop.request(), every=1 << 16)
    with pytest.raises(SearchStopped):
        solver.solve(0, 0)
    assert stop.requested and solver.nodes < 1_000_000


@needs_native
def test_threads_are_one_to_256() -> None:
    kernel = Solver()._kernel
    for bad in (0, -3, 257):
        with pytest.raises(ValueError, match="threads must be 1 to 256"):
            kernel.threads = bad
    kernel.threads = 256
    assert kernel.threads == 256
    with pytest.raises(ValueError, match="at least 1"):
        Solver(threads=0)


@pytest.mark.parametrize("bad", ["0", "-3", "²", "9" * 20])
def test_the_command_refuses_a_bad_thread_count(bad: str) -> None:
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4", "4455",
                           f"--threads={bad}"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert f"--threads: must be a whole number from 1 to 256, not '{bad}'" in done.stderr


@needs_native
def test_the_command_says_the_same_with_one_thread_or_two() -> None:
    rows = {}
    for threads in (1, 2):
        done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4",
                               "2531276566711153", "--threads", str(threads), "--cache",
                               "off"], capture_output=True, text=True, timeout=120, check=True)
        rows[threads] = [line for line in done.stdout.splitlines()
                         if not line.startswith(("nodes", "CPU"))]
    assert rows[1] == rows[2]
    assert rows[1][1].startswith("score:               +2:")


def test_every_move_the_native_solver_by_its_threads_the_pure_one_by_processes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--all-moves on N cores: the native solver keeps the moves and splits each among
    its N threads (it beat N worker processes on every position measured); the pure one
    sends them to N worker processes. The same scores either way, and as one thread's."""
    from zerosum.games.connect4 import parallel

    monkeypatch.setattr(parallel, "QUICK_NODES", 0)  # no move is quick: all go out
    p = position_from_stones(parse_moves(SAMPLES["L2_R2"][3][0]))
    one = Solver(book=False)
    reference = {c: one.move_score(p.current, p.mask, c) for c in range(7)
                 if one.geo.playable(p.mask, c)}
    native = Solver(book=False)
    assert {c: s for c, s, n in move_scores(native, p.current, p.mask, 2)} == reference
    assert native.threads == 2 and native._kernel.threads == 2
    pure = Solver(book=False, native=False)
    scored = list(move_scores(pure, p.current, p.mask, 2))
    assert {c: s for c, s, _ in scored} == reference
    assert sum(nodes for *_, nodes in scored) > 0  # searched in the worker processes


def as_positions(rows: list[tuple[str, int]]) -> list[tuple[int, int]]:
    return [(p.current, p.mask) for p in (position_from_stones(parse_moves(m)) for m, _ in rows)]


EACH = SAMPLES["L3_R1"][:10] + SAMPLES["L1_R1"][:8] + SAMPLES["L2_R2"][:6] + SAMPLES["L1_R2"][:4]


@needs_native
def test_each_position_at_any_thread_count_scores_and_counts_as_the_pure_reference() -> None:
    pure = Solver(native=False).solve_each(as_positions(EACH))
    assert [score for score, _ in pure] == [score for _, score in EACH]
    assert sum(nodes for _, nodes in pure) == 2_558_947
    for threads in (1, 2, 3, 7, 40):  # more threads than positions too
        solver = Solver(threads=threads)
        assert solver.solve_each(as_positions(EACH)) == pure
        assert solver.nodes == 2_558_947
        assert solver.solved == 0  # counted only while it runs


@needs_native
def test_each_position_the_book_answers_in_no_nodes() -> None:
    empty, late = (0, 0), as_positions(EACH[:1])[0]
    for solver in (Solver(native=False), Solver(threads=2)):
        # The first player wins with the last stone; the empty board is in the book.
        assert solver.solve_each([empty, late, empty]) == [(1, 0), (-1, 4), (1, 0)]


@needs_native
def test_each_position_stops_every_thread_and_the_solver_goes_on() -> None:
    solver = Solver(book=False, threads=2)
    solver.limit(nodes=300_000)
    with pytest.raises(SearchStopped):
        solver.solve_each([(0, 0), (0, 0), (0, 0)])  # billions of nodes each
    assert solver.nodes < 2_000_000
    solver.limit()
    assert solver.solve_each(as_positions(EACH[:3])) == Solver().solve_each(
        as_positions(EACH[:3]))


@needs_native
def test_the_search_lets_other_threads_run_and_refuses_them_its_kernel() -> None:
    """The native search runs without the interpreter: another thread runs meanwhile
    (here the test's own), and may read the solver, not search with it or change it."""
    solver = Solver(book=False)
    inside, release, stop = threading.Event(), threading.Event(), Stop()
    solver.stop = stop

    def report(_: object) -> None:
        inside.set()
        release.wait(30)  # the search waits here, holding the kernel
        stop.request()

    solver.watch(report, every=1 << 16)
    stopped = []

    def search() -> None:
        try:
            solver.solve(0, 0)
        except SearchStopped:
            stopped.append(True)

    thread = threading.Thread(target=search)
    thread.start()
    assert inside.wait(30)
    kernel = solver._kernel
    for act in (lambda: kernel.clear(), lambda: setattr(kernel, "nodes", 0),
                lambda: kernel.negamax(0, 0, 0, 0, 1, -1, 1 << 62, lambda: 1 << 62),
                lambda: kernel.solve_each([], [], 1, 1 << 62, lambda: 1 << 62)):
        with pytest.raises(RuntimeError, match="searching in another thread"):
            act()
    assert kernel.nodes >= 1 << 16
    release.set()
    thread.join(30)
    assert stopped == [True]


def test_each_position_of_a_file_on_the_command_line(tmp_path: Path) -> None:
    lines = [f"{moves} {score}" for moves, score in EACH[:6]]
    lines[2] = f"{EACH[2][0]} {EACH[2][1] + 1}"  # a score the file has wrong
    path = tmp_path / "positions.txt"
    path.write_text("# a comment, then a blank line\n\n" + "\n".join(lines) + "\n"
                    + EACH[6][0] + "  # no score given\n")
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4", "--file",
                           str(path), "--threads", "2"], capture_output=True, text=True,
                          timeout=120, check=True)
    out = done.stdout.splitlines()
    assert out[:7] == [f"{moves + ':':<20} {score}" for moves, score in EACH[:2]] + [
        f"{EACH[2][0] + ':':<20} {EACH[2][1]} (the file says {EACH[2][1] + 1})"] + [
        f"{moves + ':':<20} {score}" for moves, score in EACH[3:6]] + [
        f"{EACH[6][0] + ':':<20} {EACH[6][1]}"]
    assert out[7].startswith("positions:           7 solved in ")
    assert out[7].endswith(" s with 2 thread(s), 106 nodes")
    assert out[8] == "checked:             5 of 6 scores as the file says"


@pytest.mark.parametrize(("text", "message"), [
    ("4455 3\n44x\n", "line 2: move sequence: 'x' at position 3 is not a column 1-7"),
    ("4455 \u00b2\n", "line 1: the score must be a whole number, not '\u00b2'"),
    ("4 4 5 5\n", "line 1: a line holds a position and at most its score"),
    ("4444444\n", "line 1: move sequence: move 7 plays in column 4, which is full"),
    ("# only this\n", "no position in it"),
])
def test_a_bad_file_of_positions_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "positions.txt"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4", "--file",
                           str(path)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


SANITIZED_SMP = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules[sys.argv[2]] = module
sys.path.insert(0, sys.argv[3])
from test_connect4_smp import positions
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

# Three threads on a table of 4,096 entries: its slots written over and over by all.
solver = Solver(threads=3, book=False, capacity=1 << 12)
assert solver.native and solver._kernel.threads == 3
helpers = 0
for moves, score in positions("L2_R2", 100) + positions("L1_R1", 200) + positions("L1_R2", 250):
    p = position_from_stones(parse_moves(moves))
    solver.reset()
    assert solver.solve(p.current, p.mask) == score, moves
    helpers += solver._kernel.helper_nodes
assert helpers > 0
# solve_each: three threads, each over its own table of 4,096 entries.
rows = positions("L2_R2", 50) + positions("L1_R1", 100)
each = solver.solve_each([(p.current, p.mask) for p in (
    position_from_stones(parse_moves(moves)) for moves, _ in rows)])
assert [score for score, _ in each] == [score for _, score in rows]
print("sanitized ok")
"""


@pytest.mark.sanitizer
def test_the_threads_under_thread_address_and_undefined_sanitizers(tmp_path: Path) -> None:
    for threads in (True, False):
        run_sanitized("connect4 solver", SANITIZED_SMP, tmp_path, native.KERNELS[
            "connect4 solver"][0], str(Path(__file__).parent), threads=threads)
