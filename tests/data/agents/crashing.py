"""An agent that raises on its third move (tests of the tournament's referee)."""


class Crashing:
    def __init__(self) -> None:
        self.moves = 0

    def play(self, game, state):
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("out of ideas")
        return game.actions(state)[0]


def make_agent(seed, **settings):
    return Crashing()
