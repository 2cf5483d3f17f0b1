"""Plays one game of a tournament by its rules: `play_game(job) -> GameResult`.

The rules, beyond the game's own:
- the opening's moves are played first, by nobody;
- each agent is made fresh for the game from its spec, seeded from the job, so a game
  played again, here or on another machine, is the same game (for agents limited by
  depth, nodes or a seed; one limited by time searches as deep as the machine allows);
- an agent that raises, takes longer than its move timeout, or returns an illegal move
  loses the game, and the tournament goes on; a program (zerosum.programs) that answers
  wrongly loses it too, or forfeits only the move where its course says so (play passes
  to the other side, recorded as the move FORFEIT, the reason in the result's
  `forfeits`), unless the other side cannot be told of a pass;
- after `max_plies` plies the game is a draw;
- a game whose spec has an adjudicator (Connect Four: its solver, once few cells are
  empty) ends as soon as the adjudicator says the position is decided.

The timeout interrupts the agent with SIGALRM, so it needs the main thread of a process
(a worker's); elsewhere only the result counts and a slow move is not interrupted.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from zerosum.agents import FileAgent, Move, value_text
from zerosum.game import AnyGame, InputError
from zerosum.games.registry import GameSpec, get_game
from zerosum.programs import (
    FORFEIT,
    MoveForfeited,
    ProgramFault,
    close_players,
    follows_passes,
    player_from_spec,
    tell_moves,
)
from zerosum.tournament.jobs import GameJob, GameResult, MoveRecord


class MoveTimeout(BaseException):
    """Raised in an agent's move when its time is up. A BaseException, so that an
    agent's own `except Exception` cannot swallow it."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise MoveTimeout in this thread after `seconds` (the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise MoveTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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


def opening_state(game: AnyGame, opening: tuple[str, ...]) -> Any:
    """The position after the opening's moves; InputError naming a move that is not legal."""
    state = game.initial_state()
    for ply, text in enumerate(opening, 1):
        if game.is_terminal(state):
            raise InputError(f"opening {' '.join(opening)}: the game is over before move {ply}")
        where = f"opening {' '.join(opening)}: move {ply} ({text})"
        try:
            action = game.parse_move(state, text)
        except InputError as e:
            raise InputError(f"{where}: {e}") from None
        if action not in game.actions(state):
            raise InputError(f"{where} is not legal")
        state = game.result(state, action)
    return state


def score_of(utility: float) -> float:
    """The first agent's (Max's) score of a finished game."""
    return 1.0 if utility > 0 else 0.0 if utility < 0 else 0.5


def forfeit(side: int) -> float:
    return 0.0 if side == 0 else 1.0


def record(game: AnyGame, move: Move, side: int) -> MoveRecord:
    r = move.result
    if r is None:
        return MoveRecord(game.format_move(move.action), round(move.seconds, 4), by=side)
    return MoveRecord(game.format_move(move.action), round(move.seconds, 4),
                      value_text(game, r), r.depth, r.stats.nodes, side, r.unit)


def play_game(job: GameJob, on_turn: Callable[[int, int], None] | None = None) -> GameResult:
    """Play `job`'s game to its end; `on_turn(side, ply)` is told before each agent is
    made (ply -1) and before each of its moves (a worker reports it, so that a worker
    that dies is blamed on the right agent). What the agents keep running (a program's
    process) ends with the game."""
    agents: list[Any] = []
    try:
        return refereed(job, agents, on_turn)
    finally:
        close_players(agents)


def refereed(job: GameJob, agents: list[Any],
             on_turn: Callable[[int, int], None] | None) -> GameResult:
    t0 = time.perf_counter()
    spec, game = make_game(job)
    state = opening_state(game, job.opening)
    moves = [MoveRecord(text, 0.0, by=-1) for text in job.opening]

    own_names: tuple[str, ...] = ()  # a person's agents' own names, if they give one
    forfeits: list[str] = []  # the moves forfeited by programs, in words

    def result(score: float, reason: str, fault: int | None = None) -> GameResult:
        return GameResult(job.number, score, reason, tuple(moves), fault,
                          round(time.perf_counter() - t0, 4), own_names, tuple(forfeits))

    names = getattr(game, "players", ("Max", "Min"))
    for side, (text, seed) in enumerate(zip(job.agents, job.seeds, strict=True)):
        # An agent's own file runs its code while it is made: a failure there, too, is
        # that agent's (told first, so that a worker dying here is blamed on it).
        if on_turn is not None:
            on_turn(side, -1)
        who = f"{names[side]} ({text})"
        try:
            with time_limit(job.move_timeout[side]):
                agents.append(player_from_spec(spec, text, default_seed=seed))
        except MoveTimeout:
            return result(forfeit(side), f"{who} lost: not made within "
                          f"{job.move_timeout[side]:g} s", side)
        except InputError:  # made in the tournament's process, not here: the file differs
            raise  # (on another node, say): the tournament stops, naming the game
        except (Exception, SystemExit) as e:
            return result(forfeit(side), f"{who} crashed while made: {crash(e)}", side)
    own = tuple(str(getattr(a.own, "name", "")) if isinstance(a, FileAgent) else ""
                for a in agents)
    own_names = own if any(own) else ()
    while not game.is_terminal(state):
        if job.max_plies is not None and len(moves) >= job.max_plies:
            return result(0.5, f"draw by the move limit ({job.max_plies} plies)")
        if job.adjudicate and spec.adjudicator is not None:
            verdict = spec.adjudicator(game, state)
            if verdict is not None:
                return result(score_of(verdict), f"adjudicated: {verdict_text(names, verdict)}")
        side = 0 if game.is_maxs_turn(state) else 1
        who = f"{names[side]} ({job.agents[side]})"
        if on_turn is not None:
            on_turn(side, len(moves))
        tell_moves(agents[side], (m.move for m in moves))
        try:
            with time_limit(job.move_timeout[side]):
                move = agents[side].choose(game, state)
        except MoveTimeout:
            return result(forfeit(side), f"{who} lost on time: no move within "
                          f"{job.move_timeout[side]:g} s", side)
        except MoveForfeited as e:  # the course's rule: the move is lost, not the game
            if not follows_passes(agents[1 - side]):
                return result(forfeit(side), f"{who} lost: {e} (its opponent cannot "
                              "be told of a forfeited move)", side)
            forfeits.append(f"{who} forfeited move {len(moves) + 1}: {e}")
            moves.append(MoveRecord(FORFEIT, round(e.seconds, 4), by=side))
            state = e.state
            continue
        except ProgramFault as e:
            return result(forfeit(side), f"{who} lost: {e}", side)
        except (Exception, SystemExit) as e:  # whatever the agent's code raises: it loses
            return result(forfeit(side), f"{who} crashed: {crash(e)}", side)
        if move.action not in game.actions(state):
            return result(forfeit(side), f"{who} played an illegal move: {move.action!r}",
                          side)
        moves.append(record(game, move, side))
        state = game.result(state, move.action)
    return result(score_of(game.utility(state)), game.outcome(state))


def crash(e: BaseException) -> str:
    """What an agent's code raised, in words (sys.exit too: it ends only the agent)."""
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r})"
    return f"{type(e).__name__}: {e}"


def verdict_text(names: tuple[str, str], utility: float) -> str:
    return "a draw" if utility == 0 else f"{names[0 if utility > 0 else 1]} wins"
