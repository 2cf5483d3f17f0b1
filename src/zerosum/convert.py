"""Converters from the text a person types to values: the one number parser of the
project, and argument types for argparse built on it.

The rule for numbers, the same everywhere (arguments, menus, move prompts, files):

- a whole number is ASCII digits 0-9, at most MAX_DIGITS of them, after at most one sign
  '+' or '-' (a '+' is allowed wherever a number is; whether a negative value is allowed
  is a matter of the range, never of the spelling); white space around it is ignored;
- a decimal number is the same with an optional fraction and exponent (`0.5`, `.5`,
  `2e-3`), at most MAX_DECIMAL_CHARS characters, finite: never `nan`, `inf` or `1e999`;
- no other digits (`²`, `𝟚`, `٣`), no `_` separators, no hex;
- every use states the range it accepts, and the message of a refusal names what was
  expected and the text given: "depth must be a whole number from 1 to 42, not '²'".

`parse_int` and `parse_float` raise zerosum.game.InputError; the argparse types
(`nonneg_int`, `positive_int`, `positive_float`, `int_range` and the `*_arg` factories)
are thin wrappers that raise argparse.ArgumentTypeError with the same message, which
argparse prints as a one-line usage error.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Callable
from typing import TypeVar

from zerosum.game import InputError
from zerosum.game import shown as shown  # defined beside InputError; the CLI finds it here

T = TypeVar("T")

MAX_DIGITS = 18  # below 2**63: every whole number the project asks for fits well within
MAX_INT = 10**MAX_DIGITS - 1
MAX_DECIMAL_CHARS = 40
MAX_DEPTH = 99  # search depth arguments; far beyond any search that ends in a lifetime
MAX_SECONDS = 86_400.0  # a day per move
MAX_RANGE_VALUES = 100_000  # `--sizes` and the like: the most values a range may hold

_INT = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def one_line(message: str) -> str:
    """A message as one line: line breaks (from a typed value or a file name) shown as
    escapes, so that an error is always exactly one line on stderr."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def _number(x: float) -> str:
    """A bound as a person reads it: whole numbers exactly, grouped by thousands from
    10,000 on (never 1e+12), others as %g."""
    if isinstance(x, int) or x.is_integer():
        return f"{int(x):,}" if abs(x) >= 10_000 else str(int(x))
    return f"{x:g}"


def _bounds(kind: str, lo: float | None, hi: float | None, lo_open: bool = False) -> str:
    if lo_open and lo is not None:
        low = f"above {_number(lo)}"
        return f"{kind} {low}" + (f" and at most {_number(hi)}" if hi is not None else "")
    if lo is not None and hi is not None:
        return f"{kind} from {_number(lo)} to {_number(hi)}"
    if lo is not None:
        return f"{kind}, {_number(lo)} or more"
    if hi is not None:
        return f"{kind}, at most {_number(hi)}"
    return kind


def _subject(what: str) -> str:
    return f"{what} must be" if what else "must be"


def parse_int(text: str, what: str = "", *, lo: int | None = None,
              hi: int | None = None) -> int:
    """The whole number `text` spells, in [lo, hi] (either end may be open); InputError
    "WHAT must be a whole number from LO to HI, not 'TEXT'" otherwise."""
    t = text.strip()
    ok = t.isascii() and _INT.fullmatch(t) is not None and len(t.lstrip("+-")) <= MAX_DIGITS
    value = int(t) if ok else 0
    if not ok or (lo is not None and value < lo) or (hi is not None and value > hi):
        expected = _bounds("a whole number", lo, hi)
        raise InputError(f"{_subject(what)} {expected}, not {shown(text)}")
    return value


def parse_float(text: str, what: str = "", *, lo: float | None = None,
                hi: float | None = None, lo_open: bool = False) -> float:
    """The finite decimal number `text` spells, in [lo, hi] ((lo, hi] with `lo_open`);
    InputError naming the range otherwise."""
    t = text.strip()
    ok = t.isascii() and len(t) <= MAX_DECIMAL_CHARS and _DECIMAL.fullmatch(t) is not None
    value = float(t) if ok else 0.0
    ok = ok and math.isfinite(value)
    if lo is not None and (value < lo or (lo_open and value == lo)):
        ok = False
    if not ok or (hi is not None and value > hi):
        expected = _bounds("a number", lo, hi, lo_open)
        raise InputError(f"{_subject(what)} {expected}, not {shown(text)}")
    return value


def parse_range(text: str, what: str = "", *, lo: int = 0, hi: int = MAX_INT) -> list[int]:
    """'1-10', '4', '1,3,5-7' -> the sorted distinct whole numbers, each in [lo, hi];
    the bounds are checked before any list is built."""
    out: set[int] = set()
    for part in text.split(","):
        first, sep, last = part.strip().partition("-")
        try:
            a = parse_int(first, lo=lo, hi=hi)
            b = parse_int(last, lo=lo, hi=hi) if sep else a
        except InputError:
            raise InputError(f"{_subject(what)} numbers from {lo} to {hi} or ranges like "
                             f"{lo}-{min(hi, lo + 9)}, not {shown(part)}") from None
        if b < a:
            raise InputError(f"{_subject(what)} a range from low to high, not {shown(part)}")
        if b - a + 1 + len(out) > MAX_RANGE_VALUES:
            raise InputError(f"{_subject(what)} at most {MAX_RANGE_VALUES:,} values, "
                             f"not {shown(text)}")
        out.update(range(a, b + 1))
    return sorted(out)


def brief(value: object) -> str:
    """A value a request or a file carried, for an error message: text quoted and cut
    short as `shown` does; anything else as JSON would write it, cut the same way."""
    if isinstance(value, str):
        return shown(value)
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 24 else shown(text)


def json_number(value: object, what: str, *, lo: float | None = None,
                hi: float | None = None, lo_open: bool = False,
                whole: bool = False) -> float:
    """A number a JSON document carried (a request, a message, a stored setting), in
    [lo, hi] ((lo, hi] with `lo_open`), with the same message as `parse_float` and
    `parse_int` give for text. The range is checked before any conversion: Python
    compares a 400-digit integer with a float exactly, while float() of it overflows.
    `whole`: a JSON integer only (not 3.0, not true); the value is returned as it came
    (an int), else as a float."""
    kinds: tuple[type, ...] = (int,) if whole else (int, float)
    ok = isinstance(value, kinds) and not isinstance(value, bool)
    number: float = value if ok else 0  # type: ignore[assignment]
    ok = ok and not (isinstance(number, float) and not math.isfinite(number))
    if lo is not None and (number < lo or (lo_open and number == lo)):
        ok = False
    if not ok or (hi is not None and number > hi):
        expected = _bounds("a whole number" if whole else "a number", lo, hi, lo_open)
        raise InputError(f"{_subject(what)} {expected}, not {brief(value)}")
    return number if whole else float(number)


# --- argparse types ------------------------------------------------------------------

def argument_type(parse: Callable[[str], T], name: str) -> Callable[[str], T]:
    """`parse` as an argparse type: its InputError becomes argparse's usage error, with
    the same message; `name` is what argparse calls the type."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = name
    return convert


def int_arg(lo: int | None, hi: int | None, name: str = "whole number") -> Callable[[str], int]:
    """An argparse type: a whole number in [lo, hi]."""
    return argument_type(lambda text: parse_int(text, lo=lo, hi=hi), name)


def float_arg(lo: float | None, hi: float | None, lo_open: bool = False,
              name: str = "number") -> Callable[[str], float]:
    """An argparse type: a finite number in [lo, hi] ((lo, hi] with `lo_open`)."""
    return argument_type(lambda text: parse_float(text, lo=lo, hi=hi, lo_open=lo_open), name)


def range_arg(lo: int, hi: int, name: str = "range") -> Callable[[str], list[int]]:
    """An argparse type: whole numbers and ranges like 1,3,5-7, each in [lo, hi]."""
    return argument_type(lambda text: parse_range(text, lo=lo, hi=hi), name)


nonneg_int = int_arg(0, MAX_INT, "nonneg_int")
positive_int = int_arg(1, MAX_INT, "positive_int")
depth_arg = int_arg(0, MAX_DEPTH, "depth")  # 0: to the end of the game, where allowed
positive_depth_arg = int_arg(1, MAX_DEPTH, "depth")
seed_arg = int_arg(0, MAX_INT, "seed")
positive_float = float_arg(0.0, MAX_SECONDS, lo_open=True, name="positive_float")
int_range = range_arg(0, MAX_INT, "int_range")
