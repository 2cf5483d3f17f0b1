"""An agent that ends its whole process on its second move (tests of the tournament's
worker processes): the game is lost, the tournament goes on."""

import os


class Dying:
    def __init__(self) -> None:
        self.moves = 0

    def play(self, game, state):
        self.moves += 1
        if self.moves == 2:
            os._exit(3)
        return game.actions(state)[0]


def make_agent(seed, **settings):
    return Dying()
