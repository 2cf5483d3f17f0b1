"""What the opening book costs at start: in a fresh process each time, the import of the
solver, then the first Solver (which reads and parses book_7x6.txt) and its first
answer (the empty board's score and every move's, from the book), against a first
Solver without the book.

    python bench/connect4_book_load.py [--runs 7]

Medians of --runs fresh processes, milliseconds of wall time (so the machine's load
shows: it is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, os, sys, time
os.environ["ZEROSUM_CACHE"] = "off"
t0 = time.perf_counter()
from zerosum.games.connect4.solver import Solver
t1 = time.perf_counter()
solver = Solver(book=sys.argv[1] == "book")
t2 = time.perf_counter()
analysis = solver.analyse(0, 0, pv=False, all_scores=sys.argv[1] == "book")
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "solver": t2 - t1, "answer": t3 - t2,
                  "nodes": analysis.nodes, "entries": len(solver.book or ())}))
"""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    for mode in ("book", "none"):
        if mode == "none":  # without the book the empty board takes minutes: not asked
            child = CHILD.replace("analysis = solver.analyse(0, 0, pv=False, all_scores="
                                  "sys.argv[1] == \"book\")", "analysis = None")
            child = child.replace('"nodes": analysis.nodes', '"nodes": 0')
        else:
            child = CHILD
        runs = [json.loads(subprocess.run([sys.executable, "-c", child, mode], check=True,
                                          capture_output=True, text=True).stdout)
                for _ in range(args.runs)]
        ms = {k: statistics.median(r[k] for r in runs) * 1000
              for k in ("import", "solver", "answer")}
        print(f"  {'with the book' if mode == 'book' else 'without it':>13}: import "
              f"{ms['import']:.1f} ms, first Solver {ms['solver']:.2f} ms"
              + (f" ({runs[0]['entries']} entries), the empty board's score and every "
                 f"move's {ms['answer']:.2f} ms, {runs[0]['nodes']} nodes"
                 if mode == "book" else ""), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
