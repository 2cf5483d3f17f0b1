"""The page's drawing of a checkers position (its format: zerosum.web.views).

`cells` row by row from the top left ("b"/"w" men, "B"/"W" kings, "" empty), rows
lettered A, B, ... from the top and columns numbered from 1, as moves are written
(A2-B1); `moves` each legal move's `path` (the cell indices its piece visits) and
`text`, so the page can offer the final squares of every capture path and still play
exactly the move the server lists; `last` the path of the move that led here.
"""

from __future__ import annotations

from typing import Any

View = dict[str, Any]


def view(game: Any, state: Any, last: Any = None) -> View:
    b = game.board
    n = b.n

    def index(sq: int) -> int:
        row, col = b.row_col(sq)
        return int(row * n + col)

    cells = [""] * (n * n)
    for sq in b.squares:
        cells[index(sq)] = game.piece_at(state, sq)
    moves = [{"path": [index(sq) for sq in path], "text": game.format_move(path)}
             for path in game.actions(state)]
    return {"kind": "paths", "rows": n, "cols": n, "cells": cells, "moves": moves,
            "row_labels": [chr(ord("A") + r) for r in range(n)],
            "col_labels": [str(c + 1) for c in range(n)],
            "last": [] if last is None else [index(sq) for sq in last], "line": []}
