"""The Max-Connect4 engine's compiled node function (games/maxconnect4/_engine.c) against
its reference, the Python closure: the same evaluation, and at fixed depths the same
values, best moves, principal variations, node counts and table hits, with each
enhancement off, with a table small enough to be made room in many times, under node
budgets and to the end of the game. Also: the C compiled and run under AddressSanitizer
and UBSan, ZEROSUM_NATIVE=0, and another evaluation keeping the Python path."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sanitized import run_sanitized

from zerosum import native
from zerosum.games.maxconnect4 import MaxConnect4, Position, potential
from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel, Memory
from zerosum.kernel import ALL, Enhancements
from zerosum.result import Limit
from zerosum.search.driver import deepen, stop_for
from zerosum.stop import Stop
from zerosum.table import TranspositionTable

SOURCE = Path(native.__file__).parent / "games" / "maxconnect4" / "_engine.c"
MODULE = native.KERNELS["maxconnect4 engine"][0]
BUILT = native.load(MODULE) is not None
needs_native = pytest.mark.skipif(not BUILT, reason="the compiled Max-Connect4 engine is "
                                  "not built here (no C compiler at install time, or "
                                  "ZEROSUM_NATIVE=0)")
GAME = MaxConnect4()


def played(rng: random.Random, pieces: int) -> Position:
    s = GAME.initial_state()
    for _ in range(pieces):
        if GAME.is_terminal(s):
            break
        s = GAME.result(s, rng.choice(GAME.actions(s)))
    return s


def memory(table: TranspositionTable | None = None) -> Memory:
    """A fresh memory, or one around `table`."""
    kept = Memory(GAME)
    if table is not None:
        kept.table = table
    return kept


def search(pos: Position, limit: Limit, native_path: bool, enhancements: Enhancements = ALL,
           table: TranspositionTable | None = None) -> tuple[Any, ...]:
    stop = stop_for(limit)
    kernel = MaxConnect4Kernel(GAME, pos, stop, enhancements, memory(table),
                               native=native_path)
    assert (kernel.compiled is not None) == native_path
    r = deepen(kernel, limit, stop, None, enhancements)
    return (r.value, r.action, r.pv, r.depth, r.complete, r.decided, r.stats.nodes,
            r.stats.table_hits)


@needs_native
def test_the_same_evaluation() -> None:
    module = native.load(MODULE)
    assert module is not None
    rng = random.Random(1)
    for _ in range(2000):
        s = played(rng, rng.randrange(43))
        for mine, theirs in ((s.p1, s.p2), (s.p2, s.p1)):
            assert module.potential(mine, theirs, s.mask, POTENTIAL_WEIGHTS) == potential(
                mine, theirs, s.mask)


@needs_native
@pytest.mark.parametrize("pieces", [0, 5, 12, 20, 27, 31])
def test_the_same_search_at_fixed_depths(pieces: int) -> None:
    pos = played(random.Random(pieces), pieces)
    for depth in (5, 8):
        assert search(pos, Limit(depth=depth), True) == search(pos, Limit(depth=depth), False)


@needs_native
@pytest.mark.parametrize("off", ["table", "ordering", "pvs", "aspiration"])
def test_the_same_search_with_each_enhancement_off(off: str) -> None:
    enhancements = Enhancements(**{off: False})
    for pieces in (3, 16):
        pos = played(random.Random(pieces), pieces)
        assert search(pos, Limit(depth=6), True, enhancements) == search(
            pos, Limit(depth=6), False, enhancements)


@needs_native
def test_a_small_table_made_room_in_many_times_and_kept_alike() -> None:
    pos = played(random.Random(9), 9)
    tables = [TranspositionTable(300, same_depth=False) for _ in range(2)]
    for _ in range(2):  # the second search starts from what the first kept
        found = [search(pos, Limit(depth=7), path, table=t)
                 for path, t in zip((True, False), tables, strict=True)]
        assert found[0] == found[1]
        assert list(tables[0].entries.items()) == list(tables[1].entries.items())


@needs_native
def test_a_node_budget_stops_both_at_the_same_node() -> None:
    for pieces in (2, 14):
        pos = played(random.Random(pieces), pieces)
        fast = search(pos, Limit(nodes=30_000), True)
        assert fast == search(pos, Limit(nodes=30_000), False)
        assert fast[6] == 30_720  # the first check past the budget (every 1,024 nodes)


@needs_native
def test_another_evaluation_keeps_the_python_path() -> None:
    pos = GAME.initial_state()
    kernel = MaxConnect4Kernel(GAME, pos, Stop(), evaluation=lambda mine, theirs, mask: 0)
    assert kernel.compiled is None


def test_native_0_forces_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    assert MaxConnect4Kernel(GAME, GAME.initial_state(), Stop()).compiled is None


SANITIZED_RUN = r"""
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("zerosum.games.maxconnect4._engine", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["zerosum.games.maxconnect4._engine"] = module
from zerosum.games.maxconnect4 import MaxConnect4, potential
from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel, Memory
from zerosum.result import Limit
from zerosum.search.driver import deepen, stop_for
from zerosum.table import TranspositionTable

game = MaxConnect4()
rng = random.Random(2)
for pieces in (0, 7, 15, 26, 33):
    s = game.initial_state()
    for _ in range(pieces):
        s = game.result(s, rng.choice(game.actions(s)))
    assert module.potential(s.p1, s.p2, s.mask, POTENTIAL_WEIGHTS) == potential(s.p1, s.p2, s.mask)
    for limit in (Limit(depth=6), Limit(nodes=5000)):
        found = []
        for native in (True, False):
            stop = stop_for(limit)
            memory = Memory(game)
            memory.table = TranspositionTable(400, same_depth=False)
            kernel = MaxConnect4Kernel(game, s, stop, memory=memory, native=native)
            assert (kernel.compiled is not None) == native
            r = deepen(kernel, limit, stop)
            found.append((r.value, r.pv, r.stats.nodes, r.stats.table_hits))
        assert found[0] == found[1], found
print("sanitized ok")
"""


def test_the_compiled_engine_under_address_and_undefined_behaviour_sanitizers(
        tmp_path: Path) -> None:
    run_sanitized("maxconnect4 engine", SANITIZED_RUN, tmp_path)
