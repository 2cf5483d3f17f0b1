"""The argument parser of the subcommands and front-ends: usage errors in one line."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are a single line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        from zerosum.convert import one_line

        print(one_line(f"{self.prog}: error: {message} (see {self.prog} --help)"),
              file=sys.stderr)
        raise SystemExit(2)
