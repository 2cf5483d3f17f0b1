"""Reading input files with clear errors, and writing output files atomically."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from zerosum.game import InputError


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """The file's text; InputError naming the file when it is missing or not text."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError(f"{what} {os.fspath(path)!s}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{what} {os.fspath(path)!s}: is a directory") from None
    except PermissionError:
        raise InputError(f"{what} {os.fspath(path)!s}: permission denied") from None
    except UnicodeDecodeError as e:
        raise InputError(
            f"{what} {os.fspath(path)!s}: not a text file (byte {e.start} is not UTF-8)"
        ) from None


def write_atomic(path: str | os.PathLike[str], text: str, newline: str = "\n") -> None:
    """Write `text` (with '\\n' turned into `newline`) so that readers see either the old
    file or the whole new one, never half: write a temporary file beside it, then rename."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
