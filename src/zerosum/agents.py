"""Players (random, search, a game's engine, human) and `play_match`, which runs a game
between two of them.

Every computer player offers the one contract of zerosum.result: `analyse(game, state,
limit, on_info=None, stop=None) -> SearchResult` (its search, within a `Limit`, reporting
`Info` as it goes and obeying `stop`) and `play(...)`, the same returning just the move;
`choose(game, state)` is what `play_match` asks of any player, a person included;
`play_match` tells a MatchObserver (by default a MatchPrinter) of each move.

`Watch` lets a person wait for a computer player without waiting blind: it runs the
search in a worker thread, shows a live progress line, and turns Ctrl-C into a question.
"""

from __future__ import annotations

import math
import random
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TextIO

from zerosum.console import EndOfInput, read_answer
from zerosum.convert import MAX_DEPTH, MAX_SECONDS, parse_float, parse_int, shown
from zerosum.game import AnyGame, InputError, Unresponsive, format_value
from zerosum.games.registry import GameSpec
from zerosum.kernel import ALL, Enhancements
from zerosum.result import Analyser, InfoSink, Limit, SearchResult, depth_text
from zerosum.running import Running
from zerosum.search import (
    TranspositionTable,
    alphabeta_search,
    iterative_deepening_search,
    mcts_search,
    minimax_search,
)
from zerosum.search.driver import analyse_with, stop_for
from zerosum.stop import Stop


@dataclass
class Move:
    action: Any
    result: SearchResult | None = None  # the search behind the move, if any
    seconds: float = 0.0  # wall-clock thinking time


class Quit(Exception):
    """The person chose to leave while the computer was thinking (or pressed Ctrl-C twice)."""


class Agent(Protocol):
    """What play_match asks of a player."""

    name: str

    def choose(self, game: AnyGame, state: Any) -> Move: ...


class ComputerAgent:
    """A player that searches: `analyse` (the contract) and what follows from it.

    `limit` is the agent's own setting, used when `analyse` is given none. `watch`,
    set by a UI, makes `choose` think in a worker thread with a live progress line.
    """

    name = "computer"
    limit = Limit()
    watch: Watch | None = None

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        raise NotImplementedError

    def play(self, game: AnyGame, state: Any, limit: Limit | None = None,
             on_info: InfoSink | None = None, stop: Stop | None = None) -> Any:
        """The move `analyse` chooses (a legal one even when stopped at once)."""
        return playable(game, state, self.analyse(game, state, limit, on_info, stop)).action

    def new_stop(self) -> Stop:
        """A Stop for one search, carrying the agent's time and node budget."""
        stop = Stop(seconds=self.limit.seconds, nodes=self.limit.nodes, check_every=128)
        stop.depth = self.limit.depth or 0  # a fixed-depth search works at its limit
        return stop

    def choose(self, game: AnyGame, state: Any) -> Move:
        return think(self, game, state)


def progress_line(stop: Stop, elapsed: float) -> str:
    """The live line shown while a search runs: depth reached, nodes, speed, time."""
    depth = f"{depth_text(stop.depth, stop.unit)}, " if stop.depth else ""
    rate = stop.nodes_used / elapsed if elapsed > 0 else 0.0
    return (f"Thinking: {depth}{stop.nodes_used:,} {stop.unit}, {rate:,.0f} {stop.unit}/s, "
            f"{elapsed:.1f} s (Ctrl-C to stop)")


def playable(game: AnyGame, state: Any, result: SearchResult) -> SearchResult:
    """`result`, with a move even if the search was stopped before it had one: the
    first move in the game's search order."""
    if result.action is None and not game.is_terminal(state):
        result.action = game.order(state, game.actions(state))[0]
        result.pv = [result.action]
    return result


WIDTH = 79  # of a line a person reads, wrapped between words

STOPPED_HELP = """  p (or Enter): play the best move found so far
  c: continue thinking (the search starts again, keeping what it can)
  q: quit the game"""


STOP_WAIT = 2.0  # seconds a stopped search may take to answer before it is given up


class Watch:
    """Runs a computer player's search in a worker thread while the calling thread
    waits: after `delay` seconds it shows a live progress line (redrawn every
    `interval` seconds, only when `out` is a terminal), and Ctrl-C stops the search and
    asks whether to play the best move so far, think on, or quit.

    `clock` measures the elapsed time shown (tests give a stepping one).
    """

    def __init__(self, inp: TextIO, out: TextIO, clock: Callable[[], float] = time.perf_counter,
                 delay: float = 0.5, interval: float = 0.25) -> None:
        self.inp, self.out, self.clock = inp, out, clock
        self.delay, self.interval = delay, interval
        self.shown = 0  # length of the progress line on the screen, 0 if none

    def run(self, game: AnyGame, state: Any, search: Callable[[Stop], SearchResult],
            new_stop: Callable[[], Stop]) -> SearchResult:
        while True:
            running = Running(lambda on_info, stop: search(stop), new_stop(), name="search")
            try:
                self.wait(running)
            except KeyboardInterrupt:
                running.stop()  # every search answers a stop within a few milliseconds
                self.clear()
                try:
                    answered = running.wait(STOP_WAIT)
                except KeyboardInterrupt:
                    raise Quit from None
                if not answered:  # stuck in a game's own code, which checks no stop
                    raise Unresponsive(f"the search did not stop within {STOP_WAIT:g} s "
                                       "of Ctrl-C") from None
                result = playable(game, state, running.result())
                if self.ask(game, running.stopper, result) == "c":
                    continue
                return result
            self.clear()
            return running.result()

    def wait(self, running: Running[SearchResult]) -> None:
        start = self.clock()
        tty = self.out.isatty()
        while not running.wait(self.interval):
            elapsed = self.clock() - start
            if tty and elapsed >= self.delay:
                self.draw(progress_line(running.stopper, elapsed))

    def draw(self, text: str) -> None:
        self.out.write("\r" + text.ljust(self.shown))
        self.out.flush()
        self.shown = max(self.shown, len(text))  # what clear() must blank

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r" + " " * self.shown + "\r")
            self.out.flush()
            self.shown = 0

    def ask(self, game: AnyGame, stop: Stop, result: SearchResult) -> str:
        """'p' or 'c'; raises Quit on 'q', end of input or a second Ctrl-C."""
        where = f"at {depth_text(stop.depth, stop.unit)}" if stop.depth else "early"
        move = game.format_move(result.action) if result.action is not None else "none"
        if math.isinf(result.value):
            move = f"none judged yet; it would play {move}"
        question = (f"\nSearch stopped {where} (best so far: {move}). "
                    "[p]lay it, [c]ontinue thinking, [q]uit? ")
        while True:
            self.out.write(question)
            self.out.flush()
            try:
                line = self.inp.readline()
            except KeyboardInterrupt:
                raise Quit from None
            if not line:
                raise Quit
            answer = line.strip().lower()
            if answer in ("", "p", "play"):
                return "p"
            if answer in ("c", "continue"):
                return "c"
            if answer in ("q", "quit"):
                raise Quit
            if answer != "?":
                self.out.write(f"Please answer p, c or q (not {line.strip()!r}).")
            self.out.write("\n" + STOPPED_HELP)
            question = "\n[p]lay it, [c]ontinue thinking, [q]uit? "


def think(agent: ComputerAgent, game: AnyGame, state: Any) -> Move:
    """An agent's move by its `analyse`: in a worker thread under the agent's Watch if
    it has one, else right here."""
    t0 = time.perf_counter()
    watch = agent.watch
    if watch is None:
        result = agent.analyse(game, state)
    else:
        result = watch.run(game, state, lambda stop: agent.analyse(game, state, stop=stop),
                           agent.new_stop)
    result = playable(game, state, result)
    return Move(result.action, result, time.perf_counter() - t0)


class RandomAgent(ComputerAgent):
    """Plays a uniformly random legal move; seeded, so a match can be replayed. Its
    analysis judges nothing: the value is 0 (no opinion), the one node the root."""

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
    """Chooses by search: 'minimax', 'alphabeta', 'depth-limited' (alpha-beta with
    cutoff and evaluation), 'iterative' (iterative deepening within `seconds`) or
    'mcts' (Monte Carlo tree search within `seconds`, its playouts drawn from `seed`).

    minimax and alphabeta search to the end of the game unless `depth` is given.
    `enhancements` switches alpha-beta's table and move ordering (and, for iterative
    deepening, the driver's principal variation search and aspiration windows).
    """

    ALGORITHMS = ("minimax", "alphabeta", "depth-limited", "iterative", "mcts")

    def __init__(
        self,
        algorithm: str = "alphabeta",
        depth: int | None = None,
        seconds: float | None = None,
        enhancements: Enhancements = ALL,
        seed: int | None = None,
    ) -> None:
        if algorithm not in self.ALGORITHMS:
            raise InputError(f"unknown algorithm {algorithm!r}; choose from {self.ALGORITHMS}")
        if depth is not None and depth < 0:
            raise InputError(f"depth must be 0 or more, not {depth}")
        if seconds is not None and seconds <= 0:
            raise InputError(f"time must be positive, not {seconds}")
        if algorithm == "depth-limited" and depth is None:
            depth = 4
        if algorithm in ("iterative", "mcts") and seconds is None:
            seconds = 1.0
        self.algorithm, self.depth, self.seconds = algorithm, depth, seconds
        self.limit = Limit(depth=depth, seconds=seconds)
        self.enhancements = enhancements
        self.seeds = random.Random(seed)  # each move's seed drawn from `seed`
        detail = f"depth {depth}" if depth is not None else ""
        if algorithm in ("iterative", "mcts"):
            detail = f"{seconds:g} s"
        self.name = f"{algorithm} ({detail})" if detail else algorithm
        self._table: tuple[Any, TranspositionTable] | None = None  # (state, its table)

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        """The search's result within `limit` (default: the agent's); `stop` (see
        Watch) may end it early. minimax and alpha-beta honour the depth and the stop;
        iterative deepening and MCTS the time and node budgets too."""
        limit = limit or self.limit
        if self.algorithm == "mcts":
            return mcts_search(game, state, seconds=limit.seconds, simulations=limit.nodes,
                               stop=stop, seed=self.seeds.randrange(2**32), on_info=on_info)
        if stop is not None or limit.seconds is not None or limit.nodes is not None:
            stop = stop_for(limit, stop)
        if self.algorithm == "minimax":
            return minimax_search(game, state, limit.depth, stop=stop)
        if self.algorithm == "iterative":
            return iterative_deepening_search(
                game, state, seconds=limit.seconds, nodes=limit.nodes, stop=stop,
                max_depth=limit.depth or 100, on_info=on_info, enhancements=self.enhancements)
        # A table costs alpha-beta nothing in value and saves it the transposed subtrees;
        # searching the same state again (thinking on after a stop) reuses it.
        table = None
        if self.enhancements.table:
            if self._table is None or self._table[0] != state:
                self._table = (state, TranspositionTable())
            table = self._table[1]
        return alphabeta_search(game, state, limit.depth, order=self.enhancements.ordering,
                                table=table, stop=stop)


def engines_of(spec: GameSpec, enhancements: Enhancements = ALL) -> dict[str, Analyser]:
    """A game's own players: "engine", its kernel under the one driver (if it has a
    kernel; with these enhancements), then the other analysers it registers (e.g. a
    solver)."""
    players: dict[str, Analyser] = {}
    if spec.kernel is not None:
        players["engine"] = partial(analyse_with, spec.kernel, enhancements=enhancements)
    return {**players, **spec.engines}


def make_agent(spec: GameSpec, kind: str, depth: int | None = None,
               seconds: float | None = None, seed: int | None = None,
               enhancements: Enhancements = ALL) -> ComputerAgent:
    """A computer player by name: "random", one of SearchAgent.ALGORITHMS or one of
    the game's own players (engines_of). `depth` None: to the end for minimax and
    alpha-beta; `seconds` is used by the timed ones (iterative, mcts, engines; an engine
    given a depth and no time searches by depth alone)."""
    if kind == "random":
        return RandomAgent(seed)
    engines = engines_of(spec, enhancements)
    if kind in engines:  # by depth, by time, or both; neither: a second a move
        seconds = 1.0 if seconds is None and depth is None else seconds
        return EngineAgent(kind, engines[kind], Limit(depth=depth, seconds=seconds))
    if kind not in SearchAgent.ALGORITHMS:
        known = ", ".join(["random", *SearchAgent.ALGORITHMS, *engines])
        raise InputError(f"unknown player {kind!r} for {spec.name}; choose from {known}")
    timed = kind in ("iterative", "mcts")
    return SearchAgent(kind, depth=depth, seconds=seconds if timed else None, seed=seed,
                       enhancements=enhancements)


SETTINGS = ("time", "depth", "nodes", "seed", "off")


def agent_from_spec(spec: GameSpec, text: str, default_seed: int | None = None) -> ComputerAgent:
    """A computer player from its written form, NAME[:SETTING=VALUE,...]: a player's name
    (see make_agent) and its settings, `time` (seconds), `depth` (0: to the end),
    `nodes`, `seed` (else `default_seed`) and `off` (enhancements switched off, joined
    by +), e.g. `engine:time=0.1`, `alphabeta:depth=6`, `mcts:time=0.2,seed=3`,
    `random:seed=1`, `iterative:time=0.5,off=pvs+aspiration`; unset, the player's
    defaults (make_agent). A NAME ending in `.py` is a person's own agent from that file
    (zerosum.gamefile.load_agent_file), given the settings as they are written.
    InputError, naming the spec, on anything else."""
    name, _, rest = text.strip().partition(":")
    settings: dict[str, str] = {}
    own_file = name.endswith(".py")
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or key in settings or not (own_file or key in SETTINGS):
            why = "repeated" if key in settings else "not SETTING=VALUE" if not equals \
                else f"unknown (settings: {', '.join(SETTINGS)})"
            raise InputError(f"player {shown(text, 40)}: {shown(item)} is {why}")
        settings[key] = value
    what = f"player {shown(text, 40)}: "
    if own_file:
        from zerosum.gamefile import load_agent_file

        own = FileAgent(load_agent_file(name, settings, default_seed), name)
        own.name = text.strip()
        return own
    seconds = parse_float(settings["time"], what + "time", lo=0, lo_open=True,
                          hi=MAX_SECONDS) if "time" in settings else None
    depth = parse_int(settings["depth"], what + "depth", lo=0, hi=MAX_DEPTH) \
        if "depth" in settings else None
    nodes = parse_int(settings["nodes"], what + "nodes", lo=1) if "nodes" in settings else None
    seed = parse_int(settings["seed"], what + "seed", lo=0) if "seed" in settings \
        else default_seed
    off = [n for n in settings.get("off", "").split("+") if n]
    unknown = [n for n in off if n not in Enhancements.names()]
    if unknown:
        raise InputError(f"{what}no enhancement {shown(unknown[0])}; choose from "
                         f"{', '.join(Enhancements.names())}")
    enhancements = replace(ALL, **{n: False for n in off})
    agent = make_agent(spec, name, depth or None, seconds, seed, enhancements)
    if nodes is not None:
        agent.limit = replace(agent.limit, nodes=nodes)
    agent.name = text.strip()
    return agent


class EngineAgent(ComputerAgent):
    """A game's own engine (see GameSpec.engines), within a limit (default 1 s a move)."""

    def __init__(self, name: str, engine: Analyser, limit: Limit | float = 1.0) -> None:
        if not isinstance(limit, Limit):
            limit = Limit(seconds=limit)
        self.name = f"{name} ({limit})"
        self.engine = engine
        self.limit = limit

    def new_stop(self) -> Stop:
        return Stop()  # the engine applies its limit itself

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
        if hasattr(self.own, "analyse"):
            return think(self, game, state)
        return Move(self.own.play(game, state), None, time.perf_counter() - t0)


class HumanAgent:
    """Reads moves from a text stream; re-asks on an illegal move, `?` shows help."""

    def __init__(self, inp: TextIO, out: TextIO, prompt: str = "Your move (? for help): "):
        self.name = "human"
        self.inp, self.out, self.prompt = inp, out, prompt

    def legal_moves(self, game: AnyGame, state: Any) -> str:
        """`Legal moves: ...` in the game's notation, wrapped between moves (a terminal
        would split a move where the line reaches its edge)."""
        moves = " ".join(game.format_move(a) for a in game.actions(state))
        return textwrap.fill(f"Legal moves: {moves}", WIDTH, subsequent_indent="  ",
                             break_long_words=False, break_on_hyphens=False)

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        while True:
            text = read_answer(self.inp, self.out, self.prompt)
            if not text:
                continue
            if text == "?":
                help_lines = [textwrap.fill(line, WIDTH, break_long_words=False,
                                            break_on_hyphens=False) if line else line
                              for line in game.move_help().splitlines()]
                self.out.write("\n".join(help_lines) + f"\n{self.legal_moves(game, state)}\n")
                continue
            try:
                action = game.parse_move(state, text)
            except InputError as e:
                self.out.write(f"Invalid move: {e}\n{self.legal_moves(game, state)}\n")
                continue
            except ValueError:  # a game's own parse gave no message for a person
                self.out.write(f"Invalid move: {text!r} is not a move here\n"
                               f"{self.legal_moves(game, state)}\n")
                continue
            return Move(action, None, time.perf_counter() - t0)


@dataclass
class MatchRecord:
    moves: list[tuple[int, Move]] = field(default_factory=list)  # (side 0 = Max, move)
    final_state: Any = None
    utility: float | None = None  # None when the match did not reach a terminal state
    winner: str | None = None
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per side
    abandoned: bool = False


def value_text(game: AnyGame, result: SearchResult) -> str:
    """A search's value as a person reads it (zerosum.game.format_value)."""
    return format_value(game, result.value, decided=result.decided, plies=result.plies)


def describe(game: AnyGame, move: Move, state: Any = None) -> str:
    """One line of search figures for an engine move chosen in `state`."""
    r = move.result
    if r is None:
        return f"time {move.seconds:.3f} s"
    stopped = "" if r.complete else " (stopped early)"
    return (
        f"value {value_text(game, r)}, {depth_text(r.depth, r.unit)}{stopped}, "
        f"{r.unit} {r.stats.nodes:,}, time {move.seconds:.3f} s"
    )


class MatchObserver:
    """Told of each event of a match by `play_match`: a front-end's way to show a
    game (or save it) while the match itself keeps the rules of play. Subclasses
    override the events they need; here each does nothing."""

    def start(self, game: AnyGame, state: Any, agents: Sequence[Agent]) -> None:
        """Before the first move; `state` is where the match starts, agents[0] is Max."""

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        """Before agents[side] chooses its move in `state`."""

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        """agents[side] chose `move` in `state` (the position before the move)."""

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        """The match is over: the game ended, the move limit was reached or (with
        `record.abandoned`) a person's input ended."""


def player_names(game: AnyGame) -> tuple[str, str]:
    names: tuple[str, str] = getattr(game, "players", ("Max", "Min"))
    return names


class MatchPrinter(MatchObserver):
    """The plain text of a match (`zerosum play`): the board before every move (unless
    `show_board` is false), one line per move with its search figures, the result
    and each side's thinking time."""

    def __init__(self, out: TextIO, show_board: bool = True) -> None:
        self.out, self.show_board = out, show_board
        self.names: list[str] = []

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def start(self, game: AnyGame, state: Any, agents: Sequence[Agent]) -> None:
        self.names = [agent.name for agent in agents]

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        if self.show_board:
            self.say(game.render(state))

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        self.say(f"{player_names(game)[side]} ({self.names[side]}) plays "
                 f"{game.format_move(move.action)}: {describe(game, move, state)}")

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        players = player_names(game)
        if record.abandoned:
            self.say("Input ended: the game is abandoned.")
        elif record.utility is not None:
            if self.show_board:
                self.say(game.render(record.final_state))
            self.say(f"Game over. {game.outcome(record.final_state)}.")
        else:
            self.say(f"Stopped after {len(record.moves)} moves: the game is unfinished.")
        self.say(f"Thinking time: {players[0]} {record.seconds[0]:.2f} s, "
                 f"{players[1]} {record.seconds[1]:.2f} s")


def play_match(
    game: AnyGame,
    agents: Sequence[Agent],
    state: Any = None,
    out: TextIO | None = None,
    max_moves: int | None = None,
    show_board: bool = True,
    observer: MatchObserver | None = None,
) -> MatchRecord:
    """Play from `state` (default: the start) until the game ends; agents[0] is Max.
    The match ends early after `max_moves` moves, or on a person's end of input.

    `observer` is told of every event; by default a MatchPrinter writing to `out`
    (showing the board if `show_board`), and nothing is shown without `out`.
    """
    if observer is None:
        observer = MatchPrinter(out, show_board) if out is not None else MatchObserver()
    record = MatchRecord()
    if state is None:
        state = game.initial_state()
    observer.start(game, state, agents)
    while not game.is_terminal(state):
        if max_moves is not None and len(record.moves) >= max_moves:
            break
        side = 0 if game.is_maxs_turn(state) else 1
        observer.before_move(game, state, side)
        try:
            move = agents[side].choose(game, state)
        except EndOfInput:
            record.abandoned = True
            break
        record.seconds[side] += move.seconds
        record.moves.append((side, move))
        observer.after_move(game, state, side, move)
        state = game.result(state, move.action)
    record.final_state = state
    if game.is_terminal(state):
        record.utility = game.utility(state)
        players = player_names(game)
        record.winner = (
            players[0] if record.utility > 0 else players[1] if record.utility < 0 else None
        )
    observer.end(game, record)
    return record
