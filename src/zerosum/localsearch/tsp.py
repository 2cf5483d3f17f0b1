"""The travelling salesman problem as a hill-climbing problem.

A tour starts and ends at a fixed location; a state is the order in which it visits the
other k = n - 1 locations, and a tour and its reverse are one state (the distances are
symmetric, so they cost the same). We store each state in its alphabetically first
orientation: the tuple of labels with the first visited label before the last one.
"Alphabetical" compares tours label by label (Python's string order), which for one-letter
labels is the order of the written tours `M-C-E-S-W-M` < `M-E-C-S-W-M`.

Neighbours: swap any two of the k visited locations. There are C(k, 2) swaps, but for
k <= 5 some give the same state (up to reversal): for k = 2 the swap reverses the tour; for
k = 3 swapping the first and last does; for k = 4 and 5 swapping the first and last equals
swapping the second and second to last, then reversing. So the distinct neighbours number
0, 2, 5, 9 for k = 2..5, and C(k, 2) from k = 6 on. There are k!/2 states (k >= 2).

Distances are read exactly (as decimals) and kept as integers in units of the smallest
decimal place used, so costs add up exactly and ties are real ties.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from decimal import Decimal

from zerosum.game import InputError

Tour = tuple[str, ...]  # the visited locations, start excluded, alphabetically first way round

FILE_LIMIT = 64 * 1024  # bytes of a matrix file: hundreds of locations
MAX_DISTANCE = Decimal(10) ** 12  # a distance beyond this is surely a typo
MAX_PLACES = 6
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")

EXHAUSTIVE_LIMIT = 10  # locations; 9!/2 = 181,440 tours is about a second of Python


@dataclass(frozen=True)
class DistanceMatrix:
    labels: tuple[str, ...]
    units: tuple[tuple[int, ...], ...]  # distances in units of 10**-places
    places: int = 0  # decimal places of the finest distance in the file

    def distance(self, a: str, b: str) -> int:
        return self.units[self.labels.index(a)][self.labels.index(b)]

    def format(self, units: float) -> str:
        """A distance or cost (a whole number of units) in the file's notation: 12, 12.50."""
        whole = int(units)
        if self.places == 0:
            return str(whole)
        return str(Decimal(whole).scaleb(-self.places))

    @classmethod
    def parse(cls, text: str, source: str = "matrix file") -> DistanceMatrix:
        """A labelled table: the first line the labels, then one row of distances per label.

        Cells are separated by spaces, tabs or commas; `#` starts a comment. Each row may
        begin with its label (then the rows may come in any order) or not (then they follow
        the order of the labels). The matrix must be square, symmetric, with zeros on the
        diagonal and finite distances of 0 or more.
        """
        rows: list[tuple[int, list[str]]] = []
        for number, line in enumerate(text.splitlines(), 1):
            cells = [c for c in re.split(r"[,\s]+", line.split("#", 1)[0]) if c]
            if cells:
                rows.append((number, cells))
        if not rows:
            raise InputError(f"{source}: empty; expected a line of labels, then the distances")
        (_, labels), rows = rows[0], rows[1:]
        n = len(labels)
        for label in labels:
            if "-" in label:
                raise InputError(f"{source}: label {label!r} contains '-', which separates "
                                 "the locations of a tour")
        duplicates = sorted({a for a in labels if labels.count(a) > 1})
        if duplicates:
            raise InputError(f"{source}: label {duplicates[0]!r} appears twice on the first line")
        if len(rows) != n:
            raise InputError(f"{source}: {len(rows)} rows of distances for {n} labels "
                             f"({' '.join(labels)}); expected one row per label")
        table, lines = _rows_by_label(rows, labels, source)
        values = [[_distance(table[a][j], f"{source}, line {lines[a]}, distance {j + 1}", a, b)
                   for j, b in enumerate(labels)] for a in labels]
        places = max((_places(v) for row in values for v in row), default=0)
        units = tuple(tuple(int(v.scaleb(places)) for v in row) for row in values)
        for i, a in enumerate(labels):
            if units[i][i] != 0:
                raise InputError(f"{source}: the distance from {a} to itself must be 0, "
                                 f"not {table[a][i]}")
            for j in range(i + 1, n):
                if units[i][j] != units[j][i]:
                    b = labels[j]
                    raise InputError(f"{source}: not symmetric: {a} to {b} is {table[a][j]} "
                                     f"but {b} to {a} is {table[b][i]}")
        return cls(tuple(labels), units, places)


def _rows_by_label(rows: list[tuple[int, list[str]]], labels: list[str],
                   source: str) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each label's row of distance cells and its line number, checking the row labels
    if there are any."""
    n = len(labels)
    labelled = [len(cells) == n + 1 for _, cells in rows]
    table: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for i, (line, cells) in enumerate(rows):
        if len(cells) not in (n, n + 1):
            raise InputError(f"{source}, line {line}: {len(cells)} cells; expected {n} "
                             f"distances, optionally after the row's label")
        if labelled[i] != labelled[0]:
            raise InputError(f"{source}, line {line}: label every row or none")
        if labelled[i]:
            label, cells = cells[0], cells[1:]
            if label not in labels:
                raise InputError(f"{source}, line {line}: row label {label!r} is not among "
                                 f"the labels on the first line ({' '.join(labels)})")
            if label in table:
                raise InputError(f"{source}, line {line}: a second row for {label}")
        else:
            label = labels[i]
        table[label] = cells
        lines[label] = line
    return table, lines


def _distance(cell: str, where: str, a: str, b: str) -> Decimal:
    """A distance as written: ASCII decimal digits (as everywhere, see zerosum.convert),
    0 to MAX_DISTANCE, at most MAX_PLACES decimal places; never nan, inf or 1e999."""
    shown = repr(cell) if len(cell) <= 24 else f"{cell[:24]!r}..."
    if not cell.isascii() or len(cell) > 40 or not _DECIMAL.fullmatch(cell):
        raise InputError(f"{where}: {a} to {b}: {shown} is not a number")
    value = Decimal(cell)
    if not value <= MAX_DISTANCE or value < 0:
        raise InputError(f"{where}: {a} to {b}: {shown} is not a distance "
                         f"(0 to {MAX_DISTANCE:,})")
    if _places(value) > MAX_PLACES:
        raise InputError(f"{where}: {a} to {b}: {shown} has more than {MAX_PLACES} "
                         "decimal places")
    return value


def _places(value: Decimal) -> int:
    """Decimal places written: '2.50' -> 2, '3' -> 0, '1E+2' -> 0."""
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite values only
    return max(0, -exponent)


class TSP:
    """Tours from a fixed start over a symmetric distance matrix; see the module's notes."""

    def __init__(self, matrix: DistanceMatrix, start: str | None = None) -> None:
        start = matrix.labels[0] if start is None else start
        if start not in matrix.labels:
            raise InputError(f"start {start!r} is not a location of the matrix "
                             f"({' '.join(matrix.labels)})")
        self.matrix = matrix
        self.start = start
        self.others = tuple(a for a in matrix.labels if a != start)
        index = {a: i for i, a in enumerate(matrix.labels)}
        self._index = index

    # --- the Problem protocol -----------------------------------------------------------

    def cost(self, tour: Tour) -> int:
        units, index = self.matrix.units, self._index
        path = [index[self.start], *(index[a] for a in tour), index[self.start]]
        return sum(units[a][b] for a, b in itertools.pairwise(path))

    def neighbours(self, tour: Tour) -> list[Tour]:
        """Distinct tours one swap away, in the order of the swaps (i < j), tour excluded."""
        seen = {tour}
        out = []
        for i, j in itertools.combinations(range(len(tour)), 2):
            swapped = list(tour)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            t = canonical(swapped)
            if t not in seen:
                seen.add(t)
                out.append(t)
        return out

    def tie_key(self, tour: Tour) -> Tour:
        return tour  # every tour starts with the same label: compare the rest

    # --- counting, exhaustive search, notation ------------------------------------------

    @property
    def k(self) -> int:
        """The number of locations visited between leaving and coming back."""
        return len(self.others)

    def swaps_per_state(self) -> int:
        return math.comb(self.k, 2)

    def distinct_neighbours(self) -> int:
        """Distinct tours one swap away: the same for every state (it depends on k only)."""
        return len(self.neighbours(self.canonical_order()))

    def canonical_order(self) -> Tour:
        """The visited locations in the matrix file's order (as a state)."""
        return canonical(self.others)

    def state_count(self) -> int:
        """Distinct tours: k! orders, each the same as its reverse (k >= 2)."""
        return math.factorial(self.k) // 2 if self.k >= 2 else 1

    def all_tours(self) -> list[Tour]:
        """Every state once, in alphabetical order."""
        return [p for p in itertools.permutations(sorted(self.others))
                if len(p) < 2 or p[0] < p[-1]]

    def optimum(self) -> tuple[int, list[Tour]]:
        """The least cost and every tour achieving it, alphabetically (exhaustive)."""
        best, tours = -1, []
        for t in self.all_tours():
            c = self.cost(t)
            if best < 0 or c < best:
                best, tours = c, [t]
            elif c == best:
                tours.append(t)
        return best, tours

    def format(self, tour: Tour) -> str:
        return "-".join((self.start, *tour, self.start))

    def parse_tour(self, text: str) -> Tour:
        """'M-E-C-S-W-M' -> the state; InputError naming what is wrong."""
        names = [p.strip() for p in text.strip().split("-")]
        where = f"tour {text.strip()!r}"
        if len(names) < 2 or names[0] != self.start or names[-1] != self.start:
            raise InputError(f"{where} must start and end at {self.start}, "
                             f"e.g. {self.format(self.others)}")
        middle = names[1:-1]
        for name in middle:
            if name not in self.others:
                what = "the start" if name == self.start else "not a location of the matrix"
                raise InputError(f"{where}: {name!r} is {what}")
        repeated = sorted({a for a in middle if middle.count(a) > 1})
        if repeated:
            raise InputError(f"{where} visits {repeated[0]} twice")
        missing = [a for a in self.others if a not in middle]
        if missing:
            raise InputError(f"{where} does not visit {' '.join(missing)}")
        return canonical(middle)


def canonical(order: list[str] | Tour) -> Tour:
    """The alphabetically first way round of a tour."""
    forward = tuple(order)
    backward = forward[::-1]
    return min(forward, backward)
