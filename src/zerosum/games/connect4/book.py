"""An opening book: the exact score of every position up to a ply depth, made by our own
solver (tools/connect4_book.py builds it) and consulted by `Solver.solve` and
`Solver.achieves` before they search.

Early positions are where the solver is slowest (the empty board takes minutes even
natively) and where people most want an answer. Only the positions at the book's last
ply are searched when it is built; every shallower one is backed up from its children
(the best move's score is the score: all the children are in the book).

A position and its mirror image have the same score, so the book keeps one of the two:
the one whose key (`current + mask`, as in the solver's table) is smaller.

The file (book_WxH.txt beside this module) is text: `#` comment lines saying what it
covers and how it was made, `depth N`, then one `key score` line per position, the key
in hexadecimal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from zerosum.games.connect4.bitboard import Geometry

HERE = Path(__file__).resolve().parent


def book_path(geo: Geometry) -> Path:
    return HERE / f"book_{geo.width}x{geo.height}.txt"


def mirror(geo: Geometry, bits: int) -> int:
    """The board flipped left to right: column c becomes column width - 1 - c."""
    out = 0
    for c in range(geo.width):
        column = (bits >> (c * geo.h1)) & ((1 << geo.h1) - 1)
        out |= column << ((geo.width - 1 - c) * geo.h1)
    return out


def canonical(geo: Geometry, current: int, mask: int) -> int:
    """The key of the position or of its mirror image, whichever is smaller."""
    return min(current + mask, mirror(geo, current) + mirror(geo, mask))


class Book:
    """Exact scores (from the mover's side, as the solver's) of every position with at
    most `depth` stones, mirror images once."""

    def __init__(self, geo: Geometry, depth: int, scores: dict[int, int]) -> None:
        self.geo, self.depth, self.scores = geo, depth, scores

    def score(self, current: int, mask: int) -> int | None:
        """The position's score, or None if the book does not reach it."""
        if mask.bit_count() > self.depth:
            return None
        return self.scores.get(canonical(self.geo, current, mask))

    def __len__(self) -> int:
        return len(self.scores)

    def text(self, comments: list[str]) -> str:
        lines = [f"# {c}" for c in comments] + [f"depth {self.depth}"]
        lines += [f"{key:x} {score}" for key, score in sorted(self.scores.items())]
        return "\n".join(lines) + "\n"


def parse(geo: Geometry, text: str) -> Book:
    depth = -1
    scores: dict[int, int] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        first, second = line.split()
        if first == "depth":
            depth = int(second)
        else:
            scores[int(first, 16)] = int(second)
    if depth < 0:
        raise ValueError("an opening book without its depth line")
    return Book(geo, depth, scores)


@lru_cache(maxsize=4)
def shipped(geo: Geometry) -> Book | None:
    """The book shipped in the package for this board size, if there is one."""
    path = book_path(geo)
    return parse(geo, path.read_text()) if path.is_file() else None


def children(geo: Geometry, current: int, mask: int) -> Iterator[tuple[int, int, int]]:
    """(column, child current, child mask) of each move that does not end the game
    (a four); the child is from the opponent's side."""
    for c in geo.centre_order:
        if geo.playable(mask, c):
            move = geo.move_bit(mask, c)
            if not geo.has_four(current | move):
                yield c, current ^ mask, mask | move


def positions(geo: Geometry, ply: int) -> dict[int, tuple[int, int]]:
    """Every position with `ply` stones that a game can reach (no four made on the
    way), mirror images once: canonical key -> (current, mask)."""
    level = {0: (0, 0)}
    for _ in range(ply):
        nxt: dict[int, tuple[int, int]] = {}
        for current, mask in level.values():
            for _, child_current, child_mask in children(geo, current, mask):
                nxt.setdefault(canonical(geo, child_current, child_mask),
                               (child_current, child_mask))
        level = nxt
    return level


def back_up(geo: Geometry, depth: int, leaves: dict[int, int]) -> Book:
    """The book of `depth` from the scores of its last ply (`leaves`): each shallower
    position scores the best of its moves (a win at once, or minus its child's score).
    A position with a move whose child is not known is left out (a book built from
    some of the leaves: the positions it lacks are searched when asked)."""
    scores = dict(leaves)
    for ply in range(depth - 1, -1, -1):
        for key, (current, mask) in positions(geo, ply).items():
            best = -geo.cells  # below any score
            for c in geo.centre_order:
                if geo.playable(mask, c) and geo.has_four(current | geo.move_bit(mask, c)):
                    best = (geo.cells + 1 - ply) // 2  # a win at once: the best there is
                    break
            else:
                for _, child_current, child_mask in children(geo, current, mask):
                    child = scores.get(canonical(geo, child_current, child_mask))
                    if child is None:  # a leaf not solved yet: this position waits too
                        break
                    best = max(best, -child)
                else:
                    scores[key] = best
                continue
            scores[key] = best
    return Book(geo, depth, scores)


def build(geo: Geometry, depth: int, solve: Callable[[int, int], int],
          known: dict[int, int] | None = None,
          on_solved: Callable[[int, int], None] | None = None,
          reverse: bool = False) -> Book:
    """Search every position of ply `depth` (those in `known` excepted; the last first
    with `reverse`), then back up. `on_solved(key, score)` hears each leaf as it is
    solved (to save the work so far)."""
    leaves = dict(known or {})
    todo = list(positions(geo, depth).items())
    for key, (current, mask) in reversed(todo) if reverse else todo:
        if key not in leaves:
            leaves[key] = solve(current, mask)
            if on_solved is not None:
                on_solved(key, leaves[key])
    return back_up(geo, depth, leaves)
