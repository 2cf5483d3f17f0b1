"""Label every move of Pascal Pons's Connect Four test positions with its exact value,
once, with our own solver, for `zerosum grade connect4` (src/zerosum/learn/grade.py).

    nice -n 19 python tools/connect4_labels.py [--positions N] [--sets L3_R1,L2_R1,...]

For each set (tests/data/connect4/Test_*, easiest first) and each of its first N
positions: every legal column's value for the side playing it (win, draw or loss) and
whether it keeps the position's exact score (Pons's file gives the score). A move keeps
the score when one null-window search says so (`Solver.achieves`); a move that does
not is then solved weakly (its sign only), far cheaper than its exact score. Each
position's line is appended to `<set>.partial` beside the labels as soon as it is done,
so a killed run resumes where it was; when a set's N positions are done its labels are
written whole (fileio.write_atomic) as src/zerosum/learn/labels/connect4_<set>.txt, with
the source file's SHA-256 and the SHA-256 of the label lines in its header (grade.py
checks the latter on every load).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

from zerosum.fileio import write_atomic
from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.connect4.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "tests" / "data" / "connect4"
LABELS = ROOT / "src" / "zerosum" / "learn" / "labels"
ORDER = ("L3_R1", "L2_R1", "L1_R1", "L2_R2", "L1_R2", "L1_R3")  # cheapest first


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def label(solver: Solver, moves: str, score: int) -> str:
    """One character per column: W, D or L for the mover, upper case when the move
    keeps `score`, lower case when not; '-' for a full column."""
    geo = solver.geo
    position = position_from_stones(parse_moves(moves, geo))
    current, mask = position.current, position.mask
    out = []
    for column in range(geo.width):
        if not geo.playable(mask, column):
            out.append("-")
            continue
        if solver.achieves(current, mask, column, score):
            value, keeps = sign(score), True
        else:
            move = geo.move_bit(mask, column)
            # Not an immediate win: that would have kept the score (none is higher).
            value = -solver.solve(current ^ mask, mask | move, weak=True)
            keeps = False
        letter = "LDW"[value + 1]
        out.append(letter if keeps else letter.lower())
    return "".join(out)


def build(name: str, positions: int, solver: Solver, finish: bool = False) -> None:
    source = SOURCES / f"Test_{name}"
    data = source.read_bytes()
    rows = [line.split() for line in data.decode().splitlines() if line.strip()]
    partial = LABELS / f"connect4_{name}.partial"
    done = partial.read_text().splitlines() if partial.is_file() else []
    cpu = 0.0
    lines = []
    for line in done:
        if line.startswith("cpu "):
            cpu += float(line.split()[1])
        else:
            lines.append(line)
    if finish:
        if not lines:
            return
        positions = len(lines)
    rows = rows[:positions]
    with partial.open("a") as out:
        for moves, score in rows[len(lines):]:
            t0 = time.process_time()
            labels = label(solver, moves, int(score))
            spent = time.process_time() - t0
            cpu += spent
            line = f"{moves} {score} {labels}"
            lines.append(line)
            out.write(f"{line}\ncpu {spent:.4f}\n")
            out.flush()
            print(f"{name} {len(lines)}/{len(rows)} {line} {spent:.3f} s", flush=True)
    body = "".join(f"{line}\n" for line in lines)
    header = (
        f"# Connect Four 7x6: every legal move of the first {len(lines)} positions of "
        f"Pascal Pons's Test_{name}\n"
        f"# source: tests/data/connect4/Test_{name} (blog.gamesolver.org), sha256 "
        f"{hashlib.sha256(data).hexdigest()}\n"
        "# labelled by zerosum's solver, tools/connect4_labels.py; "
        f"{cpu:.1f} s of CPU\n"
        "# a line: MOVES SCORE LABELS, one label a column 1-7: W/D/L the move's value for "
        "its player, upper case when it keeps the exact score, '-' a full column\n"
        f"# labels sha256 {hashlib.sha256(body.encode()).hexdigest()}\n")
    write_atomic(LABELS / f"connect4_{name}.txt", header + body)
    partial.unlink()
    print(f"{name}: {len(lines)} positions labelled, {cpu:.1f} s of CPU", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--sets", default=",".join(ORDER))
    p.add_argument("--finish", action="store_true",
                   help="write each set's labels from what its .partial holds, solving "
                   "nothing more (a set then has fewer positions; its header says how many)")
    args = p.parse_args()
    solver = Solver(7, 6, capacity=4_000_000)
    assert solver.geo == geometry(7, 6)
    for name in args.sets.split(","):
        build(name, args.positions, solver, args.finish)


if __name__ == "__main__":
    main()
