"""Build the Connect Four opening book with our own solver (see
src/zerosum/games/connect4/book.py for what it holds and how it is used).

    python tools/connect4_book.py [--depth D] [--width 7 --height 6] [--capacity N] [--out F]

Every position of ply D (mirror images once) is solved exactly from a cleared table by
the solver (native where built), each printed with its score, nodes and CPU time as it
is done and saved to book_WxH.txt.partial, so a stopped run resumes where it was; then
the shallower plies are backed up from them and the book is written beside book.py as
book_WxH.txt, its header stating its depth, its size and the CPU time the leaves took
(summed over runs). Rerun it with a larger --depth to extend the book: the leaves of a
deeper book are new positions, so it starts over (the cost grows quickly with the depth).
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone
from pathlib import Path

from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.book import book_path, build, canonical, positions
from zerosum.games.connect4.solver import Solver


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--width", type=int, default=7)
    p.add_argument("--height", type=int, default=6)
    p.add_argument("--capacity", type=int, default=30_000_000, help="solver table entries")
    p.add_argument("--out", type=Path, help="the book file (default: beside book.py)")
    p.add_argument("--from-end", action="store_true",
                   help="solve the last positions first: a second process of the same "
                   "command with this flag shares the work (each reads the work file "
                   "before each position)")
    args = p.parse_args()
    geo = geometry(args.width, args.height)
    if not 0 <= args.depth < geo.cells:
        raise SystemExit(f"--depth must be 0 to {geo.cells - 1}")
    out = args.out or book_path(geo)
    partial = out.with_name(out.name + ".partial")
    known: dict[int, int] = {}
    cpu_before = 0.0
    if partial.is_file():  # "depth D", "cpu S", then "key score" lines
        lines = partial.read_text().splitlines()
        if lines and lines[0] == f"depth {args.depth}":
            for line in lines[1:]:
                first, second = line.split()
                if first == "cpu":
                    cpu_before += float(second)
                else:
                    known[int(first, 16)] = int(second)
        else:
            partial.write_text(f"depth {args.depth}\n")
    else:
        partial.write_text(f"depth {args.depth}\n")
    leaves = positions(geo, args.depth)
    print(f"{len(leaves)} positions of ply {args.depth} (mirror images once), "
          f"{len(known)} solved before", flush=True)
    solver = Solver(geo.width, geo.height, capacity=args.capacity, book=False)
    print(f"solver: {'native' if solver.native else 'pure Python'}", flush=True)
    cpu_total = cpu_before

    def solve(current: int, mask: int) -> int:
        nonlocal cpu_total
        done = solved_by_others()
        key = canonical(geo, current, mask)
        if key in done:  # another process of the same run solved it meanwhile
            return done[key]
        solver.reset()
        c0 = time.process_time()
        score = solver.solve(current, mask)
        cpu = time.process_time() - c0
        cpu_total += cpu
        print(f"  {current + mask:x}: {score:+d}, {solver.nodes:,} nodes, {cpu:.1f} s CPU",
              flush=True)
        return score

    def solved_by_others() -> dict[int, int]:
        if not partial.is_file():  # a process sharing the work finished the book
            return {}
        lines = partial.read_text().splitlines()[1:]
        return {int(k, 16): int(v) for k, v in (line.split() for line in lines)
                if k != "cpu"}

    def save(key: int, score: int) -> None:
        if key in solved_by_others() or not partial.is_file():
            return
        with partial.open("a") as f:
            f.write(f"{key:x} {score}\n")

    cpu_run0 = cpu_total
    book = build(geo, args.depth, solve, known, save, reverse=args.from_end)
    if partial.is_file():
        with partial.open("a") as f:
            f.write(f"cpu {cpu_total - cpu_run0:.1f}\n")
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    out.write_text(book.text([
        f"Connect Four {geo.width}x{geo.height} opening book: the exact score (the "
        "solver's, from the mover's side) of every position",
        f"with at most {args.depth} stones, mirror images once: {len(book)} positions.",
        f"Made by tools/connect4_book.py --depth {args.depth} on {when}: the "
        f"{len(leaves)} positions of ply {args.depth}",
        f"solved in {cpu_total:.0f} s CPU ({'native' if solver.native else 'pure'} "
        "solver), the shallower plies backed up from them.",
    ]))
    partial.unlink(missing_ok=True)  # a process sharing the work may have gone first
    print(f"{out}: {len(book)} positions, {out.stat().st_size:,} bytes; leaves solved in "
          f"{cpu_total:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
