"""Self-play speed of a learning method, the compiled twin against the pure Python.

    python bench/learn_speed.py [GAME] [--games N] [--seed S] [--weights FILE]

Plays N seeded self-play games (learning from each, as `zerosum train` does) on each
path from the same start (fresh weights, or a checkpoint's: games of an untrained
network are short, all its moves alike) and prints games per CPU second (time.process_time: other
processes on a shared machine disturb it less than wall time; they still do) and
whether both paths learned the same weights (they must: the twin adds the same weights
in the same order).
"""

from __future__ import annotations

import argparse
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
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--weights", help="start from this checkpoint of `zerosum train`")
    args = p.parse_args()
    spec = get_game(args.game)
    game = spec.create()
    weights = {}
    for path, wanted in (("pure", False), ("native", True)):
        rng = random.Random(args.seed)
        if args.weights:
            learner = NTupleLearner.load(spec, game, read(args.weights, spec), args.weights)
        else:
            learner = NTupleLearner(spec, game, Settings(), rng)
        learner.net.twin = native.twin("ntuple", wanted)
        if wanted and learner.net.twin is None:
            print("native: not built here")
            continue
        t0 = time.process_time()
        for _ in range(args.games):
            self_play(game, learner, rng)
        seconds = time.process_time() - t0
        weights[path] = learner.net.weights
        print(f"{path}: {args.games} games in {seconds:.1f} CPU s, "
              f"{args.games / seconds:.0f} games/s", flush=True)
    if len(weights) == 2:
        print("same weights:", weights["pure"] == weights["native"])


if __name__ == "__main__":
    main()
