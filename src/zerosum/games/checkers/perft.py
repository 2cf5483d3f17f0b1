"""Perft: the number of move paths of a given length, the standard check of a generator.

Moves that capture the same pieces in a different order count separately (they are
different paths), the convention of the published English-checkers counts
(7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564 for depths 1-10).
"""

from __future__ import annotations

from zerosum.games.checkers.board import (
    Board,
    apply,
    count_steps,
    generate,
    generate_captures,
)


def perft(b: Board, black: int, white: int, kings: int, black_to_move: bool, depth: int,
          max_capture: bool = False) -> int:
    """Leaf count of the move tree `depth` plies deep (no draw rules: only moves)."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(b, black, white, kings, black_to_move, max_capture)
    total = 0
    for move in generate(b, black, white, kings, black_to_move, max_capture):
        nb, nw, nk = apply(b, black, white, kings, black_to_move, move)
        total += perft(b, nb, nw, nk, not black_to_move, depth - 1, max_capture)
    return total


def count_moves(b: Board, black: int, white: int, kings: int, black_to_move: bool,
                max_capture: bool = False) -> int:
    """The number of legal moves, counting steps by shifts without listing them
    ("bulk counting": the last ply of perft costs a few big-integer operations)."""
    captures = generate_captures(b, black, white, kings, black_to_move)
    if captures:
        if max_capture:
            most = max(len(m[0]) for m in captures)
            return sum(1 for m in captures if len(m[0]) == most)
        return len(captures)
    own = black if black_to_move else white
    return count_steps(b, own, kings, b.valid & ~(black | white), black_to_move)


def divide(b: Board, black: int, white: int, kings: int, black_to_move: bool, depth: int,
           max_capture: bool = False) -> list[tuple[tuple[int, ...], int]]:
    """Perft below each root move: (path, count), for finding where two generators differ."""
    out = []
    for move in generate(b, black, white, kings, black_to_move, max_capture):
        nb, nw, nk = apply(b, black, white, kings, black_to_move, move)
        out.append((move[0], perft(b, nb, nw, nk, not black_to_move, depth - 1, max_capture)))
    return out
