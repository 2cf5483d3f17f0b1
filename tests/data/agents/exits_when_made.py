"""An agent whose file ends its whole process while the agent is made (tests of the
tournament's worker processes: the death is this agent's, not whoever moves first)."""

import os


def make_agent(seed, **settings):
    os._exit(4)
