"""Players (random, search, human) and `play_match`, which runs a game between two of them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from zerosum.game import AnyGame, InputError
from zerosum.search import (
    SearchResult,
    TranspositionTable,
    alphabeta_search,
    iterative_deepening_search,
    minimax_search,
)


@dataclass
class Move:
    action: Any
    result: SearchResult | None = None  # the search behind the move, if any
    seconds: float = 0.0  # wall-clock thinking time


class EndOfInput(Exception):
    """A human's input ended (Ctrl-D, end of a piped file): the game stops cleanly."""


class Agent(Protocol):
    name: str

    def choose(self, game: AnyGame, state: Any) -> Move: ...


class RandomAgent:
    """Plays a uniformly random legal move; seeded, so a match can be replayed."""

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        action = self.rng.choice(list(game.actions(state)))
        return Move(action, None, time.perf_counter() - t0)


SearchFunction = Callable[[AnyGame, Any], SearchResult]


class SearchAgent:
    """Chooses by search: 'minimax', 'alphabeta', 'depth-limited' (alpha-beta with
    cutoff and evaluation) or 'iterative' (iterative deepening within `seconds`).

    minimax and alphabeta search to the end of the game unless `depth` is given.
    """

    ALGORITHMS = ("minimax", "alphabeta", "depth-limited", "iterative")

    def __init__(
        self,
        algorithm: str = "alphabeta",
        depth: int | None = None,
        seconds: float | None = None,
        order: bool = True,
        table: bool = True,
    ) -> None:
        if algorithm not in self.ALGORITHMS:
            raise InputError(f"unknown algorithm {algorithm!r}; choose from {self.ALGORITHMS}")
        if depth is not None and depth < 0:
            raise InputError(f"depth must be 0 or more, not {depth}")
        if seconds is not None and seconds <= 0:
            raise InputError(f"time must be positive, not {seconds}")
        if algorithm == "depth-limited" and depth is None:
            depth = 4
        if algorithm == "iterative" and seconds is None:
            seconds = 1.0
        self.algorithm, self.depth, self.seconds = algorithm, depth, seconds
        self.order, self.table = order, table
        detail = f"depth {depth}" if depth is not None else ""
        if algorithm == "iterative":
            detail = f"{seconds:g} s"
        self.name = f"{algorithm} ({detail})" if detail else algorithm

    def search(self, game: AnyGame, state: Any) -> SearchResult:
        if self.algorithm == "minimax":
            return minimax_search(game, state, self.depth)
        if self.algorithm == "iterative":
            return iterative_deepening_search(game, state, seconds=self.seconds, order=self.order)
        # A table costs alpha-beta nothing in value and saves it the transposed subtrees.
        table = TranspositionTable() if self.table else None
        return alphabeta_search(game, state, self.depth, order=self.order, table=table)

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        result = self.search(game, state)
        return Move(result.action, result, time.perf_counter() - t0)


class EngineAgent:
    """A game's own engine (see GameSpec.engines), given a time per move."""

    def __init__(self, name: str, engine: Callable[[AnyGame, Any, float], SearchResult],
                 seconds: float = 1.0) -> None:
        self.name = f"{name} ({seconds:g} s)"
        self.engine = engine
        self.seconds = seconds

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        result = self.engine(game, state, self.seconds)
        return Move(result.action, result, time.perf_counter() - t0)


class HumanAgent:
    """Reads moves from a text stream; re-asks on an illegal move, `?` shows help."""

    def __init__(self, inp: TextIO, out: TextIO, prompt: str = "Your move (? for help): "):
        self.name = "human"
        self.inp, self.out, self.prompt = inp, out, prompt

    def legal_moves(self, game: AnyGame, state: Any) -> str:
        return " ".join(game.format_move(a) for a in game.actions(state))

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        while True:
            self.out.write(self.prompt)
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.out.write("\n")
                raise EndOfInput
            text = line.strip()
            if not text:
                continue
            if text == "?":
                legal = self.legal_moves(game, state)
                self.out.write(f"{game.move_help()}\nLegal moves: {legal}\n")
                continue
            try:
                action = game.parse_move(state, text)
            except InputError as e:
                self.out.write(f"Invalid move: {e}\nLegal moves: {self.legal_moves(game, state)}\n")
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


def describe(game: AnyGame, move: Move, state: Any = None) -> str:
    """One line of search figures for an engine move chosen in `state`."""
    r = move.result
    if r is None:
        return f"time {move.seconds:.3f} s"
    depth = "end" if r.depth is None else str(r.depth)
    return (
        f"value {game.format_value(r.value, state)}, depth {depth}, nodes {r.stats.nodes:,}, "
        f"time {move.seconds:.3f} s"
    )


def play_match(
    game: AnyGame,
    agents: Sequence[Agent],
    state: Any = None,
    out: TextIO | None = None,
    max_moves: int | None = None,
    show_board: bool = True,
) -> MatchRecord:
    """Play from `state` (default: the start) until the game ends; agents[0] is Max.

    With `out`, the board is shown before every move and each move is reported with
    its search figures; the match ends early on a human's end of input.
    """
    players = getattr(game, "players", ("Max", "Min"))
    record = MatchRecord()
    if state is None:
        state = game.initial_state()

    def say(text: str) -> None:
        if out is not None:
            out.write(text + "\n")
            out.flush()

    while not game.is_terminal(state):
        if max_moves is not None and len(record.moves) >= max_moves:
            break
        side = 0 if game.is_maxs_turn(state) else 1
        if show_board:
            say(game.render(state))
        try:
            move = agents[side].choose(game, state)
        except EndOfInput:
            record.abandoned = True
            say("Input ended: the game is abandoned.")
            break
        record.seconds[side] += move.seconds
        record.moves.append((side, move))
        say(f"{players[side]} ({agents[side].name}) plays {game.format_move(move.action)}: "
            f"{describe(game, move, state)}")
        state = game.result(state, move.action)
    record.final_state = state
    if game.is_terminal(state):
        record.utility = game.utility(state)
        record.winner = (
            players[0] if record.utility > 0 else players[1] if record.utility < 0 else None
        )
        if show_board:
            say(game.render(state))
        say(f"Winner: {record.winner}" if record.winner else "The game is a draw.")
    say(f"Thinking time: {players[0]} {record.seconds[0]:.2f} s, "
        f"{players[1]} {record.seconds[1]:.2f} s")
    return record
