"""`zerosum hillclimb tsp MATRIX_FILE`: greedy hill climbing on a travelling-salesman tour."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from zerosum.convert import nonneg_int
from zerosum.fileio import read_text
from zerosum.localsearch import TSP, Climb, DistanceMatrix, Tour, hill_climb
from zerosum.localsearch.tsp import EXHAUSTIVE_LIMIT, FILE_LIMIT


def register(sub: Any) -> None:
    p = sub.add_parser(
        "hillclimb",
        help="greedy hill climbing, step by step (the travelling salesman)",
        description="Greedy (steepest-descent) hill climbing, showing every state it passes "
        "through and why it stops.",
    )
    problems = p.add_subparsers(title="problems", metavar="PROBLEM", dest="problem")
    t = problems.add_parser(
        "tsp",
        help="a tour over a symmetric distance matrix; neighbours swap two locations",
        description="Tours start and end at --start; a tour and its reverse are one state. "
        "Neighbours swap two of the other locations; the climb moves to the cheapest "
        "neighbour (ties: the alphabetically first tour) while that lowers the cost. "
        "MATRIX_FILE: the labels on the first line, then one row of distances per label "
        "(each row may begin with its label); spaces, tabs or commas; '#' comments.",
    )
    t.add_argument("matrix", metavar="MATRIX_FILE", help="the distance table")
    t.add_argument("--start", help="the fixed first and last location (default: the first label)")
    t.add_argument("--initial", metavar="TOUR",
                   help="the starting tour, e.g. M-E-C-S-W-M (default: the labels in file order)")
    t.add_argument("--neighbours", action="store_true",
                   help="also list every neighbour of each state with its cost")
    t.add_argument("--max-steps", type=nonneg_int, default=None,
                   help="stop after this many moves (default: when no neighbour is cheaper)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.problem != "tsp":
        print("zerosum hillclimb: choose a problem: tsp (see zerosum hillclimb --help)",
              file=sys.stderr)
        return 2
    matrix = DistanceMatrix.parse(read_text(args.matrix, "matrix file", FILE_LIMIT),
                                  f"matrix file {args.matrix}")
    tsp = TSP(matrix, args.start)
    initial = tsp.parse_tour(args.initial) if args.initial else tsp.canonical_order()
    climb = hill_climb(tsp, initial, args.max_steps)
    sys.stdout.write(report(tsp, climb, args.initial, args.neighbours))
    return 0


def report(tsp: TSP, climb: Climb[Tour], given: str | None, neighbours: bool) -> str:
    fmt, cost = tsp.format, tsp.matrix.format
    n, k = len(tsp.matrix.labels), tsp.k
    lines = [f"Locations: {' '.join(tsp.matrix.labels)} (n = {n}); "
             f"every tour starts and ends at {tsp.start}"]
    lines.append(f"Distinct states for n = {n}: {state_formula(n)} = {tsp.state_count():,} "
                 "(a tour and its reverse are one state)")
    distinct = tsp.distinct_neighbours()
    lines.append(f"Neighbours per state: C({k}, 2) = {tsp.swaps_per_state()} swaps of two of "
                 f"the {k} visited locations, giving {distinct} distinct tours")
    if k in SAME_TOUR:
        lines.append(f"  ({SAME_TOUR[k]})")
    lines.append("")
    start = climb.steps[0].state
    note = ""
    if given is not None and given.strip().replace(" ", "") != fmt(start):
        note = f" (given as {given.strip()}, the same tour reversed)"
    lines.append(f"Hill climbing from {fmt(start)}{note}:")
    width = len(str(len(climb.steps) - 1))
    for i, step in enumerate(climb.steps):
        lines.append(f"  {i:>{width}}  {fmt(step.state)}  cost {cost(step.cost)}")
        if neighbours:
            lines += neighbour_lines(tsp, climb, i)
    final = climb.final
    lines.append(f"Stopped at {fmt(final.state)} (cost {cost(final.cost)}) after "
                 f"{plural(len(climb.steps) - 1, 'move')}:")
    lines.append(f"  {climb.stop.value}.")
    lines.append(f"Tours evaluated: {climb.evaluations}")
    lines.append("")
    if n > EXHAUSTIVE_LIMIT:
        lines.append(f"Optimum: not computed (exhaustive search is done up to n = "
                     f"{EXHAUSTIVE_LIMIT}; here it would cost {tsp.state_count():,} tours).")
    else:
        best, tours = tsp.optimum()
        lines.append(f"Optimum by exhaustive search over all {tsp.state_count():,} tours: "
                     f"cost {cost(best)}, " + ", ".join(map(fmt, tours)))
        if final.cost == best:
            lines.append("Hill climbing reached an optimal tour.")
        else:
            lines.append(f"Hill climbing stopped {cost(final.cost - best)} above the optimum: "
                         "greedy climbing can stop short of the global optimum.")
    return "\n".join(lines) + "\n"


# Why, for small k, fewer distinct tours than swaps (see zerosum.localsearch.tsp).
SAME_TOUR = {
    2: "the one swap only reverses the tour",
    3: "swapping the first and last visited only reverses the tour",
    4: "swapping the first and last visited gives, reversed, the same tour as swapping "
       "the middle two",
    5: "swapping the first and last visited gives, reversed, the same tour as swapping "
       "the second and fourth",
}


def state_formula(n: int) -> str:
    return f"({n}-1)!/2" if n >= 3 else "1"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def neighbour_lines(tsp: TSP, climb: Climb[Tour], i: int) -> list[str]:
    """The neighbours of step i, cheapest first, marking the one the climb moved to."""
    step = climb.steps[i]
    moved = climb.steps[i + 1].state if i + 1 < len(climb.steps) else None
    out = []
    for tour, c in step.neighbours:
        mark = "->" if tour == moved else "  "
        tie = ""
        if tour == moved and sum(1 for _, c2 in step.neighbours if c2 == c) > 1:
            tie = "  (tie: alphabetically first)"
        out.append(f"       {mark} {tsp.format(tour)}  {tsp.matrix.format(c)}{tie}")
    if not step.neighbours:
        out.append("       (no neighbours)")
    return out

