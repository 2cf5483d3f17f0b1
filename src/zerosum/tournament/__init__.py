"""Tournaments: several agents play each other in colour-swapped pairs of games, and the
results say which is stronger, with error margins (`zerosum tournament`, `zerosum sprt`).

The layers, bottom up:
- `jobs`: what one game is (GameJob: the game, the two agents' specs, the opening, the
  seed, the limits) and what it gave (GameResult, with every move's figures). Plain,
  picklable, written to and read from JSON: they cross processes and machines.
- `referee`: `play_game(job)` plays one game by the rules of a tournament (the opening,
  the move timeout, illegal moves and crashes lose, the length limit, adjudication).
- `schedule`: a tournament's settings and the jobs they make, in a fixed order.
- `store`: the SQLite database each finished game is committed to; rerunning resumes.
- `backends`: where the jobs run: worker processes on this machine, or a Ray cluster.
- `report`: cross-table, pair statistics and ratings of the results.
"""
