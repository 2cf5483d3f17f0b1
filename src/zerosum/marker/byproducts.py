"""What a program's language leaves in its folder by itself, told from what the program
wrote: the marker and a tournament's course players forbid only the latter. (Apart from
zerosum.marker.check so that a tournament's workers need not import the cases, and
through them the reference programs.)"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

# What a course's language writes by itself where a program runs: Python's bytecode
# caches (unless PYTHONDONTWRITEBYTECODE is set), Java's classes after a build. Not the
# program's doing, so not "files written in its folder".
LANGUAGE_DIRS = ("__pycache__",)
LANGUAGE_SUFFIXES = (".pyc", ".class")


def strays(files: Sequence[str]) -> list[str]:
    """The files a program left in its folder, less what its language writes by itself."""
    return [f for f in files
            if not any(part in LANGUAGE_DIRS for part in Path(f).parts)
            and not f.endswith(LANGUAGE_SUFFIXES)]
