"""Stopping a running search from outside: a deadline, a node budget, or a flag.

On the ground floor beside the protocol, since games' own engines obey a Stop too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class SearchStopped(Exception):
    """Raised inside a search when its Stop says so; the search catches it at the root."""


class Stop:
    """When a search must give up: a deadline, a node budget, a flag.

    The node budget is checked at every node (an integer comparison); the clock and
    the flag only every `check_every` nodes, since reading the clock costs more.
    `clock` measures `seconds`: wall time by default, or e.g. time.process_time for
    benchmarks on a machine shared with other jobs.
    `request()` may be called from another thread (a UI's stop button).

    `nodes_used` is what the node budget is checked against: counted by `tick`, or
    reported by an engine that counts its own nodes (`observe`); a display may read it
    from another thread. The rest of a search's live progress (depth reached, best
    move so far) comes through its Info stream: see zerosum.running.
    """

    def __init__(
        self,
        seconds: float | None = None,
        nodes: int | None = None,
        check_every: int = 256,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.clock = clock
        self.deadline = None if seconds is None else clock() + seconds
        self.node_budget = nodes
        self.check_every = check_every
        self.nodes_used = 0
        self._flag = threading.Event()

    def request(self) -> None:
        self._flag.set()

    def observe(self, nodes: int) -> bool:
        """For a kernel that counts its own nodes, at its periodic check (every 1,024
        nodes, say): show the count to whoever watches (the live line), and say whether
        the search must stop (a request, the deadline, the node budget)."""
        self.nodes_used = nodes
        return self.expired()

    @property
    def requested(self) -> bool:
        return self._flag.is_set()

    def time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return self.deadline - self.clock()

    def expired(self) -> bool:
        if self.requested:
            return True
        if self.node_budget is not None and self.nodes_used >= self.node_budget:
            return True
        return self.deadline is not None and self.clock() >= self.deadline

    def reason(self) -> str:
        """Why the search must stop, for a person: "stopped" (a request), "nodes" (the
        node budget), "time" (the deadline), or "" while it may go on."""
        if self.requested:
            return "stopped"
        if self.node_budget is not None and self.nodes_used >= self.node_budget:
            return "nodes"
        if self.deadline is not None and self.clock() >= self.deadline:
            return "time"
        return ""

    def tick(self) -> None:
        """Count one node; raise SearchStopped when the budget is spent."""
        self.nodes_used += 1
        if self.node_budget is not None and self.nodes_used > self.node_budget:
            self.nodes_used -= 1  # the node was not searched
            raise SearchStopped
        if self.nodes_used % self.check_every == 0 and (
            self._flag.is_set()
            or (self.deadline is not None and self.clock() >= self.deadline)
        ):
            raise SearchStopped
