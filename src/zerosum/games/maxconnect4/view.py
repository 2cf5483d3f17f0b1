"""The page's drawing of a Max-Connect4 position (its format: zerosum.web.views): the
grid, the top row first, columns numbered 1-7 as moves are written, the last piece
marked, the scores."""

from __future__ import annotations

from typing import Any

from zerosum.games.maxconnect4.bitboard import COLS, ROWS, cell

View = dict[str, Any]


def view(game: Any, state: Any, last: int | None = None) -> View:
    cells = []
    for row in reversed(range(ROWS)):  # the top row first
        for col in range(COLS):
            bit = cell(col, row)
            cells.append("red" if state.p1 & bit else "yellow" if state.p2 & bit else "")
    marked = []
    if last is not None:
        mask = state.p1 | state.p2
        filled = [r for r in range(ROWS) if mask & cell(last, r)]
        if filled:
            marked = [(ROWS - 1 - max(filled)) * COLS + last]
    return {"kind": "grid", "rows": ROWS, "cols": COLS, "cells": cells, "click": "column",
            "moves": {str(a): game.format_move(a) for a in game.actions(state)},
            "col_labels": [str(c + 1) for c in range(COLS)], "last": marked, "line": [],
            "scores": {"Player 1": state.score1, "Player 2": state.score2}}
