"""Twenty-one: your own game for zerosum, in one file.

Twenty-one counters lie on the table. The players take turns taking 1, 2 or 3 of them;
whoever takes the last counter wins. (The first player wins with best play: leave a
multiple of 4.)

Play it, count its move paths, solve it, or check it:

    zerosum play --game-file docs/examples/mygame.py --opponent alphabeta
    zerosum perft --game-file docs/examples/mygame.py --depth 5
    zerosum solve --game-file docs/examples/mygame.py --all-moves

The convention: the file defines GAME, a game object. GameBase supplies everything but
the six methods below (the evaluation defaults to 0, "unknown"; moves are written with
str() and read back by matching that text). `values` says what the utilities mean: here
+1/-1 for a win/loss, with every estimate strictly between, so a value of +1 is a
decided win (zerosum.game.Values). For a title, options or a default depth, set GAME to
a zerosum.games.registry.GameSpec instead.
"""

from __future__ import annotations

from zerosum.game import OUTCOME_BOUNDED, GameBase

# A state: (counters left, is it Max's turn?). Tuples are hashable and never change.
State = tuple[int, bool]


class TwentyOne(GameBase[State, int]):
    name = "twentyone"
    players = ("First", "Second")
    values = OUTCOME_BOUNDED

    def __init__(self, counters: int = 21) -> None:
        self.counters = counters

    def initial_state(self) -> State:
        return (self.counters, True)

    def actions(self, state: State) -> list[int]:
        left = state[0]
        return [take for take in (1, 2, 3) if take <= left]

    def result(self, state: State, action: int) -> State:
        left, max_to_move = state
        return (left - action, not max_to_move)

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def utility(self, state: State) -> float:
        # No counter left: the player who took the last one, the one not to move, won.
        return -1.0 if state[1] else 1.0

    def is_maxs_turn(self, state: State) -> bool:
        return state[1]

    def render(self, state: State) -> str:
        left = state[0]
        return f"{left} counter{'' if left == 1 else 's'} left"

    def move_help(self) -> str:
        return "Type how many counters to take: 1, 2 or 3."


GAME = TwentyOne()
