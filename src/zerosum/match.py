"""The one game loop: `play_match(game, agents, state, rules, observer)`.

Interactive play (`zerosum play`, the assignment programs) and a tournament's referee
run the same loop; what differs is the `Rules`: a referee checks every move, limits its
time, and scores a late, crashing or illegal move as the rules say (the side loses the
game, or, as in COMP3608's tournament, loses the move: "play will return to the other
player"), ends a game that lasts too long as a draw and lets an adjudicator end a
decided one. Without rules, an agent's error reaches the caller (a person sees it).

`Move` is the one record of a played move: its action, the search behind it, the
thinking time, who played it and, when the side lost the move, why.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from zerosum.game import AnyGame, format_value
from zerosum.result import SearchResult

OPENING = -1  # the `side` of a move played by nobody (a tournament's opening)


@dataclass
class Move:
    """A move as played: `action` (None when the side lost its turn), the search behind
    it if any, its wall-clock thinking time, `side` (0: Max, 1: Min, OPENING) and, for a
    move the side lost (late, crashed, illegal), `forfeit`: why."""

    action: Any
    result: SearchResult | None = None
    seconds: float = 0.0
    side: int = 0
    forfeit: str = ""


@dataclass(frozen=True)
class MoveRecord:
    """One move as played: its notation, and for a searching agent its value as the
    agent saw it (written as zerosum.game.format_value writes it), depth, nodes (`unit`:
    what they count, MCTS's simulations), time."""

    move: str
    seconds: float
    value: str | None = None
    depth: int | None = None
    nodes: int | None = None
    by: int = 0  # 0: the first agent of the job (Max), 1: the second; -1: the opening
    unit: str = "nodes"
    forfeit: str = ""  # why the side lost this move (it passed its turn); "" if it did not

    @classmethod
    def of(cls, game: AnyGame, move: Move) -> MoveRecord:
        """A played move as it is stored and written."""
        if move.action is None:  # lost: the side passed its turn
            return cls("", round(move.seconds, 4), by=move.side, forfeit=move.forfeit)
        text = game.format_move(move.action)
        r = move.result
        if r is None:
            return cls(text, round(move.seconds, 4), by=move.side)
        value = format_value(game, r.value, decided=r.decided, plies=r.plies, side=move.side)
        return cls(text, round(move.seconds, 4), value, r.depth, r.stats.nodes, move.side,
                   r.unit)


class Agent(Protocol):
    """What play_match asks of a player."""

    name: str

    def choose(self, game: AnyGame, state: Any) -> Move: ...


class MoveTimeout(BaseException):
    """Raised in an agent's move when its time is up. A BaseException, so that an
    agent's own `except Exception` cannot swallow it."""


class Runaway(MoveTimeout):
    """A late move whose search did not end within STOP_GRACE seconds of being told to
    stop (stuck in a game's own code, which reads no Stop): its thread goes on and
    cannot be ended, so its agent cannot be asked again and its side loses the game,
    whatever the rules say a late move costs."""


STOP_GRACE = 2.0  # seconds a stopped search may take to end before it is a Runaway


class AgentFault(Exception):
    """An agent's own account of a fault of its move (an external program's garbage,
    crash or end): the message says it, the referee scores it as a crash."""


class LateAnswer(AgentFault):
    """An agent's answer came too late by a clock of its own (a course's program: no
    column within its second): scored as a late move. An agent with a `late` attribute
    ("move" or "game") says itself what that costs (a course's rule)."""


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise MoveTimeout in this thread after `seconds` (SIGALRM: the main thread of a
    process only; elsewhere, and with None, nothing is interrupted). For code that is no
    search and so reads no Stop: an agent's own file run while it is made, a move of an
    agent that does not search (a person's own `play`); a search is timed by stopping
    it (tournament.referee.MoveClock)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
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


Forfeit = Literal["game", "move"]


@dataclass(frozen=True)
class Rules:
    """The rules a match is played by, beyond the game's own.

    `refereed`: every move is checked (a legal move, within its time) and an agent's
    error is its fault, not the caller's; without it (interactive play) errors pass
    through. `move_seconds`: each side's time for one move (None: no limit); past it
    the move is `late`. What a fault costs: `late` (a move past its time) and `fault`
    (a crash, an illegal move) forfeit the "game" or just the "move" (the side passes:
    the game's `pass_turn`; a game that cannot pass forfeits the game). `max_plies`:
    the game is a draw once this many plies are played (counting `state`'s history as
    `played`, the opening's). `adjudicator(game, state)`: a decided value, or None, asked
    before each move. `max_moves`: the match stops, unfinished, after this many moves.
    """

    refereed: bool = False
    move_seconds: tuple[float | None, float | None] = (None, None)
    late: Forfeit = "game"
    fault: Forfeit = "game"
    max_plies: int | None = None
    adjudicator: Callable[[Any, Any], float | None] | None = None
    max_moves: int | None = None


def tournament_rules(move_seconds: tuple[float, float], max_plies: int | None,
                     adjudicator: Callable[[Any, Any], float | None] | None,
                     late: str = "game") -> Rules:
    """A tournament's: a crashing or illegal move loses the game, a late one the game or
    (`late` "move") only the move."""
    return Rules(refereed=True, move_seconds=move_seconds, max_plies=max_plies,
                 adjudicator=adjudicator, late="move" if late == "move" else "game")


@dataclass
class MatchRecord:
    """A match as played: the moves (an opening's first, side OPENING), the final state,
    the game's utility if it ended by its rules, and how it ended.

    `score`: Max's score (1, 1/2, 0) when the match was decided (by the game, a draw by
    the move limit, an adjudication or a forfeit); None if it stopped unfinished.
    `reason` says how in words; `fault` is the side that forfeited the game, if one did.
    """

    moves: list[Move] = field(default_factory=list)
    final_state: Any = None
    utility: float | None = None  # None when the match did not reach a terminal state
    winner: str | None = None
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per side
    abandoned: bool = False
    score: float | None = None
    reason: str = ""
    fault: int | None = None


class MatchObserver:
    """Told of each event of a match by `play_match`: a front-end's way to show a
    game (or save it) while the match itself keeps the rules of play. Subclasses
    override the events they need; here each does nothing."""

    def start(self, game: AnyGame, state: Any, agents: Sequence[Agent]) -> None:
        """Before the first move; `state` is where the match starts, agents[0] is Max."""

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        """Before agents[side] chooses its move in `state`."""

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        """agents[side] chose `move` in `state` (the position before the move); a
        forfeited move has `move.forfeit` set and no action."""

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        """The match is over: the game ended, the move limit was reached, it was
        decided by the rules or (with `record.abandoned`) a person's input ended."""


def player_names(game: AnyGame) -> tuple[str, str]:
    names: tuple[str, str] = getattr(game, "players", ("Max", "Min"))
    return names


def score_of(utility: float) -> float:
    """Max's score of a game with this utility (or adjudicated value)."""
    return 1.0 if utility > 0 else 0.0 if utility < 0 else 0.5


def crash(e: BaseException) -> str:
    """What an agent's code raised, in words (sys.exit too: it ends only the agent)."""
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r})"
    return f"{type(e).__name__}: {e}"


def replay(game: AnyGame, state: Any, moves: Sequence[Move]) -> Any:
    """The position after played `moves` from `state` (a lost turn passes)."""
    for move in moves:
        state = game.result(state, move.action) if move.action is not None \
            else pass_turn(game, state)
    return state


def pass_turn(game: AnyGame, state: Any) -> Any:
    """The state after the side to move loses its turn; None where the game has no way
    to say it (GameBase.pass_turn)."""
    passing = getattr(game, "pass_turn", None)
    return None if passing is None else passing(state)


def play_match(
    game: AnyGame,
    agents: Sequence[Agent],
    state: Any = None,
    rules: Rules = Rules(),
    observer: MatchObserver | None = None,
    played: Sequence[Move] = (),
    on_turn: Callable[[int, int], None] | None = None,
) -> MatchRecord:
    """Play from `state` (default: the start) until the game ends or the rules end it;
    agents[0] is Max. `played`: the moves that led to `state` (an opening), kept first
    in the record. `observer` is told of every event; `on_turn(side, ply)` before each
    move (a tournament's worker reports it, so that a worker that dies is blamed on the
    right agent). A person's end of input (EOFError) abandons the match."""
    observer = observer or MatchObserver()
    record = MatchRecord(moves=list(played))
    names = player_names(game)
    state = game.initial_state() if state is None else state

    def decide(score: float, reason: str, fault: int | None = None) -> None:
        record.score, record.reason, record.fault = score, reason, fault

    observer.start(game, state, agents)
    count = 0
    while not game.is_terminal(state):
        if rules.max_moves is not None and count >= rules.max_moves:
            break
        if rules.max_plies is not None and len(record.moves) >= rules.max_plies:
            decide(0.5, f"draw by the move limit ({rules.max_plies} plies)")
            break
        if rules.adjudicator is not None:
            verdict = rules.adjudicator(game, state)
            if verdict is not None:
                decide(score_of(verdict), "adjudicated: " + (
                    "a draw" if verdict == 0 else f"{names[0 if verdict > 0 else 1]} wins"))
                break
        side = 0 if game.is_maxs_turn(state) else 1
        observer.before_move(game, state, side)
        if on_turn is not None:
            on_turn(side, len(record.moves))
        try:
            move, why, kind = choose(game, state, agents[side], side, rules)
        except EOFError:
            record.abandoned = True
            break
        count += 1
        move.side = side
        if why:
            who = f"{names[side]} ({agents[side].name})"
            cost = (getattr(agents[side], "late", None) or rules.late) if kind == "late" \
                else "game" if kind == "runaway" else rules.fault
            passed = pass_turn(game, state) if cost == "move" else None
            if passed is None:
                lost = f"{who} lost on time: {why}" if kind != "fault" else f"{who} {why}"
                decide(0.0 if side == 0 else 1.0, lost, side)
                break
            move = Move(None, None, move.seconds, side, why)
            record.seconds[side] += move.seconds
            record.moves.append(move)
            observer.after_move(game, state, side, move)
            state = passed
            continue
        record.seconds[side] += move.seconds
        record.moves.append(move)
        observer.after_move(game, state, side, move)
        state = game.result(state, move.action)
    record.final_state = state
    if game.is_terminal(state):
        record.utility = game.utility(state)
        record.winner = names[0] if record.utility > 0 else \
            names[1] if record.utility < 0 else None
        decide(score_of(record.utility), game.outcome(state))
    observer.end(game, record)
    return record


def choose(game: AnyGame, state: Any, agent: Agent, side: int,
           rules: Rules) -> tuple[Move, str, str]:
    """The agent's move and, under refereed rules, what is wrong with it: (move, why,
    "late", "runaway" or "fault"); why is "" for a good move.

    An agent whose search runs under a runner of the referee's (its `watch`: see
    tournament.referee.MoveClock) is timed by it: stopped at its time, its move late;
    any other is interrupted by a signal (time_limit), or keeps a clock of its own (a
    program's)."""
    if not rules.refereed:
        return agent.choose(game, state), "", ""
    limit = rules.move_seconds[side]
    clocked = getattr(agent, "watch", None) is not None
    t0 = time.perf_counter()
    try:
        with time_limit(None if clocked else limit):
            move = agent.choose(game, state)
    except Runaway:
        return Move(None, None, time.perf_counter() - t0), \
            f"no move within {limit:g} s, and its search did not stop within " \
            f"{STOP_GRACE:g} s of being told", "runaway"
    except MoveTimeout:
        return Move(None, None, time.perf_counter() - t0), \
            f"no move within {limit:g} s", "late"
    except EOFError:
        raise
    except LateAnswer as e:
        return Move(None, None, time.perf_counter() - t0), str(e), "late"
    except AgentFault as e:
        return Move(None, None, time.perf_counter() - t0), f"lost: {e}", "fault"
    except (Exception, SystemExit) as e:  # whatever the agent's code raises is its fault
        return Move(None, None, time.perf_counter() - t0), f"crashed: {crash(e)}", "fault"
    elapsed = time.perf_counter() - t0
    if limit is not None and elapsed > limit:
        return move, f"no move within {limit:g} s", "late"
    if move.action not in game.actions(state):
        return move, f"played an illegal move: {move.action!r}", "fault"
    return move, "", ""
