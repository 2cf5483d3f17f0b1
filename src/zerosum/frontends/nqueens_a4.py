"""CMPT 317 assignment 4, the N-Queens game: one entry point per question.

q1-q7 print a table per variation (one row per N: value, best opening move, nodes
examined, CPU seconds); q9 plays computer against computer. `generate` writes
A4_output.txt, a4q8.txt and A4_EXECUTION.txt from fresh measurements. Everything here
parses, calls `zerosum.reports.nqueens` / `zerosum.match` and prints.
"""

from __future__ import annotations

import argparse
import platform
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from zerosum import REQUIRES
from zerosum.console import Main, Parser, guarded
from zerosum.convert import MAX_DEPTH, depth_arg, int_arg, parse_int, shown
from zerosum.game import InputError
from zerosum.games.nqueens import MAX_SIZE, nqueens
from zerosum.kernel import Enhancements
from zerosum.match import play_match
from zerosum.players.catalogue import searcher, shown_name
from zerosum.reports import FORMATS, Table, render
from zerosum.reports.nqueens import Setup, board_sizes, format_number, solve, value_table
from zerosum.result import SearchResult

SIZES = list(range(1, 11))
CUTOFF = 4


@dataclass(frozen=True)
class Question:
    number: int
    text: str
    variations: tuple[str, ...]
    algorithm: str
    cutoff: bool = False


QUESTIONS = {
    1: Question(1, "minimax, variation 1a", ("1a",), "minimax"),
    2: Question(2, "minimax, variation 1b", ("1b",), "minimax"),
    3: Question(3, "alpha-beta, variation 1a", ("1a",), "alphabeta"),
    4: Question(4, "alpha-beta, variation 1b", ("1b",), "alphabeta"),
    5: Question(5, "minimax with a depth cutoff and the heuristic, variation 1a", ("1a",),
                "minimax", True),
    6: Question(6, "minimax with a depth cutoff and the heuristic, variation 1b", ("1b",),
                "minimax", True),
    7: Question(7, "alpha-beta with a depth cutoff and the heuristic, variations 1a and 1b",
                ("1a", "1b"), "alphabeta", True),
}


def question_tables(q: Question, sizes: Sequence[int], depth: int = CUTOFF) -> list[Table]:
    setup = Setup(q.algorithm, depth if q.cutoff else None)
    return [value_table(v, setup, sizes,
                        title=f"Question {q.number}: variation {v}, {setup.describe()}"
                        ).complete()
            for v in q.variations]


# ---------------------------------------------------------------- question 9

MATCH_SIZES = (10, 20)
MATCH_CUTOFFS = ((4, 4), (5, 5), (5, 3), (3, 5))
SOLVE_UP_TO = 16  # the true value is computed for N up to this (seconds each)


@dataclass
class Match:
    size: int
    variation: str
    cutoffs: tuple[int, int]
    moves: list[str]
    utility: float
    winner: str
    truth: SearchResult | None  # the exact value from the empty board, if solved

    def verdict(self) -> str:
        if self.truth is None:
            return ("true value not known here (the exact search would take too long; "
                    "--solve-up-to raises the limit)")
        true = self.truth.value
        if self.utility == true or (self.variation in ("1a", "2") and
                                    (self.utility > 0) == (true > 0)):
            return f"true value {format_number(true)}: matches best play"
        erred = "O" if self.utility > true else "X"
        return (f"true value {format_number(true)}: does NOT match best play "
                f"({erred} erred)")


# The game's own move order, so that alpha-beta picks the same move as minimax.
UNORDERED = Enhancements(ordering=False)


def play(size: int, variation: str, cutoffs: tuple[int, int],
         algorithms: tuple[str, str] = ("alphabeta", "alphabeta"),
         truth: SearchResult | None = None) -> Match:
    """X and O each search with their own algorithm and depth cutoff, in the game's
    move order (so alpha-beta picks the same move as minimax with that cutoff)."""
    game = nqueens(size, variation)
    agents = [searcher(a, depth=d, enhancements=UNORDERED)
              for a, d in zip(algorithms, cutoffs, strict=True)]
    record = play_match(game, agents)
    moves = [str(m.action) for m in record.moves]  # the assignment's tuples: ('X', 3)
    utility = record.utility if record.utility is not None else 0.0
    return Match(size, variation, cutoffs, moves, utility, record.winner or "nobody", truth)


def true_value(size: int, variation: str, up_to: int = SOLVE_UP_TO) -> SearchResult | None:
    """The exact value from the empty board (alpha-beta, table, ordering), or None
    when N is above `up_to` (N = 16 takes seconds, N = 20 minutes)."""
    if size > up_to:
        return None
    return solve(nqueens(size, variation), Setup("alphabeta", table=True, order=True))


def matches(variation: str, sizes: Sequence[int] = MATCH_SIZES,
            cutoffs: Sequence[tuple[int, int]] = MATCH_CUTOFFS,
            algorithms: tuple[str, str] = ("alphabeta", "alphabeta"),
            solve_up_to: int = SOLVE_UP_TO) -> list[Match]:
    out = []
    for n in sizes:
        truth = true_value(n, variation, solve_up_to)
        out += [play(n, variation, c, algorithms, truth) for c in cutoffs]
    return out


def match_report(variation: str, played: Sequence[Match], algorithms: tuple[str, str]) -> str:
    names = " and ".join(dict.fromkeys(shown_name(a) for a in algorithms))
    lines = [f"Question 9: variation {variation}, computer against computer "
             f"({names} with a depth cutoff and the heuristic; cutoffs as X/O)"]
    for m in played:
        lines.append(f"N = {m.size}, cutoffs {m.cutoffs[0]}/{m.cutoffs[1]}: {m.winner} wins, "
                     f"{len(m.moves)} queens, utility {format_number(m.utility)}; "
                     f"{m.verdict()}")
        lines.append("  moves: " + " ".join(m.moves))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- entry points


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    p = Parser(prog=prog, description=description)
    p.add_argument("--sizes", type=board_sizes, default=SIZES,
                   help="board sizes N (default: 1-10)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text, csv or markdown (default: %(default)s)")
    return p


def question_main(number: int) -> Main[Sequence[str]]:
    q = QUESTIONS[number]
    prog = f"a4q{number}"

    @guarded(prog)
    def main(argv: Sequence[str]) -> int:
        p = _parser(prog, f"Question {number}: {q.text}; one row per N.")
        if q.cutoff:
            p.add_argument("--depth", type=depth_arg, default=CUTOFF,
                           help="the depth cutoff (default: %(default)s)")
        args = p.parse_args(argv)
        if min(args.sizes) < 1:
            p.error("board sizes start at 1")
        tables = question_tables(q, args.sizes, getattr(args, "depth", CUTOFF))
        sys.stdout.write("\n".join(render(t, args.format) for t in tables))
        return 0

    return main


q1, q2, q3, q4, q5, q6, q7 = (question_main(i) for i in range(1, 8))


def _cutoff_pair(text: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        if len(parts) == 2:
            return (parse_int(parts[0], lo=0, hi=MAX_DEPTH),
                    parse_int(parts[1], lo=0, hi=MAX_DEPTH))
    except InputError:
        pass
    raise argparse.ArgumentTypeError(f"a cutoff pair is X,O depths 0-{MAX_DEPTH} like 5,3, "
                                     f"not {shown(text)}")


@guarded("a4q9")
def q9(argv: Sequence[str]) -> int:
    p = Parser(prog="a4q9", description="Question 9: computer against computer, each side "
               "with its own algorithm and depth cutoff.")
    p.add_argument("--sizes", type=board_sizes, default=list(MATCH_SIZES),
                   help="board sizes (default: 10,20)")
    p.add_argument("--cutoffs", type=_cutoff_pair, nargs="+", default=list(MATCH_CUTOFFS),
                   metavar="X,O", help="depth cutoffs of X and O (default: 4,4 5,5 5,3 3,5)")
    p.add_argument("--variation", choices=("1a", "1b"), nargs="+", default=["1a", "1b"])
    p.add_argument("--algorithms", choices=("minimax", "alphabeta"), nargs=2,
                   default=["alphabeta", "alphabeta"], metavar=("X", "O"),
                   help="X's and O's algorithm (default: alphabeta alphabeta; both pick "
                   "the same moves as minimax with the same cutoff)")
    p.add_argument("--solve-up-to", type=int_arg(0, MAX_SIZE), default=SOLVE_UP_TO, metavar="N",
                   help="compute the true value for boards up to this size "
                   "(default: %(default)s; N = 20 takes minutes)")
    args = p.parse_args(argv)
    if min(args.sizes) < 1:
        p.error("board sizes start at 1")
    algorithms = (args.algorithms[0], args.algorithms[1])
    for v in args.variation:
        played = matches(v, args.sizes, args.cutoffs, algorithms, args.solve_up_to)
        sys.stdout.write(match_report(v, played, algorithms))
    return 0


# ---------------------------------------------------------------- the output files


@dataclass
class Measured:
    """Everything a4q8.txt quotes, from one run of the questions."""

    tables: dict[int, list[Table]]
    matches: dict[str, list[Match]]


def measure(progress: Callable[[str], None] | None = None) -> Measured:
    tables = {}
    for number, q in QUESTIONS.items():
        if progress:
            progress(f"question {number}")
        tables[number] = question_tables(q, SIZES)
    played = {}
    for v in ("1a", "1b"):
        if progress:
            progress(f"question 9, variation {v}")
        played[v] = matches(v)
    return Measured(tables, played)


def output_text(m: Measured) -> str:
    parts = ["CMPT 317 assignment 4: the N-Queens game. Generated by generate_outputs.py;",
             "do not edit. Values are from X's side (X = player 1 = Max); nodes are",
             "examined nodes (root included); CPU seconds vary from run to run.", ""]
    for tables in m.tables.values():
        parts += [render(t) for t in tables]
    alg = ("alphabeta", "alphabeta")
    parts += [match_report(v, played, alg) for v, played in m.matches.items()]
    return "\n".join(parts)


def _col(table: Table, name: str) -> list[str | int]:
    i = table.columns.index(name)
    return [row[i] for row in table.rows]


def _cpu(table: Table) -> float:
    return sum(float(x) for x in _col(table, "CPU s"))


def _nodes(table: Table, n: int) -> int:
    value = table.rows[n - 1][table.columns.index("nodes")]
    assert isinstance(value, int)
    return value


def _winner(value: str | int) -> str:
    v = float(value)
    return "X" if v > 0 else "O" if v < 0 else "none"


def _para(*sentences: str) -> list[str]:
    """One numbered answer's paragraph, wrapped at 78 columns and indented."""
    return [*textwrap.wrap(" ".join(sentences), 78, initial_indent="   ",
                           subsequent_indent="   "), ""]


def q8_text(m: Measured) -> str:
    """The comparisons question 8 asks for, with the measured numbers filled in."""
    t1a, t1b = m.tables[1][0], m.tables[2][0]
    ab1a, ab1b = m.tables[3][0], m.tables[4][0]
    c5, c6 = m.tables[5][0], m.tables[6][0]
    c7a, c7b = m.tables[7]
    last = SIZES[-1]
    v1a, v1b = _col(t1a, "value"), _col(t1b, "value")
    same = [n for n, a, b in zip(SIZES, v1a, v1b, strict=True) if _winner(a) == _winner(b)]
    differ = [n for n in SIZES if n not in same]
    pairs = ", ".join(f"N={n}: {a} vs {b}" for n, a, b in zip(SIZES, v1a, v1b, strict=True))
    out = ["CMPT 317 assignment 4, question 8: comparisons, written from the tables in",
           "A4_output.txt (generated together with this file by generate_outputs.py; the",
           "numbers below are from that run). Nodes are exact and repeat from run to run;",
           "CPU seconds vary with the machine's load.", ""]

    out += ["1. Values of 1a and 1b (question 1 vs question 2)."]
    out += _para(
        f"{pairs}.",
        "The same player wins in both variations for "
        + (f"every N from 1 to {last}." if not differ else
           f"N = {', '.join(map(str, same))} but not for N = {', '.join(map(str, differ))}."),
        "This is expected: in both variations the player who places the last queen wins, so a",
        "strategy that wins 1a wins 1b too and the signs agree; 1b only adds by how many",
        "queens (the winner wants more, the loser fewer), which changes the size of the value",
        "and sometimes the best move.")

    out += ["2. Run times of 1a and 1b (questions 1-4)."]
    out += _para(
        f"Minimax examines {_nodes(t1a, last):,} nodes at N={last} in both variations",
        f"({_cpu(t1a):.3f} s for 1a and {_cpu(t1b):.3f} s for 1b over N=1..{last}):",
        "it visits the whole game tree, and the tree is the same (the rules are the same,",
        "only the final positions are scored differently), so any difference in time is noise.",
        f"Alpha-beta examines {_nodes(ab1a, last):,} nodes for 1a and {_nodes(ab1b, last):,}",
        f"for 1b at N={last} ({_cpu(ab1a):.3f} s vs {_cpu(ab1b):.3f} s over N=1..{last}).",
        "1a has only two values, so once a player has found a winning move the remaining",
        "moves are pruned at once; in 1b a win with 5 queens is not as good as a win with 7,",
        "so more of the tree must be searched to prove the best score.")

    speedups = []
    for n in (6, 8, last):
        mm, ab = _nodes(t1a, n), _nodes(ab1a, n)
        speedups.append(f"N={n}: {mm:,} vs {ab:,} nodes ({mm / ab:.1f}x)")
    same_ab = v1a == _col(ab1a, "value") and v1b == _col(ab1b, "value")
    growth = _nodes(t1a, last) / _nodes(t1a, last - 1)
    out += ["3. Minimax vs alpha-beta (questions 1-2 vs 3-4)."]
    out += _para(
        "The values are " + ("identical for every N in both variations, as they must be:"
                             if same_ab else "NOT identical, which is a bug:"),
        "alpha-beta only skips moves that cannot change the value (the best moves agree too,",
        "since both keep the first best move).",
        "Speed-up of alpha-beta in 1a: " + "; ".join(speedups) + ".",
        f"CPU over N=1..{last}: 1a {_cpu(t1a):.3f} s vs {_cpu(ab1a):.3f} s, "
        f"1b {_cpu(t1b):.3f} s vs {_cpu(ab1b):.3f} s.",
        f"The speed-up grows with N: the full tree grows about {growth:.1f} times from",
        f"N={last - 1} to N={last}, and the subtrees that alpha-beta skips once a win is found",
        "grow with it.")

    v5 = _col(c5, "value")
    exact_5 = sum(1 for a, b in zip(v5, v1a, strict=True) if a == b)
    wrong_5 = [str(n) for n, a, b in zip(SIZES, v5, v1a, strict=True)
               if _winner(a) != _winner(b)]
    out += [f"4. Minimax without and with a cutoff at depth {CUTOFF} (questions 1-2 vs 5-6)."]
    out += _para(
        f"At N={last} the cutoff search examines {_nodes(c5, last):,} nodes instead of",
        f"{_nodes(t1a, last):,} ({_nodes(t1a, last) / _nodes(c5, last):.0f}x fewer) in 1a and",
        f"{_nodes(c6, last):,} instead of {_nodes(t1b, last):,} in 1b, and the saving grows",
        "with N since the cutoff tree grows like N^4 and the full tree exponentially.",
        f"The price is the value: the cutoff search gives the exact value for {exact_5} of",
        f"{last} sizes in 1a (small boards end before depth {CUTOFF}, and the heuristic is",
        "exact when it can prove how long the game lasts); "
        + (f"for N = {', '.join(wrong_5)} its estimate does not point to the true winner."
           if wrong_5 else "its estimate always points to the true winner."),
        "The estimates are averages over the game lengths still possible, so they are",
        "guesses, not values of the game.")

    same_cut = v5 == _col(c7a, "value") and _col(c6, "value") == _col(c7b, "value")
    full_ratio = _nodes(t1a, last) / _nodes(ab1a, last)
    cut_ratio = _nodes(c5, last) / _nodes(c7a, last)
    out += [f"5. Minimax vs alpha-beta, both with a cutoff at depth {CUTOFF} "
            "(questions 5-6 vs 7)."]
    out += _para(
        "The values are " + ("identical in both variations, as they must be."
                             if same_cut else "NOT identical, which is a bug."),
        f"Nodes at N={last}: 1a {_nodes(c5, last):,} vs {_nodes(c7a, last):,} "
        f"({cut_ratio:.1f}x), 1b {_nodes(c6, last):,} vs {_nodes(c7b, last):,}.",
        f"Without the cutoff the speed-up at N={last} was {full_ratio:.1f}x:",
        "smaller" if cut_ratio < full_ratio else "larger",
        f"with the cutoff, because the tree is only {CUTOFF} deep (alpha-beta saves most in",
        "deep trees) and the heuristic's averaged values rarely reach the +1/-1 that lets a",
        "node stop at its first move.")
    return "\n".join(out)


def execution_text() -> str:
    lines = ["CMPT 317 assignment 4: how to run each question.",
             f"Python: {platform.python_implementation()} {platform.python_version()} "
             f"(any Python {'.'.join(map(str, REQUIRES))} or newer; nothing to install).",
             "Run from this folder (assignments/cmpt317-nqueens):", ""]
    for number, q in QUESTIONS.items():
        lines.append(f"  Question {number} ({q.text}):")
        lines.append(f"    python3 a4q{number}.py")
    lines += ["  Question 8: the comparisons are in a4q8.txt.",
              "  Question 9 (computer against computer, N = 10 and 20):",
              "    python3 a4q9.py",
              "",
              "All outputs (A4_output.txt, a4q8.txt and this file) are regenerated by:",
              "    python3 generate_outputs.py",
              "Options: --sizes 1-12 (q1-q7), --depth 5 (q5-q7), --format csv|markdown;",
              "--help on any script lists them."]
    return "\n".join(lines) + "\n"


OUTPUTS = ("A4_output.txt", "a4q8.txt", "A4_EXECUTION.txt")


@guarded("generate_outputs")
def generate(argv: Sequence[str]) -> int:
    from zerosum.fileio import check_writable, write_atomic

    p = Parser(prog="generate_outputs",
               description="Regenerate A4_output.txt, a4q8.txt and A4_EXECUTION.txt.")
    p.add_argument("--folder", default=".", help="where to write them (default: here)")
    args = p.parse_args(argv)
    folder = Path(args.folder)
    if not folder.is_dir():
        p.error(f"not a folder: {folder}")
    for name in OUTPUTS:  # before the minutes of measuring
        check_writable(folder / name)
    m = measure(lambda text: print(f"  {text} ...", file=sys.stderr, flush=True))
    for name, text in zip(OUTPUTS, (output_text(m), q8_text(m), execution_text()),
                          strict=True):
        write_atomic(folder / name, text)
        print(f"wrote {folder / name}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
