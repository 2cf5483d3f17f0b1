"""An agent file that calls sys.exit where SETTINGS say: `at=import` while it loads,
`at=make` in make_agent, `at=play` on its first move (tests: a person's code never
decides zerosum's exit status)."""

import os
import sys

if os.environ.get("ZEROSUM_TEST_EXIT_AT") == "import":
    sys.exit(3)


class Exiting:
    def play(self, game, state):
        sys.exit(5)


def make_agent(seed, at="play"):
    if at == "make":
        sys.exit(0)
    return Exiting()
