"""Where a tournament's games are played: `Backend.run(jobs, on_result)`.

A backend takes the jobs in order and plays as many at once as it has workers; it calls
`on_result(result)` in the calling thread as each game ends (in the order they end),
and stops taking new jobs once `on_result` returns True (an SPRT has decided): games
already being played are then abandoned, not reported. Whatever the backend, a game is
played by `referee.play_game`, so its result depends only on its job.

- LocalBackend: worker processes on this machine (`--workers`, default the number of
  cores). Each worker reports whose turn it is, so a worker that dies (an agent's code
  killing its process) or hangs past the move timeout is blamed on the agent to move:
  that agent loses the game, a fresh worker takes its place, the tournament goes on.
- RayBackend (zerosum.tournament.raycluster): the same games as Ray tasks on a cluster.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from zerosum.game import InputError
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import forfeit, play_game

ResultSink = Callable[[GameResult], bool | None]
GRACE = 10.0  # seconds past a move's timeout before a silent worker is killed


class Backend(Protocol):
    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None: ...


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


def serve(conn: Connection) -> None:
    """A worker process: play each job it is sent, telling whose turn it is, until None."""
    try:
        while (job := conn.recv()) is not None:
            try:
                result = play_game(job, lambda side, ply: conn.send(("turn", side)))
            except (InputError, OSError) as e:  # the game cannot be set up here
                conn.send(("error", f"game {job.number}: {e}"))
                continue
            conn.send(("done", result))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass  # the tournament ended or was killed: nothing is left to report to


@dataclass
class Worker:
    process: BaseProcess
    conn: Connection
    job: GameJob | None = None
    side: int = 0  # whose turn it is in `job`
    since: float = 0.0  # when that turn began
    dead: bool = False  # closed after a death or a hang: to be replaced

    def deadline(self) -> float:
        assert self.job is not None
        return self.since + self.job.move_timeout[self.side] + GRACE


class LocalBackend:
    """Games in `workers` processes of this machine (started fresh by spawn: no state of
    the parent's leaks into a game)."""

    def __init__(self, workers: int | None = None) -> None:
        self.size = workers or default_workers()
        self.context = multiprocessing.get_context("spawn")

    def start(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return Worker(process, ours)

    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        workers = [self.start() for _ in range(self.size)]
        try:
            self.loop(workers, jobs, on_result)
        finally:
            for w in workers:
                self.close(w)

    def loop(self, workers: list[Worker], jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        done = False
        while True:
            for w in workers:
                if w.job is None and not done:
                    job = next(jobs, None)
                    if job is None:
                        done = True
                        break
                    w.job, w.side, w.since = job, 0, time.monotonic()
                    w.conn.send(job)
            busy = [w for w in workers if w.job is not None]
            if not busy:
                return
            waiting: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = wait(waiting, timeout=max(0.0, min(w.deadline() for w in busy)
                                              - time.monotonic()))
            for i, w in enumerate(workers):
                result = self.poll(w, ready)
                if result is None:
                    continue
                if w.dead:
                    workers[i] = self.start()
                if on_result(result):
                    return

    def poll(self, w: Worker, ready: list[Any]) -> GameResult | None:
        """What `w` has to say, if anything: a finished game, a turn, or its death."""
        if w.job is None:
            return None
        job = w.job
        if w.conn in ready:
            try:
                kind, payload = w.conn.recv()
            except (EOFError, OSError):
                return self.died(w)
            if kind == "turn":
                w.side, w.since = payload, time.monotonic()
                return None
            if kind == "error":
                raise InputError(payload)
            w.job = None
            assert isinstance(payload, GameResult) and payload.number == job.number
            return payload
        if w.process.sentinel in ready:
            return self.died(w)
        if time.monotonic() > w.deadline():
            return self.lost(w, f"no move within {job.move_timeout[w.side]:g} s "
                                "(its worker was stopped)")
        return None

    def died(self, w: Worker) -> GameResult:
        w.process.join(GRACE)
        return self.lost(w, f"its worker process died (exit code {w.process.exitcode})")

    def lost(self, w: Worker, why: str) -> GameResult:
        """The game in `w` lost by the agent to move; `w` is closed (the caller replaces it)."""
        assert w.job is not None
        job, side = w.job, w.side
        self.close(w)
        w.job, w.dead = None, True
        return GameResult(job.number, forfeit(side), f"{job.agents[side]} lost: {why}",
                          fault=side)

    @staticmethod
    def close(w: Worker) -> None:
        if w.process.is_alive():
            if w.job is None:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
                w.process.join(1.0)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
        w.conn.close()
