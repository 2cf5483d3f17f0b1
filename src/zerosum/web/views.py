"""What the page draws for a state: one small function per drawable game.

A view is plain JSON. A board game's view is a grid, `cells` row by row from the top
left, each the name of what stands there ("" for empty), with `click` ("cell" or
"column") saying what a click chooses and `moves` mapping a clicked cell or column
index to the move's text in the game's notation. Games without a drawing fall back to
their text rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerosum.game import AnyGame

View = dict[str, Any]


def tictactoe_view(game: Any, state: Any) -> View:
    board, _ = state
    cells = ["" if c == "." else c for c in board]
    moves = {str(a): game.format_move(a) for a in game.actions(state)}
    return {"kind": "grid", "rows": 3, "cols": 3, "cells": cells, "click": "cell",
            "moves": moves}


def connect4_view(game: Any, state: Any) -> View:
    red, yellow = state.stones
    cells = []
    for row in reversed(range(game.height)):  # the top row first
        for col in range(game.width):
            bit = game.geo.bit(col, row)
            cells.append("red" if red & bit else "yellow" if yellow & bit else "")
    moves = {str(a): game.format_move(a) for a in game.actions(state)}
    return {"kind": "grid", "rows": game.height, "cols": game.width, "cells": cells,
            "click": "column", "moves": moves}


VIEWS: dict[str, Callable[[Any, Any], View]] = {
    "tictactoe": tictactoe_view,
    "connect4": connect4_view,
}


def view_of(name: str, game: AnyGame, state: Any) -> View:
    """The drawing of `state` for the page (the text rendering if the game has none)."""
    draw = VIEWS.get(name)
    if draw is None:
        return {"kind": "text", "text": game.render(state)}
    return draw(game, state)
