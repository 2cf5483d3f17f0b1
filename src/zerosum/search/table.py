"""A bounded transposition table storing exact values and alpha-beta bounds.

Each entry remembers how deep below it the stored result was searched (`remaining`,
None for "to the end of the game"), what kind of value it is (EXACT, LOWER bound:
the true value is at least this, UPPER bound: at most this) and the best action
found, which move ordering tries first next time.

Replacement: when full, a new entry replaces the oldest one unless the stored result
was searched deeper than the new one ("depth-preferred, else always replace"), a
standard scheme that keeps the costly results of big subtrees.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Bound(Enum):
    EXACT = 0
    LOWER = 1
    UPPER = 2


@dataclass(slots=True)
class Entry:
    value: float
    bound: Bound
    remaining: int | None  # depth searched below this node; None = to the end
    action: Any


def _deeper_or_equal(stored: int | None, wanted: int | None) -> bool:
    if stored is None:
        return True
    return wanted is not None and stored >= wanted


class TranspositionTable:
    """Maps a game's `key(state)` to an Entry; holds at most `capacity` entries.

    `exact_depth=True` makes lookups use only entries searched to exactly the
    remaining depth wanted, so a depth-limited search gives the same value as
    without the table. With False (iterative deepening) deeper results are used
    too: stronger, but the value may differ from the plain depth-limited one.
    """

    def __init__(self, capacity: int = 1_000_000, exact_depth: bool = True) -> None:
        if capacity < 1:
            raise ValueError("table capacity must be at least 1")
        self.capacity = capacity
        self.exact_depth = exact_depth
        self._entries: dict[Hashable, Entry] = {}
        self.hits = 0
        self.stores = 0

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()

    def get(self, key: Hashable) -> Entry | None:
        return self._entries.get(key)

    def probe(self, key: Hashable, remaining: int | None) -> Entry | None:
        """An entry usable for a search of `remaining` depth below this node, or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        if self.exact_depth:
            usable = entry.remaining == remaining
        else:
            usable = _deeper_or_equal(entry.remaining, remaining)
        return entry if usable else None

    def store(
        self, key: Hashable, value: float, bound: Bound, remaining: int | None, action: Any
    ) -> None:
        entries = self._entries
        old = entries.get(key)
        if old is not None:
            if not _deeper_or_equal(remaining, old.remaining) and old.bound is Bound.EXACT:
                return  # keep the deeper exact result
            del entries[key]  # re-insert so that it counts as new
        elif len(entries) >= self.capacity:
            oldest = next(iter(entries))
            del entries[oldest]
        entries[key] = Entry(value, bound, remaining, action)
        self.stores += 1


def classify(value: float, alpha: float, beta: float) -> Bound:
    """The kind of result a fail-soft alpha-beta returned for window (alpha, beta)."""
    if value <= alpha:
        return Bound.UPPER
    if value >= beta:
        return Bound.LOWER
    return Bound.EXACT
