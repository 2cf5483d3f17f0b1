"""`TakeStones <#stones> <#taken> <taken stones...> <depth> [--format trace|summary]`:
one alpha-beta move for the player to move, printed as the assignment's node trace
(the default) or as its six-line summary.

The trace is built from the search's tracer events (one per node, in post-order); the
summary's figures are the search's own SearchStats. No search logic lives here.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Sequence
from fractions import Fraction

from zerosum.console import guarded
from zerosum.convert import parse_int
from zerosum.game import InputError
from zerosum.games.takestones import MAX_STONES, Stones, TakeStones
from zerosum.result import SearchResult, TraceEvent
from zerosum.search import alphabeta_search

PROG = "TakeStones"
USAGE = f"usage: {PROG} <#stones> <#taken> <taken stones...> <depth> [--format trace|summary]"
FORMATS = ("trace", "summary")
_INT = re.compile(r"-[0-9]+")
# The assignment's initial window: wider than any value, so it changes no decision.
ALPHA, BETA = -1000.0, 1000.0


def whole(text: str, what: str, low: int = 0, high: int = MAX_STONES) -> int:
    return parse_int(text, what, lo=low, hi=high)


def parse_args(argv: Sequence[str]) -> tuple[int, list[int], int, str]:
    """(stones, taken stones in order, depth, format) from the command line."""
    fmt = "trace"
    numbers: list[str] = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--format" or arg.startswith("--format="):
            value = arg.partition("=")[2] if "=" in arg else (args.pop(0) if args else "")
            if value not in FORMATS:
                raise InputError(f"--format must be trace or summary, not {value!r}")
            fmt = value
        elif arg.startswith("-") and not _INT.fullmatch(arg):  # -3: a (bad) number
            raise InputError(f"unknown option {arg!r}")
        else:
            numbers.append(arg)
    if len(numbers) < 3:
        raise InputError("expected at least 3 numbers: #stones, #taken and depth")
    n = whole(numbers[0], "#stones", 1)
    count = whole(numbers[1], "#taken")
    if len(numbers) != count + 3:
        raise InputError(
            f"#taken is {count}, so {count} taken stones and a depth must follow it, "
            f"but {len(numbers) - 2} numbers follow"
        )
    taken = [whole(t, "a taken stone", 1) for t in numbers[2:-1]]
    depth = whole(numbers[-1], "depth")
    return n, taken, depth, fmt


def stones_line(stones: list[int]) -> str:
    return " ".join(map(str, stones))


def number(x: float) -> str:
    """100.0 -> '100', 0.5 -> '0.5'."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def one_decimal(x: Fraction) -> str:
    """One decimal, halves rounded away from zero (3.25 -> 3.3), as people round."""
    tenths = math.floor(abs(x) * 10 + Fraction(1, 2))
    sign = "-" if x < 0 and tenths else ""
    return f"{sign}{tenths // 10}.{tenths % 10}"


def search(game: TakeStones, state: Stones, depth: int,
           tracer: list[TraceEvent] | None = None) -> SearchResult:
    return alphabeta_search(
        game, state, depth or None, alpha=ALPHA, beta=BETA,
        tracer=None if tracer is None else tracer.append,
    )


def trace_report(game: TakeStones, state: Stones, depth: int) -> str:
    """Three lines per node as it returns, then NEXT MOVE and the stones left after it."""
    events: list[TraceEvent] = []
    result = search(game, state, depth, events)
    lines = []
    for e in events:
        stone = e.action if e.action is not None else e.state.last
        lines += [str(stone), stones_line(game.available(e.state)),
                  f"alpha: {number(e.alpha)}\tbeta: {number(e.beta)}"]
    after = game.result(state, result.action)
    lines += ["NEXT MOVE", str(result.action), stones_line(game.available(after))]
    return "\n".join(lines) + "\n"


def summary_report(game: TakeStones, state: Stones, depth: int) -> str:
    """Move, value, nodes visited (root included), evaluated (leaves), max depth, and
    the average effective branching factor (visited - 1) / (visited - evaluated):
    the children searched per inner node."""
    result = search(game, state, depth)
    st = result.stats
    ebf = Fraction(st.nodes - 1, st.nodes - st.evaluated)
    return (
        f"Move: {result.action}\n"
        f"Value: {result.value + 0.0:.1f}\n"  # + 0.0: never print -0.0
        f"Number of Nodes Visited: {st.nodes}\n"
        f"Number of Nodes Evaluated: {st.evaluated}\n"
        f"Max Depth Reached: {st.max_depth}\n"
        f"Avg Effective Branching Factor: {one_decimal(ebf)}\n"
    )


def game_over(game: TakeStones, state: Stones) -> str:
    winner = game.winner(state)
    loser = game.players[0] if winner == game.players[1] else game.players[1]
    return f"Game over: {loser} has no stone to take, so {winner} wins.\n"


def report(argv: Sequence[str]) -> str:
    """The whole output for these arguments."""
    try:
        n, taken, depth, fmt = parse_args(argv)
        game = TakeStones(n, fmt)
        state = game.replay(taken)
    except InputError as e:
        raise InputError(f"{e} ({USAGE})") from None
    if game.is_terminal(state):
        return game_over(game, state)
    if fmt == "summary":
        return summary_report(game, state, depth)
    return trace_report(game, state, depth)


@guarded(PROG)
def main(argv: Sequence[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(USAGE)
        print("Computes one alpha-beta move for the player to move; depth 0 searches to "
              "the end. See assignments/cs540-takestones/README.md.")
        return 0
    sys.stdout.write(report(argv))
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
