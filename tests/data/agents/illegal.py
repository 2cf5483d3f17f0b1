"""An agent that plays a move that is never legal (tests of the tournament's referee)."""


class Illegal:
    def play(self, game, state):
        return 99


def make_agent(seed, **settings):
    return Illegal()
