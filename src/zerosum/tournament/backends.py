"""Where a tournament's games are played: `Backend.run(jobs, on_result)`.

A backend takes the jobs in order and plays as many at once as it has workers; it calls
`on_result(result)` in the calling thread as each game ends (in the order they end),
and stops taking new jobs once `on_result` returns True (an SPRT has decided): games
already being played are then abandoned, not reported. Whatever the backend, a game is
played by `referee.play_game`, so its result depends only on its job.

- LocalBackend: worker processes on this machine (`--workers`, default the number of
  cores; never more than games to play, nor than MAX_PER_CORE a core). Each worker
  reports which agent it is making or whose turn it is, so a worker that dies (an
  agent's code killing its process) or hangs past the move timeout is blamed on that
  agent: it loses the game, a fresh worker takes its place, the tournament goes on. A
  worker that dies before any agent's code ran (killed from outside) is blamed on
  nobody: the game is played again by a fresh worker, and the TRIES-th such death
  stops the tournament with an InputError naming the game. A worker in which a search
  the referee gave up on still runs (referee.left_running) retires after its game.
- RayBackend (zerosum.tournament.raycluster): the same games as Ray tasks on a cluster.
- InProcessBackend: the games one after another in the calling process, no worker to
  start: for a few quick games between trusted agents (a trainer's own checkpoints,
  zerosum.learn.gate). Nothing guards it from an agent that kills its process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from zerosum.game import InputError
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import forfeit, left_running, play_game

ResultSink = Callable[[GameResult], bool | None]
GRACE = 10.0  # seconds past a move's timeout before a silent worker is killed
STARTUP = 60.0  # seconds a worker may take to start a game before it is killed
MAX_PER_CORE = 4  # workers a core at most: more only share the core and its memory
TRIES = 3  # plays of a game whose worker died before any agent's code ran
ORPHAN_CHECK = 0.5  # seconds between a worker's checks that its tournament still runs


class Backend(Protocol):
    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None: ...


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


def max_workers() -> int:
    return MAX_PER_CORE * default_workers()


def watch_parent() -> None:
    """End this worker when the process that started it is gone (killed with -9, say):
    an orphan would play on, for nobody, and complain when it reports."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Gone(Exception):
    """The tournament this worker reports to has ended."""


def serve(conn: Connection) -> None:
    """A worker process: play each job it is sent, telling which agent it makes and
    whose turn it is, until None."""
    watch_parent()

    def tell(side: int, ply: int) -> None:
        try:
            conn.send(("turn", side, ply))
        except OSError:
            raise Gone from None

    try:
        while (job := conn.recv()) is not None:
            try:
                result = play_game(job, tell)
            except (KeyboardInterrupt, Gone):
                raise
            except InputError as e:  # the game cannot be set up here
                conn.send(("error", f"game {job.number}: {e}"))
                continue
            except BaseException as e:  # the game's own code (a person's game file)
                conn.send(("error", f"game {job.number}: the game {job.game} failed: "
                                    f"{type(e).__name__}: {e}"))
                continue
            if left_running():  # a search it gave up on still runs: a fresh worker goes on
                conn.send(("done", result, "retire"))
                return
            conn.send(("done", result))
    except (EOFError, OSError, Gone, KeyboardInterrupt):
        pass  # the tournament ended or was killed: nothing is left to report to


@dataclass
class Worker:
    process: BaseProcess
    conn: Connection
    job: GameJob | None = None
    side: int | None = None  # the agent being made, or to move, in `job`; None: neither yet
    making: bool = False  # `side` is being made, not moving
    since: float = 0.0  # when that began
    dead: bool = False  # closed after a death or a hang: to be replaced

    def deadline(self) -> float:
        assert self.job is not None
        if self.side is None:  # starting (a fresh process imports zerosum) and setting up
            return self.since + STARTUP + GRACE
        return self.since + self.job.move_timeout[self.side] + GRACE


class InProcessBackend:
    """Games one after another in this process (see the module)."""

    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        for job in jobs:
            if on_result(play_game(job)):
                return


class LocalBackend:
    """Games in `workers` processes of this machine (started fresh by spawn: no state of
    the parent's leaks into a game)."""

    def __init__(self, workers: int | None = None) -> None:
        self.size = min(workers or default_workers(), max_workers())
        self.context = multiprocessing.get_context("spawn")
        self.tries: dict[int, int] = {}  # deaths before any agent's code, by game

    def start(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return Worker(process, ours)

    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        workers: list[Worker] = []
        try:
            self.loop(workers, jobs, on_result)
        finally:
            for w in workers:
                self.close(w)

    def loop(self, workers: list[Worker], jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        again: deque[GameJob] = deque()  # games to play again: their worker died early
        done = False
        while True:
            workers[:] = [w for w in workers if not w.dead]
            idle = [w for w in workers if w.job is None]
            while not done or again:
                if not idle and len(workers) >= self.size:
                    break
                job = again.popleft() if again else next(jobs, None)
                if job is None:
                    done = True
                    break
                w = idle.pop() if idle else self.start()
                if w not in workers:
                    workers.append(w)
                w.job, w.side, w.making, w.since = job, None, False, time.monotonic()
                try:
                    w.conn.send(job)
                except OSError:  # it died idle: the game goes to another worker
                    w.job = None
                    self.close(w)
                    w.dead = True
                    workers.remove(w)
                    self.count_death(job.number, w.process.exitcode)
                    again.appendleft(job)
            busy = [w for w in workers if w.job is not None]
            if not busy:
                return
            waiting: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = wait(waiting, timeout=max(0.0, min(w.deadline() for w in busy)
                                              - time.monotonic()))
            for w in busy:
                job = w.job
                result = self.poll(w, ready)
                if result is None and w.dead and job is not None:
                    again.append(job)
                if result is not None and on_result(result):
                    return

    def poll(self, w: Worker, ready: list[Any]) -> GameResult | None:
        """What `w` has to say, if anything: a finished game, a turn, or its death (the
        game lost by the agent whose code ran, or to be played again: `w.dead`)."""
        if w.job is None:
            return None
        job = w.job
        if w.conn in ready:
            try:
                message = w.conn.recv()
            except (EOFError, OSError):
                return self.died(w)
            kind, payload = message[0], message[1]
            if kind == "turn":
                w.side, w.making, w.since = payload, message[2] < 0, time.monotonic()
                return None
            if kind == "error":
                raise InputError(payload)
            w.job = None
            assert isinstance(payload, GameResult) and payload.number == job.number
            if len(message) > 2:  # it retires (a runaway search's thread): replaced
                self.close(w)
                w.dead = True
            return payload
        if w.process.sentinel in ready:
            return self.died(w)
        if time.monotonic() > w.deadline():
            if w.side is None:  # never started: blamed on nobody
                w.process.kill()
                return self.died(w)
            limit = job.move_timeout[w.side]
            return self.lost(w, f"not made within {limit:g} s (its worker was stopped)"
                             if w.making else f"no move within {limit:g} s (its worker "
                             "was stopped)")
        return None

    def died(self, w: Worker) -> GameResult | None:
        w.process.join(GRACE)
        code = w.process.exitcode
        if w.side is not None:
            return self.lost(w, f"its worker process died {'while making it ' if w.making else ''}"
                                f"(exit code {code})")
        assert w.job is not None
        number = w.job.number
        self.close(w)
        w.job, w.dead = None, True
        self.count_death(number, code)
        return None

    def count_death(self, number: int, code: int | None) -> None:
        """A worker died before game `number` ran any agent's code: InputError the
        TRIES-th time (something outside the game kills workers)."""
        self.tries[number] = self.tries.get(number, 0) + 1
        if self.tries[number] >= TRIES:
            raise InputError(f"game {number}: its worker process died {TRIES} times before "
                             f"any agent's code ran (exit code {code}); run the same command "
                             "again to go on")

    def lost(self, w: Worker, why: str) -> GameResult:
        """The game in `w` lost by the agent whose code ran; `w` is closed (to be replaced)."""
        assert w.job is not None and w.side is not None
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
