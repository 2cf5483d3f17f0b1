#!/usr/bin/env python3
"""A whole made-up class end to end: tools/make_class.py writes SIZE submissions (right,
faulty and hostile, in Python, C and Java), `zerosum class mark comp3608` marks them and
`zerosum class tournament connect4` plays them; the wall time of each is printed.

    python3 bench/class_run.py DIR [--size 30] [--cases 10] [--workers 2] [--games 2]
                               [--move-time S]

DIR (new) gets sub/ (the class), out/ (the marks: gradebook.csv, reports/, summary.html)
and tournament.sqlite (the games; `zerosum serve --tournament DIR/tournament.sqlite`
shows them). Timings depend on the machine and its load: they are for reading, not for
comparing across machines.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(what: str, command: list[str], log: Path) -> float:
    start = time.perf_counter()
    with log.open("w") as f:
        done = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    print(f"{what}: {seconds:.1f} s (exit status {done.returncode}; output in {log})",
          flush=True)
    return seconds


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--size", type=int, default=30)
    p.add_argument("--cases", type=int, default=10)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--move-time", type=float, default=None)
    args = p.parse_args(argv)
    top = Path(args.dir)
    top.mkdir(parents=True)
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_class.py"), str(top / "sub"),
                    "--size", str(args.size)], check=True, stdout=subprocess.DEVNULL)
    zerosum = [sys.executable, "-m", "zerosum"]
    rule = [] if args.move_time is None else ["--move-time", str(args.move_time)]
    timed(f"class mark, {args.size} students, {args.cases} cases each",
          [*zerosum, "class", "mark", "comp3608", str(top / "sub"), "--cases",
           str(args.cases), "--workers", str(args.workers), "--out", str(top / "out"), *rule],
          top / "mark.log")
    timed(f"class tournament, {args.games} games a pairing",
          [*zerosum, "class", "tournament", "connect4", str(top / "sub"), "--games",
           str(args.games), "--workers", str(args.workers), "--db",
           str(top / "tournament.sqlite"), *rule], top / "tournament.log")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
