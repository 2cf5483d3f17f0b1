"""The Connect Four notations, one parser and one printer each.

- the course string: rows of 'r', 'y', '.' separated by commas, bottom row first
  (`.ryyrry,.rryry.,..y.r..,..y....,.......,.......`);
- the move sequence: the columns played from the empty board, 1 = leftmost
  (`4455`, the notation of Pascal Pons's benchmark sets, or `4 4 5 5` with spaces, which
  also names columns past 9); '' or '-' is the empty board;
- the grid: one line per row, top row first, 'X' (red, first player), 'O' (yellow), '.'
  (spaces ignored; 'r'/'y' accepted too), as people draw it.

Parsers return the stones of each colour as bitboards (`Stones`) and raise InputError
naming the problem; they know nothing about whose turn it is, except the move sequence.

What counts as a valid position (`check_possible`, run by every parser): no stone
floats above an empty cell; the counts differ by at most one (the players take turns;
the course lets either begin); at most one side has four in a row; and if one side
has, it has just moved (it has at least as many stones as the other) and some stone of
that four could have been the last one played (play stops at the first four).

The COMP3608 program reads its course string with `balanced=False`: its course promises
only that no piece floats, and says a state need not come from a balanced game (any
counts of each colour, either side to move), so only the floating check applies there.
"""

from __future__ import annotations

from typing import NamedTuple

from zerosum.convert import shown
from zerosum.game import InputError
from zerosum.games.connect4.bitboard import Geometry, geometry


class Stones(NamedTuple):
    red: int
    yellow: int


def _check_gravity(geo: Geometry, red: int, yellow: int, what: str, base: int) -> None:
    """Pieces lie on the bottom or on a piece; columns are named from `base` (the course
    numbers them 0-6, people 1-7)."""
    mask = red | yellow
    for c in range(geo.width):
        col = (mask & geo.columns[c]) >> (c * geo.h1)
        if col & (col + 1):  # not of the form 0...01...1: a hole under a stone
            name = f"column {c + base} (of {base}-{geo.width - 1 + base})"
            raise InputError(f"{what}: {name} has a piece floating above an empty cell")


def _last_move_possible(geo: Geometry, winner: int, mask: int) -> bool:
    """Whether some stone of `winner` on top of its column could have been played last:
    without it, the winner has no four."""
    for c in range(geo.width):
        column = mask & geo.columns[c]
        if column:
            top = 1 << (column.bit_length() - 1)
            if winner & top and not geo.has_four(winner & ~top):
                return True
    return False


def check_possible(stones: Stones, geo: Geometry, what: str) -> None:
    """InputError when no game (either side beginning) reaches these stones; see the
    module's notes."""
    red, yellow = stones
    nr, ny = red.bit_count(), yellow.bit_count()
    if abs(nr - ny) > 1:
        raise InputError(f"{what}: {nr} red and {ny} yellow stones; the players take turns, "
                         "so the counts differ by at most one")
    red_four, yellow_four = geo.has_four(red), geo.has_four(yellow)
    if red_four and yellow_four:
        raise InputError(f"{what}: both red and yellow have four in a row; the game ends "
                         "at the first four")
    for four, name, mine, theirs in ((red_four, "red", red, ny), (yellow_four, "yellow",
                                                                 yellow, nr)):
        if four and mine.bit_count() < theirs:
            raise InputError(f"{what}: {name} has four in a row but fewer stones than the "
                             "other side, so play went on after the four")
        if four and not _last_move_possible(geo, mine, red | yellow):
            raise InputError(f"{what}: {name}'s four in a row was complete before its last "
                             "stone was played, so play went on after the four")


def parse_course(text: str, geo: Geometry | None = None, *, balanced: bool = True) -> Stones:
    """The course string: rows bottom first, comma-separated, 'r' 'y' '.'.

    `balanced=False` checks only that no piece floats (see the module's notes)."""
    geo = geo or geometry()
    rows = text.strip().split(",")
    if len(rows) != geo.height:
        raise InputError(f"STATE must have {geo.height} comma-separated rows, not {len(rows)}")
    red = yellow = 0
    for r, row in enumerate(rows):
        if len(row) != geo.width:
            raise InputError(
                f"STATE row {r + 1} (from the bottom) must have {geo.width} characters, "
                f"not {len(row)}: {shown(row)}"
            )
        for c, ch in enumerate(row):
            if ch == "r":
                red |= geo.bit(c, r)
            elif ch == "y":
                yellow |= geo.bit(c, r)
            elif ch != ".":
                raise InputError(
                    f"STATE row {r + 1} has {ch!r}; only 'r', 'y' and '.' are allowed"
                )
    _check_gravity(geo, red, yellow, "STATE", 0)
    if balanced:
        check_possible(Stones(red, yellow), geo, "STATE")
    return Stones(red, yellow)


def format_course(stones: Stones, geo: Geometry | None = None) -> str:
    geo = geo or geometry()
    return ",".join(
        "".join(_cell(stones, geo, c, r, "r", "y") for c in range(geo.width))
        for r in range(geo.height)
    )


def parse_moves(text: str, geo: Geometry | None = None) -> Stones:
    """The move sequence from the empty board; the first player is red. Columns are one
    digit each (`4455`, Pons's notation) or, separated by spaces, numbers (`4 4 5 5`: the
    only way to name a column past 9 on a wider board)."""
    geo = geo or geometry()
    text = text.strip()
    if text == "-":
        text = ""
    stones = [0, 0]
    mask = 0
    for i, col in enumerate(_columns(text, geo)):
        if not geo.playable(mask, col):
            raise InputError(f"move sequence: move {i + 1} plays in column {col + 1}, "
                             "which is full")
        if geo.has_four(stones[0]) or geo.has_four(stones[1]):
            raise InputError(f"move sequence: move {i + 1} comes after the game was won")
        move = geo.move_bit(mask, col)
        stones[i % 2] |= move
        mask |= move
    return Stones(stones[0], stones[1])


def _columns(text: str, geo: Geometry) -> list[int]:
    """The 0-based columns of a move sequence's text, checked to be on the board."""
    spaced = len(text.split()) > 1
    tokens = text.split() if spaced else list(text)
    columns = []
    for i, token in enumerate(tokens):
        # ASCII digits only: str.isdigit would take '²'.
        if not (token.isascii() and token.isdigit()) or not 1 <= int(token) <= geo.width:
            where = f"(move {i + 1})" if spaced else f"at position {i + 1}"
            raise InputError(f"move sequence: {shown(token, 20)} {where} is not a column "
                             f"1-{geo.width}")
        columns.append(int(token) - 1)
    return columns


def format_moves(columns: list[int]) -> str:
    """Columns 0-based -> the sequence text (1-based digits)."""
    return "".join(str(c + 1) for c in columns)


def parse_grid(text: str, geo: Geometry | None = None) -> Stones:
    """The grid, top row first; blank lines and spaces are ignored."""
    geo = geo or geometry()
    lines = [line.replace(" ", "") for line in text.strip().splitlines()]
    lines = [line for line in lines if line]
    if len(lines) != geo.height:
        raise InputError(f"grid must have {geo.height} rows, not {len(lines)}")
    red = yellow = 0
    for i, line in enumerate(lines):
        r = geo.height - 1 - i
        if len(line) != geo.width:
            raise InputError(f"grid row {i + 1} (from the top) must have {geo.width} cells, "
                             f"not {len(line)}: {shown(line)}")
        for c, ch in enumerate(line.upper()):
            if ch in "XR":
                red |= geo.bit(c, r)
            elif ch in "OY":
                yellow |= geo.bit(c, r)
            elif ch != ".":
                raise InputError(f"grid row {i + 1} has {ch!r}; use X, O and .")
    _check_gravity(geo, red, yellow, "grid", 1)
    check_possible(Stones(red, yellow), geo, "grid")
    return Stones(red, yellow)


def format_grid(stones: Stones, geo: Geometry | None = None, numbers: bool = True) -> str:
    """The grid, top row first, with the column numbers 1..W underneath."""
    geo = geo or geometry()
    rows = [
        " ".join(_cell(stones, geo, c, r, "X", "O") for c in range(geo.width))
        for r in reversed(range(geo.height))
    ]
    if numbers:
        rows.append(" ".join(str(c + 1) for c in range(geo.width)))
    return "\n".join(rows)


def parse_position(text: str, geo: Geometry | None = None) -> Stones:
    """Any of the three notations, told apart by their look."""
    if "," in text:
        return parse_course(text, geo)
    if "\n" in text.strip():
        return parse_grid(text, geo)
    return parse_moves(text, geo)


def _cell(stones: Stones, geo: Geometry, c: int, r: int, red: str, yellow: str) -> str:
    b = geo.bit(c, r)
    return red if stones.red & b else yellow if stones.yellow & b else "."
