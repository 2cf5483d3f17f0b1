"""Checkers' compiled twin (games/checkers/_checkers.c) against its reference, the
Python: the same moves in the same order, the same evaluation, the same perft counts on
every board size under both capture rules (and the published English counts), and the
engine's same values, best moves, principal variations, node counts and table hits at
fixed depths, with each enhancement off, under node budgets and with its Info stream.
Also: the C compiled and run under AddressSanitizer and UBSan, and ZEROSUM_NATIVE=0."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from sanitized import run_sanitized

from zerosum import native
from zerosum.games.checkers import Checkers, State
from zerosum.games.checkers import perft as pure_perft
from zerosum.games.checkers.board import SIZES, generate
from zerosum.games.checkers.compiled import twin
from zerosum.games.checkers.engine import CheckersKernel, Memory
from zerosum.games.checkers.evaluation import WEIGHTS, score
from zerosum.kernel import ALL, Enhancements
from zerosum.result import Info, Limit
from zerosum.search.driver import deepen, stop_for
from zerosum.stop import Stop

SOURCE = Path(native.__file__).parent / "games" / "checkers" / "_checkers.c"
MODULE = native.KERNELS["checkers"][0]
BUILT = native.load(MODULE) is not None
needs_native = pytest.mark.skipif(not BUILT, reason="the compiled checkers module is not "
                                  "built here (no C compiler at install time, or "
                                  "ZEROSUM_NATIVE=0)")
ENGLISH_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]
RULES = ("english", "max")


def compiled() -> Any:
    module = twin()
    assert module is not None
    return module


def random_position(game: Checkers, rng: random.Random) -> State:
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


def played_position(game: Checkers, rng: random.Random, plies: int) -> State:
    s = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(s):
            break
        s = game.result(s, rng.choice(game.actions(s)))
    return s


def positions(game: Checkers, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        s = played_position(game, rng, rng.randrange(8, 40))
        if not game.is_terminal(s) and len(game.actions(s)) > 1:
            out.append(s)
    return out


# --- the move generator, the evaluation, perft --------------------------------------------

@needs_native
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("capture", RULES)
def test_the_same_moves_in_the_same_order_and_the_same_evaluation(size: int,
                                                                   capture: str) -> None:
    game, c = Checkers(size, capture), compiled()
    b, rng = game.board, random.Random(size)
    states = [random_position(game, rng) for _ in range(150)]
    states += [played_position(game, rng, rng.randrange(60)) for _ in range(50)]
    captures = 0
    for s in states:
        mine = [m[0] for m in generate(b, s.black, s.white, s.kings, s.black_to_move,
                                       game.max_capture)]
        assert c.generate(size, s.black, s.white, s.kings, s.black_to_move, 0,
                          game.max_capture) == mine
        assert c.score(size, s.black, s.white, s.kings, WEIGHTS) == score(b, s.black, s.white,
                                                                         s.kings)
        captures += any(abs(p[1] - p[0]) > size + 2 for p in mine)
    assert captures > 20  # the random positions do test captures


@needs_native
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("capture", RULES)
def test_perft_is_the_same_on_every_size_and_rule(size: int, capture: str) -> None:
    game, c = Checkers(size, capture), compiled()
    b = game.board
    states = [game.initial_state(), *(random_position(game, random.Random(i))
                                      for i in range(6))]
    for s in states:
        depth = 7 if size == 4 else 4
        assert c.perft(size, s.black, s.white, s.kings, s.black_to_move, depth,
                       game.max_capture) == pure_perft.perft(
            b, s.black, s.white, s.kings, s.black_to_move, depth, game.max_capture)


@needs_native
def test_perft_reproduces_the_published_english_counts() -> None:
    game, c = Checkers(8), compiled()
    s = game.initial_state()
    counts = [c.perft(8, s.black, s.white, s.kings, True, d, False) for d in range(1, 10)]
    assert counts == ENGLISH_PERFT
    assert game.perft(s, 9) == ENGLISH_PERFT[8]  # through the game: the compiled path


@needs_native
def test_bad_arguments_are_refused() -> None:
    c = compiled()
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


# --- the engine ---------------------------------------------------------------------------

def search(game: Checkers, state: State, limit: Limit, native_path: bool,
           enhancements: Enhancements = ALL, stop: Stop | None = None,
           infos: list[Info] | None = None) -> tuple[Any, ...]:
    stop = stop_for(limit, stop)
    kernel = CheckersKernel(game, state, stop, enhancements, Memory(), native=native_path)
    assert (kernel.compiled is not None) == native_path
    r = deepen(kernel, limit, stop, None if infos is None else infos.append, enhancements)
    return (r.value, r.action, r.pv, r.depth, r.complete, r.decided, r.plies,
            r.stats.nodes, r.stats.table_hits, r.stats.max_depth)


def infos_seen(infos: list[Info]) -> list[tuple[Any, ...]]:
    return [(i.depth, i.value, i.pv, i.nodes, i.table_hits, i.seldepth) for i in infos]


@needs_native
@pytest.mark.parametrize(("size", "capture", "draw", "depth"), [
    (8, "english", "course", 6), (8, "max", "tournament", 6), (6, "english", "tournament", 7),
    (10, "max", "course", 4), (12, "english", "course", 4)])
def test_the_engine_is_the_same_at_fixed_depths(size: int, capture: str, draw: str,
                                                depth: int) -> None:
    game = Checkers(size, capture, draw)
    for s in positions(game, 4, size):
        infos: list[Info] = []
        twins: list[Info] = []
        pure = search(game, s, Limit(depth=depth), False, infos=infos)
        assert search(game, s, Limit(depth=depth), True, infos=twins) == pure
        assert infos_seen(twins) == infos_seen(infos) and infos


@needs_native
@pytest.mark.parametrize("off", Enhancements.names())
def test_the_engine_is_the_same_with_each_enhancement_off(off: str) -> None:
    game = Checkers(8)
    enhancements = Enhancements(**{off: False})
    for s in positions(game, 3, 7):
        assert search(game, s, Limit(depth=5), True, enhancements) == search(
            game, s, Limit(depth=5), False, enhancements)
    s = positions(game, 2, 8)[1]
    none = Enhancements.none()
    assert search(game, s, Limit(depth=4), True, none) == search(game, s, Limit(depth=4),
                                                                 False, none)


@needs_native
def test_a_node_budget_stops_both_at_the_same_node() -> None:
    game = Checkers(8, "english", "tournament")
    for s in positions(game, 3, 11):
        fast = search(game, s, Limit(nodes=6000), True)
        assert fast == search(game, s, Limit(nodes=6000), False)
        assert fast[7] == 6144  # the first check past the budget (every 1,024 nodes)


@needs_native
def test_a_kept_table_carries_over_alike() -> None:
    """The table is the Python's dict on both paths: a second search from the same
    memory finds the same entries, hits and moves."""
    game = Checkers(8)
    s = positions(game, 2, 5)[1]
    results = []
    for native_path in (True, False):
        memory = Memory()
        for _ in range(2):
            limit = Limit(depth=6)
            stop = stop_for(limit)
            kernel = CheckersKernel(game, s, stop, ALL, memory, native=native_path)
            r = deepen(kernel, limit, stop)
            results.append((r.value, r.pv, r.stats.nodes, r.stats.table_hits,
                            len(memory.table)))
    assert results[:2] == results[2:]


@needs_native
def test_a_compiled_kernel_goes_with_its_last_reference() -> None:
    """No cycle through the compiled node function: the kernel (and its C search, with
    its history table) is freed at once, not at the collector's next pass."""
    import gc
    import weakref

    game = Checkers(8)
    gc.disable()
    try:
        kernel = CheckersKernel(game, game.initial_state(), Stop(), ALL, Memory())
        deepen(kernel, Limit(depth=3), Stop())
        assert kernel.compiled is not None and kernel.nodes > 1
        gone = weakref.ref(kernel)
        del kernel
        assert gone() is None
    finally:
        gc.enable()


@needs_native
def test_a_stop_from_another_thread_stops_the_compiled_search() -> None:
    game = Checkers(10)
    stop = Stop()
    timer = threading.Timer(0.3, stop.request)
    timer.start()
    try:
        kernel = CheckersKernel(game, game.initial_state(), stop, ALL, Memory())
        r = deepen(kernel, Limit(), stop)
    finally:
        timer.cancel()
    # Stopped mid-search (with no limit the passes would go on to depth 64), with a move.
    assert r.depth is not None and r.depth < 20
    assert r.action is not None and kernel.nodes > 1024


@needs_native
def test_the_version_line_names_it() -> None:
    # A narrow terminal: the line stays one line (argparse's own action wrapped it).
    done = subprocess.run([sys.executable, "-m", "zerosum", "--version"],
                          env={**os.environ, "ZEROSUM_NATIVE": "1", "COLUMNS": "40"},
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("zerosum 0.1.0 (native kernels: ")
    assert "checkers" in done.stdout.split("(", 1)[1]
    assert done.stdout.count("\n") == 1 and done.stdout.endswith(")\n")


def test_native_0_forces_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    game = Checkers(8)
    kernel = CheckersKernel(game, game.initial_state(), Stop(), ALL, Memory())
    assert twin() is None and kernel.compiled is None
    assert game.perft(game.initial_state(), 6) == ENGLISH_PERFT[5]  # the Python perft


# --- under the sanitizers -----------------------------------------------------------------

SANITIZED_RUN = r"""
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("zerosum.games.checkers._checkers", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["zerosum.games.checkers._checkers"] = module
from zerosum.games.checkers import Checkers
from zerosum.games.checkers.board import generate
from zerosum.games.checkers.engine import CheckersKernel, Memory
from zerosum.games.checkers.perft import perft
from zerosum.kernel import ALL
from zerosum.result import Limit
from zerosum.search.driver import deepen, stop_for

def run(game, s, limit, native):
    stop = stop_for(limit)
    kernel = CheckersKernel(game, s, stop, ALL, Memory(), native=native)
    assert (kernel.compiled is not None) == native
    r = deepen(kernel, limit, stop)
    return r.value, r.pv, r.stats.nodes, r.stats.table_hits

rng = random.Random(1)
for size in (4, 6, 8, 10, 12):
    for capture in ("english", "max"):
        game = Checkers(size, capture, "tournament")
        b = game.board
        s = game.initial_state()
        for _ in range(rng.randrange(10, 40)):
            if game.is_terminal(s):
                break
            moves = generate(b, s.black, s.white, s.kings, s.black_to_move, game.max_capture)
            assert module.generate(size, s.black, s.white, s.kings, s.black_to_move, 0,
                                   game.max_capture) == [m[0] for m in moves]
            s = game.result(s, rng.choice(game.actions(s)))
        start = game.initial_state()
        depth = 6 if size == 4 else 3
        assert module.perft(size, start.black, start.white, start.kings, True, depth,
                            game.max_capture) == perft(b, start.black, start.white,
                                                       start.kings, True, depth,
                                                       game.max_capture)
        if size > 4 and not game.is_terminal(s):
            assert run(game, s, Limit(depth=4), True) == run(game, s, Limit(depth=4), False)
            assert run(game, s, Limit(nodes=3000), True) == run(game, s, Limit(nodes=3000),
                                                                False)
print("sanitized ok")
"""


def test_the_compiled_checkers_under_address_and_undefined_behaviour_sanitizers(
        tmp_path: Path) -> None:
    run_sanitized("checkers", SANITIZED_RUN, tmp_path)
