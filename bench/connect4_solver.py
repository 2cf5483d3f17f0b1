"""Speed of the perfect Connect Four solver on Pascal Pons's benchmark sets.

    python bench/connect4_solver.py [--sets L3_R1,L2_R1,L1_R1,L2_R2] [--step N] [--first K]
                                    [--repeat R]

For each set: every position (or every N-th with --step, or the first K) is solved from a
cleared table,
checked against its published score, and timed in CPU time (time.process_time, so other
processes on a shared machine disturb it less than wall time; they still do, through
caches and clock speed: nodes/position and nodes/s are the figures to compare). Prints
mean CPU time per position, the ratio to Pons's C++ solver (figures from
tests/data/README.md), the issue's target, nodes per position (Pons's mean in
brackets), the total nodes (exact: the figure to compare between two versions of
the search, whatever the load) and nodes per second.

Where installed, OpenSpiel (pyspiel, alpha-beta on connect_four) and easyAI (Negamax) are
timed on the first few positions of each set too; neither is a dependency of zerosum.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
# set: (C++ mean CPU seconds per position, Pons's mean nodes, the target seconds)
PUBLISHED = {
    "L3_R1": (12e-6, 51, 0.3e-3),
    "L2_R1": (68e-6, 450, 2e-3),
    "L1_R1": (0.25e-3, 3298, 10e-3),
    "L2_R2": (6.1e-3, 39907, 100e-3),
    "L1_R2": (155e-3, 1200785, None),
    "L1_R3": (9.0, 66_000_000, None),  # his time on the first 100; nodes "about 66M"
}


def load(name: str, step: int, first: int | None = None) -> list[tuple[str, int]]:
    rows = []
    for line in (DATA / f"Test_{name}").read_text().splitlines()[:first][::step]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


def solve_each(solver: Solver, positions: list[tuple[str, int]],
               clock: Callable[[], float] = time.process_time
               ) -> tuple[float, int, int, int]:
    """Each position solved from a cleared table: the seconds it took by `clock`, the
    nodes, the part of them the solver's helper threads visited (split nodes), and how
    many scores differ from the published ones."""
    seconds = 0.0
    nodes = helpers = wrong = 0
    for moves, score in positions:
        p = position_from_stones(parse_moves(moves))
        solver.reset()
        t0 = clock()
        got = solver.solve(p.current, p.mask)
        seconds += clock() - t0
        nodes += solver.nodes
        helpers += solver._kernel.helper_nodes if solver.native else 0
        wrong += got != score
    return seconds, nodes, helpers, wrong


def run_set(name: str, step: int, repeat: int, first: int | None = None) -> None:
    positions = load(name, step, first)
    solver = Solver()
    best_cpu = float("inf")
    nodes = wrong = 0
    for _ in range(repeat):
        cpu, nodes, _, wrong = solve_each(solver, positions)
        best_cpu = min(best_cpu, cpu)
    n = len(positions)
    mean = best_cpu / n
    cpp, pons_nodes, target = PUBLISHED[name]
    verdict = "" if target is None else \
        f"target {target * 1e3:g} ms: {'met' if mean <= target else 'NOT met'}"
    print(f"{name}: {n} positions, {wrong} wrong; {mean * 1e3:8.3f} ms/position CPU "
          f"({mean / cpp:5.0f}x C++ {cpp * 1e3:g} ms); {verdict}; "
          f"{nodes / n:9.0f} nodes/position (Pons {pons_nodes}), {nodes:,} in all; "
          f"{nodes / best_cpu:7.0f} nodes/s", flush=True)


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def cpu_per_position(solve: Callable[[str], float], positions: list[tuple[str, int]]
                     ) -> tuple[float, int]:
    """Mean CPU seconds per position, and how many answers had the wrong sign."""
    wrong = 0
    t0 = time.process_time()
    for moves, score in positions:
        wrong += sign(solve(moves)) != sign(score)
    return (time.process_time() - t0) / len(positions), wrong


_SOLVER = Solver()


def ours(moves: str) -> float:
    p = position_from_stones(parse_moves(moves))
    _SOLVER.reset()  # each position from a cleared table, as in run_set
    return _SOLVER.solve(p.current, p.mask)


def openspiel_solver() -> Callable[[str], float] | None:
    """OpenSpiel's connect_four with its (Python) alpha-beta to the end of the game."""
    try:
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.algorithms import minimax  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")

    def solve(moves: str) -> float:
        state = game.new_initial_state()
        for c in moves:
            state.apply_action(int(c) - 1)
        value, _ = minimax.alpha_beta_search(game, state, maximum_depth=42)
        return float(value)

    return solve


def easyai_solver() -> Callable[[str], float] | None:
    """easyAI's Negamax on its ConnectFour example game, searching to the end."""
    try:
        from easyAI import AI_Player, Negamax  # type: ignore[import-not-found]
        from easyAI.games import ConnectFour  # type: ignore[import-not-found]
    except ImportError:
        return None

    def solve(moves: str) -> float:
        ai = Negamax(42 - len(moves))
        game = ConnectFour([AI_Player(ai), AI_Player(ai)])
        for c in moves:
            game.play_move(int(c) - 1)
        ai(game)
        return float(ai.alpha)

    return solve


def compare_others(names: list[str], count: int) -> None:
    """Time OpenSpiel and easyAI, where installed, on the first `count` positions of each
    set, beside our solver on the same positions (the others only say win/draw/loss)."""
    others = {"OpenSpiel alpha-beta": openspiel_solver(), "easyAI Negamax": easyai_solver()}
    for label, solve in others.items():
        if solve is None:
            print(f"{label}: not installed, not compared")
    for name in names:
        positions = load(name, 1)[:count]
        mine, _ = cpu_per_position(ours, positions)
        for label, solve in others.items():
            if solve is None:
                continue
            theirs, wrong = cpu_per_position(solve, positions)
            print(f"{name}, first {len(positions)}: {label} {theirs * 1e3:9.2f} ms/position "
                  f"({wrong} wrong signs); ours {mine * 1e3:7.3f} ms: "
                  f"{theirs / mine:6.0f}x faster", flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="L3_R1,L2_R1,L1_R1,L2_R2")
    p.add_argument("--step", type=int, default=1, help="solve every N-th position only")
    p.add_argument("--first", type=int, default=None,
                   help="only the first K positions of each set (L1_R3: minutes each)")
    p.add_argument("--repeat", type=int, default=1, help="take the best of R runs")
    p.add_argument("--compare", default="L3_R1",
                   help="sets on which to time OpenSpiel and easyAI, where installed")
    p.add_argument("--compare-count", type=int, default=10,
                   help="how many positions of each set they solve (they are slow)")
    args = p.parse_args()
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    for name in names:
        if name not in PUBLISHED:
            print(f"unknown set {name}; choose from {', '.join(PUBLISHED)}", file=sys.stderr)
            return 2
    print(f"{'native' if _SOLVER.native else 'pure-Python'} solver, CPU time per position "
          "(machine shared with other jobs)")
    for name in names:
        run_set(name, args.step, args.repeat, args.first)
    compare_others([n for n in names if n in args.compare], args.compare_count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
