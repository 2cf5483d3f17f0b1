"""The page's drawing of a Connect Four position (its format: zerosum.web.views): the
grid, the top row first, columns numbered 1 to W as moves are written, the last stone
and a winning four marked."""

from __future__ import annotations

from typing import Any

from zerosum.games.connect4.bitboard import Geometry

View = dict[str, Any]


def winning_four(geo: Geometry, stones: int) -> list[tuple[int, int]]:
    """The (column, row) cells of one four in a row among `stones`, or []."""
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for col in range(geo.width):
        for row in range(geo.height):
            for dc, dr in steps:
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < geo.width and 0 <= r < geo.height
                       and stones & geo.bit(c, r) for c, r in cells):
                    return cells
    return []


def view(game: Any, state: Any, last: int | None = None) -> View:
    geo, width, height = game.geo, game.width, game.height
    red, yellow = state.stones

    def index(col: int, row: int) -> int:  # row 0 is the bottom; the view's top first
        return int((height - 1 - row) * width + col)

    cells = []
    for row in reversed(range(height)):
        for col in range(width):
            bit = geo.bit(col, row)
            cells.append("red" if red & bit else "yellow" if yellow & bit else "")
    marked = []
    if last is not None:
        filled = [r for r in range(height) if state.mask & geo.bit(last, r)]
        if filled:
            marked = [index(last, max(filled))]
    four = winning_four(geo, red) or winning_four(geo, yellow)
    return {"kind": "grid", "rows": height, "cols": width, "cells": cells, "click": "column",
            "moves": {str(a): game.format_move(a) for a in game.actions(state)},
            "col_labels": [str(c + 1) for c in range(width)],
            "last": marked, "line": [index(c, r) for c, r in four]}
