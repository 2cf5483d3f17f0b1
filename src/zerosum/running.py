"""A search running in a worker thread, as the terminal, the page and notebooks watch
it: its Info stream (`infos`, `latest`), its live `progress`, `stop()` and `wait()`,
then its `result()` (the search's own exception raised again, in the caller's thread).

Live progress has one home, here: the depth reached, the best move so far and the unit
come from the search's Info stream (each Info carries them), the count from the Stop,
which a search updates at every check anyway (`tick`, or a kernel's `observe`). The
Stop itself only says when to stop.

The one place that runs "a search in a thread, stream its Info, stop it": the
terminal's live line and Ctrl-C (players.terminal.Watch), `zerosum analyse`, the page's
think and analysis sockets (web/socket.py), the notebook widget and `zerosum ugi`; a
search starts as one from its kind of player (PlayerKind.start, ComputerAgent.start).
Like python-chess's AnalysisResult, a Running is read as a stream: `for info in
running` (a blocking iterator) or `async for info in running` (on an event loop: the
worker thread wakes it, nothing polls); both end when the search has finished.
`with running:` stops it (and waits for it) when the block is left, however it is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Generic, TypeVar

from zerosum.result import Info, InfoSink
from zerosum.stop import Stop

T = TypeVar("T")
S = TypeVar("S")


class Stream(Generic[S]):
    """Items one thread puts (a search's Infos, an analysis's messages) as others read
    them: `for item in stream` blocks between items, `async for item in stream` lets
    the event loop run (the worker thread wakes it: the one bridge from a search's
    thread to asyncio); both give every item from the first and end when the stream is
    closed and read to its end."""

    def __init__(self) -> None:
        self.items: list[S] = []
        self.closed = False
        self._changed = threading.Condition()
        self._listeners: list[Callable[[], None]] = []  # event loops waiting on it

    def put(self, item: S) -> None:
        self._changed_by(lambda: self.items.append(item))

    def close(self) -> None:
        self._changed_by(lambda: setattr(self, "closed", True))

    def _changed_by(self, change: Callable[[], None]) -> None:
        with self._changed:
            change()
            self._changed.notify_all()
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def __iter__(self) -> Iterator[S]:
        seen = 0
        while True:
            with self._changed:
                while seen == len(self.items) and not self.closed:
                    self._changed.wait()
                fresh, closed = self.items[seen:], self.closed
            seen += len(fresh)
            yield from fresh
            if closed and seen == len(self.items):
                return

    async def __aiter__(self) -> AsyncIterator[S]:
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            # A closed loop (RuntimeError) has no one listening any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(woken.set)

        with self._changed:
            self._listeners.append(wake)
        try:
            seen = 0
            while True:
                with self._changed:
                    fresh, closed = self.items[seen:], self.closed
                    woken.clear()
                seen += len(fresh)
                for item in fresh:
                    yield item
                if closed and seen == len(self.items):
                    return
                if not fresh:
                    await woken.wait()
        finally:
            with self._changed:
                self._listeners.remove(wake)


@dataclass(frozen=True)
class Progress:
    """A running search's live figures between two Infos: the depth reached (0: none
    yet), what it has counted (`unit`: nodes, or MCTS's simulations), the best move so
    far (None: none yet) and the seconds since it started."""

    depth: int
    nodes: int
    unit: str
    best: object
    elapsed: float

    @property
    def rate(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


class Running(Generic[T]):
    """`search(on_info, stop)` started at once in a daemon thread; `on_info` and
    `on_done` (called in the worker thread, the latter once, after the search returned
    or raised) let an event loop be told without polling.

    `depth` and `unit` are the progress shown before the first Info: a fixed-depth
    search works at its limit from the start; MCTS counts simulations."""

    def __init__(self, search: Callable[[InfoSink, Stop], T], stop: Stop | None = None,
                 on_info: InfoSink | None = None,
                 on_done: Callable[[Running[T]], None] | None = None,
                 name: str = "zerosum-search",
                 clock: Callable[[], float] = time.perf_counter,
                 depth: int = 0, unit: str = "nodes") -> None:
        self.stopper = stop if stop is not None else Stop()
        self.stream: Stream[Info] = Stream()
        self.given_depth, self.given_unit = depth, unit  # shown before the first Info
        self._depth, self._unit = depth, unit
        self._best: object = None
        self.clock = clock
        self.started = clock()
        self._search, self._on_info, self._on_done = search, on_info, on_done
        self._value: T | None = None
        self._error: BaseException | None = None
        # An Event, not Thread.join: a join interrupted by Ctrl-C may later report the
        # thread finished while it still runs (CPython before 3.13).
        self._finished = threading.Event()
        threading.Thread(target=self._work, name=name, daemon=True).start()

    def _info(self, info: Info) -> None:
        if info.depth is not None:
            self._depth = info.depth
        self._unit = info.unit
        if info.pv:
            self._best = info.pv[0]
        self.stream.put(info)
        if self._on_info is not None:
            self._on_info(info)

    def _work(self) -> None:
        try:
            self._value = self._search(self._info, self.stopper)
        except BaseException as e:  # handed to whoever asks for the result
            self._error = e
        finally:
            self._finished.set()
            self.stream.close()
            if self._on_done is not None:
                self._on_done(self)

    @property
    def infos(self) -> list[Info]:
        """Every Info reported so far."""
        return self.stream.items

    def __iter__(self) -> Iterator[Info]:
        """Each Info as the search reports it (those already reported first), until it
        has finished; blocks between them."""
        return iter(self.stream)

    def __aiter__(self) -> AsyncIterator[Info]:
        """The same stream on an event loop, which never blocks on it."""
        return aiter(self.stream)

    def __enter__(self) -> Running[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Leaving the block stops the search (if it still runs) and waits for its answer."""
        if not self.done:
            self.stop()
        self.wait()

    @property
    def latest(self) -> Info | None:
        """The last Info the search reported, None before its first."""
        return self.infos[-1] if self.infos else None

    def progress(self) -> Progress:
        # The count is the Stop's, which the search keeps anyway for its node budget:
        # reading it costs the search nothing. A finished search's best is its answer.
        best = self._best
        if self._finished.is_set() and self._error is None and self._value is not None:
            best = getattr(self._value, "action", best)
        return Progress(self._depth, self.stopper.nodes_used, self._unit, best,
                        self.clock() - self.started)

    def stop(self) -> None:
        """Ask the search to end; every search answers within milliseconds with its
        best so far (see `wait`)."""
        self.stopper.request()

    @property
    def stopped(self) -> bool:
        """Whether `stop()` was asked (a deadline or a budget does not count)."""
        return self.stopper.requested

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search has finished (True) or `timeout` seconds passed."""
        return self._finished.wait(timeout)

    def error(self) -> BaseException | None:
        """What the finished search raised, None if it returned."""
        return self._error

    def result(self) -> T:
        """The finished search's answer; what it raised is raised here."""
        if not self._finished.is_set():
            raise RuntimeError("the search is still running: wait() first")
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set when no error was raised
