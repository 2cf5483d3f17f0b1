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

The file format (the classic assignment's): six lines of seven digits, top row first,
0 empty, 1 and 2 the players' pieces, then a line holding the player to move next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from zerosum.convert import parse_int, shown
from zerosum.game import AnyGame, GameBase, InputError
from zerosum.games.registry import GameSpec, register

if TYPE_CHECKING:
    from zerosum.result import SearchResult
    from zerosum.stop import Stop

ROWS, COLS = 6, 7
H = ROWS + 1  # bits per column: six cells and the sentinel
CELLS = ROWS * COLS
EXACT_EMPTIES = 16  # with this many empty cells or fewer the engine searches to the end

BOTTOM = sum(1 << (H * c) for c in range(COLS))
BOARD = BOTTOM * ((1 << ROWS) - 1)  # every real cell
COLUMN = tuple(((1 << ROWS) - 1) << (H * c) for c in range(COLS))
BOTTOM_OF = tuple(1 << (H * c) for c in range(COLS))
# Rows 1, 3, 5 counted from the bottom (bit rows 0, 2, 4) and rows 2, 4, 6.
ODD_ROWS = BOTTOM * 0b010101
EVEN_ROWS = BOTTOM * 0b101010
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
DIRECTIONS = (1, H, H - 1, H + 1)  # vertical, horizontal, the two diagonals


def cell(col: int, row: int) -> int:
    """The bit of column `col`, row `row` (both from 0; row 0 at the bottom)."""
    return 1 << (H * col + row)


def _quadruples() -> list[int]:
    quads = []
    for c in range(COLS):
        for r in range(ROWS):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < COLS and 0 <= y < ROWS for x, y in cells):
                    quads.append(sum(cell(x, y) for x, y in cells))
    return quads


QUADRUPLES = tuple(_quadruples())  # all 69 of them
# For each bit index, the quadruples through that cell (3 to 13 of them).
QUADRUPLES_AT = tuple(
    tuple(q for q in QUADRUPLES if q >> i & 1) for i in range(H * COLS)
)


class Position(NamedTuple):
    """A Max-Connect4 state: bitboards of both players, the mover, both scores."""

    p1: int
    p2: int
    p1_to_move: bool
    score1: int
    score2: int

    @property
    def mask(self) -> int:
        return self.p1 | self.p2

    @property
    def pieces(self) -> int:
        return (self.p1 | self.p2).bit_count()

    @property
    def next_player(self) -> int:
        return 1 if self.p1_to_move else 2


# ----------------------------------------------------------------- scoring


def count_points(pieces: int) -> int:
    """Quadruples wholly inside `pieces` (one player's bitboard): the score from scratch."""
    total = 0
    for d in DIRECTIONS:
        total += (pieces & pieces >> d & pieces >> 2 * d & pieces >> 3 * d).bit_count()
    return total


def points_through(pieces: int, index: int) -> int:
    """Quadruples through bit `index` wholly inside `pieces`: what a new piece scores."""
    n = 0
    for q in QUADRUPLES_AT[index]:
        if pieces & q == q:
            n += 1
    return n


def drop_cell(mask: int, col: int) -> int:
    """The bit where a piece dropped in `col` lands, or 0 when the column is full.

    Adding the column's bottom bit to the occupied cells carries up to the lowest
    empty cell; a full column carries into the sentinel, outside COLUMN[col].
    """
    return (mask + BOTTOM_OF[col]) & COLUMN[col]


def playable_cells(mask: int) -> int:
    """The cells where a piece would land now, one per column that is not full."""
    return (mask + BOTTOM) & BOARD


# -------------------------------------------------------------- evaluation

# Weights of the evaluation in hundredths of a point (see eval_explanation.md in
# assignments/uta-maxconnect4/). An open quadruple is one the other side has no piece in.
OPEN_ONE = 12  # an open quadruple holding one piece
OPEN_TWO = 40  # holding two
THREAT_NOW = 90  # holding three, and the mover can complete it with this move
THREAT_OWN_ROW = 80  # holding three, the empty cell on a row its owner can expect to get
THREAT_OTHER_ROW = 10  # holding three, the empty cell on a row the other side can expect

# Both players' boards side by side in one integer ("SIMD within a register"): the
# mover's at bits 0-48, the opponent's from bit THEIRS up. The gap between them is
# wider than the longest shift (3 * 8), so no bit strays from one half into the
# other's cells, and one pass over the four directions counts for both at once.
THEIRS = 73
LOW = (1 << THEIRS) - 1
BOARD2 = BOARD | BOARD << THEIRS


def potential(mine: int, theirs: int, mask: int) -> int:
    """The mover's expected gain of further points minus the opponent's, in hundredths.

    Open quadruples (free of the other side's pieces) count by the pieces they hold.
    A quadruple holding three is a threat on its empty cell; who can expect which
    empty cells: the player who moves when the number of pieces is even fills rows 1,
    3 and 5 (from the bottom) if the other keeps replying in the same column, and the
    other gets rows 2, 4 and 6: the parity rule of Connect Four endgames (Allis 1988).
    A threat the mover can complete now is worth nearly a point; the opponent's
    threats that are playable now, the mover can block, so they count for nothing.

    Bit-parallel: for each direction d, bit s of `a_k` says whether cell s + k*d of
    the quadruple starting at cell s holds a piece of its owner; adding the four a_k
    bit by bit (a small adder circuit) counts the pieces of every quadruple at once.
    """
    empty = BOARD & ~mask
    own = mine | theirs << THEIRS
    free = (mine | empty) | (theirs | empty) << THEIRS
    value = 0
    threats = 0
    for d in DIRECTIONS:
        starts = free & free >> d & free >> 2 * d & free >> 3 * d & BOARD2
        a0, a1, a2, a3 = own, own >> d, own >> 2 * d, own >> 3 * d
        low1, high1 = a0 ^ a1, a0 & a1
        low2, high2 = a2 ^ a3, a2 & a3
        ones = starts & (low1 ^ low2)  # bit 0 of the count (a count of 4 has
        twos = starts & (high1 ^ high2 ^ (low1 & low2))  # neither bit 0 nor bit 1)
        holding1, holding2, holding3 = ones & ~twos, twos & ~ones, ones & twos
        value += OPEN_ONE * ((holding1 & LOW).bit_count() - (holding1 >> THEIRS).bit_count())
        value += OPEN_TWO * ((holding2 & LOW).bit_count() - (holding2 >> THEIRS).bit_count())
        if holding3:
            threats |= holding3 & ~a0 | (holding3 & ~a1) << d | (holding3 & ~a2) << 2 * d
            threats |= (holding3 & ~a3) << 3 * d
    if threats:
        playable = playable_cells(mask)
        my_rows = ODD_ROWS if mask.bit_count() % 2 == 0 else EVEN_ROWS
        mine_later = threats & empty & ~playable
        their_later = threats >> THEIRS & empty & ~playable
        value += THREAT_NOW * (threats & playable).bit_count()
        value += THREAT_OWN_ROW * (mine_later & my_rows).bit_count()
        value += THREAT_OTHER_ROW * (mine_later & ~my_rows).bit_count()
        value -= THREAT_OWN_ROW * (their_later & ~my_rows).bit_count()
        value -= THREAT_OTHER_ROW * (their_later & my_rows).bit_count()
    return value


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
            raise InputError(f"{where}: expected 7 digits, found {len(line)} characters: {line!r}")
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

    def format_value(self, value: float, state: Position | None = None) -> str:
        if value == 0:
            return "0 (level on points)"
        leader = "Player 1" if value > 0 else "Player 2"
        return f"{value:+.2f} ({leader} ahead by {abs(value):.2f} points)"

    def move_help(self) -> str:
        return "Type a column number, 1-7 from the left; the piece falls to its lowest empty cell."


def _engine(game: AnyGame, state: Position, seconds: float,
            stop: Stop | None = None) -> SearchResult:
    # Imported when first used: the engine builds on zerosum.search, which games/ do
    # not import (and the engine imports this module).
    from zerosum.games.maxconnect4.engine import timed_search

    return timed_search(state, seconds, stop)


register(
    GameSpec(
        "maxconnect4",
        "Max-Connect4",
        MaxConnect4,
        engines={"engine": _engine},
        default_depth=4,
        summary="Connect Four to a full board; every four in a line scores a point",
    )
)
