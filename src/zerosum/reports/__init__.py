"""Reports: tables of search results, one row per case (e.g. per board size), for
`zerosum table` (result grids, not the transposition tables of zerosum.search).

A game offers a table by registering a `TableSpec` from a module of this package: its
options (shown as `--name` flags of `zerosum table GAME`; an option of type `bool` is a
plain on/off flag) and a `build(progress, **options) -> Table` function that runs the
searches. `progress` receives a short line before each long step, for a display on
stderr; a table may leave its rows pending, to be computed as they are printed.
`write` prints a Table row by row as the rows come, `render` returns it whole, as
aligned text, CSV or Markdown.

Modules here may use both `zerosum.games` and `zerosum.search`; the command only parses,
calls `build` and prints.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from zerosum.game import InputError
from zerosum.games.registry import Option
from zerosum.plugins import Registry

FORMATS = ("text", "csv", "markdown")
Progress = Callable[[str], None]
Cell = str | int


@dataclass
class Table:
    """A titled grid of cells; `right` marks right-aligned columns.

    Cells are text, or whole numbers, which text and Markdown print with thousands
    separators and CSV prints plain. Rows may still be `pending` (an iterator that runs
    the searches): `stream` computes them one at a time, so a display can show each row
    as soon as it is known; `widths` then gives the columns' least widths in text.
    """

    title: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    right: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    widths: dict[int, int] = field(default_factory=dict)
    pending: Iterator[list[Cell]] | None = None

    def stream(self) -> Iterator[list[Cell]]:
        """The pending rows, computed one at a time and kept in `rows`."""
        while self.pending is not None:
            row = next(self.pending, None)
            if row is None:
                self.pending = None
                break
            self.rows.append(row)
            yield row

    def complete(self) -> Table:
        """The table with every row computed."""
        for _ in self.stream():
            pass
        return self


@dataclass(frozen=True)
class TableSpec:
    name: str
    title: str
    build: Callable[..., Table]
    options: tuple[Option, ...] = ()
    description: str = ""


def render(table: Table, fmt: str = "text") -> str:
    """The whole table as aligned `text`, `csv` (header row, no title) or `markdown`;
    text columns are as wide as their widest cell."""
    table.complete()
    cells = [_cells(row, fmt) for row in table.rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) if cells else len(c)
              for i, c in enumerate(table.columns)]
    writer = _Writer(table, fmt, widths)
    return "".join([writer.head(), *map(writer.row, cells), writer.tail()])


def write(table: Table, fmt: str, out: TextIO) -> None:
    """Print the table row by row as its rows are computed (text columns take their
    least widths, so a later wider cell shifts only its own row)."""
    widths = [max(len(c), table.widths.get(i, 0)) for i, c in enumerate(table.columns)]
    writer = _Writer(table, fmt, widths)
    out.write(writer.head())
    out.flush()
    for row in table.rows:
        out.write(writer.row(_cells(row, fmt)))
    for row in table.stream():
        out.write(writer.row(_cells(row, fmt)))
        out.flush()
    out.write(writer.tail())


def _cells(row: list[Cell], fmt: str) -> list[str]:
    if fmt == "csv":
        return [str(c) for c in row]
    return [f"{c:,}" if isinstance(c, int) else c for c in row]


class _Writer:
    """The text of a table's parts in one format: head (title, header), rows, tail (notes)."""

    def __init__(self, table: Table, fmt: str, widths: list[int]) -> None:
        if fmt not in FORMATS:
            raise InputError(f"unknown table format {fmt!r}; choose from {', '.join(FORMATS)}")
        self.table, self.fmt, self.widths = table, fmt, widths

    def head(self) -> str:
        t = self.table
        if self.fmt == "csv":
            return self.row(t.columns)
        if self.fmt == "markdown":
            rule = ["---:" if i in t.right else "---" for i in range(len(t.columns))]
            title = f"**{t.title}**\n\n" if t.title else ""
            return title + self.row(t.columns) + self.row(rule)
        title = f"{t.title}\n" if t.title else ""
        return title + self._line(t.columns) + "  ".join("-" * w for w in self.widths) + "\n"

    def row(self, cells: list[str]) -> str:
        if self.fmt == "csv":
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerow(cells)
            return buf.getvalue()
        if self.fmt == "markdown":
            return "| " + " | ".join(cells) + " |\n"
        return self._line(cells)

    def tail(self) -> str:
        notes = self.table.notes
        if self.fmt == "csv" or not notes:
            return ""
        return "".join(f"{n}\n" for n in (["", *notes] if self.fmt == "markdown" else notes))

    def _line(self, cells: list[str]) -> str:
        right = self.table.right
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, self.widths, strict=True))
                         ).rstrip() + "\n"


_TABLES: Registry[TableSpec] = Registry("zerosum.reports", "table", lambda spec: spec.name)


def register_table(spec: TableSpec) -> TableSpec:
    return _TABLES.register(spec)


def all_tables() -> list[TableSpec]:
    return _TABLES.all()


def get_table(name: str) -> TableSpec:
    return _TABLES.get(name)
