"""A board drawn as SVG text from its view: the same drawing as the page's
(web/static/app.js), for notebooks and files, with no browser and no web extra.

A view is the plain JSON a game declares for the page (see web/views.py): `kind`
"grid" (`rows`, `cols`, `cells` row by row from the top left, `click` "cell" or
"column", `moves` a clicked index to the move's text), "paths" (checkers: `cells` with
"b"/"w" men and "B"/"W" kings, `moves` a list of `path` and `text`) or "text". The
optional parts are drawn where a view has them: coordinates (`row_labels`,
`col_labels`, `cell_labels`), the last move's cells (`last`), a winning line (`line`),
N-Queens' open squares (`show_open`) and each player's points (`scores`). This module
reads nothing but the view, so any game with a view draws here as on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

CELL = 60  # pixels a square, as on the page
MARGIN = 18  # room for the coordinates
BLUE, HOLE = "#1f4e9c", "#f6f7f9"
RED, YELLOW = "#d62828", "#f4c20d"
X_COLOUR, O_COLOUR = "#2b5cab", "#b23a48"
LIGHT, DARK = "#ecd9b8", "#7a5230"
MARK = "#c9a227"  # the last move's squares
LINE = "#2e9d4a"  # a winning line

View = Mapping[str, Any]


def tag(name: str, text: str | None = None, **attrs: Any) -> str:
    """One SVG element; attribute names with `_` are written with `-`."""
    written = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v))}"'
                      for k, v in attrs.items())
    if text is None:
        return f"<{name}{written}/>"
    return f"<{name}{written}>{escape(text)}</{name}>"


def piece(kind: str, x: float, y: float) -> str:
    """A grid's piece: a stone (red, yellow), a queen (queen-NAME) or a letter (X, O)."""
    if kind.startswith("queen-"):
        colour = X_COLOUR if kind == "queen-X" else O_COLOUR
        return tag("text", "\u265b", x=x + CELL / 2, y=y + CELL * 0.72, text_anchor="middle",
                   font_size=CELL * 0.7, fill=colour, class_="queen")
    if kind in ("red", "yellow"):
        return tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.4,
                   fill=RED if kind == "red" else YELLOW, stroke="#0003", class_=kind)
    return tag("text", kind, x=x + CELL / 2, y=y + CELL * 0.68, text_anchor="middle",
               font_size=CELL * 0.6, font_weight="bold",
               fill=X_COLOUR if kind == "X" else O_COLOUR, class_="piece")


PV_MARKS = 12  # moves of a principal variation drawn on the board


def pv_marks(draw: Callable[[Any, Any, Any], View] | None, game: Any, state: Any,
             pv: Sequence[Any]) -> list[list[int]]:
    """Where each move of a principal variation from `state` lands: the cells of each
    (the `last` of the game's own drawing, `draw`, after it: a stone's cell, a checkers
    move's path), the first PV_MARKS moves; [] for a game drawn as text. Computed here
    once, for the page (its think socket sends them) and the notebook alike."""
    if draw is None:
        return []
    marks = []
    for action in pv[:PV_MARKS]:
        state = game.result(state, action)
        marks.append(list(draw(game, state, action).get("last", [])))
    return marks


def labels(view: View, width: int, height: int) -> list[str]:
    """The coordinates around the board (rows left, columns below) or in each cell."""
    out = []
    for r, text in enumerate(view.get("row_labels") or ()):
        out.append(tag("text", str(text), x=-MARGIN / 2, y=(r + 0.5) * CELL + 4,
                       text_anchor="middle", font_size=12, fill="#555", class_="coord"))
    for c, text in enumerate(view.get("col_labels") or ()):
        out.append(tag("text", str(text), x=(c + 0.5) * CELL, y=height + MARGIN * 0.75,
                       text_anchor="middle", font_size=12, fill="#555", class_="coord"))
    for i, text in enumerate(view.get("cell_labels") or ()):
        x, y = (i % view["cols"]) * CELL, (i // view["cols"]) * CELL
        out.append(tag("text", str(text), x=x + 4, y=y + 12, font_size=10, fill="#888",
                       class_="coord"))
    return out


def grid(view: View, marks: Sequence[Sequence[int]], first: int) -> list[str]:
    rows, cols = view["rows"], view["cols"]
    columns = view["click"] == "column"
    over = not view["moves"]
    out = [tag("rect", width=cols * CELL, height=rows * CELL, fill=BLUE if columns else "#fff")]
    last, line = set(view.get("last") or ()), set(view.get("line") or ())
    for i, kind in enumerate(view["cells"]):
        x, y = (i % cols) * CELL, (i // cols) * CELL
        if columns:
            out.append(tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.4, fill=HOLE))
        else:
            # N-Queens shows which squares are still safe (open) and which are attacked.
            is_open = str(i) in view["moves"]
            fill = ("none" if not view.get("show_open") or kind
                    else "#e3f4e1" if is_open and not over else "#e6e8ec")
            out.append(tag("rect", x=x, y=y, width=CELL, height=CELL, fill=fill,
                           stroke="#1d2430"))
        if kind:
            out.append(piece(kind, x, y))
        if i in line:
            out.append(tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.44,
                           fill="none", stroke=LINE, stroke_width=4, class_="line"))
        if i in last:
            out.append(tag("rect", x=x + 3, y=y + 3, width=CELL - 6, height=CELL - 6,
                           fill="none", stroke=MARK, stroke_width=3, class_="last"))
    colours = (RED, YELLOW) if columns else (X_COLOUR, O_COLOUR)
    for k, i in enumerate(cells[0] for cells in marks if cells):
        x, y = (i % cols) * CELL, (i // cols) * CELL
        colour = colours[(first + k) % 2]
        out.append(tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.34, fill=colour,
                       fill_opacity=0.35, stroke=colour, stroke_width=2,
                       stroke_dasharray="4 3", class_="ghost"))
        out.append(tag("text", str(k + 1), x=x + CELL / 2, y=y + CELL * 0.62,
                       text_anchor="middle", font_size=CELL * 0.34, font_weight="bold",
                       fill="#1d2430"))
    return out


def checkers(view: View, marks: Sequence[Sequence[int]]) -> list[str]:
    n = view["cols"]
    out = []
    last = set(view.get("last") or ())
    for i, kind in enumerate(view["cells"]):
        r, c = divmod(i, n)
        x, y = c * CELL, r * CELL
        fill = MARK if i in last else DARK if (r + c) % 2 else LIGHT
        out.append(tag("rect", x=x, y=y, width=CELL, height=CELL, fill=fill))
        if kind:
            black = kind.lower() == "b"
            out.append(tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.38,
                           fill="#1d1d1d" if black else "#f4f1ea",
                           stroke="#666" if black else "#444", stroke_width=2,
                           class_=f"man {'black' if black else 'white'}"))
            if kind.isupper():
                out.append(tag("text", "K", x=x + CELL / 2, y=y + CELL * 0.64,
                               text_anchor="middle", font_size=CELL * 0.4,
                               font_weight="bold", fill="#d4a017", class_="king"))
    # The principal variation's first move: where its piece goes, numbered like the
    # page's ghosts (only the first can be placed without playing it).
    if marks and marks[0]:
        path = marks[0]
        points = " ".join(f"{(p % n + 0.5) * CELL},{(p // n + 0.5) * CELL}" for p in path)
        out.append(tag("polyline", points=points, fill="none", stroke="#f0a500",
                       stroke_width=5, stroke_dasharray="6 4", class_="ghost"))
    return out


def board_svg(view: View, marks: Sequence[Sequence[int]] = (), first: int = 0,
              title: str = "board") -> str:
    """The drawing of a view as one <svg> element (a text view: its text, a line a
    <text>); `marks`, where a principal variation's moves land (pv_marks), drawn as the
    page's numbered marks, its first move by player `first` (0: the first player, 1:
    the second)."""
    if view["kind"] == "text":
        lines = str(view["text"]).splitlines() or [""]
        height = 18 * len(lines) + 8
        width = 9 * max(len(line) for line in lines) + 16
        body = [tag("text", line, x=8, y=18 * (k + 1), font_family="monospace", font_size=14,
                    style="white-space:pre") for k, line in enumerate(lines)]
        return svg(width, height, 0, 0, body, title)
    width, height = view["cols"] * CELL, view["rows"] * CELL
    body = checkers(view, marks) if view["kind"] == "paths" else grid(view, marks, first)
    body += labels(view, width, height)
    left = MARGIN if view.get("row_labels") else 0
    below = MARGIN if view.get("col_labels") else 0
    if view.get("scores"):
        note = " \u00b7 ".join(f"{who}: {points}" for who, points in view["scores"].items())
        body.append(tag("text", note, x=width / 2, y=height + below + 16,
                        text_anchor="middle", font_size=14, class_="scores"))
        below += 22
    return svg(width + left, height + below, -left, 0, body, title)


def svg(width: float, height: float, x0: float, y0: float, body: list[str],
        title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="{x0} {y0} {width} {height}" role="img" aria-label="{escape(title)}">'
            + "".join(body) + "</svg>")
