"""The start positions the page sets up from their written form: the game's own format
where the registry has one (checkers: PDN FEN), and two more over the games' own
parsers: Connect Four's move sequence (`4455`, as `zerosum solve connect4` reads it; its
course string and grid are read too) and Max-Connect4's input file (six rows of seven
digits, then the next player, as the assignment program reads it).

A page's text field is one line: a pasted file loses its line breaks (or they become
spaces), so a Max-Connect4 position may be written in one line, its rows run together
or apart.
"""

from __future__ import annotations

from typing import Any

from zerosum.games.registry import GameSpec, PositionFormat


def connect4_parse(game: Any, text: str) -> Any:
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_position

    if "," not in text and "\n" not in text.strip():
        text = "".join(text.split())  # a move sequence typed with spaces: 4 4 5 5
    return position_from_stones(parse_position(text, game.geo))


def connect4_format(game: Any, state: Any) -> str:
    from zerosum.games.connect4.notation import format_course

    return format_course(state.stones, game.geo)


def maxconnect4_parse(game: Any, text: str) -> Any:
    from zerosum.games.maxconnect4.bitboard import COLS, ROWS
    from zerosum.games.maxconnect4.game import parse_board

    digits = "".join(text.split())
    if "\n" not in text.strip() and len(digits) == ROWS * COLS + 1:
        rows = [digits[r * COLS:(r + 1) * COLS] for r in range(ROWS)]
        text = "\n".join([*rows, digits[-1]])
    return parse_board(text, "position")


def maxconnect4_format(game: Any, state: Any) -> str:
    from zerosum.games.maxconnect4.game import format_board

    return " ".join(format_board(state).split())


ADDED = {
    "connect4": PositionFormat("move sequence, e.g. 4455", connect4_parse, connect4_format),
    "maxconnect4": PositionFormat("input file: 6 rows of 7 digits 0-2, then the next "
                                  "player", maxconnect4_parse, maxconnect4_format),
}


def position_format(spec: GameSpec) -> PositionFormat | None:
    """How the page writes and reads `spec`'s positions, if it can."""
    return spec.position if spec.position is not None else ADDED.get(spec.name)
