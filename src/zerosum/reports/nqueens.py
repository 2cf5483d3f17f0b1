"""Tables of the N-Queens game's values: one search from the empty board per size N.

`solve` runs the search a table row asks for with the generic algorithms of
`zerosum.search` (minimax, alpha-beta, optionally depth-limited, with a transposition
table and move ordering); `value_table` collects the rows. `zerosum table nqueens` and
the CMPT 317 front-end both print these.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from zerosum.convert import depth_arg, range_arg
from zerosum.game import InputError
from zerosum.games.nqueens import MAX_SIZE, VARIATIONS, NQueens, nqueens
from zerosum.games.registry import Option
from zerosum.reports import Cell, Progress, Table, TableSpec, register_table
from zerosum.result import SearchResult
from zerosum.search import TranspositionTable, alphabeta_search, minimax_search

ALGORITHMS = ("minimax", "alphabeta")
TABLE_CAPACITY = 2_000_000


@dataclass(frozen=True)
class Setup:
    """How to search: the algorithm, an optional depth cutoff, and the speed-ups."""

    algorithm: str = "alphabeta"
    depth: int | None = None
    table: bool = False
    order: bool = False

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise InputError(f"unknown algorithm {self.algorithm!r}; "
                             f"choose from {', '.join(ALGORITHMS)}")
        if self.depth is not None and self.depth < 0:
            raise InputError(f"depth must be 0 or more, not {self.depth}")
        if self.algorithm == "minimax" and (self.table or self.order):
            raise InputError("a transposition table and move ordering need alpha-beta "
                             "(--algorithm alphabeta)")

    def describe(self) -> str:
        name = "minimax" if self.algorithm == "minimax" else "alpha-beta"
        parts = [name]
        if self.depth is None:
            parts.append("to the end of the game")
        else:
            parts.append(f"cutoff at depth {self.depth} with the heuristic")
        extras = [x for x, on in (("transposition table", self.table),
                                  ("move ordering", self.order)) if on]
        if extras:
            parts.append("with " + " and ".join(extras))
        return ", ".join(parts)


def solve(game: NQueens, setup: Setup) -> SearchResult:
    """The search of `setup` from the empty board."""
    state = game.initial_state()
    if setup.algorithm == "minimax":
        return minimax_search(game, state, setup.depth)
    table = TranspositionTable(TABLE_CAPACITY) if setup.table else None
    return alphabeta_search(game, state, setup.depth, order=setup.order, table=table)


def solve_sizes(variation: str, setup: Setup, sizes: Sequence[int],
                progress: Progress | None = None) -> Iterator[tuple[int, SearchResult]]:
    for n in sizes:
        game = nqueens(n, variation)
        if progress is not None:
            progress(f"N-Queens {variation}: solving N = {n}")
        yield n, solve(game, setup)


def format_number(value: float) -> str:
    """+1, -6 for exact values; three decimals for an estimate."""
    if value == 0:
        return "0"
    if value == int(value):
        return f"{value:+.0f}"
    return f"{value:+.3f}"


def value_table(variation: str, setup: Setup, sizes: Sequence[int],
                progress: Progress | None = None, title: str | None = None) -> Table:
    """One row per N: minimax value, best opening move, nodes examined, CPU seconds.
    The rows are pending: each search runs when its row is streamed (Table.stream)."""
    if variation not in VARIATIONS:
        raise InputError(f"unknown variation {variation!r}; choose from {', '.join(VARIATIONS)}")
    if title is None:
        title = f"N-Queens, variation {variation}: {setup.describe()}"
    # Least widths: two-digit N, a value like -12 or +0.500, a move like ('X', 10), a
    # node count to billions, CPU seconds to thousands.
    table = Table(title, ["N", "value", "best move", "nodes", "CPU s"], right={0, 1, 3, 4},
                  widths={0: 2, 1: 6, 2: 9, 3: 13, 4: 8})

    def rows() -> Iterator[list[Cell]]:
        total_nodes, total_cpu = 0, 0.0
        for n, r in solve_sizes(variation, setup, sizes, progress):
            move = "none" if r.action is None else str(r.action)
            yield [n, format_number(r.value), move, r.stats.nodes, f"{r.stats.cpu_time:.3f}"]
            total_nodes += r.stats.nodes
            total_cpu += r.stats.cpu_time
        table.notes.append(f"total: {total_nodes:,} nodes, {total_cpu:.2f} s CPU")

    table.pending = rows()
    return table


# `--sizes`: board sizes the game allows, refused before any list is built when not.
board_sizes = range_arg(1, MAX_SIZE, "board_sizes")


def _build(progress: Progress, variation: str, algorithm: str, depth: int | None,
           table: bool, order: bool, sizes: list[int]) -> Table:
    if not sizes or min(sizes) < 1:
        raise InputError("board sizes start at 1")
    return value_table(variation, Setup(algorithm, depth, table, order), sizes, progress)


register_table(
    TableSpec(
        "nqueens",
        "N-Queens",
        _build,
        options=(
            Option("variation", str, "1a", "1a, 1b (left-most column; +1/-1 or +k/-k), "
                   "2, 2b (any square)", choices=VARIATIONS),
            Option("algorithm", str, "minimax", "the search", choices=ALGORITHMS),
            Option("depth", depth_arg, None, "cut off at this depth and use the heuristic"),
            Option("table", bool, False, "use a transposition table (alpha-beta)"),
            Option("order", bool, False, "try moves leaving the fewest replies first "
                   "(alpha-beta)"),
            # A string default: argparse converts it with board_sizes, and --help shows it.
            Option("sizes", board_sizes, "1-10", "board sizes, e.g. 4,8,12-14"),
        ),
        description="The value of the empty board (from X's side, X = player 1), the best "
        "opening move, the nodes examined and the CPU time, for each board size.",
    )
)
