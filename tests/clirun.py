"""The `zerosum` command run in this process, as the tests of the commands call it."""

from __future__ import annotations

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
