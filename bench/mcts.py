"""Monte Carlo tree search: simulations per second, and a match against iterative-deepening
alpha-beta at equal time per move, on tic-tac-toe and Connect Four (7x6).

    python bench/mcts.py [--simulations 20000 5000] [--games 20] [--time 0.2]
                         [--opening N] [--seed 1] [--wall] [--only tictactoe|connect4]

Speed: `--simulations` (tic-tac-toe, Connect Four) from the empty board, in CPU time.
Match: each opening (`--opening` random moves from a seeded generator) is played twice,
MCTS once on each side; both players get `--time` seconds per move, CPU time of this
process by default (fair on a machine shared with other jobs; `--wall` for wall time).
Alpha-beta is `iterative_deepening_search` with move ordering (the game's evaluation at
its depth limit); MCTS uses random playouts. The score is MCTS's: a win 1, a draw 1/2,
with its 95 % margin, the Elo difference and the likelihood of superiority
(zerosum.ratings, over the colour-swapped pairs).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from zerosum.game import AnyGame, GameBase
from zerosum.games.connect4.game import Connect4
from zerosum.games.tictactoe import TicTacToe
from zerosum.match import Move, play_match
from zerosum.ratings import Tally
from zerosum.search import SearchResult, iterative_deepening_search, mcts_search

GAMES: dict[str, Callable[[], GameBase[Any, Any]]] = {"tictactoe": TicTacToe, "connect4": Connect4}
# Random moves before play: in tic-tac-toe one keeps every game drawn with best play (two
# often hand one side a won game); in Connect Four two vary the games enough.
OPENING = {"tictactoe": 1, "connect4": 2}


class Timed:
    """A player given `seconds` per move on `clock`, choosing by `search`."""

    def __init__(self, name: str, search: Callable[[AnyGame, Any], SearchResult]) -> None:
        self.name, self.search = name, search

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        result = self.search(game, state)
        return Move(result.action, result, time.perf_counter() - t0)


def speed(game: GameBase[Any, Any], simulations: int) -> str:
    r = mcts_search(game, game.initial_state(), simulations=simulations, seed=1)
    return (f"{game.name}: {r.stats.nodes:,} simulations in {r.stats.cpu_time:.2f} s CPU = "
            f"{r.stats.nodes / r.stats.cpu_time:,.0f} simulations/s (tree depth "
            f"{r.stats.max_depth}, best move {game.format_move(r.action)}, "
            f"value {r.value:+.3f})")


def match(name: str, games: int, seconds: float, opening: int, seed: int,
          clock: Callable[[], float]) -> None:
    game = GAMES[name]()
    rng = random.Random(seed)
    mcts = Timed("mcts", lambda g, s: mcts_search(g, s, seconds=seconds, clock=clock,
                                                  seed=rng.randrange(2**32)))
    alphabeta = Timed("alphabeta", lambda g, s: iterative_deepening_search(
        g, s, seconds=seconds, clock=clock))
    tally = Tally()  # MCTS's scores, by opening
    t0 = time.perf_counter()
    state = game.initial_state()
    for g in range(games):
        if g % 2 == 0:  # a new opening, played once with each colour
            state = game.initial_state()
            for _ in range(opening):
                state = game.result(state, rng.choice(list(game.actions(state))))
        mcts_is_max = g % 2 == 0
        agents = [mcts, alphabeta] if mcts_is_max else [alphabeta, mcts]
        record = play_match(game, agents, state=state)
        u = record.utility or 0.0
        outcome = 1 if u == 0 else 0 if (u > 0) == mcts_is_max else 2
        tally.add(g // 2, (1.0, 0.5, 0.0)[outcome])
        side = game.players[0 if mcts_is_max else 1]
        print(f"  game {g + 1:3d}: mcts as {side:6s}: {('win', 'draw', 'loss')[outcome]} "
              f"({len(record.moves)} moves)", flush=True)
    print(f"{name}: mcts vs iterative alpha-beta, {seconds:g} s per move: {tally.summary()} "
          f"(wall {time.perf_counter() - t0:.0f} s)", flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--simulations", type=int, nargs=2, default=[20000, 5000],
                   metavar=("TICTACTOE", "CONNECT4"))
    p.add_argument("--games", type=int, default=20, help="games per game (even: pairs)")
    p.add_argument("--time", type=float, default=0.2, help="seconds per move, both players")
    p.add_argument("--opening", type=int, help="random moves before play (default: "
                   + ", ".join(f"{k} {v}" for k, v in OPENING.items()) + ")")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--wall", action="store_true", help="wall time rather than CPU time")
    p.add_argument("--only", choices=GAMES, help="one game only")
    args = p.parse_args()
    if args.games < 0 or args.time <= 0 or (args.opening or 0) < 0 \
            or min(args.simulations) < 1:
        p.error("--games and --opening must be 0 or more, --time and --simulations above 0")
    clock = time.perf_counter if args.wall else time.process_time
    names = [args.only] if args.only else list(GAMES)
    for name, sims in zip(GAMES, args.simulations, strict=True):
        if name in names:
            print(speed(GAMES[name](), sims), flush=True)
    for name in names:
        if args.games:
            opening = OPENING[name] if args.opening is None else args.opening
            match(name, args.games, args.time, opening, args.seed, clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
