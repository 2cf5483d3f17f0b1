"""Wall time of ConnectFour.py's tournament mode, start-up included (the limit is 1 s).

    python bench/connect4_tournament_time.py [--positions 20]

Runs the launcher with a plain `python3` on positions from the benchmark sets (every
stage of the game) plus the empty board, and prints each wall time, the mean, the worst,
and the load average: on a shared machine the interpreter's own start-up can take most of
the second, which no program can do anything about.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from zerosum.games.connect4.notation import format_course, parse_moves

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ROOT / "assignments" / "comp3608-connect4" / "ConnectFour.py"
DATA = ROOT / "tests" / "data" / "connect4"


def positions(count: int) -> list[tuple[str, str]]:
    out = [("", "red")]
    for name in ("Test_L1_R3", "Test_L1_R2", "Test_L2_R2", "Test_L3_R1"):
        for line in (DATA / name).read_text().splitlines()[: max(1, count // 4)]:
            moves = line.split()[0]
            out.append((moves, "red" if len(moves) % 2 == 0 else "yellow"))
    return out[:count]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=20)
    args = p.parse_args()
    walls = []
    for moves, player in positions(args.positions):
        state = format_course(parse_moves(moves))
        t0 = time.perf_counter()
        done = subprocess.run(["python3", str(LAUNCHER), state, player],
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        walls.append(wall)
        print(f"{moves or '(empty)':42s} {player:6s} -> {done.stdout.strip():2s} {wall:.3f} s"
              + (f"  ERROR {done.stderr.strip()}" if done.returncode else ""), flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    over = sum(w > 1.0 for w in walls)
    print(f"\n{len(walls)} runs: mean {sum(walls) / len(walls):.3f} s, worst {max(walls):.3f} s, "
          f"{over} over 1 s; load average {load:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
