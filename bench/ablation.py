"""Ablation of the search enhancements: nodes and time to a fixed depth, per game, with
each enhancement of zerosum.kernel.Enhancements switched on alone, all together, and
all but one.

    python bench/ablation.py [GAME ...] [--depth D] [--positions N] [--seed S]
                             [--generic] [--markdown]

Every game with a kernel of its own (`GameSpec.kernel`: connect4, checkers,
maxconnect4) runs it; `--generic` also runs the generic kernel over the protocol
(search.negamax) on every game. The search is the one driver's iterative deepening to
`--depth` (each game's default below), from N positions reached by seeded random moves
from the start, with a fresh table for each run. Figures are sums over the positions;
time is CPU time of this process, so compare rows of one run, not runs on a busy machine.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from zerosum.game import AnyGame
from zerosum.games.registry import all_games, get_game
from zerosum.kernel import Enhancements, KernelFactory
from zerosum.result import Limit
from zerosum.search.driver import deepen, stop_for
from zerosum.search.negamax import ProtocolKernel
from zerosum.stop import Stop
from zerosum.table import TranspositionTable

DEPTH = {"connect4": 9, "checkers": 7, "maxconnect4": 7, "tictactoe": 9, "takestones": 8,
         "nqueens": 5}
RANDOM_MOVES = {"connect4": 4, "checkers": 6, "maxconnect4": 4}


def configurations(names: tuple[str, ...]) -> list[tuple[str, Enhancements]]:
    """(label, enhancements): none, each of `names` alone, all, all but each one."""
    none, every = Enhancements.none(), Enhancements()
    rows = [("none", none)]
    rows += [(f"only {n}", replace(none, **{n: True})) for n in names]
    rows += [("all", every)]
    rows += [(f"all but {n}", replace(every, **{n: False})) for n in names]
    return rows


def positions(game: AnyGame, count: int, moves: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(moves):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            found.append(state)
    return found


def generic(game: AnyGame, state: Any, stop: Stop, enhancements: Enhancements) -> Any:
    return ProtocolKernel(game, state, stop, TranspositionTable(same_depth=False), enhancements)


def run(make: KernelFactory, game: AnyGame, states: list[Any], depth: int,
        enhancements: Enhancements) -> tuple[int, float, list[str]]:
    """(nodes, CPU seconds, the moves chosen) over the positions; a fresh copy of the
    game for each, since a game's engine may keep its table with the game object."""
    nodes, seconds, moves = 0, 0.0, []
    for state in states:
        limit = Limit(depth=depth)
        stop = stop_for(limit)
        t0 = time.process_time()
        kernel = make(copy.copy(game), state, stop, enhancements)
        result = deepen(kernel, limit, stop, enhancements=enhancements)
        seconds += time.process_time() - t0
        nodes += result.stats.nodes
        moves.append(game.format_move(result.action))
    return nodes, seconds, moves


def table(title: str, make: KernelFactory, game: AnyGame, states: list[Any], depth: int,
          markdown: bool) -> None:
    print(f"\n{title}: depth {depth}, {len(states)} positions")
    used = make(game, states[0], Stop(), Enhancements()).uses
    names = tuple(n for n in Enhancements.names() if n in used)
    print(f"  (the enhancements it has: {', '.join(names)})")
    rows = []
    for label, enhancements in configurations(names):
        nodes, seconds, moves = run(make, game, states, depth, enhancements)
        rows.append((label, nodes, seconds, " ".join(moves)))
    base = next(nodes for label, nodes, _, _ in rows if label == "all")
    if markdown:
        print("\n| enhancements | nodes | vs all | CPU s | moves |")
        print("| --- | ---: | ---: | ---: | --- |")
    for label, nodes, seconds, moves in rows:
        ratio = nodes / base if base else 0.0
        if markdown:
            print(f"| {label} | {nodes:,} | {ratio:.2f} | {seconds:.2f} | {moves} |")
        else:
            print(f"  {label:<20} nodes {nodes:>11,}  x{ratio:6.2f}  cpu {seconds:7.2f} s  "
                  f"moves {moves}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games to run (default: those with a kernel)")
    ap.add_argument("--depth", type=int, help="depth of every game (default: per game)")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generic", action="store_true",
                    help="also the generic kernel over the protocol")
    ap.add_argument("--markdown", action="store_true", help="tables in Markdown")
    args = ap.parse_args()
    specs = [get_game(n) for n in args.games] or [s for s in all_games() if s.kernel]
    for spec in specs:
        game = spec.create()
        states = positions(game, args.positions, RANDOM_MOVES.get(spec.name, 2), args.seed)
        depth = args.depth or DEPTH.get(spec.name, 5)
        makers: list[tuple[str, Callable[..., Any]]] = []
        if spec.kernel is not None:
            makers.append((f"{spec.title}, its kernel", spec.kernel))
        if args.generic or spec.kernel is None:
            makers.append((f"{spec.title}, the generic kernel", generic))
        for title, make in makers:
            table(title, make, game, states, depth, args.markdown)


if __name__ == "__main__":
    main()
