"""The grade table: players' mistake rates against perfect play on each set a game
grades on (zerosum.learn.grade), the baseline learned players must beat.

    python bench/learn_grade_table.py [GAME] [--player SPEC ...] [--positions N]
                                      [--sets S1,S2] [--width W --height H]

Connect Four 7x6 grades on Pons's sets (the labels shipped in zerosum/learn/labels/),
other games on every reachable position. Prints one markdown row per player: each set's
mistake rate with its 95 % interval, then the CPU seconds the player took (timings on a
shared machine vary; the rates do not, except for timed players such as mcts:time=...).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from zerosum.games.registry import get_game
from zerosum.learn import grade
from zerosum.players.spec import agent_from_spec

PLAYERS = ("random", "alphabeta:depth=2", "alphabeta:depth=4", "engine:depth=4",
           "engine:depth=6", "mcts:nodes=1000,seed=1")


def agent_choice(agent: Any) -> Callable[[Any, Any], Any]:
    return lambda game, state: agent.choose(game, state).action


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="?", default="connect4")
    p.add_argument("--player", action="append", dest="players")
    p.add_argument("--positions", type=int, default=None)
    p.add_argument("--sets", help="these sets only, joined by commas (default: every set)")
    p.add_argument("--width", type=int)
    p.add_argument("--height", type=int)
    args = p.parse_args()
    spec = get_game(args.game)
    options = {k: v for k, v in (("width", args.width), ("height", args.height)) if v}
    game = spec.create(**options)
    sets = [grade.set_name(spec, game, n) for n in args.sets.split(",")] if args.sets \
        else grade.set_names(spec, game)
    rows = {name: grade.labelled(spec, game, name, args.positions) for name in sets}
    print(f"| player | {' | '.join(f'{n} ({len(rows[n])})' for n in sets)} | CPU s |")
    print(f"| --- |{' --- |' * len(sets)} --- |", flush=True)
    for text in args.players or PLAYERS:
        agent = agent_from_spec(spec, text, default_seed=0)
        cells = []
        t0 = time.process_time()
        for name in sets:
            g = grade.grade(game, name, rows[name], agent_choice(agent))
            lo, hi = g.interval()
            cells.append(f"{100 * g.mistake_rate:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})")
        print(f"| {text} | {' | '.join(cells)} | {time.process_time() - t0:.0f} |", flush=True)


if __name__ == "__main__":
    main()
