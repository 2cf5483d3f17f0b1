"""Self-play games per second with worker processes, measured here and simulated beyond.

    python bench/learn_workers.py [GAME] [--weights FILE] [--workers 1,2] [--rounds K]
                                  [--pure]

A run with N workers plays in rounds (zerosum.learn.train): each worker plays ROUND
games with a copy of the weights, then the learner learns from all of them, one after
another, in the main process. So the learning is the part that does not grow with
workers, and shipping the weights (one encoding, a copy to each worker) grows with them.

Measured: (1) the wall-clock games per second of K rounds with each number of workers
given (LocalPool, the trainer's; the workers' start is left out); (2) on one process,
the CPU seconds of a game's play, of learning from it, and of the weights' encoding,
copying (pickle) and decoding. Simulated: from (2), a round of N workers on N free
cores takes ROUND x play + N x ROUND x learn + encode + N x copy + decode, so

    games/s(N) = N x ROUND / that,

bounded by 1 / learn however many workers (Amdahl's law). On a loaded machine (1) is
what the machine gave, (2) the work itself (CPU time).

--pure forces the Python paths (ZEROSUM_NATIVE=0, in the workers too).
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="?", default="connect4")
    p.add_argument("--weights", help="play with this checkpoint's weights (a trained "
                   "network's games are longer than a fresh one's)")
    p.add_argument("--workers", default="1,2", help="numbers of workers to measure")
    p.add_argument("--rounds", type=int, default=2, help="rounds measured for each")
    p.add_argument("--games", type=int, default=200, help="games for the one-process "
                   "measurement")
    p.add_argument("--pure", action="store_true", help="the Python paths only")
    args = p.parse_args()
    if args.pure:
        os.environ["ZEROSUM_NATIVE"] = "0"  # before zerosum is imported, for the workers

    from zerosum.games.registry import get_game
    from zerosum.learn import weights as weights_file
    from zerosum.learn.methods import learner_of, new_learner, read
    from zerosum.learn.train import ROUND, LocalPool, learn_from, play_batch, play_self

    spec = get_game(args.game)
    game = spec.create()

    def fresh() -> object:
        if args.weights:
            return learner_of(read(args.weights, spec), spec, game, args.weights)
        return new_learner("ntuple", spec, game, random.Random(1))

    print(f"{args.game}, {'pure Python' if args.pure else 'native where built'}, "
          f"{ROUND} games a worker a round")

    # (2) the work of one process, in CPU seconds
    learner = fresh()
    rng = random.Random(2)
    t0 = time.process_time()
    played = [play_self(game, learner, rng) for _ in range(args.games)]  # type: ignore[arg-type]
    play = (time.process_time() - t0) / args.games
    t0 = time.process_time()
    for one in played:
        learn_from(game, learner, one)  # type: ignore[arg-type]
    learn = (time.process_time() - t0) / args.games
    t0 = time.process_time()
    data = weights_file.encode(learner.save({"game": spec.name}))  # type: ignore[attr-defined]
    encode = time.process_time() - t0
    t0 = time.process_time()
    copied = pickle.loads(pickle.dumps(data))
    copy = time.process_time() - t0
    t0 = time.process_time()
    weights_file.decode(copied, "bench")
    decode = time.process_time() - t0
    print(f"one process: play {1000 * play:.2f} ms a game, learn {1000 * learn:.2f} ms a "
          f"game; weights {len(data) / 1e6:.1f} MB: encode {1000 * encode:.0f} ms, copy "
          f"{1000 * copy:.0f} ms, decode {1000 * decode:.0f} ms (CPU)")

    # (1) measured, wall clock
    for n in [int(x) for x in args.workers.split(",")]:
        learner = fresh()
        rng = random.Random(3)
        if n == 1:
            from zerosum.learn.train import self_play

            t0 = time.perf_counter()
            for _ in range(ROUND * args.rounds):
                self_play(game, learner, rng)  # type: ignore[arg-type]
            games = ROUND * args.rounds
        else:
            pool = LocalPool(n)
            try:
                pool.map(play_batch, (spec.name, {}, data), [[1]] * n)  # start the workers
                t0 = time.perf_counter()
                games = 0
                for _ in range(args.rounds):
                    seeds = [rng.randrange(2**63) for _ in range(ROUND * n)]
                    shipped = weights_file.encode(
                        learner.save({"game": spec.name}))  # type: ignore[attr-defined]
                    for batch in pool.map(play_batch, (spec.name, {}, shipped),
                                          [seeds[i::n] for i in range(n)]):
                        for one in batch:
                            learn_from(game, learner, one)  # type: ignore[arg-type]
                    games += len(seeds)
            finally:
                pool.close()
        seconds = time.perf_counter() - t0
        print(f"measured: {n} worker{'s' if n > 1 else ''}: {games} games in {seconds:.1f} s "
              f"wall, {games / seconds:.0f} games/s", flush=True)

    # (3) simulated on free cores
    print("simulated on free cores (a core a worker):")
    for n in (1, 2, 4, 8, 16, 32, 64):
        if n == 1:
            rate = 1 / (play + learn)
        else:
            rate = n * ROUND / (ROUND * play + n * ROUND * learn + encode + n * copy + decode)
        print(f"  {n:>2} workers: {rate:7.0f} games/s")
    print(f"  the bound, learning alone: {1 / learn:.0f} games/s")


if __name__ == "__main__":
    main()
