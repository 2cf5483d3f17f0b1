"""Tables of search results, one row per case (e.g. per board size), for `zerosum table`.

A game offers a table by registering a `TableSpec` from a module of this package: its
options (shown as `--name` flags of `zerosum table GAME`; an option of type `bool` is a
plain on/off flag) and a `build(progress, **options) -> Table` function that runs the
searches. `progress` receives a short line before each long step, for a display on
stderr. `render` prints a Table as aligned text, CSV or Markdown.

Modules here may use both `zerosum.games` and `zerosum.search`; the command only parses,
calls `build` and prints.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field

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
    separators and CSV prints plain.
    """

    title: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    right: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TableSpec:
    name: str
    title: str
    build: Callable[..., Table]
    options: tuple[Option, ...] = ()
    description: str = ""


def render(table: Table, fmt: str = "text") -> str:
    """The table as aligned `text`, `csv` (header row, no title) or `markdown`."""
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(table.columns)
        writer.writerows(table.rows)
        return buf.getvalue()
    rows = [[f"{c:,}" if isinstance(c, int) else c for c in row] for row in table.rows]
    if fmt == "markdown":
        lines = [f"**{table.title}**", ""] if table.title else []
        lines.append("| " + " | ".join(table.columns) + " |")
        lines.append("| " + " | ".join("---:" if i in table.right else "---"
                                       for i in range(len(table.columns))) + " |")
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines += ["", *table.notes] if table.notes else []
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise InputError(f"unknown table format {fmt!r}; choose from {', '.join(FORMATS)}")
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c)
              for i, c in enumerate(table.columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in table.right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    lines = [table.title] if table.title else []
    lines.append(line(table.columns))
    lines.append("  ".join("-" * w for w in widths))
    lines += [line(r) for r in rows]
    lines += table.notes
    return "\n".join(lines) + "\n"


_TABLES: Registry[TableSpec] = Registry("zerosum.tables", "table", lambda spec: spec.name)


def register_table(spec: TableSpec) -> TableSpec:
    return _TABLES.register(spec)


def all_tables() -> list[TableSpec]:
    return _TABLES.all()


def get_table(name: str) -> TableSpec:
    return _TABLES.get(name)
