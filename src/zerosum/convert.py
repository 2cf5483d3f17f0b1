"""Converters from the text a person types to values: argument types for argparse,
shared by the `zerosum` command, the front-ends and the options of games and tables.
A bad value raises argparse.ArgumentTypeError with a message naming what is wrong."""

from __future__ import annotations

import argparse


def nonneg_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive_int(text: str) -> int:
    value = nonneg_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be 1 or more, not 0")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


def int_range(text: str) -> list[int]:
    """'1-10', '4', '1,3,5-7' -> a sorted list of distinct whole numbers."""
    out: set[int] = set()
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a range like 1-10: {text!r}") from None
        if a < 0 or b < a:
            raise argparse.ArgumentTypeError(f"not a valid range: {part!r}")
        out.update(range(a, b + 1))
    return sorted(out)
