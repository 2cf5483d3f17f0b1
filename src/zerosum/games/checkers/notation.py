"""The one notation module for checkers: squares, moves and positions as people write them.

Course notation: rows lettered from the top, columns numbered from the left, `G4-F3` for a
step, `B3xD1` or `G8xE6xC8` for captures; printed with the piece, `b:A2-B1`, `W:C2xA4`
(upper case = king). PDN (standard 8x8 notation, any size here): dark squares numbered
1, 2, ... row by row from the top-left (black's side), moves `11-15`, `22x15`, `11x18x25`,
positions as PDN FEN `B:W21,22,K30:B1,2,K3` (side to move, then each side's pieces).
Input is case-insensitive and either notation is accepted wherever a move is read.
"""

from __future__ import annotations

import re

from zerosum.convert import parse_int, shown
from zerosum.game import InputError
from zerosum.games.checkers.board import Board, Path, is_step

ROWS = "ABCDEFGHIJKL"


def square_name(b: Board, sq: int) -> str:
    row, col = b.row_col(sq)
    return f"{ROWS[row]}{col + 1}"


def format_move(b: Board, path: Path) -> str:
    """Course notation: `A2-B1`, `B3xD1xF3`."""
    sep = "-" if is_step(b, path) else "x"
    return sep.join(square_name(b, s) for s in path)


def format_pdn_move(b: Board, path: Path) -> str:
    """PDN: `11-15`, `11x18x25`."""
    sep = "-" if is_step(b, path) else "x"
    return sep.join(str(b.number[s]) for s in path)


def piece_letter(black_piece: bool, king: bool) -> str:
    letter = "b" if black_piece else "w"
    return letter.upper() if king else letter


def parse_square(b: Board, text: str) -> int:
    """A square as `C3` (course) or `11` (PDN number); the bit index of a dark square."""
    t = text.strip().upper()
    if t.isascii() and t.isdigit():
        number = _square_number(b, t)
        return b.squares[number - 1]
    m = re.fullmatch(r"([A-L])([0-9]{1,2})", t)
    if not m:
        raise InputError(f"not a square: {shown(text)} (write it like C3, or a number like 11)")
    row, col = ROWS.index(m.group(1)), int(m.group(2)) - 1
    if not (row < b.n and 0 <= col < b.n):
        raise InputError(f"no square {t} on {b.n}x{b.n}")
    if not b.is_dark(row, col):
        raise InputError(f"{t} is a light square; pieces stand on dark squares only")
    return b.bit(row, col)


def _square_number(b: Board, text: str) -> int:
    try:
        return parse_int(text, lo=1, hi=len(b.squares))
    except InputError:
        name = text if len(text) <= 24 else shown(text)  # digits: no quotes needed
        raise InputError(f"no square {name} on {b.n}x{b.n} "
                         f"(squares are 1-{len(b.squares)})") from None


def parse_path(b: Board, text: str) -> Path:
    """The squares of a typed move, `d1-c2`, `b:A2-B1`, `11x18x25`; not yet checked legal."""
    t = text.strip()
    t = re.sub(r"^[bwBW]\s*:\s*", "", t)  # the piece prefix of printed moves
    parts = [p for p in re.split(r"\s*[-xX:]\s*", t)]
    if len(parts) < 2 or any(not p for p in parts):
        raise InputError(f"not a move: {shown(text)} (write it like G4-F3, B3xD1, or 11-15)")
    return tuple(parse_square(b, p) for p in parts)


def match_move(b: Board, text: str, legal: list[Path]) -> Path:
    """The legal move that `text` names. A capture may be given by its first and last
    squares only (`11x25`) when that is unambiguous."""
    path = parse_path(b, text)
    if path in legal:
        return path
    short = [m for m in legal if len(path) == 2 and m[0] == path[0] and m[-1] == path[-1]]
    if len(short) == 1:
        return short[0]
    if len(short) > 1:
        names = ", ".join(format_move(b, m) for m in short)
        raise InputError(f"{text.strip()} is ambiguous: name every square ({names})")
    raise InputError(f"{text.strip()} is not a legal move here")


def to_fen(b: Board, black: int, white: int, kings: int, black_to_move: bool) -> str:
    """PDN FEN, e.g. `B:W21,22,K30:B1,2,K3`."""

    def side(letter: str, pieces: int) -> str:
        items = [("K" if kings >> s & 1 else "") + str(b.number[s])
                 for s in b.squares if pieces >> s & 1]
        return letter + ",".join(items)

    return f"{'B' if black_to_move else 'W'}:{side('W', white)}:{side('B', black)}"


def parse_fen(b: Board, text: str) -> tuple[int, int, int, bool]:
    """(black, white, kings, black_to_move) from PDN FEN; accepts ranges like `B1-12`
    and an optional trailing dot or quotes.

    What counts as a valid position (each refusal says why): each square at most once,
    for one side; ranges run upwards (`21-24`, not `24-21`); no side has more pieces
    than it starts with (12 on 8x8); at least one side has a piece. A side with no
    piece is accepted when it is to move: the game is over, that side has lost."""
    t = text.strip().strip('"').rstrip(".").replace(" ", "").upper()
    fields = t.split(":")
    if len(fields) != 3 or fields[0] not in ("B", "W"):
        raise InputError(f"not a PDN FEN position: {shown(text)} "
                         "(expected like B:W21,22,K30:B1,2,K3)")
    pieces = {"B": 0, "W": 0}
    kings = 0
    seen: set[str] = set()
    for field in fields[1:]:
        colour, body = field[:1], field[1:]
        if colour not in pieces or colour in seen:
            raise InputError(f"PDN FEN field must start with W or B once each: {shown(field)}")
        seen.add(colour)
        for item in filter(None, body.split(",")):
            king = item.startswith("K")
            numbers = item[1:] if king else item
            lo, sep, hi = numbers.partition("-")
            if not (lo.isascii() and lo.isdigit()) or (sep and not (hi.isascii()
                                                                    and hi.isdigit())):
                raise InputError(f"bad square {shown(item)} in PDN FEN {shown(text)}")
            first = _square_number(b, lo)
            last = _square_number(b, hi) if sep else first
            if last < first:
                raise InputError(f"the range {item} in PDN FEN runs backwards: "
                                 f"write {'K' if king else ''}{last}-{first}")
            for number in range(first, last + 1):
                sq = b.squares[number - 1]
                if (pieces["B"] | pieces["W"]) >> sq & 1:
                    raise InputError(f"square {number} is given twice in {shown(text)}")
                pieces[colour] |= 1 << sq
                if king:
                    kings |= 1 << sq
    most = (b.black_start).bit_count()
    for colour, name in (("B", "black"), ("W", "white")):
        if pieces[colour].bit_count() > most:
            raise InputError(f"{name} has {pieces[colour].bit_count()} pieces in PDN FEN; "
                             f"at most {most} on {b.n}x{b.n} (the pieces it starts with)")
    if not pieces["B"] | pieces["W"]:
        raise InputError("PDN FEN with no piece at all: a game ends when one side has none")
    for colour, name, other in (("B", "black", "white"), ("W", "white", "black")):
        if not pieces[colour] and fields[0] != colour:
            raise InputError(f"{name} has no piece in PDN FEN, so {other} took the last one "
                             f"and {name} is to move (and has lost): write {colour}:...")
    return pieces["B"], pieces["W"], kings, fields[0] == "B"
