"""Build the Connect Four opening book with our own solver (see
src/zerosum/games/connect4/book.py for what it holds and how it is used).

    python tools/connect4_book.py [--depth D] [--workers N] [--width 7 --height 6]
                                  [--capacity N] [--out F]
    python tools/connect4_book.py --depth D --backend ray --address HOST:PORT

Every position of ply D (mirror images once) is solved exactly from a fresh table by
the solver (native where built), N at once in worker processes (default: the cores), or
as tasks on a Ray cluster (`--backend ray`, joined as tournaments join one:
zerosum.tournament.raycluster; every node needs the same Python and zerosum). Each is
printed with its score, nodes and CPU time as it is done and appended, by this process
alone, to book_WxH.txt.partial: a stopped run (Ctrl-C, kill -9, a lost node) loses only
the positions in progress, and the same command resumes. Then the shallower plies are
backed up from them (a position's score is the best of its moves': each move's score is
minus its child's, all in the book) and the book is written beside book.py as
book_WxH.txt, its header stating its depth, its size and the CPU time the leaves took
(summed over runs). A deeper book's leaves are new positions: it starts over.

The book shipped (docs/connect4.md, "The opening book"): depth 7, complete (all 27,109
leaves), 38,203 positions, 482,065 bytes, the leaves solved in 11,725 s of CPU by two
workers, in four runs each resuming the last.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.book import back_up, book_path, parse, positions
from zerosum.games.connect4.parallel import default_threads
from zerosum.games.connect4.solver import Solver

Leaf = tuple[int, int, int]  # canonical key, current, mask
Solved = tuple[int, int, int, float]  # key, score, nodes, CPU seconds


_KEPT: dict[tuple[int, int, int], Solver] = {}


def solve_leaf(width: int, height: int, capacity: int, leaf: Leaf,
               keep: bool = True) -> Solved:
    """A worker's task: one position's exact score, from the solver this worker process
    kept from its last leaf (`keep`: its table holds only proven bounds, true in any
    later search, and sibling leaves share most of their subtrees) or a fresh one."""
    key, current, mask = leaf
    if not keep:
        _KEPT.clear()
    solver = _KEPT.setdefault((width, height, capacity),
                              Solver(width, height, capacity=capacity, book=False)) \
        if keep else Solver(width, height, capacity=capacity, book=False)
    c0, nodes0 = time.process_time(), solver.nodes
    score = solver.solve(current, mask)
    return key, score, solver.nodes - nodes0, time.process_time() - c0


def local(args: argparse.Namespace, leaves: list[Leaf]) -> Iterator[Solved]:
    with ProcessPoolExecutor(args.workers) as pool:
        running: set[Future[Solved]] = {
            pool.submit(solve_leaf, args.width, args.height, args.capacity, leaf,
                        not args.fresh)
            for leaf in leaves}
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


def on_ray(args: argparse.Namespace, leaves: list[Leaf]) -> Iterator[Solved]:
    from zerosum.tournament.raycluster import RayBackend, import_ray

    ray = import_ray()
    backend = RayBackend(args.address)
    connected = backend.connect(ray)
    task: Any = ray.remote(max_retries=2)(solve_leaf)
    try:
        running = [task.remote(args.width, args.height, args.capacity, leaf, not args.fresh)
                   for leaf in leaves]
        while running:
            [ref], running = ray.wait(running, num_returns=1)
            yield ray.get(ref)
    finally:
        if connected:
            ray.shutdown()


def read_partial(partial: Path, depth: int) -> tuple[dict[int, int], float]:
    """The leaves solved by earlier runs, and their CPU seconds. Lines: "depth D", then
    "key score cpu" (a line cut by a kill -9 is ignored)."""
    known: dict[int, int] = {}
    cpu = 0.0
    lines = partial.read_text().splitlines() if partial.is_file() else []
    if not lines or lines[0] != f"depth {depth}":
        partial.write_text(f"depth {depth}\n")
        return known, cpu
    for line in lines[1:]:
        fields = line.split()
        if len(fields) == 3:
            try:
                known[int(fields[0], 16)], cpu = int(fields[1]), cpu + float(fields[2])
            except ValueError:
                continue
    if not partial.read_bytes().endswith(b"\n"):  # cut mid-line: end it
        with partial.open("a") as f:
            f.write("\n")
    return known, cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--width", type=int, default=7)
    p.add_argument("--height", type=int, default=6)
    p.add_argument("--capacity", type=int, default=30_000_000,
                   help="solver table entries (16 bytes each natively: 458 MiB a worker "
                   "by default)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: the cores); on Ray, every CPU of "
                   "the cluster works")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--address", help="with --backend ray: the head node's HOST:PORT")
    p.add_argument("--out", type=Path, help="the book file (default: beside book.py)")
    p.add_argument("--fresh", action="store_true",
                   help="a fresh table for each leaf (reproducible node counts; slower: "
                   "by default a worker keeps its table from leaf to leaf)")
    p.add_argument("--now", action="store_true",
                   help="solve nothing more: write the book from the leaves solved so far "
                   "(the positions whose moves are all known; the rest are searched in play)")
    args = p.parse_args()
    geo = geometry(args.width, args.height)
    if not 0 <= args.depth < geo.cells:
        raise SystemExit(f"--depth must be 0 to {geo.cells - 1}")
    if args.backend == "local" and args.workers is None:
        args.workers = default_threads()
    out = args.out or book_path(geo)
    partial = out.with_name(out.name + ".partial")
    known, cpu_total = read_partial(partial, args.depth)
    every = positions(geo, args.depth)
    todo = [] if args.now else \
        [(key, c, m) for key, (c, m) in every.items() if key not in known]
    print(f"{len(every)} positions of ply {args.depth} (mirror images once), "
          f"{len(known)} solved before; {args.backend}, "
          f"{args.workers or 'every CPU of the cluster'} at once", flush=True)
    native = Solver(geo.width, geo.height, capacity=1, book=False).native
    t0 = time.perf_counter()
    solved = local(args, todo) if args.backend == "local" else on_ray(args, todo)
    with partial.open("a") as f:
        for key, score, nodes, cpu in solved:
            f.write(f"{key:x} {score} {cpu:.2f}\n")
            f.flush()  # each leaf on disk as it comes: a kill loses only those running
            known[key] = score
            cpu_total += cpu
            print(f"  {key:x}: {score:+d}, {nodes:,} nodes, {cpu:.1f} s CPU "
                  f"({len(known)}/{len(every)})", flush=True)
    wall = time.perf_counter() - t0
    book = back_up(geo, args.depth, known)
    complete = len(known) == len(every)
    if not complete and out.is_file():
        # The book this one replaces knows shallower positions that an incomplete set
        # of leaves cannot back up: keep them (a shallower book's entries are exact).
        for key, score in parse(geo, out.read_text()).scores.items():
            book.scores.setdefault(key, score)
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    out.write_text(book.text([
        f"Connect Four {geo.width}x{geo.height} opening book: the exact score (the "
        "solver's, from the mover's side) of every position",
        f"with at most {args.depth} stones, mirror images once: {len(book)} positions."
        if complete else
        f"with at most {args.depth} stones that the leaves solved so far back up, and "
        f"those of the book it replaced, mirror images once: {len(book)} positions "
        "(any other is searched).",
        f"Made by tools/connect4_book.py --depth {args.depth} on {when}: "
        + (f"the {len(every)} positions" if complete else
           f"{len(known)} of the {len(every)} positions") + f" of ply {args.depth}",
        f"solved in {cpu_total:.0f} s CPU ({'native' if native else 'pure'} solver"
        + ("" if args.now else f"; the last run {wall:.0f} s wall")
        + "), the shallower plies backed up from them.",
    ]))
    if complete:
        partial.unlink()
    print(f"{out}: {len(book)} positions, {out.stat().st_size:,} bytes; leaves solved in "
          f"{cpu_total:.1f} s CPU, this run {wall:.1f} s wall", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("ZEROSUM_CACHE", "off")  # the book is made by search alone
    main()
