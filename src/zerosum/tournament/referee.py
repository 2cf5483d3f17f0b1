"""Plays one game of a tournament by its rules: `play_game(job) -> GameResult`, which is
zerosum.match.play_match with the tournament's rules:
- the opening's moves are played first, by nobody;
- each agent is made fresh for the game from its spec, seeded from the job, so a game
  played again, here or on another machine, is the same game (for agents limited by
  depth, nodes or a seed; one limited by time searches as deep as the machine allows);
- an agent that raises, takes longer than its move timeout, or returns an illegal move
  loses the game, and the tournament goes on;
- after `max_plies` plies the game is a draw;
- a game whose solver gives a verdict (Connect Four's, once few cells are empty) ends
  as soon as the verdict says the position is decided.

A searching agent's move is its search started as every front end starts one
(`agent.start(game, state)`, a zerosum.running.Running), waited for within the move's
timeout by the referee's `MoveClock`: at the timeout the search is told to stop (its one
Stop) and the move is late. A search that has not ended STOP_GRACE seconds later (stuck
in a person's own game's code, which never returns to the search) is a Runaway: its side
loses the game (its agent is still busy), its thread goes on, and `left_running()` says
so: a worker process then retires after the game and its pool starts a fresh one; any
other process reports it in the game's reason and lives with the thread.

What is no search keeps its own clock: a program (`course:`, `ugi:`) its `timeout`; a
person's own `play` and the making of an agent (a person's file runs while it is made)
are interrupted by SIGALRM (match.time_limit), which needs the main thread of a process
(a worker's); elsewhere such a slow move is not interrupted, but is still late.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any

from zerosum.game import AnyGame, InputError, play_line
from zerosum.games.registry import GameSpec, get_game
from zerosum.match import (
    OPENING,
    STOP_GRACE,
    Agent,
    Move,
    MoveRecord,
    MoveTimeout,
    Runaway,
    crash,
    play_match,
    replay,
    time_limit,
    tournament_rules,
)
from zerosum.players.agents import ComputerAgent, FileAgent
from zerosum.players.programs import Following, close_players
from zerosum.players.spec import agent_from_spec
from zerosum.result import SearchResult
from zerosum.running import Running
from zerosum.tournament.jobs import GameJob, GameResult

# The searches of this process that did not end when stopped: their threads still run.
RUNAWAYS: list[Running[SearchResult]] = []


def left_running() -> int:
    """How many searches a referee gave up on (Runaway) still run in this process."""
    return sum(not running.done for running in RUNAWAYS)


class MoveClock:
    """The referee's clock of a searching agent's moves (a players.agents.Runner): the
    search, started, is waited for `seconds`; then it is stopped and the move is late
    (MoveTimeout), or a Runaway if it has not ended STOP_GRACE seconds after."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def run(self, game: AnyGame, state: Any,
            start: Callable[[], Running[SearchResult]]) -> SearchResult:
        running = start()
        if running.wait(self.seconds):
            return running.result()
        running.stop()
        if not running.wait(STOP_GRACE):
            RUNAWAYS.append(running)
            raise Runaway
        raise MoveTimeout


def game_spec(name: str) -> GameSpec:
    """A registered game by name, or a person's own game from its file (a path: the
    tournament stores it absolute; its name need not end in .py)."""
    if name.endswith(".py") or os.sep in name:
        from zerosum.gamefile import load_game_file

        return load_game_file(name)
    return get_game(name)


def make_game(job: GameJob) -> tuple[GameSpec, AnyGame]:
    spec = game_spec(job.game)
    try:
        return spec, spec.create(**dict(job.options))
    except (TypeError, ValueError) as e:  # options not the game's (a damaged record)
        raise InputError(f"game {job.number}: {spec.name} cannot be made with the options "
                         f"{dict(job.options)}: {e}") from None


def opening_moves(game: AnyGame, opening: tuple[str, ...]) -> list[Move]:
    """The opening's moves, played by nobody; InputError naming a move that is not legal."""
    try:
        _, actions = play_line(game, game.initial_state(), opening)
    except InputError as e:
        raise InputError(f"opening {' '.join(opening)}: {e}") from None
    return [Move(action, side=OPENING) for action in actions]


def opening_state(game: AnyGame, opening: tuple[str, ...]) -> Any:
    """The position after the opening's moves (see opening_moves)."""
    return replay(game, game.initial_state(), opening_moves(game, opening))


def play_game(job: GameJob, on_turn: Callable[[int, int], None] | None = None) -> GameResult:
    """Play `job`'s game to its end; `on_turn(side, ply)` is told before each agent is
    made (ply -1) and before each of its moves (a worker reports it, so that a worker
    that dies is blamed on the right agent). What the agents keep running (a program's
    process) ends with the game."""
    agents: list[Agent] = []
    try:
        result = refereed(job, agents, on_turn)
    finally:
        tried = close_players(agents)
    if tried:  # a game's record says what its engines tried that the sandbox stopped
        result = dataclasses.replace(result, reason=f"{result.reason}; {'; '.join(tried)}")
    return result


def refereed(job: GameJob, agents: list[Agent],
             on_turn: Callable[[int, int], None] | None) -> GameResult:
    t0 = time.perf_counter()
    spec, game = make_game(job)
    opening = opening_moves(game, job.opening)
    names = getattr(game, "players", ("Max", "Min"))

    def result(score: float, reason: str, fault: int | None = None,
               moves: list[Move] = opening, own: tuple[str, ...] = ()) -> GameResult:
        # the opening as the job writes it, then the moves played
        records = [MoveRecord(text, 0.0, by=OPENING) for text in job.opening]
        records += [MoveRecord.of(game, m) for m in moves[len(opening):]]
        return GameResult(job.number, score, reason, tuple(records), fault,
                          round(time.perf_counter() - t0, 4), own)

    for side, (text, seed) in enumerate(zip(job.agents, job.seeds, strict=True)):
        # An agent's own file runs its code while it is made: a failure there, too, is
        # that agent's (told first, so that a worker dying here is blamed on it).
        if on_turn is not None:
            on_turn(side, -1)
        who = f"{names[side]} ({text})"
        try:
            with time_limit(job.move_timeout[side]):
                agents.append(agent_from_spec(spec, text, default_seed=seed))
        except MoveTimeout:
            return result(forfeit(side), f"{who} lost: not made within "
                          f"{job.move_timeout[side]:g} s", side)
        except InputError:  # made in the tournament's process, not here: the file differs
            raise  # (on another node, say): the tournament stops, naming the game
        except (Exception, SystemExit) as e:
            return result(forfeit(side), f"{who} crashed while made: {crash(e)}", side)
    for side, agent in enumerate(agents):
        if isinstance(agent, ComputerAgent) and agent.thinks:
            agent.watch = MoveClock(job.move_timeout[side])
    own = tuple(str(getattr(a.own, "name", "")) if isinstance(a, FileAgent) else ""
                for a in agents)
    verdict = spec.solver.verdict if spec.solver is not None and job.adjudicate else None
    rules = tournament_rules(job.move_timeout, job.max_plies, verdict, job.late)
    played = play_match(game, agents, replay(game, game.initial_state(), opening), rules,
                        Following(agents, job.opening), played=opening, on_turn=on_turn)
    assert played.score is not None  # refereed, no person: every game is decided
    return result(played.score, played.reason, played.fault, played.moves,
                  own if any(own) else ())


def forfeit(side: int) -> float:
    return 0.0 if side == 0 else 1.0
