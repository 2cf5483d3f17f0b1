"""What the page draws for a state: one small function per drawable game.

A view is plain JSON. A board game's view is a grid, `cells` row by row from the top
left, each the name of what stands there ("" for empty), with `click` ("cell" or
"column") saying what a click chooses and `moves` mapping a clicked cell or column
index to the move's text in the game's notation. Optional extras: `scores` (each
player's points, shown under the board) and `show_open` (shade the cells that are not
moves now: N-Queens' attacked squares and later columns). Games without a drawing fall
back to their text rendering.

Checkers has its own kind: `cells` as above ("b"/"w" men, "B"/"W" kings), and `moves`
a list of each legal move's `path` (the cell indices its piece visits) and `text`, so
the page can offer the final squares of every capture path and still play exactly the
move the server lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerosum.game import AnyGame
from zerosum.games.maxconnect4.bitboard import COLS, ROWS, cell

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


def maxconnect4_view(game: Any, state: Any) -> View:
    cells = []
    for row in reversed(range(ROWS)):  # the top row first
        for col in range(COLS):
            bit = cell(col, row)
            cells.append("red" if state.p1 & bit else "yellow" if state.p2 & bit else "")
    moves = {str(a): game.format_move(a) for a in game.actions(state)}
    return {"kind": "grid", "rows": ROWS, "cols": COLS, "cells": cells, "click": "column",
            "moves": moves, "scores": {"Player 1": state.score1, "Player 2": state.score2}}


def nqueens_view(game: Any, state: Any) -> View:
    n = game.size
    squares = state[0] if game.variation.startswith("2") else [
        row * n + col for col, row in enumerate(state[0])]
    cells = [""] * (n * n)
    for i, sq in enumerate(squares):
        cells[sq] = "queen-" + game.players[i % 2]
    moves = {}
    for a in game.actions(state):
        # 1a/1b: (player, row) in the left-most empty column; 2/2b: (row, column).
        row, col = (a[1], len(squares) + 1) if isinstance(a[0], str) else a
        moves[str((row - 1) * n + col - 1)] = game.format_move(a)
    return {"kind": "grid", "rows": n, "cols": n, "cells": cells, "click": "cell",
            "moves": moves, "show_open": True}


def checkers_view(game: Any, state: Any) -> View:
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
    return {"kind": "checkers", "rows": n, "cols": n, "cells": cells, "moves": moves}


VIEWS: dict[str, Callable[[Any, Any], View]] = {
    "tictactoe": tictactoe_view,
    "connect4": connect4_view,
    "maxconnect4": maxconnect4_view,
    "nqueens": nqueens_view,
    "checkers": checkers_view,
}


def view_of(name: str, game: AnyGame, state: Any) -> View:
    """The drawing of `state` for the page (the text rendering if the game has none)."""
    draw = VIEWS.get(name)
    if draw is None:
        return {"kind": "text", "text": game.render(state)}
    return draw(game, state)
