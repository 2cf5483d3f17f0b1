"""Max-Connect4: Connect Four played until the board is full, scored by fours.

`game` holds the game (bitboards, scoring, the evaluation, the board-file format) and
registers it; `engine` is its own engine (negamax alpha-beta on bitboards), loaded
when it first plays.
"""

from zerosum.games.maxconnect4.game import (
    BOARD,
    CELLS,
    COLS,
    EVEN_ROWS,
    FILE_LIMIT,
    ODD_ROWS,
    OPEN_ONE,
    OPEN_TWO,
    QUADRUPLES,
    THREAT_NOW,
    THREAT_OTHER_ROW,
    THREAT_OWN_ROW,
    MaxConnect4,
    Position,
    count_points,
    drop_cell,
    empty_position,
    format_board,
    framed,
    parse_board,
    play,
    playable_cells,
    potential,
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
