"""The N-Queens placement game (CMPT 317 assignment 4) in its four variations.

Two players, X (Max, player 1) and O, take turns placing a queen on an N x N board, on
a square that no queen already on the board attacks (same row, column or diagonal).

- 1a: the queen goes in the left-most empty column (X in column 1, O in column 2, ...).
  A player with no legal square loses; when all N queens are placed, the last mover
  wins. Utility +1 if X wins, -1 if O wins.
- 1b: the same game scored by the number k of queens on the board at the end:
  +k if X wins (k odd), -k if O wins (k even).
- 2: a queen may go on any unattacked square; the last player able to place wins (+1/-1).
- 2b: variation 2 scored like 1b (+k / -k).

In every variation the winner is the player who placed the last queen, so X wins
exactly when the final number of queens k is odd.

Actions are tuples numbered from 1: `('X', 3)` (player, row) in 1a/1b, `(2, 5)` (row,
column) in 2/2b, as the assignment's outputs print them (`str(action)`). They are examined
top to bottom (1a/1b) or row by row, left to right (2/2b). Every interface writes them in
the game's notation (format_move): `X3` (X's queen in row 3 of the left-most empty
column) and `r2c5` (row 2, column 5); parse_move reads that, a bare number or two, and
the tuple.

States are small tuples of ints (bitmasks), plus the history of placements so a board
can be drawn:

- 1a/1b: `(rows, used, left, right)`: `rows` the 0-based row of the queen in each filled
  column, `used` the rows taken, `left`/`right` the rows of the next column attacked
  along the two diagonals (the classic bit-parallel N-Queens representation: moving one
  column to the right shifts the diagonal masks by one bit).
- 2/2b: `(squares, free, boards)`: `squares` the 0-based square index (row * N + column)
  of each queen in placement order, `free` the mask of unattacked empty squares, and
  `boards` the queens' mask under each of the 8 symmetries of the square (kept up to
  date move by move, so the canonical key is a `min` over 8 ints).

Keys fold symmetries, which is sound because the rules and the utility are invariant
under them: mirroring the rows (top <-> bottom) for 1a/1b (mirroring columns or
rotating would change which column is "left-most"), all eight symmetries of the square
for 2/2b. The key keeps only what decides the rest of the game.

The heuristic (`evaluate`) bounds how many more queens can still be placed, lo <= e <= hi,
and averages the utility over the game lengths in [lo, hi], each taken as equally likely.
The winner is decided by the parity of the final count, so the estimate says "X wins"
strongly when most lengths in range are good for X and is near 0 when it cannot tell;
when lo == hi it is the exact value. The bounds:

- 1a/1b: hi = the number of consecutive columns, from the left-most empty one, that still
  have an unattacked square now (squares only ever get attacked, never freed, so the game
  ends at the first empty column). lo: a queen attacks at most 3 squares of any later
  column (its row and two diagonals), so a column d places further on that has more than
  3d unattacked squares now cannot be empty when the game reaches it; lo counts the
  columns that are open for certain in this sense.
- 2/2b: hi = the fewest rows, columns, diagonals or anti-diagonals that hold the
  unattacked squares: each queen uses up one line of each kind. lo = ceil(f / (1 + D)),
  f the unattacked squares and D the most unattacked squares any one of them attacks:
  a placement removes at most 1 + D of them, and the game lasts while any is left.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from typing import Any

from zerosum.convert import int_arg, parse_int, shown
from zerosum.game import GameBase, InputError, Values
from zerosum.games.bits import bits
from zerosum.games.registry import GameSpec, Option, register

VARIATIONS = ("1a", "1b", "2", "2b")
PLAYERS = ("X", "O")
MAX_SIZE = 64

ColumnAction = tuple[str, int]  # (player, row), row from 1
SquareAction = tuple[int, int]  # (row, column), both from 1
ColumnState = tuple[tuple[int, ...], int, int, int]
SquareState = tuple[tuple[int, ...], int, tuple[int, ...]]




class NQueens(GameBase[Any, Any]):
    """What the variations share: players, scoring, the heuristic's averaging, display.

    Use `nqueens(size, variation)` to make one.
    """

    name = "nqueens"
    players = PLAYERS
    variation = ""

    def __init__(self, size: int) -> None:
        if not 1 <= size <= MAX_SIZE:
            raise InputError(f"board size must be 1 to {MAX_SIZE}, not {size}")
        self.size = size
        self.full = (1 << size) - 1
        self.scored = self.variation.endswith("b")
        # Scored variations: a win with k queens is worth k (at most one queen a row).
        most = float(size if self.scored else 1)
        self.values = Values("outcome", 1.0, -most, most)

    # ------------------------------------------------------------- scoring

    def count(self, state: Any) -> int:
        """Queens on the board."""
        return len(state[0])

    def final_utility(self, k: int) -> float:
        """The utility of a game that ends with k queens: the last placer wins."""
        magnitude = k if self.scored else 1
        return float(magnitude if k % 2 else -magnitude)

    def utility(self, state: Any) -> float:
        return self.final_utility(self.count(state))

    def is_maxs_turn(self, state: Any) -> bool:
        return self.count(state) % 2 == 0

    def remaining_bounds(self, state: Any) -> tuple[int, int]:
        """(lo, hi): at least lo and at most hi more queens will be placed (lo >= 1)."""
        raise NotImplementedError

    def evaluate(self, state: Any) -> float:
        """The mean utility over the game lengths still possible (see the module doc)."""
        k = self.count(state)
        lo, hi = self.remaining_bounds(state)
        return sum(self.final_utility(k + e) for e in range(lo, hi + 1)) / (hi - lo + 1)

    # ------------------------------------------------------------- display


    def outcome(self, state: Any) -> str:
        k = self.count(state)
        winner = self.winner(state)
        queens = f"{k} queen{'s' if k != 1 else ''}"
        if k == self.size and self.actions(state) == []:
            why = f"all {queens} are placed"
        else:
            why = f"no safe square left for {PLAYERS[k % 2]} after {queens}"
        return f"{why[0].upper()}{why[1:]}: {winner} wins"

    def draw(self, squares: Sequence[int], free: int) -> str:
        """The board: X and O for the queens each placed, '.' open, '-' attacked."""
        n = self.size
        cells = ["." if free >> sq & 1 else "-" for sq in range(n * n)]
        for i, sq in enumerate(squares):
            cells[sq] = PLAYERS[i % 2]
        header = "   " + " ".join(f"{c + 1:>2}" for c in range(n))
        lines = [header]
        for r in range(n):
            lines.append(f"{r + 1:>2} " + " ".join(f"{x:>2}" for x in cells[r * n:(r + 1) * n]))
        return "\n".join(lines)

    @staticmethod
    def numbers(text: str) -> list[int]:
        return [parse_int(x, "a row or column") for x in re.findall(r"-?[0-9]+", text)]


class ColumnQueens(NQueens):
    """Variations 1a and 1b: each queen goes in the left-most empty column."""

    def __init__(self, size: int, variation: str = "1a") -> None:
        self.variation = variation
        super().__init__(size)
        n = size
        self._actions = [[(p, r + 1) for r in range(n)] for p in PLAYERS]

    def initial_state(self) -> ColumnState:
        return ((), 0, 0, 0)

    def open_rows(self, state: ColumnState) -> int:
        """Mask of the unattacked rows of the left-most empty column."""
        _, used, left, right = state
        return ~(used | left | right) & self.full

    def actions(self, state: ColumnState) -> list[ColumnAction]:
        if len(state[0]) == self.size:
            return []
        row_actions = self._actions[len(state[0]) % 2]
        return [row_actions[r] for r in bits(self.open_rows(state))]

    def is_terminal(self, state: ColumnState) -> bool:
        return len(state[0]) == self.size or not self.open_rows(state)

    def result(self, state: ColumnState, action: ColumnAction) -> ColumnState:
        rows, used, left, right = state
        player, row = action
        k = len(rows)
        if k == self.size or player != PLAYERS[k % 2] or not 1 <= row <= self.size:
            raise InputError(f"not a legal move here: {action!r}")
        bit = 1 << (row - 1)
        if bit & (used | left | right):
            raise InputError(f"row {row} of column {k + 1} is attacked")
        # One column to the right, the left-going diagonal moves down one row, the
        # right-going one up one row; rows off the board drop out.
        return (*rows, row - 1), used | bit, ((left | bit) << 1) & self.full, (right | bit) >> 1

    def _reverse(self, mask: int) -> int:
        return int(format(mask, f"0{self.size}b")[::-1], 2) if mask else 0

    def key(self, state: ColumnState) -> Hashable:
        # The rest of the game depends only on the three masks (the number of queens is
        # the number of used rows). Mirroring the rows swaps the two diagonals.
        # Packed into one int (smaller and faster to hash than a tuple).
        _, used, left, right = state
        n = self.size
        plain = (used << 2 * n) | (left << n) | right
        rev = self._reverse
        mirror = (rev(used) << 2 * n) | (rev(right) << n) | rev(left)
        return min(plain, mirror)

    def order(self, state: ColumnState, actions: Sequence[ColumnAction]) -> list[ColumnAction]:
        """Fewest replies first: a move leaving the opponent nothing wins at once, and
        moves that leave few replies make the smallest trees to prove."""
        _, used, left, right = state
        full = self.full

        def replies(action: ColumnAction) -> int:
            bit = 1 << (action[1] - 1)
            nxt = ~((used | bit) | ((left | bit) << 1) | ((right | bit) >> 1)) & full
            return nxt.bit_count()

        return sorted(actions, key=replies)

    def column_open(self, state: ColumnState, distance: int) -> int:
        """Unattacked rows, now, of the column `distance` places right of the left-most
        empty one."""
        _, used, left, right = state
        return ~(used | (left << distance) | (right >> distance)) & self.full

    def remaining_bounds(self, state: ColumnState) -> tuple[int, int]:
        empty = self.size - len(state[0])
        hi = 1
        while hi < empty and self.column_open(state, hi):
            hi += 1
        lo = 1
        while lo < hi and self.column_open(state, lo).bit_count() > 3 * lo:
            lo += 1
        return lo, hi

    def render(self, state: ColumnState) -> str:
        rows = state[0]
        n = self.size
        squares = [r * n + c for c, r in enumerate(rows)]
        k = len(rows)
        free = 0
        for d in range(n - k):
            for r in bits(self.column_open(state, d)):
                free |= 1 << (r * n + k + d)
        board = self.draw(squares, free)
        if self.is_terminal(state):
            return board
        return f"{board}\n{PLAYERS[k % 2]} to move in column {k + 1}"

    def format_move(self, action: ColumnAction) -> str:
        player, row = action
        return f"{player}{row}"

    def parse_move(self, state: ColumnState, text: str) -> ColumnAction:
        legal = self.actions(state)
        if not legal:
            raise InputError("the game is over")
        player = legal[0][0]
        letters = re.findall(r"[A-Za-z]", text)
        if letters and "".join(letters).upper() != player:
            raise InputError(f"it is {player}'s turn, not {shown(''.join(letters))}")
        nums = self.numbers(text)
        if len(nums) != 1:
            raise InputError(f"a move is a row number 1-{self.size}, not {shown(text.strip())}")
        action = (player, nums[0])
        if action not in legal:
            column = len(state[0]) + 1
            raise InputError(f"row {nums[0]} of column {column} is not open "
                             f"(open rows: {', '.join(str(a[1]) for a in legal)})")
        return action

    def move_help(self) -> str:
        return (f"Type the row (1-{self.size}, top to bottom) for your queen in the "
                "left-most empty column, e.g. 3 or X3.")


class SquareQueens(NQueens):
    """Variations 2 and 2b: a queen may go on any unattacked square."""

    def __init__(self, size: int, variation: str = "2") -> None:
        self.variation = variation
        super().__init__(size)
        n = size
        self.squares = n * n
        self._actions = [(sq // n + 1, sq % n + 1) for sq in range(self.squares)]
        self.attacks = self._attack_masks()
        self.images = [self._images(sq) for sq in range(self.squares)]

    def _attack_masks(self) -> list[int]:
        """For each square: itself and every square a queen on it attacks (the union of
        its row, column, diagonal and anti-diagonal)."""
        n = self.size
        rows, cols = [0] * n, [0] * n
        diag, anti = [0] * (2 * n), [0] * (2 * n)
        for sq in range(self.squares):
            r, c = divmod(sq, n)
            bit = 1 << sq
            rows[r] |= bit
            cols[c] |= bit
            diag[r - c + n] |= bit
            anti[r + c] |= bit
        return [rows[r] | cols[c] | diag[r - c + n] | anti[r + c]
                for r, c in (divmod(sq, n) for sq in range(self.squares))]

    def _images(self, sq: int) -> tuple[int, ...]:
        """The bit of `sq` under each of the 8 symmetries of the square (identity first)."""
        m = self.size - 1
        r, c = divmod(sq, self.size)
        cells = ((r, c), (c, m - r), (m - r, m - c), (m - c, r),
                 (r, m - c), (m - r, c), (c, r), (m - c, m - r))
        return tuple(1 << (i * self.size + j) for i, j in cells)

    def initial_state(self) -> SquareState:
        return ((), (1 << self.squares) - 1, (0,) * 8)

    def actions(self, state: SquareState) -> list[SquareAction]:
        table = self._actions
        return [table[sq] for sq in bits(state[1])]

    def is_terminal(self, state: SquareState) -> bool:
        return not state[1]

    def result(self, state: SquareState, action: SquareAction) -> SquareState:
        squares, free, boards = state
        r, c = action
        n = self.size
        if not (1 <= r <= n and 1 <= c <= n) or not free >> ((r - 1) * n + c - 1) & 1:
            raise InputError(f"square {self.format_move(action)} is not open")
        sq = (r - 1) * n + c - 1
        images = self.images[sq]
        return ((*squares, sq), free & ~self.attacks[sq],
                tuple(b | i for b, i in zip(boards, images, strict=True)))

    def key(self, state: SquareState) -> Hashable:
        return min(state[2])

    def order(self, state: SquareState, actions: Sequence[SquareAction]) -> list[SquareAction]:
        """Fewest replies first (see ColumnQueens.order)."""
        free = state[1]
        n = self.size
        attacks = self.attacks
        return sorted(actions,
                      key=lambda a: (free & ~attacks[(a[0] - 1) * n + a[1] - 1]).bit_count())

    def remaining_bounds(self, state: SquareState) -> tuple[int, int]:
        free = state[1]
        n = self.size
        cells = bits(free)
        lines: tuple[set[int], ...] = (set(), set(), set(), set())
        for sq in cells:
            r, c = divmod(sq, n)
            for line, index in zip(lines, (r, c, r - c, r + c), strict=True):
                line.add(index)
        hi = min(len(line) for line in lines)
        most = max((free & self.attacks[sq]).bit_count() for sq in cells)  # 1 + D
        lo = min(hi, -(-len(cells) // most))
        return lo, hi

    def render(self, state: SquareState) -> str:
        board = self.draw(state[0], state[1])
        if self.is_terminal(state):
            return board
        return f"{board}\n{PLAYERS[len(state[0]) % 2]} to move"

    def format_move(self, action: SquareAction) -> str:
        row, column = action
        return f"r{row}c{column}"

    def parse_move(self, state: SquareState, text: str) -> SquareAction:
        nums = self.numbers(text)
        if len(nums) != 2:
            raise InputError(f"a move is a row and a column, e.g. 2 3, not {shown(text.strip())}")
        action = (nums[0], nums[1])
        if action not in self.actions(state):
            raise InputError(f"square {self.format_move(action)} is not open")
        return action

    def move_help(self) -> str:
        return (f"Type the row and column (each 1-{self.size}) of an open square, "
                "e.g. 2 3 or r2c3.")


def nqueens(size: int = 8, variation: str = "1a") -> NQueens:
    """The N-Queens game on a size x size board in the given variation (1a, 1b, 2, 2b)."""
    if variation in ("1a", "1b"):
        return ColumnQueens(size, variation)
    if variation in ("2", "2b"):
        return SquareQueens(size, variation)
    raise InputError(f"unknown variation {shown(variation)}; choose from {', '.join(VARIATIONS)}")


board_size = int_arg(1, MAX_SIZE, "board_size")  # the --size option


def tree_size(game: NQueens) -> int:
    """Nodes of the full game tree, root included, counted by walking it (perft)."""
    state = game.initial_state()

    def walk(state: Any) -> int:
        if game.is_terminal(state):
            return 1
        return 1 + sum(walk(game.result(state, a)) for a in game.actions(state))

    return walk(state)


def view(game: NQueens, state: Any, last: Any = None) -> dict[str, Any]:
    """The page's drawing (its format: zerosum.web.views): rows and columns numbered
    from 1 at the top left as moves are written (X3: row 3 of the next column; r2c5),
    the safe squares shaded open."""
    n = game.size
    by_square = game.variation.startswith("2")
    squares = state[0] if by_square else [row * n + col for col, row in enumerate(state[0])]
    cells = [""] * (n * n)
    for i, sq in enumerate(squares):
        cells[sq] = "queen-" + game.players[i % 2]
    moves = {}
    for a in game.actions(state):
        # 1a/1b: (player, row) in the left-most empty column; 2/2b: (row, column).
        row, col = (a[1], len(squares) + 1) if isinstance(a[0], str) else a
        moves[str((row - 1) * n + col - 1)] = game.format_move(a)
    marked = [] if last is None or not squares else [squares[-1]]
    labels = [str(i + 1) for i in range(n)]
    return {"kind": "grid", "rows": n, "cols": n, "cells": cells, "click": "cell",
            "moves": moves, "show_open": True, "row_labels": labels, "col_labels": labels,
            "last": marked, "line": []}


register(
    GameSpec(
        "nqueens",
        "N-Queens",
        nqueens,
        options=(
            Option("size", board_size, 6, "board size N"),
            Option("variation", str, "1a", "variation of the rules: 1a, 1b, 2 or 2b",
                   choices=VARIATIONS,
                   explain="Queens go on squares no queen attacks; whoever places the last "
                   "queen wins. 1a: each queen goes in the left-most empty column. 1b: as "
                   "1a, and the win is worth the number of queens placed. 2: a queen may "
                   "go on any safe square. 2b: as 2, worth the number of queens."),
        ),
        default_depth=4,
        summary="place queens no queen attacks; the last to place wins",
        view=view,
    )
)

__all__ = ["VARIATIONS", "ColumnQueens", "NQueens", "SquareQueens", "nqueens", "tree_size"]
