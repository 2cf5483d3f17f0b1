"""What the conformance suite of the native twins (tests/test_twins.py) knows of each: one
`Twin` per compiled kernel of zerosum.native.KERNELS, saying how to search a position on
either path and what must come out identical. The suite's checks are the same for every
twin (as zerosum.conformance.check_game's are for every game); a new twin is one entry in
TWINS here.

Also imported by the sanitized run (tests/sanitized.py), which repeats a few of the
comparisons with the module built under AddressSanitizer and UBSan."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zerosum.kernel import ALL, Enhancements
from zerosum.result import Info, Limit
from zerosum.search.driver import deepen, stop_for
from zerosum.stop import SearchStopped, Stop

DATA = Path(__file__).parent / "data" / "connect4"


@dataclass(frozen=True)
class Seen:
    """What a search on one path shows: every figure of its result, its Info stream,
    and the entries its table kept, in order. The two paths must agree on all of it."""

    result: tuple[Any, ...]
    infos: tuple[tuple[Any, ...], ...]
    table: tuple[Any, ...]

    @property
    def nodes(self) -> int:
        return int(self.result[0])


# run(game, state, limit, native, enhancements, stop, memory) -> Seen. `memory`: what the
# engine keeps from search to search (None: a fresh one).
Run = Callable[[Any, Any, Limit, bool, Enhancements, "Stop | None", Any], Seen]


@dataclass(frozen=True)
class Twin:
    """A compiled kernel and its Python reference, as the suite drives them.

    `cases(seed, count)`: (game, state) pairs to search; `depths`: the fixed depths the
    suite compares at; `every`: the nodes between two calls back into Python (a node
    budget stops at the first call past it); `uses`: the Enhancements it honours (each is
    turned off in turn); `make(native)`: a kernel on one path, used for a short search;
    `native(kernel)`: whether it runs the twin; `memory(game, native)`: a fresh memory on
    one path (its `table` small under `bound_memory`)."""

    name: str
    cases: Callable[[int, int], list[tuple[Any, Any]]]
    depths: tuple[int, ...]
    every: int
    budgets: tuple[int, ...]
    run: Run
    make: Callable[[bool], Any]
    native: Callable[[Any], bool]
    uses: tuple[str, ...] = ()
    memory: Callable[[Any, bool], Any] | None = None
    endless: Callable[[], tuple[Any, Any]] | None = None  # a search no pass finishes soon
    cycle: bool = False  # the kernel and its C search refer to each other (a GC cycle)
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


def played(game: Any, rng: random.Random, plies: int) -> Any:
    """The state after `plies` random moves (fewer if the game ends)."""
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    return state


def open_positions(game: Any, seed: int, count: int, least: int, most: int) -> list[Any]:
    """Seeded random positions `least` to `most` plies in, the game not over and more
    than one move to choose from."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = played(game, rng, rng.randrange(least, most + 1))
        if not game.is_terminal(state) and len(game.actions(state)) > 1:
            found.append(state)
    return found


def used(kernel: Any) -> Any:
    """`kernel` after a short search (its node function, compiled or not, made and run)."""
    deepen(kernel, Limit(depth=3), kernel.stop)
    return kernel


def engine_run(kernel_class: Any, memory_class: Callable[[Any, bool], Any]) -> Run:
    """How the suite runs an engine kernel: the one driver (`deepen`) over the kernel made
    on one path with `memory` (a fresh one if None)."""

    def run(game: Any, state: Any, limit: Limit, native: bool,
            enhancements: Enhancements = ALL, stop: Stop | None = None,
            memory: Any = None) -> Seen:
        stop = stop_for(limit, stop)
        if memory is None:
            memory = memory_class(game, native)
        kernel = kernel_class(game, state, stop, enhancements, memory, native=native)
        infos: list[Info] = []
        r = deepen(kernel, limit, stop, infos.append, enhancements)
        return Seen((r.stats.nodes, r.value, r.action, r.pv, r.depth, r.complete, r.decided,
                     r.plies, r.stats.table_hits, r.stats.max_depth),
                    tuple((i.depth, i.value, i.pv, i.nodes, i.table_hits, i.seldepth,
                           i.decided) for i in infos),
                    tuple(memory.table.entries.items()))

    return run


# --- Connect Four: the engine's node function and the solver ----------------------------

def _connect4_engine() -> Twin:
    from zerosum.games.connect4 import Connect4
    from zerosum.games.connect4.engine import Connect4Kernel, Memory

    def cases(seed: int, count: int) -> list[tuple[Any, Any]]:
        game = Connect4()
        return [(game, s) for s in open_positions(game, seed, count, 0, 24)]

    def make(native: bool) -> Any:
        game = Connect4()
        return used(Connect4Kernel(game, game.initial_state(), Stop(), ALL,
                                   Memory(game, native), native=native))

    return Twin("connect4 engine", cases, depths=(2, 5, 8), every=256,
                budgets=(700, 5000, 40_000), run=engine_run(Connect4Kernel, Memory),
                make=make, native=lambda kernel: bool(kernel.native),
                uses=tuple(sorted(Connect4Kernel.uses)), memory=Memory,
                endless=lambda: (Connect4(), Connect4().initial_state()), cycle=True)


def _connect4_solver() -> Twin:
    from zerosum.games.connect4 import Connect4
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves
    from zerosum.games.connect4.solver import Solver

    def cases(seed: int, count: int) -> list[tuple[Any, Any]]:
        """Positions of Pons's test sets (their exact scores are known), seeded."""
        rows = [line.split() for line in (DATA / "Test_L2_R1").read_text().splitlines()
                if line.strip()]
        rows += [line.split() for line in (DATA / "Test_L3_R1").read_text().splitlines()
                 if line.strip()]
        picked = random.Random(seed).sample(rows, count)
        return [(Connect4(), (position_from_stones(parse_moves(m)), int(score)))
                for m, score in picked]

    def run(game: Any, state: Any, limit: Limit, native: bool,
            enhancements: Enhancements = ALL, stop: Stop | None = None,
            memory: Any = None) -> Seen:
        """The exact score (or the stop) and the nodes; with a depth limit, also the
        analysis of every move (the best moves, each move's score, the line) and the
        weak solve (win, draw or loss)."""
        p, _ = state
        solver = memory if memory is not None else Solver(native=native, book=False)
        if stop is not None:
            solver.stop = stop
        solver.limit(seconds=limit.seconds, nodes=limit.nodes)
        try:
            answer: Any = solver.solve(p.current, p.mask)
            analysis = None if limit.depth is None else (
                solver.analyse(p.current, p.mask, all_scores=True),
                solver.solve(p.current, p.mask, weak=True))
        except SearchStopped:
            answer, analysis = "stopped", None
        return Seen((solver.nodes, answer, analysis), (), ())

    def make(native: bool) -> Any:
        solver = Solver(native=native, book=False)
        (_, (p, _)), = cases(1, 1)
        solver.solve(p.current, p.mask)
        return solver

    def endless() -> tuple[Any, Any]:
        # Six stones in the centre column, searched without the book (which holds it):
        # some 2 s of search for its score, more for its best moves and line.
        return Connect4(), (position_from_stones(parse_moves("444444")), None)

    return Twin("connect4 solver", cases, depths=(0,), every=1024, budgets=(5000,),
                run=run, make=make, native=lambda solver: bool(solver.native),
                memory=lambda game, native: Solver(capacity=500, native=native, book=False),
                endless=endless)


# --- checkers ------------------------------------------------------------------------------

def _checkers() -> Twin:
    from zerosum.games.checkers import Checkers
    from zerosum.games.checkers.engine import CheckersKernel, Memory

    def cases(seed: int, count: int) -> list[tuple[Any, Any]]:
        """Every board size but 4x4 (solved before any search), both capture rules and
        both draw rules, in turn."""
        rules = [(8, "english", "course"), (8, "max", "tournament"),
                 (6, "english", "tournament"), (10, "max", "course"),
                 (12, "english", "course")]
        out = []
        for i in range(count):
            game = Checkers(*rules[(seed + i) % len(rules)])
            out += [(game, s) for s in open_positions(game, seed + i, 1, 8, 40)]
        return out

    def memory(game: Any, native: bool) -> Any:
        return Memory(game)

    def make(native: bool) -> Any:
        game = Checkers(8)
        return used(CheckersKernel(game, game.initial_state(), Stop(), ALL, Memory(game),
                                   native=native))

    return Twin("checkers", cases, depths=(4, 5), every=1024, budgets=(6000,),
                run=engine_run(CheckersKernel, memory), make=make,
                native=lambda kernel: kernel.compiled is not None,
                uses=tuple(sorted(CheckersKernel.uses)), memory=memory,
                endless=lambda: (Checkers(10), Checkers(10).initial_state()))


# --- Max-Connect4 --------------------------------------------------------------------------

def _maxconnect4() -> Twin:
    from zerosum.games.maxconnect4 import MaxConnect4
    from zerosum.games.maxconnect4.engine import MaxConnect4Kernel, Memory

    def cases(seed: int, count: int) -> list[tuple[Any, Any]]:
        game = MaxConnect4()
        return [(game, s) for s in open_positions(game, seed, count, 0, 31)]

    def memory(game: Any, native: bool) -> Any:
        return Memory(game)

    def make(native: bool) -> Any:
        game = MaxConnect4()
        return used(MaxConnect4Kernel(game, game.initial_state(), Stop(), ALL, Memory(game),
                                      native=native))

    return Twin("maxconnect4 engine", cases, depths=(5, 8), every=1024,
                budgets=(30_000,), run=engine_run(MaxConnect4Kernel, memory), make=make,
                native=lambda kernel: kernel.compiled is not None,
                uses=tuple(sorted(MaxConnect4Kernel.uses)), memory=memory,
                endless=lambda: (MaxConnect4(), MaxConnect4().initial_state()), cycle=True)


def twins() -> dict[str, Twin]:
    """Every native twin, by its name in zerosum.native.KERNELS."""
    return {t.name: t for t in (_connect4_solver(), _connect4_engine(), _checkers(),
                                _maxconnect4())}


def compare(twin: Twin, cases: Sequence[tuple[Any, Any]], limit: Limit,
            enhancements: Enhancements = ALL) -> list[Seen]:
    """Each case searched on both paths: what the twin saw, asserted identical to the
    reference's."""
    seen = []
    for game, state in cases:
        fast = twin.run(game, state, limit, True, enhancements, None, None)
        pure = twin.run(game, state, limit, False, enhancements, None, None)
        assert fast == pure, (twin.name, state)
        seen.append(fast)
    return seen
