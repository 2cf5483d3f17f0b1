"""A call timed against a wall-clock budget in a child process: what the Connect Four
benches use for searches that spread over worker processes, which no Stop reaches."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from typing import Any


def _grouped(target: Callable[..., Any], args: tuple[Any, ...]) -> None:
    os.setpgrp()  # its own process group, with its workers: killed as one at the budget
    target(*args)


def within(budget: float, target: Callable[..., Any], *args: Any) -> float | None:
    """Wall seconds of `target(*args)` in a forked child; None if it outlasts `budget`
    (then the child and every process it started are killed)."""
    t0 = time.perf_counter()
    child = multiprocessing.get_context("fork").Process(target=_grouped, args=(target, args))
    child.start()
    child.join(budget)
    if child.is_alive():
        assert child.pid is not None
        os.killpg(child.pid, signal.SIGKILL)
        child.join()
        return None
    return time.perf_counter() - t0
