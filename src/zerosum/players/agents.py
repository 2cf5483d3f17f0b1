"""The computer players: each offers the one contract of zerosum.result, `analyse(game,
state, limit, on_info=None, stop=None) -> SearchResult` (its search, within a `Limit`,
reporting `Info` as it goes and obeying `stop`), `start(...)`, the same in a worker
thread (a zerosum.running.Running, the stream every front end reads), `play(...)`, the
same returning just the move, and `choose(game, state)`, what zerosum.match.play_match
asks of any player.

Which players exist, their searches, settings and defaults: zerosum.players.catalogue
and the kinds of zerosum.players.kinds (one module per search algorithm).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from zerosum.game import AnyGame
from zerosum.games.registry import GameSpec
from zerosum.kernel import ALL, Enhancements
from zerosum.match import Move
from zerosum.result import Analyser, InfoSink, Limit, SearchResult
from zerosum.running import Running
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop


class Runner(Protocol):
    """What runs a computer player's search in a worker thread and waits for it: the
    terminal's Watch, for a person (`start()` starts it afresh, a Running, each time it
    is asked), or a referee's clock (tournament.referee.MoveClock)."""

    def run(self, game: AnyGame, state: Any,
            start: Callable[[], Running[SearchResult]]) -> SearchResult: ...


class ComputerAgent:
    """A player that searches: `analyse` (the contract) and what follows from it.

    `limit` is the agent's own setting, used when `analyse` is given none. `watch`,
    set by a UI (a live progress line) or a referee (its move's clock), makes `choose`
    think in a worker thread, run by it; `thinks` says whether `choose` does (False: a
    move that is no search, or a program's, which keeps its own clock).
    """

    name = "computer"
    limit = Limit()
    unit = "nodes"  # what its searches count (MCTS: simulations)
    watch: Runner | None = None
    thinks = True

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        raise NotImplementedError

    def play(self, game: AnyGame, state: Any, limit: Limit | None = None,
             on_info: InfoSink | None = None, stop: Stop | None = None) -> Any:
        """The move `analyse` chooses (a legal one even when stopped at once)."""
        return playable(game, state, self.analyse(game, state, limit, on_info, stop)).action

    def start(self, game: AnyGame, state: Any, limit: Limit | None = None,
              on_info: InfoSink | None = None,
              on_done: Callable[[Running[SearchResult]], None] | None = None,
              ) -> Running[SearchResult]:
        """`analyse` started in a worker thread, within `limit` (default: the agent's),
        under the one Stop made here from that limit's time and node budget."""
        limit = limit or self.limit
        stop = Stop(seconds=limit.seconds, nodes=limit.nodes, check_every=128)
        return Running(lambda sink, stop: self.analyse(game, state, limit, sink, stop), stop,
                       on_info, on_done, depth=self.working_depth(limit), unit=self.unit)

    def working_depth(self, limit: Limit) -> int:
        """The depth shown while it thinks, before its search reports one: a
        fixed-depth search works at its limit (0: none to show)."""
        return limit.depth or 0

    def choose(self, game: AnyGame, state: Any) -> Move:
        return think(self, game, state)


def playable(game: AnyGame, state: Any, result: SearchResult) -> SearchResult:
    """`result`, with a move even if the search was stopped before it had one: the
    first move in the game's search order."""
    if result.action is None and not game.is_terminal(state):
        result.action = game.order(state, game.actions(state))[0]
        result.pv = [result.action]
    return result


def think(agent: ComputerAgent, game: AnyGame, state: Any) -> Move:
    """An agent's move by its `analyse`: in a worker thread under the agent's Watch if
    it has one, else right here."""
    t0 = time.perf_counter()
    watch = agent.watch
    if watch is None:
        result = agent.analyse(game, state)
    else:
        result = watch.run(game, state, lambda: agent.start(game, state))
    result = playable(game, state, result)
    return Move(result.action, result, time.perf_counter() - t0)


class RandomAgent(ComputerAgent):
    """Plays a uniformly random legal move; seeded, so a match can be replayed. Its
    analysis judges nothing: the value is 0 (no opinion), the one node the root."""

    thinks = False  # its move is instant: it needs no clock

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        actions = list(game.actions(state))
        action = self.rng.choice(actions) if actions else None
        result = SearchResult(0.0, action, [] if action is None else [action], depth=0,
                              algorithm="random")
        result.stats.nodes = 1
        return result

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        action = self.analyse(game, state).action
        return Move(action, None, time.perf_counter() - t0)


class SearchAgent(ComputerAgent):
    """A search as a player: `analyser` (one of the catalogue's kinds, made for this
    player: zerosum.players.kinds) within `limit`, its searches counting `unit`;
    `enhancements`, those the analyser was made with (shown, not applied here)."""

    def __init__(self, name: str, analyser: Analyser, limit: Limit,
                 unit: str = "nodes", enhancements: Enhancements = ALL) -> None:
        self.name, self.analyser, self.limit, self.unit = name, analyser, limit, unit
        self.enhancements = enhancements

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        """The search's result within `limit` (default: the agent's); `stop` (see
        Watch) may end it early."""
        return self.analyser(game, state, limit or self.limit, on_info, stop)


def engines_of(spec: GameSpec, enhancements: Enhancements = ALL) -> dict[str, Analyser]:
    """A game's own players: "engine", its kernel under the one driver (if it has a
    kernel; with these enhancements), and "solver", its perfect solver (if it declares
    one)."""
    players: dict[str, Analyser] = {}
    if spec.kernel is not None:
        players["engine"] = partial(analyse_with, spec.kernel, enhancements=enhancements)
    if spec.solver is not None:
        players["solver"] = spec.solver.play
    return players


class EngineAgent(ComputerAgent):
    """A game's own engine (its kernel or its solver), within a limit (default 1 s a move)."""

    def __init__(self, name: str, engine: Analyser, limit: Limit | float = 1.0) -> None:
        if not isinstance(limit, Limit):
            limit = Limit(seconds=limit)
        self.name = f"{name} ({limit})"
        self.engine = engine
        self.limit = limit

    def working_depth(self, limit: Limit) -> int:
        return 0  # the engine deepens and reports each depth

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        return self.engine(game, state, limit or self.limit, on_info, stop)


class FileAgent(ComputerAgent):
    """A person's own agent (from a file): anything with `play(game, state)`, returning a
    move, and optionally the whole contract (`analyse`), whose figures are then kept."""

    def __init__(self, own: Any, path: str = "") -> None:
        self.own = own
        self.path = path  # the file it came from
        self.name = str(getattr(own, "name", "own agent"))
        # Only a search (`analyse`) is thought by `think`; a bare `play` is no search
        # and reads no Stop: a referee times it with a signal (match.time_limit).
        self.thinks = hasattr(own, "analyse")

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        if hasattr(self.own, "analyse"):
            result: SearchResult = self.own.analyse(game, state, limit, on_info, stop)
            return result
        action = self.own.play(game, state)
        # No search behind it: no opinion (0, an estimate) at depth 0, never "depth end".
        return SearchResult(0.0, action, [action], depth=0, algorithm=self.name)

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        if self.thinks:
            return think(self, game, state)
        return Move(self.own.play(game, state), None, time.perf_counter() - t0)


