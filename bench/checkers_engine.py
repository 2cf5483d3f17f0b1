"""Checkers engine benchmarks: search speed, and a match against depth-4 alpha-beta.

    python bench/checkers_engine.py speed [--seconds 2]
    python bench/checkers_engine.py native [--depth 8] [--positions 6] [--repeat 1]
                                           [--seconds 0]
    python bench/checkers_engine.py match [--games 20] [--seconds 1.0] [--depth 4]
    python bench/checkers_engine.py versus [--pairs 5] [--seconds 0.5]

`speed` searches a few 8x8 positions (the start and positions from seeded random play)
with the engine for a fixed time and with the generic alpha-beta (zerosum.search) to a
fixed depth, and prints nodes, CPU seconds and nodes per CPU second.

`native` searches the same positions to a fixed depth with the compiled kernel
(games/checkers/native/) and the Python one, interleaved (Python, compiled, ...) so a
change in the machine's load touches both, checks that values, principal variations and
node counts are identical, and prints each one's nodes per CPU second, the ratio and the
load average before and after. With `--seconds S` it then searches each position for S
seconds (wall clock, the engine's own limit) on both paths and prints the depth each
reached.

`versus` plays the compiled engine against the Python one, the same time per move
(`--seconds`, wall clock), each with a table of its own kept from move to move, on 8x8
under English rules with the tournament draw rule, in colour-swapped pairs from seeded
random openings (one move each side); prints every game and the compiled engine's score
with its 95 % margin (pentanomial: the pairs' scores), Elo and LOS.

`match` plays the engine (`--seconds` per move) against the generic depth-limited
alpha-beta (`--depth`, the game's evaluation and capture-aware cutoff) on 8x8 under
English rules with the tournament draw rule (threefold repetition, 40-move rule), a game
still running after 300 plies counted as a draw. Games come in pairs: each
pair starts from the same seeded random opening (one move each side) with colours
swapped. Prints every game and the score. The machine may be shared: the engine's
time is wall-clock, so a busy machine makes it weaker; CPU figures are printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from zerosum.games.checkers import Checkers, State
from zerosum.games.checkers.engine import CheckersKernel, Memory
from zerosum.games.registry import kernel_of
from zerosum.match import Rules, play_match
from zerosum.players.agents import EngineAgent, SearchAgent
from zerosum.ratings import pair_counts, pentanomial
from zerosum.result import InfoSink, Limit, SearchResult
from zerosum.search import alphabeta_search
from zerosum.search.driver import analyse_with, deepen, stop_for
from zerosum.stop import Stop

MAX_PLIES = 300


def sample_positions(game: Checkers, count: int, seed: int = 5) -> list[State]:
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randrange(8, 30)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s) and len(game.actions(s)) > 1:
            out.append(s)
    return out


def engine_move(game: Any, state: Any, limit: Limit, on_info: InfoSink | None = None,
                stop: Stop | None = None) -> SearchResult:
    """The engine as a player (an Analyser): the game's kernel under the one driver."""
    return analyse_with(kernel_of("checkers"), game, state, limit, on_info, stop)


def fresh_search(game: Checkers, state: State, seconds: float) -> SearchResult:
    """The engine from `state` with an empty table, for `seconds`."""
    limit = Limit(seconds=seconds)
    stop = stop_for(limit)
    return deepen(CheckersKernel(game, state, stop, memory=Memory()), limit, stop)


def speed(seconds: float) -> None:
    game = Checkers(8)
    print(f"{'position':<62} {'search':<16} {'depth':>5} {'nodes':>9} {'cpu s':>7} {'nodes/s':>9}")
    totals = {"engine": [0, 0.0], "alpha-beta d6": [0, 0.0]}
    for s in sample_positions(game, 5):
        fen = game.to_fen(s)
        r = fresh_search(game, s, seconds)
        totals["engine"][0] += r.stats.nodes
        totals["engine"][1] += r.stats.cpu_time
        print(f"{fen[:62]:<62} {'engine':<16} {r.depth:>5} {r.stats.nodes:>9,} "
              f"{r.stats.cpu_time:>7.2f} {r.stats.nodes_per_second:>9,.0f}")
        t0 = time.process_time()
        a = alphabeta_search(game, s, 6, order=True)
        cpu = time.process_time() - t0
        totals["alpha-beta d6"][0] += a.stats.nodes
        totals["alpha-beta d6"][1] += cpu
        print(f"{'':<62} {'alpha-beta d6':<16} {6:>5} {a.stats.nodes:>9,} {cpu:>7.2f} "
              f"{a.stats.nodes / cpu if cpu else 0:>9,.0f}")
    for name, (nodes, cpu) in totals.items():
        print(f"total {name}: {nodes:,} nodes in {cpu:.2f} CPU s = {nodes / cpu:,.0f} nodes/s")


def fixed_depth(game: Checkers, state: State, depth: int | None, native: bool,
                seconds: float | None = None) -> SearchResult:
    """The engine from `state` to `depth` (or for `seconds`) with an empty table, on the
    chosen path."""
    limit = Limit(depth=depth, seconds=seconds)
    stop = stop_for(limit)
    kernel = CheckersKernel(game, state, stop, memory=Memory(), native=native)
    if native and kernel.compiled is None:
        raise SystemExit("the compiled kernel is not in use (not built, or ZEROSUM_NATIVE=0)")
    return deepen(kernel, limit, stop)


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def native_speed(depth: int, count: int, repeat: int, seconds: float) -> None:
    print(f"checkers engine to depth {depth}, 8x8 English, compiled vs Python, CPU seconds "
          f"(best of {repeat}, interleaved); {load()}")
    print(f"{'position':<48} {'nodes':>9} {'python s':>9} {'nodes/s':>9} {'compiled s':>10} "
          f"{'nodes/s':>10} {'ratio':>6}")
    game = Checkers(8)
    totals = [0, 0.0, 0.0]
    for s in sample_positions(game, count):
        best = [float("inf"), float("inf")]
        found: list[SearchResult] = []
        for _ in range(repeat):
            for i, native in enumerate((False, True)):
                r = fixed_depth(game, s, depth, native)
                best[i] = min(best[i], r.stats.cpu_time)
                found.append(r)
        pure, fast = found[0], found[1]
        same = (pure.value, pure.pv, pure.stats.nodes) == (fast.value, fast.pv, fast.stats.nodes)
        nodes = pure.stats.nodes
        totals[0] += nodes
        totals[1] += best[0]
        totals[2] += best[1]
        print(f"{game.to_fen(s)[:48]:<48} {nodes:>9,} {best[0]:>9.2f} {nodes / best[0]:>9,.0f} "
              f"{best[1]:>10.3f} {nodes / best[1]:>10,.0f} {best[0] / best[1]:>5.1f}x"
              f"{'' if same else '  DIFFERENT RESULTS'}")
    nodes, python, compiled = totals
    print(f"total: {nodes:,} nodes; python {python:.2f} s = {nodes / python:,.0f} nodes/s, "
          f"compiled {compiled:.3f} s = {nodes / compiled:,.0f} nodes/s, "
          f"{python / compiled:.1f}x; {load()}")
    if seconds <= 0:
        return
    print(f"the same positions, {seconds:g} s (wall clock) a search; {load()}")
    print(f"{'position':<48} {'python depth':>12} {'nodes':>9} {'compiled depth':>14} "
          f"{'nodes':>10}")
    for s in sample_positions(game, count):
        pure = fixed_depth(game, s, None, False, seconds)
        fast = fixed_depth(game, s, None, True, seconds)
        print(f"{game.to_fen(s)[:48]:<48} {pure.depth:>12} {pure.stats.nodes:>9,} "
              f"{fast.depth:>14} {fast.stats.nodes:>10,}")
    print(load())


def engine_on(native: bool) -> Any:
    """An Analyser: the engine on one path, with a table of its own (one per agent, kept
    from move to move as the game's memory would be)."""
    memory = Memory()

    def analyse(game: Any, state: Any, limit: Limit, on_info: InfoSink | None = None,
                stop: Stop | None = None) -> SearchResult:
        stop = stop_for(limit, stop)
        kernel = CheckersKernel(game, state, stop, memory=memory, native=native)
        return deepen(kernel, limit, stop, on_info, algorithm="engine")

    return analyse


def versus(pairs: int, seconds: float) -> None:
    rng = random.Random(2025)
    print(f"compiled vs Python engine, {seconds:g} s a move (wall clock), {pairs} pairs; "
          f"{load()}")
    wins = draws = losses = 0
    pair_scores: list[float] = []
    depths: dict[str, list[int]] = {"compiled": [], "python": []}
    for p in range(pairs):
        game = Checkers(8, "english", draw="tournament")
        opening = game.initial_state()
        for _ in range(2):
            opening = game.result(opening, rng.choice(game.actions(opening)))
        pair = 0.0
        for compiled_black in (True, False):
            fast = EngineAgent("compiled", engine_on(True), seconds)
            slow = EngineAgent("python", engine_on(False), seconds)
            agents = [fast, slow] if compiled_black else [slow, fast]
            record = play_match(game, agents, state=opening, rules=Rules(max_moves=MAX_PLIES))
            for move in record.moves:
                if move.result is not None and move.result.depth:
                    depths["compiled" if agents[move.side] is fast else "python"].append(
                        move.result.depth)
            u = record.utility or 0.0  # None: stopped at MAX_PLIES, a draw
            mine = u if compiled_black else -u
            pair += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
            wins, draws, losses = wins + (mine > 0), draws + (mine == 0), losses + (mine < 0)
            outcome = "win" if mine > 0 else "loss" if mine < 0 else "draw"
            print(f"pair {p + 1}: compiled {'black' if compiled_black else 'white'}, "
                  f"{len(record.moves)} plies, compiled {outcome}", flush=True)
        pair_scores.append(pair)
    stats = pentanomial(pair_counts(pair_scores), wins, draws, losses)
    print(f"compiled engine: {stats.summary()}")
    for name, found in depths.items():
        if found:
            print(f"{name}: mean depth {sum(found) / len(found):.1f} over {len(found)} moves")
    print(load())


def match(games: int, seconds: float, depth: int) -> None:
    rng = random.Random(2024)
    score = {"win": 0, "draw": 0, "loss": 0}
    engine_nodes, engine_cpu, engine_depths = 0, 0.0, []
    t_start = time.perf_counter()
    for g in range(games):
        game = Checkers(8, "english", draw="tournament")
        if g % 2 == 0:
            s = game.initial_state()
            for _ in range(2):
                s = game.result(s, rng.choice(game.actions(s)))
            opening = s
        engine = EngineAgent("engine", engine_move, seconds)
        opponent = SearchAgent("alphabeta", depth=depth)
        engine_black = g % 2 == 0
        agents = [engine, opponent] if engine_black else [opponent, engine]
        record = play_match(game, agents, state=opening, rules=Rules(max_moves=MAX_PLIES))
        for move in record.moves:
            if agents[move.side] is engine and move.result is not None:
                engine_nodes += move.result.stats.nodes
                engine_cpu += move.result.stats.cpu_time
                if move.result.depth:
                    engine_depths.append(move.result.depth)
        u = record.utility or 0.0  # None: stopped at MAX_PLIES, counted as a draw
        mine = u if engine_black else -u
        outcome = "win" if mine > 0 else "loss" if mine < 0 else "draw"
        score[outcome] += 1
        why = ""
        if outcome == "draw":
            reason = game.draw_reason(record.final_state)
            why = f"({reason or f'stopped after {MAX_PLIES} plies'})"
        print(f"game {g + 1:>2}: engine {'black' if engine_black else 'white'}, "
              f"{len(record.moves)} plies, engine {outcome} {why}; "
              f"final {game.to_fen(record.final_state)}", flush=True)
    avg_depth = sum(engine_depths) / len(engine_depths) if engine_depths else 0
    print(f"engine ({seconds:g} s/move) vs alpha-beta depth {depth}: "
          f"+{score['win']} ={score['draw']} -{score['loss']} in {games} games")
    print(f"engine: {engine_nodes:,} nodes in {engine_cpu:.1f} CPU s = "
          f"{engine_nodes / engine_cpu if engine_cpu else 0:,.0f} nodes/s, "
          f"mean depth {avg_depth:.1f}; wall time {time.perf_counter() - t_start:.0f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--seconds", type=float, default=2.0)
    n = sub.add_parser("native")
    n.add_argument("--depth", type=int, default=8)
    n.add_argument("--positions", type=int, default=6)
    n.add_argument("--repeat", type=int, default=1)
    n.add_argument("--seconds", type=float, default=0.0)
    v = sub.add_parser("versus")
    v.add_argument("--pairs", type=int, default=5)
    v.add_argument("--seconds", type=float, default=0.5)
    m = sub.add_parser("match")
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--seconds", type=float, default=1.0)
    m.add_argument("--depth", type=int, default=4)
    args = p.parse_args()
    if args.mode == "speed":
        speed(args.seconds)
    elif args.mode == "versus":
        versus(args.pairs, args.seconds)
    elif args.mode == "native":
        native_speed(args.depth, args.positions, args.repeat, args.seconds)
    else:
        match(args.games, args.seconds, args.depth)


if __name__ == "__main__":
    main()
