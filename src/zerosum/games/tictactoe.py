"""Tic-tac-toe: the smallest real game, for tests, demos and the first menu entry.

A state is (board, player): the board a 9-character string read row by row
('X', 'O' or '.'), X (Max) moves first. Actions are cell numbers 0-8; people type 1-9.
"""

from __future__ import annotations

from zerosum.convert import parse_int, shown
from zerosum.game import OUTCOME_BOUNDED, GameBase, InputError
from zerosum.games.registry import Cells, GameSpec, InARow, View, register

State = tuple[str, str]
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToe(GameBase[State, int]):
    name = "tictactoe"
    players = ("X", "O")
    values = OUTCOME_BOUNDED

    def initial_state(self) -> State:
        return ("." * 9, "X")

    def winner_mark(self, board: str) -> str | None:
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return board[a]
        return None

    def actions(self, state: State) -> list[int]:
        board = state[0]
        if self.winner_mark(board):
            return []
        return [i for i, c in enumerate(board) if c == "."]

    def result(self, state: State, action: int) -> State:
        board, player = state
        if board[action] != ".":
            raise InputError(f"cell {action + 1} is taken")
        board = board[:action] + player + board[action + 1 :]
        return board, "O" if player == "X" else "X"

    def pass_turn(self, state: State) -> State:
        board, player = state
        return board, "O" if player == "X" else "X"

    def is_terminal(self, state: State) -> bool:
        return self.winner_mark(state[0]) is not None or "." not in state[0]

    def utility(self, state: State) -> float:
        mark = self.winner_mark(state[0])
        return 1.0 if mark == "X" else -1.0 if mark == "O" else 0.0

    def is_maxs_turn(self, state: State) -> bool:
        return state[1] == "X"

    def evaluate(self, state: State) -> float:
        """Lines still open to X minus lines open to O, scaled into (-1, 1)."""
        board = state[0]
        open_x = sum(1 for line in LINES if all(board[i] != "O" for i in line))
        open_o = sum(1 for line in LINES if all(board[i] != "X" for i in line))
        return (open_x - open_o) / 9

    def render(self, state: State) -> str:
        b = state[0]
        rows = [" ".join(b[r * 3 : r * 3 + 3]) for r in range(3)]
        if self.is_terminal(state):
            return "\n".join(rows)
        return "\n".join(rows) + f"\n{state[1]} to move"

    def outcome(self, state: State) -> str:
        mark = self.winner_mark(state[0])
        return f"{mark} wins: three in a row" if mark else "Draw: the board is full"

    def format_move(self, action: int) -> str:
        return str(action + 1)

    def parse_move(self, state: State, text: str) -> int:
        text = text.strip()
        try:
            cell = parse_int(text, lo=1, hi=9) - 1
        except InputError:
            raise InputError(f"a move is a cell number 1-9 (row by row), "
                             f"not {shown(text)}") from None
        if cell not in self.actions(state):
            raise InputError(f"cell {text} is not free")
        return cell

    def move_help(self) -> str:
        return "Type the cell number, 1-9, counted row by row from the top left."


def view(game: TicTacToe, state: State, last: int | None = None) -> View:
    """The page's drawing (its format: zerosum.web.views): the cells numbered 1-9 as
    moves are typed."""
    board = state[0]
    line: list[int] = []
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            line = [a, b, c]
            break
    return {"kind": "grid", "rows": 3, "cols": 3,
            "cells": ["" if c == "." else c for c in board], "click": "cell",
            "moves": {str(a): game.format_move(a) for a in game.actions(state)},
            "cell_labels": [str(i + 1) for i in range(9)],
            "last": [] if last is None else [last], "line": line}


def _turn(cells: tuple[int, ...]) -> tuple[int, ...]:
    """A quarter turn of the 3x3 grid: the cell at (r, c) goes to (c, 2 - r)."""
    return tuple(cells[(i % 3) * 3 + 2 - i // 3] for i in range(9))


def cells(game: TicTacToe) -> Cells:
    """The board as cells (see Cells) with its eight symmetries: four turns, each also
    mirrored."""
    turns = [tuple(range(9))]
    for _ in range(3):
        turns.append(_turn(turns[-1]))
    mirrored = [tuple(t[r * 3 + 2 - c] for r in range(3) for c in range(3)) for t in turns]
    code = {".": 0, "X": 1, "O": 2}
    return Cells(3, 3, lambda state: [code[c] for c in state[0]], (*turns, *mirrored),
                 in_a_row=InARow(3))


register(
    GameSpec(
        "tictactoe",
        "Tic-tac-toe",
        TicTacToe,
        default_depth=9,
        summary="3x3, three in a row wins; a draw with best play",
        view=view,
        cells=cells,
    )
)
