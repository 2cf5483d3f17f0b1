"""Small helpers for games that keep their boards as bitmasks in Python ints."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """Indices of the set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask  # the lowest set bit alone
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
