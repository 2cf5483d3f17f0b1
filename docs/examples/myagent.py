"""Greedy: your own agent for zerosum, in one file.

It plays a move that wins at once if it has one, else one that does not let the
opponent win at once, else any move, chosen at random (by its seed) among the equals.
Play against it, in the terminal or the browser, then put it in a tournament:

    zerosum play connect4 --opponent docs/examples/myagent.py
    zerosum serve --agent docs/examples/myagent.py
    zerosum tournament connect4 --agent docs/examples/myagent.py --agent random \\
        --agent alphabeta:depth=2 --games 10

The convention: the file defines `make_agent(seed, **settings)`, called once per game
with that game's seed (from the tournament's seed, or `seed=` in the spec) and the
spec's other settings as strings (`myagent.py:greed=2` passes greed="2"). It returns any
object with `play(game, state)` giving a legal move; the game is one of zerosum's games
(zerosum.game.Game: actions, result, is_terminal, utility, is_maxs_turn, ...).
An agent that raises, takes too long, or plays an illegal move loses that game.
"""

from __future__ import annotations

import random
from typing import Any


class Greedy:
    name = "greedy"

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def wins(self, game: Any, state: Any, action: Any) -> bool:
        """Does `action` end the game in a win for the player making it?"""
        after = game.result(state, action)
        if not game.is_terminal(after):
            return False
        return (game.utility(after) > 0) == game.is_maxs_turn(state)

    def play(self, game: Any, state: Any) -> Any:
        actions = list(game.actions(state))
        winning = [a for a in actions if self.wins(game, state, a)]
        if winning:
            return self.rng.choice(winning)
        safe = [a for a in actions
                if not any(self.wins(game, game.result(state, a), b)
                           for b in game.actions(game.result(state, a)))]
        return self.rng.choice(safe or actions)


def make_agent(seed: int | None, **settings: str) -> Greedy:
    if settings:
        raise ValueError(f"Greedy takes no settings, not {', '.join(settings)}")
    return Greedy(seed)
