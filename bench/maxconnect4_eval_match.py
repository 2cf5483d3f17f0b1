"""Max-Connect4: does each part of the evaluation earn its keep? Engine against engine.

    python bench/maxconnect4_eval_match.py [--depth 4] [--openings 40]

Each variant of the evaluation plays the full one (zerosum.games.maxconnect4.bitboard.potential)
from the same random openings (4 random moves each), once with each colour, both at
the same fixed depth (with 16 or fewer empty cells both search to the end, so the
endgame is perfect on both sides and only the middle game differs). Prints wins, draws,
losses and the mean final margin of the full evaluation. No timings: the result does
not depend on the machine.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

import zerosum.games.maxconnect4.bitboard as mc4  # potential reads its weights here
from zerosum.games.maxconnect4 import MaxConnect4
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel, Memory
from zerosum.kernel import Enhancements, Kernel, KernelFactory
from zerosum.result import Limit
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop

Evaluation = Callable[[int, int, int], int]


def with_weights(**weights: int) -> Evaluation:
    """The full evaluation with some of its weights (module constants) changed."""

    def evaluation(mine: int, theirs: int, mask: int) -> int:
        saved = {name: getattr(mc4, name) for name in weights}
        for name, value in weights.items():
            setattr(mc4, name, value)
        try:
            return mc4.potential(mine, theirs, mask)
        finally:
            for name, value in saved.items():
                setattr(mc4, name, value)

    return evaluation


def score_only(mine: int, theirs: int, mask: int) -> int:
    return 0


VARIANTS: dict[str, Evaluation] = {
    "score only (no potential)": score_only,
    "first guess (2, 10, 90, 60, 25)": with_weights(
        OPEN_ONE=2, OPEN_TWO=10, THREAT_NOW=90, THREAT_OWN_ROW=60, THREAT_OTHER_ROW=25
    ),
    "no parity (threats 45 on any row)": with_weights(THREAT_OWN_ROW=45, THREAT_OTHER_ROW=45),
    "threats only (no open 1s and 2s)": with_weights(OPEN_ONE=0, OPEN_TWO=0),
    "open 1s and 2s at 2 and 10": with_weights(OPEN_ONE=2, OPEN_TWO=10),
}


def engine(evaluation: Evaluation, game: MaxConnect4) -> KernelFactory:
    """The engine with another evaluation, keeping a table of its own for the game."""
    memory = Memory(game)

    def make(game: Any, state: Any, stop: Stop, enhancements: Enhancements) -> Kernel:
        return MaxConnect4Kernel(game, state, stop, enhancements, memory, evaluation)

    return make


def play(first: Evaluation, second: Evaluation, opening: list[int], depth: int) -> int:
    """The final score difference, first player minus second."""
    game = MaxConnect4()
    kernels = (engine(first, game), engine(second, game))  # a table each
    pos = game.initial_state()
    for col in opening:
        pos = game.result(pos, col)
    while not game.is_terminal(pos):
        kernel = kernels[0] if pos.p1_to_move else kernels[1]
        pos = game.result(pos, analyse_with(kernel, game, pos, Limit(depth=depth)).action)
    return pos.score1 - pos.score2


def openings(count: int, plies: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randrange(7) for _ in range(plies)] for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--openings", type=int, default=40)
    args = parser.parse_args()
    full = mc4.potential
    print(f"full evaluation against each variant: depth {args.depth}, "
          f"{args.openings} openings x 2 colours")
    print(f"{'variant':36} {'won':>4} {'drawn':>5} {'lost':>4} {'mean margin':>11}")
    for name, variant in VARIANTS.items():
        margins = []
        for opening in openings(args.openings, 4):
            margins.append(play(full, variant, opening, args.depth))
            margins.append(-play(variant, full, opening, args.depth))
        won = sum(m > 0 for m in margins)
        drawn = sum(m == 0 for m in margins)
        lost = sum(m < 0 for m in margins)
        mean = sum(margins) / len(margins)
        print(f"{name:36} {won:4} {drawn:5} {lost:4} {mean:+11.2f}", flush=True)


if __name__ == "__main__":
    main()
