"""The argument parser of the subcommands and front-ends: usage errors in one line."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are a single line on stderr, exit status 2."""

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # Python 3.11's argparse drops a second '--' given as a positional's value and
        # hands the action [] instead of a string; take it literally, as 3.12 does.
        if action.nargs is None and action.option_strings == [] and arg_strings == ["--"]:
            return self._get_value(action, "--")
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        from zerosum.convert import one_line

        print(one_line(f"{self.prog}: error: {message} (see {self.prog} --help)"),
              file=sys.stderr)
        raise SystemExit(2)
