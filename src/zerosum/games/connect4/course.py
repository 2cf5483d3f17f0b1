"""The classic course's Connect Four (COMP3608): the same moves, its own values.

The auto-marker counts the nodes minimax and alpha-beta examine, so the values must be
exactly the course's, ties and all:

- utility: +10000 if red has four in a row, else -10000 if yellow has (red checked
  first), no bonus for winning sooner; a full board without a four is valued by the
  evaluation;
- evaluation: score(red) - score(yellow), where score(p) = p's stones
  + 10 x (2-in-a-rows) + 100 x (3-in-a-rows) + 1000 x (4-or-more-in-a-rows), counting
  maximal runs of p's stones in each of the four directions (a run of three is one
  3-in-a-row, not two 2-in-a-rows); a lone stone is counted once, as a stone.

Children are generated left to right (the inherited `actions`), so the generic
minimax and alpha-beta of zerosum.search reproduce the course's node counts.
"""

from __future__ import annotations

from zerosum.games.connect4.game import Connect4, Position

WIN = 10000


class CourseConnect4(Connect4):
    name = "connect4-course"

    def utility(self, state: Position) -> float:
        colour = self.winner_colour(state)
        if colour == "red":
            return WIN
        if colour == "yellow":
            return -WIN
        return self.evaluate(state)

    def evaluate(self, state: Position) -> float:
        red, yellow = state.stones
        return self.score(red) - self.score(yellow)

    def score(self, stones: int) -> int:
        """The course's score of one side's stones."""
        total = stones.bit_count()
        for shift in (1, self.geo.h1, self.geo.height, self.geo.height + 2):
            r2, r3, r4 = self.runs_of_at_least(stones, shift)
            total += 10 * (r2 - r3) + 100 * (r3 - r4) + 1000 * r4
        return total

    @staticmethod
    def runs_of_at_least(stones: int, shift: int) -> tuple[int, int, int]:
        """How many maximal runs along `shift` are at least 2, 3 and 4 stones long.

        A run starts at a stone with no stone before it; it is at least n long when the
        n-1 cells after its start are stones too. (The spare bit above each column is
        always empty, so no run continues across a column's edge.)
        """
        starts = stones & ~(stones << shift)
        two = starts & (stones >> shift)
        three = two & (stones >> 2 * shift)
        four = three & (stones >> 3 * shift)
        return two.bit_count(), three.bit_count(), four.bit_count()
