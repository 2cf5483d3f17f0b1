"""`zerosum class mark` and `zerosum class tournament`: a whole class's submissions built,
marked and played (zerosum.classes; docs/class.md). This module only reads the
arguments and shows progress and results."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from zerosum.convert import int_arg, positive_float, seed_arg
from zerosum.game import InputError

MAX_GAMES = 10_000


def register(sub: Any) -> None:
    p = sub.add_parser(
        "class", help="build, mark and play a whole class's submissions",
        description="A folder of submissions, one folder a student: each built and run in "
        "the sandbox, marked on the same cases as every other (mark), or entered in a "
        "tournament as its course's player (tournament). See docs/class.md.")
    which = p.add_subparsers(title="commands", metavar="COMMAND", dest="class_command")
    m = which.add_parser(
        "mark", help="mark every submission; a gradebook, reports and an HTML summary",
        description="Build every submission (Makefile, build.sh, javac, gcc, or nothing for "
        "Python; a folder's run.txt gives its command) and mark it as `zerosum assignment "
        "check` does, on the same cases for everyone. Writes OUT/gradebook.csv, "
        "OUT/reports/STUDENT.txt and OUT/summary.html; run it again after an interruption "
        "to go on where it stopped.")
    m.add_argument("name", metavar="NAME", help="the assignment: cmpt317, comp3608, cs540, "
                   "uta-logic or uta-maxconnect4")
    m.add_argument("submissions", metavar="SUBMISSIONS_DIR",
                   help="a folder holding one folder a student")
    m.add_argument("--cases", type=int_arg(1, 10_000), default=25,
                   help="cases a student (default: %(default)s)")
    m.add_argument("--seed", type=seed_arg, default=1,
                   help="the cases' seed, the same cases for everyone (default: 1)")
    m.add_argument("--timeout", type=positive_float, default=10.0, metavar="SECONDS",
                   help="wall time per case (default: %(default)s)")
    m.add_argument("--move-time", type=positive_float, default=None, metavar="SECONDS",
                   help="the time rule of a tournament call (COMP3608: the course's 1 s)")
    m.add_argument("--build-timeout", type=positive_float, default=120.0, metavar="SECONDS",
                   help="wall time of a build (default: %(default)s)")
    m.add_argument("--workers", type=int_arg(1, 64, "workers"), default=1,
                   help="students marked at once (default: %(default)s)")
    m.add_argument("--out", default="marks", metavar="DIR",
                   help="the folder of the outputs (default: %(default)s)")
    m.set_defaults(func=run_mark)
    t = which.add_parser(
        "tournament", help="every submission that builds plays every other",
        description="Build every submission and enter each that builds in a round-robin "
        "tournament as its course's player (connect4: course:comp3608, maxconnect4: "
        "course:maxconnect4), beside zerosum's reference players. Games are committed to "
        "the database as they end: run it again to resume; `zerosum serve --tournament DB` "
        "shows it live.")
    t.add_argument("game", metavar="GAME", help="connect4 (COMP3608) or maxconnect4 (UTA)")
    t.add_argument("submissions", metavar="SUBMISSIONS_DIR",
                   help="a folder holding one folder a student")
    t.add_argument("--games", type=int_arg(2, MAX_GAMES, "games"), default=2,
                   help="games per pairing, an even number (default: %(default)s)")
    t.add_argument("--db", default="class-tournament.sqlite",
                   help="the database of results (default: %(default)s); the builds are "
                   "kept beside it, in DB.builds/")
    t.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help="a reference player as a benchmark, e.g. alphabeta:depth=4 "
                   "(repeat it; default: random and alphabeta:depth=4)")
    t.add_argument("--format", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="round-robin: every two players meet; gauntlet: the first reference "
                   "player against each other, for a large class (default: %(default)s)")
    t.add_argument("--move-time", type=positive_float, default=None, metavar="SECONDS",
                   help="a student's time a move (default: the course's, COMP3608's 1 s)")
    t.add_argument("--seed", type=seed_arg, default=1,
                   help="seed of the openings and the agents (default: %(default)s)")
    t.add_argument("--workers", type=int_arg(1, 256, "workers"),
                   help="games played at once (default: the number of cores)")
    t.set_defaults(func=run_tournament)
    p.set_defaults(func=lambda args: missing_command(p))


def missing_command(p: argparse.ArgumentParser) -> int:
    raise InputError("name a command: zerosum class mark NAME DIR, or zerosum class "
                     "tournament GAME DIR")


def say_progress(line: str) -> None:
    """A progress line on stderr: rewritten in place on a terminal, one a line elsewhere."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{line}\033[K")
    else:
        sys.stderr.write(line + "\n")
    sys.stderr.flush()


def run_mark(args: argparse.Namespace) -> int:
    from zerosum.classes.mark import Plan, Record, mark_class, marking_of

    marking = marking_of(args.name)
    plan = Plan(marking.name, args.cases, args.seed, args.timeout, args.build_timeout,
                args.move_time)
    out = Path(args.out)

    def progress(done: int, total: int, record: Record) -> None:
        say_progress(f"marked {done}/{total}: {record.key} {record.total:.1f}"
                     + ("" if record.status == "marked" else f" ({record.status})"))

    try:
        records = mark_class(plan, Path(args.submissions), out, args.workers, progress)
    except KeyboardInterrupt:
        sys.stderr.write(f"\nStopped: the students marked are kept in {out}; run the same "
                         "command again to mark the rest.\n")
        return 130
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    marked = sum(r.status == "marked" for r in records)
    print(f"{len(records)} submissions, {marked} marked, {len(records) - marked} not: "
          f"{out / 'gradebook.csv'}, {out / 'summary.html'}, {out / 'reports'}/")
    return 0


def run_tournament(args: argparse.Namespace) -> int:
    from zerosum.classes.play import class_tournament

    if args.games % 2:
        raise InputError(f"games come in colour-swapped pairs: give an even --games, not "
                         f"{args.games}")

    def built(line: str) -> None:
        say_progress(line)

    def game(line: str) -> None:
        print(line, flush=True)

    try:
        text = class_tournament(args.game, Path(args.submissions), args.games, args.db,
                                tuple(args.engine), args.seed, args.workers, built, game,
                                args.move_time, args.format)
    except KeyboardInterrupt:
        sys.stderr.write(f"\nStopped: the games played are in {args.db}; run the same "
                         "command again to play the rest.\n")
        return 130
    print(text.rstrip("\n"))
    return 0
