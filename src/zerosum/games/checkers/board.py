"""Checkers geometry and move generation on bitboards.

A board of size n (even, 4-12) is laid out as an n x (n+1) grid of bits: square (row r,
column c) is bit r*(n+1) + c, rows counted from the top (row A = 0), columns from the left.
Column n is padding that is never occupied, so a diagonal step is a plain shift:

    down-left +n, down-right +(n+2), up-right -n, up-left -(n+2)

and a step off the left or right edge lands in the padding (or off the ends of the
integer), which no mask contains. Only dark squares, (r + c) odd, are used: A2 is dark.

A position is three ints: `black`, `white` (occupied squares) and `kings` (subset of
both), plus whose turn it is. Black starts at the top and moves down (increasing bits).

A move is the path of squares its piece visits (bit indices), e.g. (1, 11) for a step
or (1, 21, 41) for a double jump: a step moves one row, a jump two. Moves that capture
the same pieces in a different order are different moves (different paths).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import cache

from zerosum.games.bits import bits

Path = tuple[int, ...]
# A generated move: its path, the bits of its start and end squares, the captured pieces.
Move = tuple[Path, int, int, int]

SIZES = (4, 6, 8, 10, 12)


def shift(x: int, d: int) -> int:
    return x << d if d > 0 else x >> -d




def popcount(x: int) -> int:
    return x.bit_count()


@dataclass(frozen=True)
class Board:
    """Everything about one board size that move generation and display need."""

    n: int
    stride: int
    valid: int  # all dark squares
    squares: tuple[int, ...]  # bit index of each dark square, in PDN order (1, 2, ...)
    number: dict[int, int]  # bit index -> PDN square number (1-based)
    black_start: int
    white_start: int
    black_crown: int  # the row where black men are crowned (the bottom row)
    white_crown: int  # the top row
    black_dirs: tuple[int, int]
    white_dirs: tuple[int, int]
    king_dirs: tuple[int, int, int, int]
    # jumps[kind][sq]: (enemy bit to jump, landing bit, landing square) for each direction;
    # kind 0 = black man, 1 = white man, 2 = king.
    jumps: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    zobrist: tuple[tuple[int, ...], ...]  # [piece kind 0-3][square]: b man, w man, b king, w king
    zobrist_black: int  # xor-ed in when black is to move

    def bit(self, row: int, col: int) -> int:
        return row * self.stride + col

    def row_col(self, sq: int) -> tuple[int, int]:
        return divmod(sq, self.stride)

    def is_dark(self, row: int, col: int) -> bool:
        return 0 <= row < self.n and 0 <= col < self.n and (row + col) % 2 == 1


@cache
def board(n: int) -> Board:
    if n not in SIZES:
        raise ValueError(f"board size must be even, 4 to 12, not {n}")
    stride = n + 1
    squares = tuple(r * stride + c for r in range(n) for c in range(n) if (r + c) % 2 == 1)
    valid = sum(1 << s for s in squares)
    rows = (n - 2) // 2  # rows of men per side: 1 on 4x4, 3 on 8x8

    def row_mask(r: int) -> int:
        return sum(1 << s for s in squares if s // stride == r)

    black_start = sum(row_mask(r) for r in range(rows))
    white_start = sum(row_mask(r) for r in range(n - rows, n))
    black_dirs = (n, n + 2)
    white_dirs = (-n, -(n + 2))
    king_dirs = (*black_dirs, *white_dirs)

    def jump_table(dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        size = n * stride
        table = []
        for sq in range(size):
            entries = []
            if valid >> sq & 1:
                for d in dirs:
                    mid, land = sq + d, sq + 2 * d
                    if 0 <= land < size and valid >> mid & 1 and valid >> land & 1:
                        entries.append((1 << mid, 1 << land, land))
            table.append(tuple(entries))
        return tuple(table)

    rng = random.Random(20240 + n)  # fixed seed: hashes are reproducible across runs
    zobrist = tuple(tuple(rng.getrandbits(64) for _ in range(n * stride)) for _ in range(4))
    return Board(
        n=n,
        stride=stride,
        valid=valid,
        squares=squares,
        number={s: i + 1 for i, s in enumerate(squares)},
        black_start=black_start,
        white_start=white_start,
        black_crown=row_mask(n - 1),
        white_crown=row_mask(0),
        black_dirs=black_dirs,
        white_dirs=white_dirs,
        king_dirs=king_dirs,
        jumps=(jump_table(black_dirs), jump_table(white_dirs), jump_table(king_dirs)),
        zobrist=zobrist,
        zobrist_black=rng.getrandbits(64),
    )


def generate(
    b: Board, black: int, white: int, kings: int, black_to_move: bool, max_capture: bool
) -> list[Move]:
    """All legal moves: the captures if there are any (mandatory), else the steps.

    With `max_capture`, only the capture sequences taking the most pieces are legal.
    """
    captures = generate_captures(b, black, white, kings, black_to_move)
    if captures:
        if max_capture:
            most = max(len(m[0]) for m in captures)
            captures = [m for m in captures if len(m[0]) == most]
        return captures
    return generate_steps(b, black, white, kings, black_to_move)


def generate_steps(b: Board, black: int, white: int, kings: int, black_to_move: bool) -> list[Move]:
    empty = b.valid & ~(black | white)
    own = black if black_to_move else white
    out: list[Move] = []
    # Men and kings step forward together; kings also step backward.
    forward = b.black_dirs if black_to_move else b.white_dirs
    backward = b.white_dirs if black_to_move else b.black_dirs
    for movers, dirs in ((own, forward), (own & kings, backward)):
        if not movers:
            continue
        for d in dirs:
            targets = shift(movers, d) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                t = to.bit_length() - 1
                out.append(((t - d, t), 1 << (t - d), to, 0))
    return out


def generate_captures(
    b: Board, black: int, white: int, kings: int, black_to_move: bool
) -> list[Move]:
    own, enemy = (black, white) if black_to_move else (white, black)
    empty = b.valid & ~(black | white)
    man_kind = 0 if black_to_move else 1
    crown = b.black_crown if black_to_move else b.white_crown
    out: list[Move] = []
    for sq in bits(jumpers(b, own, enemy, empty, kings, black_to_move)):
        start = 1 << sq
        is_king = bool(kings & start)
        table = b.jumps[2 if is_king else man_kind]
        # The moving piece's own square is free to land on again (a king's loop).
        _jump(table, sq, start, enemy, empty | start, (sq,), 0, 0 if is_king else crown, out)
    return out


def jumpers(b: Board, own: int, enemy: int, empty: int, kings: int, black_to_move: bool) -> int:
    """The pieces of `own` that can capture, found with shifts (no per-piece loop)."""
    a, c = b.n, b.n + 2  # the two downward steps; upward ones are their negatives
    down, up = (own, own & kings) if black_to_move else (own & kings, own)
    found = 0
    if down:
        found = down & ((enemy >> a) & (empty >> 2 * a) | (enemy >> c) & (empty >> 2 * c))
    if up:
        found |= up & ((enemy << a) & (empty << 2 * a) | (enemy << c) & (empty << 2 * c))
    return found


def count_steps(b: Board, own: int, kings: int, empty: int, black_to_move: bool) -> int:
    """How many steps `own` has (each piece and direction counts), by shifts and popcounts."""
    a, c = b.n, b.n + 2
    down, up = (own, own & kings) if black_to_move else (own & kings, own)
    total = 0
    if down:
        total = ((down << a) & empty).bit_count() + ((down << c) & empty).bit_count()
    if up:
        total += ((up >> a) & empty).bit_count() + ((up >> c) & empty).bit_count()
    return total


def _jump(
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    sq: int,
    start: int,
    enemy: int,
    empty: int,
    path: Path,
    taken: int,
    crown: int,
    out: list[Move],
) -> None:
    """Extend a capture sequence from `sq` in every way; record each one that must stop.

    Jumped pieces stay on the board until the move ends (they cannot be jumped twice);
    a man that reaches the crowning row stops there (crowning ends the move).
    """
    extended = False
    for mid, land, to in table[sq]:
        if enemy & mid and empty & land and not taken & mid:
            extended = True
            now = taken | mid
            if land & crown:
                out.append(((*path, to), start, land, now))
            else:
                _jump(table, to, start, enemy, empty, (*path, to), now, crown, out)
    if not extended and taken:
        out.append((path, start, 1 << sq, taken))


def apply(
    b: Board, black: int, white: int, kings: int, black_to_move: bool, move: Move
) -> tuple[int, int, int]:
    """The (black, white, kings) after `move`; a man ending on the far row is crowned."""
    _, frm, to, taken = move
    moved = frm ^ to  # 0 when a king's capture loop ends where it started
    if kings & frm:
        kings ^= moved
    elif to & (b.black_crown if black_to_move else b.white_crown):
        kings |= to
    kings &= ~taken
    if black_to_move:
        return black ^ moved, white & ~taken, kings
    return black & ~taken, white ^ moved, kings


def is_step(b: Board, path: Path) -> bool:
    return len(path) == 2 and abs(path[1] - path[0]) in (b.n, b.n + 2)


def move_from_path(b: Board, black: int, white: int, path: Path) -> Move:
    """Rebuild the generated form of a move from its path (captured = jumped-over squares)."""
    taken = 0
    if not is_step(b, path):
        for a, c in itertools.pairwise(path):
            taken |= 1 << ((a + c) // 2)
    return (path, 1 << path[0], 1 << path[-1], taken)


def zobrist_hash(b: Board, black: int, white: int, kings: int, black_to_move: bool) -> int:
    z = b.zobrist
    h = b.zobrist_black if black_to_move else 0
    for s in bits(black & ~kings):
        h ^= z[0][s]
    for s in bits(white & ~kings):
        h ^= z[1][s]
    for s in bits(black & kings):
        h ^= z[2][s]
    for s in bits(white & kings):
        h ^= z[3][s]
    return h


def hash_after(
    b: Board, h: int, black: int, white: int, kings: int, black_to_move: bool, move: Move,
    new_kings: int,
) -> int:
    """The Zobrist hash after `move`, updated from `h` (incrementally: only what changed)."""
    _, frm, to, taken = move
    z = b.zobrist
    f, t = frm.bit_length() - 1, to.bit_length() - 1
    side = 0 if black_to_move else 1
    h ^= z[side + (2 if kings & frm else 0)][f]
    h ^= z[side + (2 if new_kings & to else 0)][t]
    if taken:
        other = 1 - side
        for s in bits(taken):
            h ^= z[other + (2 if kings >> s & 1 else 0)][s]
    return h ^ b.zobrist_black
