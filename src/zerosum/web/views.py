"""What the page draws for a state: the game's own drawing (GameSpec.view), or its
text rendering for a game without one (a person's own game file, Take-Stones).

A view is plain JSON. A board game's view is a grid, `cells` row by row from the top
left, each the name of what stands there ("" for empty), with `click` ("cell" or
"column") saying what a click chooses and `moves` mapping a clicked cell or column
index to the move's text in the game's notation. The coordinates, in the notation the
moves are written in: `row_labels` (top first), `col_labels` (left first) or
`cell_labels` (one per cell). `last`, the cells of the move that led here; `line`, a
finished game's winning line. Optional: `scores` (each player's points, shown under the
board) and `show_open` (shade the cells that are not moves now: N-Queens' attacked
squares and later columns).

A board whose moves are paths (checkers) is `kind` "paths": `cells` as above ("b"/"w"
men, "B"/"W" kings), and `moves` a list of each legal move's `path` (the cell indices
its piece visits) and `text`, so the page can offer the final squares of every capture
path and still play exactly the move the server lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zerosum.game import AnyGame
from zerosum.games.registry import GameSpec, View
from zerosum.svg import pv_marks as marks_of


def view_of(spec: GameSpec, game: AnyGame, state: Any, last: Any = None) -> View:
    """The drawing of `state` for the page, `last` the move that led to it."""
    if spec.view is None:
        return {"kind": "text", "text": game.render(state)}
    return spec.view(game, state, last)


def pv_marks(spec: GameSpec, game: AnyGame, state: Any, pv: Sequence[Any]) -> list[list[int]]:
    """Where each move of a principal variation lands, as the notebook draws it too
    (zerosum.svg.pv_marks, from the game's declared drawing); [] for a game drawn as text."""
    return marks_of(spec.view, game, state, pv)
