"""UTA Max-Connect4's one-move mode: the move an output file holds, read by the game's own
board reader. The marker judges a program's output file by it, and a tournament's
one-move player reads its program's move by it."""

from __future__ import annotations

COLUMNS = 7


def one_move_made(input_text: str, text: str) -> int | str:
    """The column (0-6) of the one move of the player to move that takes the board of
    `input_text` to the board `text` (the output file) holds, with the next player
    switched; or what is wrong, in one line. (The marker and a tournament's one-move
    player both read an output file by it.)"""
    from zerosum.game import InputError
    from zerosum.games.maxconnect4 import drop_cell, parse_board

    before = parse_board(input_text, "input.txt", counts=False)
    try:
        after = parse_board(text, "output.txt", counts=False)
    except InputError as e:
        return str(e)
    player = 1 if before.p1_to_move else 2
    mine, new_mine = (before.p1, after.p1) if player == 1 else (before.p2, after.p2)
    others_same = (after.p2 == before.p2) if player == 1 else (after.p1 == before.p1)
    added = new_mine & ~mine
    if not others_same or new_mine & mine != mine or added.bit_count() != 1:
        return f"output.txt is not one move of player {player} on the input's board"
    column = next((col for col in range(COLUMNS) if added == drop_cell(before.mask, col)),
                  None)
    if column is None:
        return f"output.txt: player {player}'s new piece does not rest on the pieces below"
    if after.p1_to_move == before.p1_to_move:
        return f"output.txt says player {player} is next; after player {player}, " \
               f"it is {3 - player}"
    return column
