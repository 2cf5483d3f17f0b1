"""An agent whose search reads its Stop, as every search does, but finds nothing before
it is told to stop: too slow for any move timeout (tests of the tournament's referee)."""

import time

from zerosum.result import SearchResult


class SlowSearch:
    name = "slow search"

    def analyse(self, game, state, limit=None, on_info=None, stop=None):
        while stop is not None and not stop.expired():
            time.sleep(0.001)
        action = game.actions(state)[0]
        return SearchResult(0.0, action, [action], depth=1, algorithm=self.name)

    def play(self, game, state):
        return self.analyse(game, state).action


def make_agent(seed, **settings):
    return SlowSearch()
