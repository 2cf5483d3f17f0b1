"""Clocks for tests: timed code given one of these prints and decides exactly the same on
any machine, however loaded."""

from __future__ import annotations


class SteppingClock:
    """A clock that moves on by `step` every time it is read (the first reading is `step`).
    The time is computed from the count of readings, not summed, so it never drifts;
    setting `now` jumps the clock there."""

    def __init__(self, step: float) -> None:
        self.step, self.reads, self.origin = step, 0, 0.0

    @property
    def now(self) -> float:
        return self.origin + self.reads * self.step

    @now.setter
    def now(self, value: float) -> None:
        self.origin, self.reads = value, 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now
