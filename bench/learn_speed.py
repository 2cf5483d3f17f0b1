"""Self-play speed of a learning method, the compiled twin against the pure Python.

    python bench/learn_speed.py [GAME] [--games N] [--pure-games N] [--seed S]
                                [--weights FILE]

Plays N seeded self-play games (learning from each, as `zerosum train` does) on each
path from the same start (fresh weights, or a checkpoint's: games of an untrained
network are short, all its moves alike) and prints games per CPU second (time.process_time: other
processes on a shared machine disturb it less than wall time; they still do) and
whether the paths learned the same weights (they must: the twin adds the same weights
in the same order). The paths, one after another in one process: pure Python; the
compiled evaluation and update inside the Python's game loop (what a game that
declares no in-a-row rules gets); the whole game compiled (play_self and learn_from
of _ntuple.c). The pure path plays its own number of games (it is slow); the others
are compared on the same games.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time

from zerosum import native
from zerosum.games.registry import get_game
from zerosum.learn.methods import read
from zerosum.learn.ntuple import NTupleLearner, Settings
from zerosum.learn.train import self_play


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="?", default="connect4")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--pure-games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--weights", help="start from this checkpoint of `zerosum train`")
    args = p.parse_args()
    spec = get_game(args.game)
    game = spec.create()
    weights = {}
    paths = (("pure Python", False, False, args.pure_games),
             ("compiled evaluation, Python game loop", True, False, args.games),
             ("compiled whole games", True, True, args.games))
    for path, wanted, whole, games in paths:
        rng = random.Random(args.seed)
        if args.weights:
            learner = NTupleLearner.load(spec, game, read(args.weights, spec), args.weights)
        else:
            learner = NTupleLearner(spec, game, Settings(), rng)
        learner.net.twin = native.twin("ntuple", wanted)
        if not whole:  # as a game without in-a-row rules
            learner.net.cells = dataclasses.replace(learner.net.cells, in_a_row=None)
        if wanted and learner.net.twin is None:
            print("native: not built here")
            continue
        if whole and not learner.whole_games():
            print(f"{args.game}: no whole games in the twin (no in-a-row rules)")
            continue
        t0 = time.process_time()
        for _ in range(games):
            self_play(game, learner, rng)
        seconds = time.process_time() - t0
        weights[path, games] = learner.net.weights
        print(f"{path}: {games} games in {seconds:.2f} CPU s, "
              f"{games / seconds:.0f} games/s", flush=True)
    same: dict[int, list[object]] = {}
    for (_, games), w in weights.items():
        same.setdefault(games, []).append(w)
    for games, ws in same.items():
        if len(ws) > 1:
            print(f"same weights after {games} games:", all(w == ws[0] for w in ws))


if __name__ == "__main__":
    main()
