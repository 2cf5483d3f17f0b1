"""An agent whose make_agent never returns (tests of the tournament's move timeout: a
hang while an agent is made is that agent's)."""

import time


def make_agent(seed, **settings):
    while True:
        time.sleep(0.01)
