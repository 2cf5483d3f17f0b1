"""Max-Connect4: Connect Four played until the board is full, scored by fours.

Every game lasts 42 moves. A player scores one point for each quadruple of four
consecutive cells (in a row, a column or either diagonal) holding four of its pieces;
overlapping quadruples count separately. The utility is the final score difference,
player 1 minus player 2. Either player may be next in a position read from a file.

Representation (as in Pons's Connect Four solver): a board is a 49-bit integer per
player, seven bits per column, bit `7*c + r` for column c (0 = left) and row r
(0 = bottom); the seventh bit of each column stays empty as a sentinel, so shifting by
1 (vertical), 7 (horizontal), 6 and 8 (diagonals) never wraps from one line into the
next. A state is a `Position` tuple: both bitboards, whose turn it is and both scores,
which `result` updates incrementally from the quadruples through the new piece.

Here: the game, the board-file format and play/evaluate on whole positions; the
bitboard layout, scoring and the evaluation are in bitboard.py, shared with the engine.

The file format (the classic assignment's): six lines of seven digits, top row first,
0 empty, 1 and 2 the players' pieces, then a line holding the player to move next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zerosum.convert import parse_int, shown
from zerosum.game import GameBase, InputError, Values
from zerosum.games.maxconnect4.bitboard import (
    BOARD,
    CENTRE_FIRST,
    COLS,
    ROWS,
    Position,
    cell,
    count_points,
    drop_cell,
    points_through,
    potential,
)
from zerosum.games.registry import GameSpec, PositionFormat, register
from zerosum.kernel import KernelSpec

# ----------------------------------------------------------- the file format


FILE_LIMIT = 4 * 1024  # bytes of a board file: 7 lines of 7 characters, with room to spare


def parse_board(text: str, source: str = "board", *, counts: bool = True) -> Position:
    """A position in the file format; InputError naming the line when it is malformed.

    LF, CRLF or CR line ends, with or without a final newline; blank lines after the
    next-player line are ignored. What counts as a valid board: six rows of seven
    digits 0, 1, 2; no piece above an empty cell; the next player 1 or 2; piece counts
    that taking turns can give (differing by at most one; the player with one more
    piece is not the next). `counts=False` skips the last check, for hand-made boards
    (tests of the scoring) that no game could reach.
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError(f"{source}: empty; expected 6 rows of 7 digits and the next player")
    if len(lines) < ROWS + 1:
        raise InputError(
            f"{source}: only {len(lines)} line{'s' if len(lines) != 1 else ''}; "
            f"expected 6 rows of 7 digits and a line with the next player (1 or 2)"
        )
    if len(lines) > ROWS + 1:
        raise InputError(f"{source}, line {ROWS + 2}: unexpected text after the next-player line")
    p1 = p2 = 0
    for i, line in enumerate(lines[:ROWS]):
        where = f"{source}, line {i + 1}"
        if len(line) != COLS:
            raise InputError(f"{where}: expected 7 digits, found {len(line)} characters: "
                             f"{shown(line)}")
        row = ROWS - 1 - i
        for c, ch in enumerate(line):
            if ch == "1":
                p1 |= cell(c, row)
            elif ch == "2":
                p2 |= cell(c, row)
            elif ch != "0":
                raise InputError(f"{where}, column {c + 1}: {ch!r} is not 0, 1 or 2")
    mask = p1 | p2
    for i in range(ROWS - 1):  # a piece on line i must stand on a piece on line i + 1
        row = ROWS - 1 - i
        for c in range(COLS):
            if mask & cell(c, row) and not mask & cell(c, row - 1):
                raise InputError(
                    f"{source}, line {i + 1}, column {c + 1}: "
                    f"a piece floats above an empty cell"
                )
    nxt = lines[ROWS].strip()
    if nxt not in ("1", "2"):
        raise InputError(f"{source}, line {ROWS + 1}: the next player must be 1 or 2, "
                         f"not {shown(nxt)}")
    if counts:
        _check_counts(p1.bit_count(), p2.bit_count(), int(nxt), source)
    return Position(p1, p2, nxt == "1", count_points(p1), count_points(p2))


def _check_counts(n1: int, n2: int, nxt: int, source: str) -> None:
    """The players take turns, either may have begun: the counts differ by at most one,
    and a player with one piece more has just moved, so the other is next."""
    counts = f"player 1 has {n1} pieces and player 2 has {n2}"
    if abs(n1 - n2) > 1:
        raise InputError(f"{source}: {counts}; players take turns, so the counts differ "
                         "by at most one")
    ahead = 1 if n1 > n2 else 2 if n2 > n1 else 0
    if ahead == nxt:
        raise InputError(f"{source}: {counts}, yet player {nxt} is next; the player with "
                         "one piece more has just moved, so the other is next")


def board_rows(pos: Position) -> list[str]:
    """The six rows of digits, top row first."""
    rows = []
    for row in range(ROWS - 1, -1, -1):
        digits = []
        for c in range(COLS):
            bit = cell(c, row)
            digits.append("1" if pos.p1 & bit else "2" if pos.p2 & bit else "0")
        rows.append("".join(digits))
    return rows


def format_board(pos: Position) -> str:
    """The file format with '\\n' line ends (writers turn them into CRLF)."""
    return "\n".join([*board_rows(pos), str(pos.next_player)]) + "\n"


def framed(pos: Position) -> str:
    """The board as the classic sample program prints it: a framed grid of digits."""
    lines = [" -----------------"]
    lines += [" | " + " ".join(row) + " |" for row in board_rows(pos)]
    lines.append(" -----------------")
    return "\n".join(lines)


def score_line(pos: Position) -> str:
    return f"Score: Player 1 = {pos.score1}, Player 2 = {pos.score2}"


# ------------------------------------------------------------------- the game


def empty_position(p1_to_move: bool = True) -> Position:
    return Position(0, 0, p1_to_move, 0, 0)


def play(pos: Position, col: int) -> Position:
    """The position after the mover drops a piece in column `col` (0-6)."""
    p1, p2, p1_to_move, s1, s2 = pos
    move = drop_cell(p1 | p2, col)
    if not move:
        raise InputError(f"column {col + 1} is full")
    index = move.bit_length() - 1
    if p1_to_move:
        p1 |= move
        s1 += points_through(p1, index)
    else:
        p2 |= move
        s2 += points_through(p2, index)
    return Position(p1, p2, not p1_to_move, s1, s2)


def evaluate_position(pos: Position) -> float:
    """The heuristic estimate of the final score difference, player 1 minus player 2.

    Computed in whole hundredths from the mover's side and divided once, exactly as
    the engine does, so that both give bit-for-bit the same values.
    """
    p1, p2, p1_to_move, s1, s2 = pos
    if p1_to_move:
        return (100 * (s1 - s2) + potential(p1, p2, p1 | p2)) / 100
    return -(100 * (s2 - s1) + potential(p2, p1, p1 | p2)) / 100


class MaxConnect4(GameBase[Position, int]):
    """Actions are columns 0-6 (people and files count them 1-7)."""

    name = "maxconnect4"
    players = ("Player 1", "Player 2")
    values = Values("score", 1.0, -69.0, 69.0)  # the difference in points; 69 fours fit

    def initial_state(self) -> Position:
        return empty_position()

    def actions(self, state: Position) -> list[int]:
        mask = state.p1 | state.p2
        return [c for c in range(COLS) if drop_cell(mask, c)]

    def result(self, state: Position, action: int) -> Position:
        return play(state, action)

    def is_terminal(self, state: Position) -> bool:
        return (state.p1 | state.p2) == BOARD

    def utility(self, state: Position) -> float:
        return state.score1 - state.score2

    def is_maxs_turn(self, state: Position) -> bool:
        return state.p1_to_move

    def pass_turn(self, state: Position) -> Position:
        """The same board, the other player next (a forfeited move)."""
        return state._replace(p1_to_move=not state.p1_to_move)

    def evaluate(self, state: Position) -> float:
        return evaluate_position(state)

    def key(self, state: Position) -> tuple[int, int, bool]:
        return state.p1, state.p2, state.p1_to_move  # the scores follow from the board

    def order(self, state: Position, actions: Sequence[int]) -> list[int]:
        return [c for c in CENTRE_FIRST if c in actions]

    def render(self, state: Position) -> str:
        board = "   1 2 3 4 5 6 7\n" + framed(state) + "\n" + score_line(state)
        if self.is_terminal(state):
            return board
        return board + f"\nPlayer {state.next_player} to move"

    def outcome(self, state: Position) -> str:
        result = ("Player 1 wins" if state.score1 > state.score2
                  else "Player 2 wins" if state.score2 > state.score1 else "a draw")
        return f"Final score {state.score1}-{state.score2}: {result}"

    def format_move(self, action: int) -> str:
        return str(action + 1)

    def parse_move(self, state: Position, text: str) -> int:
        text = text.strip()
        try:
            col = parse_int(text, lo=1, hi=COLS) - 1
        except InputError:
            raise InputError(f"a move is a column number 1-7, not {shown(text)}") from None
        if not drop_cell(state.p1 | state.p2, col):
            raise InputError(f"column {text} is full")
        return col

    def move_help(self) -> str:
        return "Type a column number, 1-7 from the left; the piece falls to its lowest empty cell."


def _parse_position(game: Any, text: str) -> Position:
    """The input file; a page's text field is one line, so its rows may run together
    or apart (a pasted file loses its line breaks)."""
    digits = "".join(text.split())
    if "\n" not in text.strip() and len(digits) == ROWS * COLS + 1:
        rows = [digits[r * COLS:(r + 1) * COLS] for r in range(ROWS)]
        text = "\n".join([*rows, digits[-1]])
    return parse_board(text, "position")


def _format_position(game: Any, state: Position) -> str:
    return " ".join(format_board(state).split())


def _view(game: Any, state: Position, last: int | None = None) -> dict[str, Any]:
    from zerosum.games.maxconnect4.view import view

    return view(game, state, last)


register(
    GameSpec(
        "maxconnect4",
        "Max-Connect4",
        MaxConnect4,
        kernel=KernelSpec("zerosum.games.maxconnect4.engine", "MaxConnect4Kernel"),
        default_depth=4,
        summary="Connect Four to a full board; every four in a line scores a point",
        position=PositionFormat("input file: 6 rows of 7 digits 0-2, then the next player",
                                _parse_position, _format_position),
        view=_view,
        programs=("course:maxconnect4",),
    )
)
