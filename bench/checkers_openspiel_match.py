"""Our checkers engine against OpenSpiel's MCTS on OpenSpiel's `checkers` (8x8).

    nice -n 10 python bench/checkers_openspiel_match.py [--games 6] [--seconds 1.0]
        [--simulations 1000] [--seed 1] [--max-plies 300]

The engine is the one the checkers registration offers (`GameSpec.kernel`, run by the
one driver, zerosum.search.driver),
`--seconds` per move of *wall-clock* time: it has no CPU-clock option, so on a busy
machine it gets less work done per move (its CPU time per move is printed too). The
opponent is `open_spiel.python.algorithms.mcts.MCTSBot` (UCT constant 2, `--simulations`
simulations, one random rollout per leaf, exact solving of terminal subtrees on, numpy
generator seeded with `--seed` + game number). Games alternate colours: the engine is
Black (OpenSpiel's player 0, who moves first) in even-numbered games.

Rules, and why OpenSpiel's perft differs. The piece rules are the same; the count is
not. OpenSpiel plays a multi-jump as one action per jump, the same player moving again
until the sequence ends (a man crowned by a jump stops, as in English rules), and its
perft counts actions, so a double jump takes two plies. The first double jumps come at
ply 6: 437 of them. At depth 6 the position halfway through one is a leaf, counted once
just as the finished move is (its second jump is forced there), so depth 6 agrees; at
depth 7 OpenSpiel's seventh ply under each of them is the single second jump where ours
is every reply of the opponent: 922 replies against 437 second jumps, 485 more, hence
179,255 against the published 179,740. Counting OpenSpiel's whole moves (a player's run
of actions) as plies gives 179,740 (checked).

The draw rules differ: OpenSpiel draws when 40 actions pass without a capture (20 moves
each; a man move does not reset it, and there is no repetition rule), and it
caps a game at 1,000 actions. The match therefore uses our `english` capture rule and
OpenSpiel's draw rule, which the referee takes from OpenSpiel's state; our game object
is built with no draw rule of its own (`draw="course", moves=0`), so the engine searches
without knowing the 40-action rule (it still scores a repetition on its search line as a
draw). A game still running after `--max-plies` whole moves is adjudicated a draw.

Moves are translated by positions, never by notation: at every turn the script lists
OpenSpiel's complete moves (every action sequence of the player to move, followed to the
end of a multi-jump) with the board each produces, read from OpenSpiel's board string,
and our legal moves with the board each produces, and checks that the two sets of
boards are equal. A move of either player is then carried over as the move of the other
implementation that leads to the same board; if that board has no match the script
stops with a message (several paths to the same board, such as a king's loop taken in
either direction, are the same move for the game). OpenSpiel draws White at the bottom
and moves it first; its board is ours turned half a turn (our A2 is its g1), which the
script checks on the start position.

Prints every game and the tallies, with the score's 95 % margin, the Elo difference and
the likelihood of superiority (zerosum.ratings; pentanomial over the pairs of games 2k,
2k+1, one with each colour, when every pair is complete); skips with a message (exit 0)
when pyspiel is not installed (`make bench-deps`).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from zerosum.games.checkers import Checkers, State
from zerosum.games.registry import get_game
from zerosum.ratings import Tally
from zerosum.result import Limit, SearchResult
from zerosum.search.driver import analyse_with

# A board: the set of (row, column, black?, king?) in our coordinates, and Black to move?
Key = tuple[frozenset[tuple[int, int, bool, bool]], bool]
SIZE = 8
PIECES = {"o": (True, False), "8": (True, True), "+": (False, False), "*": (False, True)}


def our_key(game: Checkers, s: State) -> Key:
    b = game.board
    cells = set()
    for r in range(SIZE):
        for c in range(SIZE):
            bit = 1 << b.bit(r, c)
            if (s.black | s.white) & bit:
                cells.add((r, c, bool(s.black & bit), bool(s.kings & bit)))
    return frozenset(cells), s.black_to_move


def os_key(os_state: Any) -> Key:
    """OpenSpiel's board string: rows 8 (top) to 1, then the column letters; player 0
    ('o', king '8') moves first from the bottom. Turned half a turn it is our board."""
    lines = str(os_state).splitlines()[:SIZE]
    cells = set()
    for i, line in enumerate(lines):
        for j, ch in enumerate(line[1:1 + SIZE]):
            if ch in PIECES:
                black, king = PIECES[ch]
                cells.add((SIZE - 1 - i, SIZE - 1 - j, black, king))
    return frozenset(cells), os_state.current_player() == 0


def os_moves(os_state: Any) -> dict[Key, list[int]]:
    """Every complete OpenSpiel move (a multi-jump followed to its end) by its board."""
    player = os_state.current_player()
    out: dict[Key, list[int]] = {}

    def extend(st: Any, actions: list[int]) -> None:
        for a in st.legal_actions():
            child = st.child(a)
            if not child.is_terminal() and child.current_player() == player:
                extend(child, [*actions, a])
            else:
                key = os_key(child) if not child.is_terminal() else (os_key(child)[0], player != 0)
                out.setdefault(key, [*actions, a])

    extend(os_state, [])
    return out


def our_moves(game: Checkers, s: State) -> dict[Key, Any]:
    out: dict[Key, Any] = {}
    for path in game.legal_moves(s):
        out.setdefault(our_key(game, game.result(s, path)), path)
    return out


class Mismatch(Exception):
    pass


def check_same_moves(ours: dict[Key, Any], theirs: dict[Key, list[int]], ply: int) -> None:
    if set(ours) != set(theirs):
        raise Mismatch(f"ply {ply}: the two implementations disagree on the legal moves "
                       f"({len(ours)} boards from ours, {len(theirs)} from OpenSpiel, "
                       f"{len(set(ours) ^ set(theirs))} not shared)")


def play(game: Checkers, engine: Any, pyspiel: Any, mcts: Any, np: Any, engine_black: bool,
         seconds: float, simulations: int, seed: int, max_plies: int) -> dict[str, Any]:
    os_game = pyspiel.load_game("checkers")
    os_state = os_game.new_initial_state()
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(os_game, 2.0, simulations,
                       mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       solve=True, random_state=rng)
    s = game.initial_state()
    if our_key(game, s) != os_key(os_state):
        raise Mismatch("the start positions differ: the board mapping is wrong")
    times: dict[str, list[tuple[float, float]]] = {"engine": [], "mcts": []}
    moves: list[str] = []
    ply = 0
    while not os_state.is_terminal() and ply < max_plies:
        ours, theirs = our_moves(game, s), os_moves(os_state)
        check_same_moves(ours, theirs, ply)
        if s.black_to_move == engine_black:
            r = engine(game, s, seconds)
            times["engine"].append((r.stats.cpu_time, r.stats.wall_time))
            key = our_key(game, game.result(s, r.action))
            if key not in theirs:
                raise Mismatch(f"ply {ply}: no OpenSpiel move gives the board of "
                               f"{game.format_move(r.action)}")
            for a in theirs[key]:
                os_state.apply_action(a)
            path = r.action
        else:
            t_cpu, t_wall = time.process_time(), time.perf_counter()
            player = os_state.current_player()
            while not os_state.is_terminal() and os_state.current_player() == player:
                os_state.apply_action(bot.step(os_state))
            times["mcts"].append((time.process_time() - t_cpu, time.perf_counter() - t_wall))
            key = os_key(os_state) if not os_state.is_terminal() else (
                os_key(os_state)[0], player != 0)
            if key not in ours:
                raise Mismatch(f"ply {ply}: none of our moves gives OpenSpiel's board after "
                               f"{os_state.history()[-1]}")
            path = ours[key]
        moves.append(game.format_pdn(path))
        s = game.result(s, path)
        ply += 1
        if our_key(game, s)[0] != os_key(os_state)[0]:
            raise Mismatch(f"ply {ply}: the boards differ after {moves[-1]}")
    if os_state.is_terminal():
        returns = os_state.returns()
        if returns[0] == 0:
            how = "draw: 40 actions without a capture (OpenSpiel's rule)"
            outcome = "draw"
        else:
            if game.legal_moves(s):
                raise Mismatch(f"OpenSpiel ends the game at ply {ply}, we still have moves")
            black_won = returns[0] > 0
            outcome = "win" if black_won == engine_black else "loss"
            how = f"{'Black' if black_won else 'White'} wins (opponent cannot move)"
    else:
        outcome, how = "draw", f"adjudicated draw after {max_plies} plies"
    material = f"{bin(s.black).count('1')}v{bin(s.white).count('1')}"
    return {"outcome": outcome, "how": how, "plies": ply, "times": times, "moves": moves,
            "material": material}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--first", type=int, default=0, help="number of the first game")
    args = p.parse_args()
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found]
    except ImportError as e:
        print(f"skipped: OpenSpiel is not installed ({e}); `make bench-deps` installs it")
        return 0
    kernel = get_game("checkers").kernel
    assert kernel is not None

    def engine(game: Checkers, s: State, seconds: float) -> SearchResult:
        return analyse_with(kernel, game, s, Limit(seconds=seconds))

    tally = {"win": 0, "draw": 0, "loss": 0}
    scores = Tally()  # the engine's, by pair of games (one with each colour)
    cpu: dict[str, list[float]] = {"engine": [], "mcts": []}
    wall: dict[str, list[float]] = {"engine": [], "mcts": []}
    for g in range(args.first, args.first + args.games):
        engine_black = g % 2 == 0
        # One game object per game: the engine keeps its table per game object.
        game = Checkers(SIZE, capture="english", draw="course", moves=0)
        try:
            res = play(game, engine, pyspiel, mcts, np, engine_black, args.seconds,
                       args.simulations, args.seed + g, args.max_plies)
        except Mismatch as e:
            print(f"game {g}: stopped: {e}", file=sys.stderr)
            return 1
        tally[res["outcome"]] += 1
        scores.add(g // 2, {"win": 1.0, "draw": 0.5, "loss": 0.0}[res["outcome"]])
        for who in cpu:
            cpu[who] += [t[0] for t in res["times"][who]]
            wall[who] += [t[1] for t in res["times"][who]]
        eng = res["times"]["engine"]
        mc = res["times"]["mcts"]
        print(f"game {g}: engine {'Black' if engine_black else 'White'}: {res['outcome']} "
              f"({res['how']}), {res['plies']} plies, pieces B v W {res['material']}; "
              f"per move engine {sum(t[0] for t in eng) / max(1, len(eng)):.2f} s CPU, "
              f"MCTS {sum(t[0] for t in mc) / max(1, len(mc)):.2f} s CPU")
        print("   ", " ".join(res["moves"]), flush=True)
    print(f"engine vs MCTS({args.simulations}): {tally['win']} wins, {tally['draw']} draws, "
          f"{tally['loss']} losses; {scores.summary()}")
    for who in cpu:
        n = max(1, len(cpu[who]))
        print(f"{who}: {len(cpu[who])} moves, mean {sum(cpu[who]) / n:.2f} s CPU, "
              f"{sum(wall[who]) / n:.2f} s wall per move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
