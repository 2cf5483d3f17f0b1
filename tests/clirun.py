"""The `zerosum` command run in this process, as the tests of the commands call it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from zerosum.cli import main


def zerosum(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `zerosum ARGS`; argparse's own exits included."""
    try:
        status = main(args)
    except SystemExit as e:  # argparse's own errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def count_games(db: Path) -> int:
    """The games a tournament's database holds (0 before it has its table)."""
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def killed_when(command: list[str], done: Callable[[], bool]) -> None:
    """Start `command` and kill it (SIGKILL: nothing saved after) once `done()` says
    what it saved is there (or it ended, or two minutes passed)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not done() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)  # polling another process's files: no event to wait on
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def killed_after(command: list[str], db: Path, games: int) -> int:
    """Start the tournament `command`, kill it once `db` holds `games` games, and return
    how many it holds then."""
    killed_when(command, lambda: count_games(db) >= games)
    return count_games(db)
