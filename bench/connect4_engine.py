"""The Connect Four engine, native node function (games/connect4/_engine.c) against the
pure-Python one, in one interleaved run: never run by the tests (timings are noisy).

    python bench/connect4_engine.py speed [--seconds 1] [--positions 20]
    python bench/connect4_engine.py match [--seconds 0.25] [--pairs 20]

`speed`: from the same seeded positions (4 to 10 random plies: more than 30 empty cells,
so the solver stages of `prepare` stay out and only the passes run), each path searches
for the same CPU time (this thread's, so both get the same work on a shared machine),
alternating native and pure position by position; a table of the depth reached, nodes
and nodes/s, and the ratios. A first check at a fixed depth confirms both paths visit
the same nodes.

`match`: native against pure Python at the same CPU time a move, colour-swapped pairs of
games from seeded random openings (bench/matchlib.py); the native player is the engine
as built (its solver native too), the pure one as with ZEROSUM_NATIVE=0 (both pure).
The score, its 95 % margin and the Elo difference by zerosum.ratings (pentanomial).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from matchlib import GameRecord, play_pairs, random_openings

from zerosum import native
from zerosum.games.connect4 import Connect4
from zerosum.games.connect4.engine import Connect4Kernel, Memory
from zerosum.games.connect4.game import Position
from zerosum.kernel import Enhancements, KernelFactory
from zerosum.result import Limit, SearchResult
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def engine(path: bool, memory: Memory) -> KernelFactory:
    """The engine's kernels on one path (native or pure), with `memory` kept between moves."""
    def make(game: Any, state: Any, stop: Stop, enhancements: Enhancements) -> Connect4Kernel:
        kernel = Connect4Kernel(game, state, stop, enhancements, memory, native=path)
        assert kernel.native == path, "the native engine is not built here"
        return kernel
    return make


def fresh_memory(game: Connect4, path: bool) -> Memory:
    """A memory on one path: the native one (the C table, the native solver) or the pure
    one (a TranspositionTable, the pure solver), as with ZEROSUM_NATIVE=0."""
    memory = Memory(game, native=path)
    assert memory.native == path
    return memory


def search(path: bool, state: Position, limit: Limit) -> SearchResult:
    """One search from a fresh engine, timed by this thread's CPU clock. The last
    search's table goes first (a kernel and its node function refer to each other, so
    only the collector frees them; its pause would fall into this search's time)."""
    gc.collect()
    game = Connect4()
    return analyse_with(engine(path, fresh_memory(game, path)), game, state, limit,
                        stop=Stop(clock=time.thread_time))


def positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    game = Connect4()
    found: list[Position] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(4, 11)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state) and not search(False, state, Limit(depth=1)).decided:
            found.append(state)
    return found


def speed(args: argparse.Namespace) -> None:
    states = positions(args.positions, args.seed)
    print(f"Connect Four engine, native vs pure, {args.seconds:g} s CPU a move, "
          f"{len(states)} positions (seed {args.seed}); {load()}")
    print("same nodes at depth 9 on every position:", end=" ", flush=True)
    for state in states:
        a, b = (search(path, state, Limit(depth=9)) for path in (True, False))
        assert (a.stats.nodes, a.value, a.pv) == (b.stats.nodes, b.value, b.pv), state
    print("yes")
    print(f"{'position':>9} | {'native depth':>12} {'nodes':>10} {'nodes/s':>10} | "
          f"{'pure depth':>10} {'nodes':>9} {'nodes/s':>9} | {'nps ratio':>9}")
    totals = {True: [0, 0.0, 0], False: [0, 0.0, 0]}  # nodes, CPU seconds, depths
    for i, state in enumerate(states):
        row = {}
        for path in ((True, False) if i % 2 == 0 else (False, True)):  # interleaved
            r = search(path, state, Limit(seconds=args.seconds))
            row[path] = r
            totals[path][0] += r.stats.nodes
            totals[path][1] += r.stats.cpu_time
            totals[path][2] += r.depth or 0
        n, p = row[True], row[False]
        ratio = (n.stats.nodes / n.stats.cpu_time) / (p.stats.nodes / p.stats.cpu_time)
        print(f"{i + 1:>9} | {n.depth:>12} {n.stats.nodes:>10} "
              f"{n.stats.nodes / n.stats.cpu_time:>10.0f} | {p.depth:>10} {p.stats.nodes:>9} "
              f"{p.stats.nodes / p.stats.cpu_time:>9.0f} | {ratio:>8.1f}x", flush=True)
    count = len(states)
    nps = {path: totals[path][0] / totals[path][1] for path in totals}
    print(f"{'all':>9} | {totals[True][2] / count:>12.2f} {totals[True][0]:>10} "
          f"{nps[True]:>10.0f} | {totals[False][2] / count:>10.2f} {totals[False][0]:>9} "
          f"{nps[False]:>9.0f} | {nps[True] / nps[False]:>8.1f}x")
    gained = (totals[True][2] - totals[False][2]) / count
    print(f"mean depth reached: native {totals[True][2] / count:.2f}, "
          f"pure {totals[False][2] / count:.2f} (+{gained:.2f} plies); "
          f"nodes/s ratio {nps[True] / nps[False]:.1f}x; {load()}")


class Player:
    """The engine at a fixed CPU time a move on one path, with a memory per game."""

    def __init__(self, path: bool, seconds: float) -> None:
        self.path, self.seconds = path, seconds
        self.name = "native" if path else "pure"
        self.game: Connect4 | None = None
        self.memory: Memory | None = None
        self.depths: list[int] = []

    def choose(self, game: Any, state: Any, moves: Sequence[Any]) -> Any:
        if game is not self.game or self.memory is None:
            self.game, self.memory = game, fresh_memory(game, self.path)
        r = analyse_with(engine(self.path, self.memory), game, state,
                         Limit(seconds=self.seconds), stop=Stop(clock=time.thread_time))
        if r.depth:
            self.depths.append(r.depth)
        return r.action


def match(args: argparse.Namespace) -> None:
    game = Connect4()
    openings = random_openings(game, args.opening, args.pairs, random.Random(args.seed))
    players = Player(True, args.seconds), Player(False, args.seconds)
    print(f"Connect Four engine match, native (A) vs pure (B), {args.seconds:g} s CPU a move, "
          f"{args.pairs} pairs from {args.opening}-ply random openings (seed {args.seed}); "
          f"{load()}", flush=True)
    t0 = time.perf_counter()

    def report(g: GameRecord) -> None:
        side = "first" if g.a_is_max else "second"
        print(f"game {g.number:3d}: native plays {side:6s}: {g.result:4s} "
              f"({len(g.moves)} plies) {g.outcome}", flush=True)

    tally = play_pairs(Connect4, lambda: players, openings, report)
    stats = tally.stats()
    depth = {p.name: sum(p.depths) / max(1, len(p.depths)) for p in players}
    print(f"\nnative's score: {stats.summary()}")
    print(f"score {100 * stats.score:.1f} % (95 % interval {100 * stats.low:.1f} to "
          f"{100 * stats.high:.1f} %), Elo {stats.elo:+.0f} (95 % interval "
          f"{stats.elo_low:+.0f} to {stats.elo_high:+.0f})")
    print(f"mean depth of the searched moves: native {depth['native']:.1f}, "
          f"pure {depth['pure']:.1f}; wall {time.perf_counter() - t0:.0f} s; {load()}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed", help="depth and nodes/s at the same time a move")
    s.add_argument("--seconds", type=float, default=1.0)
    s.add_argument("--positions", type=int, default=20)
    s.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("match", help="native against pure at the same time a move")
    m.add_argument("--seconds", type=float, default=0.25)
    m.add_argument("--pairs", type=int, default=20)
    m.add_argument("--opening", type=int, default=4, help="random plies before play")
    m.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if native.twin("connect4 engine") is None:
        print("the native engine is not built here (or ZEROSUM_NATIVE=0)", file=sys.stderr)
        return 2
    speed(args) if args.command == "speed" else match(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
