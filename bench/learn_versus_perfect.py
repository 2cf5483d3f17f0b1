"""A Connect Four player moving first against the perfect player: its score, with a 95 %
interval (what Thill, Koch and Konen report for their TD n-tuple agent: about 0.9
after 2 million self-play games).

    python bench/learn_versus_perfect.py PLAYER [--games N] [--seed S]
                                         [--cache FILE] [--budget SECONDS]

PLAYER is any player (`learned:FILE`, `learned,depth=4:FILE`, `engine:depth=6`) and
plays Red, the first player, who wins with perfect play. The perfect player (Yellow)
solves each position it must move in exactly (our solver, with the shipped opening
book and a cache of solved positions, `--cache`, kept from run to run) and plays a move
that keeps the position's exact score, Pons's score: the quickest win, or when losing
the longest defeat. Where several do, it draws one at random (seeded by `--seed`), so
a deterministic player meets several lines. Each game is played by
`match.play_match`.

No node budget: a perfect player that stops a search and guesses is not one. A
position the solver has not finished in `--budget` seconds (default: no limit) ends
that game unscored, and the games so ended are counted apart, so that a short
measurement says what it left out rather than scoring it.

Printed: wins, draws and losses with the score and its 95 % interval (the tournament's
trinomial figures, zerosum.ratings; without draws Wilson's interval of the share of
wins), the ply at which the player first let a won
position go (Red's mistakes against perfect play, by the same solves), the distinct
games, and the solver's CPU time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any

from zerosum.games.connect4.cache import user_cache
from zerosum.games.connect4.game import Connect4, Position
from zerosum.games.connect4.solver import Solver
from zerosum.games.registry import get_game
from zerosum.learn.grade import wilson
from zerosum.match import Move, play_match
from zerosum.players.spec import agent_from_spec
from zerosum.ratings import trinomial
from zerosum.stop import SearchStopped


class PerfectPlayer:
    """Yellow: a move keeping the exact score, one of them at random."""

    name = "perfect"

    def __init__(self, solver: Solver, rng: random.Random, budget: float | None) -> None:
        self.solver, self.rng, self.budget = solver, rng, budget
        self.seconds = 0.0
        self.scores: list[int] = []  # the score of each position Yellow moved in

    def choose(self, game: Any, state: Position) -> Move:
        assert isinstance(game, Connect4)
        t0 = time.process_time()
        self.solver.limit(seconds=self.budget)
        try:
            score = self.solver.solve(state.current, state.mask)
            best = self.solver.best_moves(state.current, state.mask, score)
        finally:
            self.solver.limit()
            self.seconds += time.process_time() - t0
        self.scores.append(score)
        move = self.rng.choice(sorted(best))
        print(f"  ply {state.mask.bit_count() + 1}: score {score:+d}, best "
              f"{' '.join(str(c + 1) for c in sorted(best))}, played {move + 1} "
              f"({time.process_time() - t0:.1f} s)", file=sys.stderr, flush=True)
        return Move(move)


def summary(results: Counter[str]) -> str:
    """'3W 1D 6L of 10: score 0.350 (95 % interval ...)': the tournament's trinomial
    interval, or with no draws Wilson's for the share of wins (which, unlike the
    normal approximation, says something when every game ended alike)."""
    wins, draws, losses = results["win"], results["draw"], results["loss"]
    games = wins + draws + losses
    if games == 0:
        return "no games"
    if draws == 0:
        score = wins / games
        low, high = wilson(wins, games)
    else:
        stats = trinomial(wins, draws, losses)
        score, low, high = stats.score, stats.low, stats.high
    return (f"{wins}W {draws}D {losses}L of {games}: score {score:.3f} "
            f"(95 % interval {low:.3f}-{high:.3f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("player", help="the player moving first, e.g. learned:c4.zsnet")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1, help="the perfect player's tie breaks")
    p.add_argument("--cache", default="build/perfect-c4.sqlite",
                   help="the solved positions' cache file ('off': none)")
    p.add_argument("--budget", type=float, default=None,
                   help="seconds the solver may take on a position before that game is "
                   "left unscored (default: no limit)")
    args = p.parse_args()
    spec = get_game("connect4")
    game = spec.create()
    player = agent_from_spec(spec, args.player)
    solver = Solver(cache=user_cache(args.cache))
    rng = random.Random(args.seed)
    results: Counter[str] = Counter()
    thrown: Counter[int] = Counter()
    lines: set[str] = set()
    unfinished = 0
    seconds = 0.0
    for n in range(1, args.games + 1):
        perfect = PerfectPlayer(solver, rng, args.budget)
        try:  # an unrefereed match: the perfect player's stop comes through
            record = play_match(game, [player, perfect])
        except SearchStopped:
            unfinished += 1
            print(f"game {n}: a position unsolved in {args.budget} s, unscored",
                  file=sys.stderr, flush=True)
            continue
        finally:
            seconds += perfect.seconds
        moves = "".join(str(m.action + 1) for m in record.moves)
        lines.add(moves)
        score = record.score
        results["win" if score == 1 else "draw" if score == 0.5 else "loss"] += 1
        # Red keeps its win while Yellow faces a lost position (score below 0); the
        # first Yellow turn at 0 or above says at which of Red's moves it went.
        lost = next((2 * i + 1 for i, s in enumerate(perfect.scores) if s >= 0), None)
        if lost is not None:
            thrown[lost] += 1
        print(f"game {n}: {moves} {'1-0' if score == 1 else '1/2' if score == 0.5 else '0-1'}"
              f"{'' if lost is None else f', the win let go at ply {lost}'}"
              f" ({perfect.seconds:.1f} s of solving); so far {summary(results)}",
              file=sys.stderr, flush=True)
    print(f"{args.player} moving first against the perfect player (ties at random, "
          f"seed {args.seed}):")
    print(f"  {summary(results)}")
    budget = "no budget" if args.budget is None else \
        f"games left unscored (a position unsolved in {args.budget:g} s): {unfinished}"
    print(f"  distinct games: {len(lines)}; {budget}")
    if thrown:
        where = ", ".join(f"ply {ply}: {k}" for ply, k in sorted(thrown.items()))
        print(f"  the won position first let go at (Red's move of) {where}")
    print(f"  solving: {seconds:.0f} s of CPU")


if __name__ == "__main__":
    main()
