"""The transposition table: one format for every search, generic or a game's kernel.

An entry is a plain tuple `(remaining, bound, value, action)`, cheap to build and to
unpack in a kernel's inner loop:
- `remaining`: how deep below the node the stored result was searched (None: to the
  end of the game, so it holds at any depth);
- `bound`: EXACT, LOWER (the true value is at least `value`) or UPPER (at most);
- `value`: the search's value there (whatever scale that search uses);
- `action`: the best move found, tried first next time (in the search's own move form).

The table is bounded: when it is full, the older half goes (`make_room`) but for its
exact values, the principal variations' nodes, so a long search keeps its recent, most
useful entries and the line it reports. The entries dict is public so that a
kernel can bind `entries.get` to a local name.
"""

from __future__ import annotations

from collections.abc import Hashable
from enum import IntEnum
from itertools import islice
from typing import Any


class Bound(IntEnum):
    """What a stored value is; plain ints (0, 1, 2) in a kernel's inner loop."""

    EXACT = 0
    LOWER = 1
    UPPER = 2


Entry = tuple[int | None, int, float, Any]  # (remaining, bound, value, action)


def deeper_or_equal(stored: int | None, wanted: int | None) -> bool:
    """Was a result searched `stored` plies deep good for a search `wanted` deep?"""
    if stored is None:
        return True
    return wanted is not None and stored >= wanted


class TranspositionTable:
    """Maps a position's key to an Entry; holds at most `capacity` entries.

    `same_depth=True` makes `probe` use only entries searched to exactly the remaining
    depth wanted, so a depth-limited search gives the same value as without the table
    (the textbook algorithms' figures stay comparable). With False (iterative deepening,
    the engines) deeper results are used too: stronger, but the value may differ from
    the plain depth-limited one.
    """

    def __init__(self, capacity: int = 1_000_000, same_depth: bool = True) -> None:
        if capacity < 2:
            raise ValueError("table capacity must be at least 2")
        self.capacity = capacity
        self.same_depth = same_depth
        self.entries: dict[Hashable, Entry] = {}
        self.hits = 0

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()

    def get(self, key: Hashable) -> Entry | None:
        return self.entries.get(key)

    def make_room(self) -> None:
        """Forget the older half of the entries (dicts keep insertion order), but for the
        exact values among them, up to a quarter of the capacity (the newest of them).

        Exact values are the principal variations' nodes, a few among millions. A pass of
        iterative deepening stores its line's deep nodes first (the first move is
        searched first) and the rest of the tree after them: forgetting by age alone, a
        long pass lost its own line and showed its first move only."""
        entries = self.entries
        older = list(islice(entries, len(entries) // 2))
        exact = [key for key in older if entries[key][1] == Bound.EXACT]
        kept = set(exact[max(0, len(exact) - self.capacity // 4):])
        for key in older:
            if key not in kept:
                del entries[key]

    def probe(self, key: Hashable, remaining: int | None) -> Entry | None:
        """An entry usable for a search of `remaining` depth below this node, or None."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        stored = entry[0]
        usable = stored == remaining if self.same_depth else deeper_or_equal(stored, remaining)
        return entry if usable else None

    def store(self, key: Hashable, value: float, bound: int, remaining: int | None,
              action: Any) -> None:
        """Store a result, unless an exact one searched deeper is there already."""
        entries = self.entries
        old = entries.get(key)
        if old is not None:
            if not deeper_or_equal(remaining, old[0]) and old[1] == Bound.EXACT:
                return  # keep the deeper exact result
            del entries[key]  # re-insert so that it counts as new
        elif len(entries) >= self.capacity:
            self.make_room()
        entries[key] = (remaining, bound, value, action)


def narrow(bound: int, value: float, alpha: float, beta: float) -> tuple[float, float]:
    """The window (alpha, beta) narrowed by a stored bound: a lower bound raises alpha,
    an upper bound lowers beta (an exact value settles the node: the caller returns it).
    When alpha >= beta afterwards, the stored value settles the node too."""
    if bound == Bound.LOWER:
        return max(alpha, value), beta
    if bound == Bound.UPPER:
        return alpha, min(beta, value)
    return alpha, beta


def classify(value: float, alpha: float, beta: float) -> Bound:
    """The kind of result a fail-soft alpha-beta returned for window (alpha, beta)."""
    if value <= alpha:
        return Bound.UPPER
    if value >= beta:
        return Bound.LOWER
    return Bound.EXACT
