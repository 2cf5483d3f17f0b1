"""One front end (issue 23): the page and the notebook widget draw their boards with
the one module, web/static/board.js, coloured by the one board.css. Checked on the
source: both import the drawing from board.js, no other module defines a function
board.js defines, and no other module draws a board's parts."""

from __future__ import annotations

import re
from pathlib import Path

import zerosum

STATIC = Path(zerosum.__file__).parent / "web" / "static"
DEFINED = re.compile(r"^(?:export )?(?:async )?(?:function\s+([\w$]+)|const\s+([\w$]+)\s*=\s*"
                     r"(?:\([^)]*\)|[\w$]+)\s*=>)", re.M)
# The SVG classes of a board's parts (those no sentence of a page uses): only board.js
# makes elements of these classes.
BOARD_PARTS = ("board-bg", "hole", "stone", "offered", "last-move", "win-line", "ghost",
               "pv-path", "badge", "cell-label")


def source(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def functions(code: str) -> set[str]:
    """The names of the functions a module defines at its top level."""
    return {a or b for a, b in DEFINED.findall(code)}


def others() -> list[Path]:
    return [p for p in sorted(STATIC.glob("*.js")) if p.name != "board.js"]


def test_the_page_and_the_widget_draw_with_board_js() -> None:
    for name in ("app.js", "widget.js"):
        imports = re.findall(r'^import \{([^}]*)\} from "(?:\./|/static/)board\.js";', source(name),
                             re.M)
        assert imports and "drawBoard" in imports[0], name
    assert 'href="/static/board.css"' in source("index.html")


def test_no_function_of_board_js_is_defined_again() -> None:
    drawing = functions(source("board.js"))
    assert {"drawBoard", "drawGrid", "drawCheckers", "piece", "coordinates"} <= drawing
    for path in others():
        assert functions(path.read_text(encoding="utf-8")) & drawing == set(), path.name


def words(code: str) -> set[str]:
    """The words of a module's string literals (class names among them)."""
    strings = re.findall(r""""[^"\n]*"|'[^'\n]*'|`[^`]*`""", code)
    return {w for s in strings for w in re.split(r"[^\w-]+", re.sub(r"\$\{[^}]*\}", " ", s)) if w}


def test_no_other_module_draws_a_board_part() -> None:
    assert words(source("board.js")) >= set(BOARD_PARTS)
    for path in others():
        assert words(path.read_text(encoding="utf-8")) & set(BOARD_PARTS) == set(), path.name


def test_the_check_sees_a_second_drawing() -> None:
    """The page's board code of before, in brief: caught by both checks."""
    old = ('function piece(kind, x, y) {}\n'
           'const centre = (view, i) => i;\n'
           'svg.append(el("rect", { x, class: "last-move" }));\n')
    assert functions(old) & functions(source("board.js")) == {"piece", "centre"}
    assert words(old) & set(BOARD_PARTS) == {"last-move"}
