"""Max-Connect4: Connect Four played until the board is full, scored by fours.

`bitboard` holds the bitboard layout, scoring and the evaluation; `game` the game and
the board-file format (and registers it); `engine` its own engine (negamax alpha-beta
on bitboards), loaded when it first plays. Both game and engine build on bitboard.
"""

from zerosum.games.maxconnect4.bitboard import (
    BOARD,
    CELLS,
    COLS,
    EVEN_ROWS,
    ODD_ROWS,
    OPEN_ONE,
    OPEN_TWO,
    QUADRUPLES,
    THREAT_NOW,
    THREAT_OTHER_ROW,
    THREAT_OWN_ROW,
    Position,
    count_points,
    drop_cell,
    playable_cells,
    potential,
)
from zerosum.games.maxconnect4.game import (
    FILE_LIMIT,
    MaxConnect4,
    empty_position,
    format_board,
    framed,
    parse_board,
    play,
    score_line,
)

__all__ = [
    "BOARD",
    "CELLS",
    "COLS",
    "EVEN_ROWS",
    "FILE_LIMIT",
    "ODD_ROWS",
    "OPEN_ONE",
    "OPEN_TWO",
    "QUADRUPLES",
    "THREAT_NOW",
    "THREAT_OTHER_ROW",
    "THREAT_OWN_ROW",
    "MaxConnect4",
    "Position",
    "count_points",
    "drop_cell",
    "empty_position",
    "format_board",
    "framed",
    "parse_board",
    "play",
    "playable_cells",
    "potential",
    "score_line",
]
