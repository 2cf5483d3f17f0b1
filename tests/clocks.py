"""Clocks for tests: timed code given one of these prints and decides exactly the same on
any machine, however loaded."""

from __future__ import annotations


class SteppingClock:
    """A clock that moves on by `step` every time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
