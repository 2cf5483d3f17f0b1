"""The Universal Game Interface (UGI): any zerosum player as an engine that other programs
drive over standard input and output.

UGI is UCI's shape for any two-player game (as the cutegames match runner uses it): the
driver sends `ugi` (answered `id ...`, an `option ...` line for each of the player's
settings, and `ugiok`), `setoption name NAME value VALUE`, `isready` (`readyok`, at once,
even during a search), `uginewgame`, `position startpos|fen TEXT [moves M...]`, `go`
with one kind of limit, as cutegames sends them: a clock (`p1time`, `p2time`, `p1inc`,
`p2inc` in ms), `movetime` (ms), `depth` (plies: the search reaches exactly that depth),
`nodes` or `infinite` (until `stop`: its bestmove waits for it), then `stop` or `quit`;
and `query gameover|p1turn|result`, answered with `response ...`. A move `0000` among a
position's moves (UCI's null move) is a lost turn: the side to move passes (a referee's
forfeit of a move). While it searches the engine reports `info depth ... score ...
nodes ... pv ...` lines and ends with
`bestmove MOVE` (`bestmove 0000` when the game is over: no move). A search the stop cut
short before any result reports the nodes it searched, no score. Moves are written in
the game's own notation (`format_move`), positions in its position format where it has
one.

Scores are from the side to move's point of view: `score cp N` is an estimate in
hundredths of a won game (of a point, in score games), `score mate N` a win (N > 0) or a
loss (N < 0) in N of the mover's moves, as UCI counts them; a win proven without a
known distance shows as `score cp 100000`.

Lines a driver sends that the protocol does not know, or that are malformed, are
answered with `info string error: ...` and change nothing: an engine must never die of
its input.

The driver's side (players/programs.py plays an engine of any language in a tournament)
sends `go_command` (one kind of limit) and reads an engine's lines with `read_info` and
`read_bestmove`, the inverses of what `UgiEngine` writes, under the same rules.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from zerosum.convert import parse_int
from zerosum.game import AnyGame, InputError, replay
from zerosum.match import pass_turn
from zerosum.result import Info, Limit, SearchResult
from zerosum.running import Running

DECIDED_CP = 100_000  # a proven win (or loss) whose distance is not known
TIME_SHARE = 20  # of the clock's remaining time, one move's
MIN_SECONDS = 0.01
MAX_GO = 10**12  # the largest number `go` takes (ms, plies or nodes)
# UCI's null move: bestmove's word for no move (the game is over), and among the moves of
# `position` a lost turn
NO_MOVE = "0000"
CLOCK = ("p1time", "p2time", "p1inc", "p2inc")
GO_NUMBERS = (*CLOCK, "movetime", "depth", "nodes")


@dataclass(frozen=True)
class Option:
    """A setting the engine offers in its handshake: `option name NAME type spin default
    D min LOW max HIGH` for a whole number in a range, else `type string default D`."""

    name: str
    default: str
    low: int | None = None
    high: int | None = None

    def line(self) -> str:
        if self.low is not None and self.high is not None:
            return (f"option name {self.name} type spin default {self.default} "
                    f"min {self.low} max {self.high}")
        return f"option name {self.name} type string default {self.default}"


# The player's search started (its kind's or agent's `start`: the one way a search
# starts): (game, state, limit) -> the search running.
Start = Callable[[AnyGame, Any, Limit], Running[SearchResult]]
# setoption's work: (name, value) -> the player's new start and own limit; InputError
# for a value it does not take.
Configure = Callable[[str, str], tuple[Start, Limit]]


class UgiEngine:
    """The engine side: `handle(line)` for each line the driver sends (False once it
    says quit); output goes to `out`, a line at a time, from whichever thread.

    `new_game()` makes the game afresh (a new game object: an engine's tables are kept
    per game object, so a new game starts with none); `parse_position(game, text)`
    reads a `position fen` text (None: the game has no such format); `start(game,
    state, limit)` starts the player's search (ComputerAgent.start: a Running, which
    `go` reads as a stream) and `own` is its own limit, which fills what `go` leaves
    open.
    `options` are offered in the handshake and `configure` applies a `setoption`."""

    def __init__(self, name: str, new_game: Callable[[], AnyGame],
                 start: Start, out: TextIO,
                 parse_position: Callable[[AnyGame, str], Any] | None = None,
                 own: Limit | None = None, options: Sequence[Option] = (),
                 configure: Configure | None = None) -> None:
        self.name = name
        self.new_game = new_game
        self.start = start
        self.out = out
        self.parse_position = parse_position
        self.own = own or Limit()
        self.options = {o.name: o for o in options}
        self.configure = configure
        self.lock = threading.Lock()  # the search thread and the reader both write
        self.game = new_game()
        self.state = self.game.initial_state()
        self.search: Running[SearchResult] | None = None
        self.searched = threading.Event()  # the search's answer is in (bestmove may wait)
        self.answered = threading.Event()  # bestmove is said (set: no search to answer)
        self.answered.set()
        self.released = threading.Event()  # `go infinite` may answer (stop, quit, ...)
        self.infinite = False  # is the search `go infinite`?

    def say(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                self.end_search()
                return False
            if command == "isready":
                self.say("readyok")
            elif command == "ugi":
                self.say(f"id name zerosum {self.name}")
                self.say("id author zerosum")
                for option in self.options.values():
                    self.say(option.line())
                self.say("ugiok")
            elif command == "uginewgame":
                self.end_search()
                self.game = self.new_game()
                self.state = self.game.initial_state()
            elif command == "position":
                self.end_search()
                self.state = self.position(args)
            elif command == "go":
                self.go(args)
            elif command == "stop":
                self.end_search()
            elif command == "query":
                self.say(f"response {self.query(args)}")
            elif command == "setoption":
                self.set_option(args)
            else:
                raise InputError(f"unknown command {command!r}")
        except InputError as e:
            self.say(f"info string error: {e}")
        return True

    def position(self, args: list[str]) -> Any:
        """`startpos [moves M...]` or `fen TEXT... [moves M...]`."""
        moves: list[str] = []
        if "moves" in args:
            at = args.index("moves")
            args, moves = args[:at], args[at + 1:]
        if args == ["startpos"]:
            state = self.game.initial_state()
        elif args[:1] == ["fen"] and len(args) > 1:
            if self.parse_position is None:
                raise InputError("this game has no position format: use startpos and moves")
            state = self.parse_position(self.game, " ".join(args[1:]))
        else:
            raise InputError("position takes startpos or fen TEXT, then moves")
        while NO_MOVE in moves:  # a lost turn (a forfeited move): the side passes
            at = moves.index(NO_MOVE)
            state = pass_turn(self.game, replay(self.game, state, moves[:at]))
            if state is None:
                raise InputError("this game cannot pass a turn (0000)")
            moves = moves[at + 1:]
        return replay(self.game, state, moves)

    def query(self, args: list[str]) -> str:
        game, state = self.game, self.state
        if args == ["gameover"]:
            return str(game.is_terminal(state)).lower()
        if args == ["p1turn"]:
            return str(game.is_maxs_turn(state)).lower()
        if args == ["result"]:
            if not game.is_terminal(state):
                return "none"
            u = game.utility(state)
            return "p1win" if u > 0 else "p2win" if u < 0 else "draw"
        raise InputError("query takes gameover, p1turn or result")

    def set_option(self, args: list[str]) -> None:
        """`setoption name NAME value VALUE`: the player made anew with it (its search
        and own limit); an unknown name or a value it does not take changes nothing."""
        if args[:1] != ["name"] or "value" not in args[2:]:
            raise InputError("setoption takes name NAME value VALUE")
        at = args.index("value", 2)
        name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        if name not in self.options or self.configure is None:
            offered = ", ".join(self.options) or "none"
            raise InputError(f"no option {name!r} (options: {offered})")
        self.start, self.own = self.configure(name, value)

    def go(self, args: list[str]) -> None:
        self.end_search()
        limit, infinite = self.limit(args)
        self.infinite = infinite
        game, state = self.game, self.state
        self.searched = searched = threading.Event()
        self.released = released = threading.Event()
        self.answered = answered = threading.Event()
        running = None if game.is_terminal(state) else self.start(game, state, limit)
        self.search = running

        def answer() -> None:
            """The search read as a stream: an `info` line for each Info, then bestmove."""
            move = None
            if running is not None:
                reported = False
                for info in running:
                    reported = True
                    self.report(info)
                try:
                    result = running.result()
                    if not reported:  # a search that streams nothing (alpha-beta) still says
                        self.report(summary(result), result.complete)
                    move = result.action if result.action is not None \
                        else game.actions(state)[0]
                except Exception as e:  # a search's fault (an agent file's) must not end
                    self.say(f"info string error: the search failed: {e}")  # the engine
                    move = game.actions(state)[0]
            searched.set()
            if infinite:  # the answer waits for `stop` (or quit, or a new command)
                released.wait()
            self.say(f"bestmove {NO_MOVE if move is None else game.format_move(move)}")
            answered.set()

        threading.Thread(target=answer, name="zerosum-ugi", daemon=True).start()

    def limit(self, args: list[str]) -> tuple[Limit, bool]:
        """The `go` arguments as a Limit, and whether it is `go infinite` (a search until
        `stop`: the player's own depth at most, none of its time or nodes). What `go`
        leaves open the player's own limit fills: its depth and nodes, and its time when
        `go` gives no depth or nodes (a bare `go` is the player's own limit)."""
        values: dict[str, int] = {}
        infinite = False
        it = iter(args)
        for word in it:
            if word == "infinite":
                infinite = True
                continue
            if word not in GO_NUMBERS:
                raise InputError(f"go: unknown {word!r}")
            values[word] = parse_int(next(it, ""), f"go {word}", lo=0, hi=MAX_GO)
        seconds = values["movetime"] / 1000 if "movetime" in values else None
        side = "p1" if self.game.is_maxs_turn(self.state) else "p2"
        if f"{side}time" in values:
            left = values[f"{side}time"] / 1000
            seconds = min(left / 2, left / TIME_SHARE + values.get(f"{side}inc", 0) / 1000)
        depth, nodes = values.get("depth") or None, values.get("nodes") or None
        own = self.own
        if infinite:
            return Limit(depth=depth or own.depth), True
        if seconds is None and depth is None and nodes is None:
            seconds = own.seconds
        return Limit(depth=depth or own.depth,
                     seconds=None if seconds is None else max(seconds, MIN_SECONDS),
                     nodes=nodes or own.nodes), False

    def report(self, info: Info, complete: bool = True) -> None:
        """An `info` line; for a search the stop cut short (`complete` False), without
        the depth, score and pv it did not establish, and a line saying so."""
        game = self.game
        pv = " ".join(game.format_move(a) for a in info.pv)
        seldepth = f" seldepth {info.seldepth}" if info.seldepth is not None else ""
        if not complete:
            self.say(f"info{seldepth} time {round(info.elapsed * 1000)} nodes {info.nodes}")
            self.say("info string stopped before the search finished")
            return
        self.say(f"info depth {info.depth}{seldepth} score {self.score(info)} "
                 f"time {round(info.elapsed * 1000)} nodes {info.nodes}"
                 + (f" pv {pv}" if pv else ""))

    def score(self, info: Info) -> str:
        mover = info.value if self.game.is_maxs_turn(self.state) else -info.value
        if info.decided and mover and info.plies is not None:
            moves = (info.plies + 1) // 2
            return f"mate {moves if mover > 0 else -moves}"
        if info.decided and mover and self.game.values.kind == "outcome":
            return f"cp {DECIDED_CP if mover > 0 else -DECIDED_CP}"
        scale = self.game.values.win if self.game.values.kind == "outcome" else 1.0
        if math.isinf(mover):
            return "cp 0"
        return f"cp {round(100 * mover / scale)}"

    def finish_search(self) -> None:
        """At the end of input: a search with a limit finishes and answers (a piped
        `go depth 4` still reaches depth 4); `go infinite` is stopped."""
        if not self.infinite:
            self.answered.wait()
        self.end_search()

    def end_search(self) -> None:
        """Stop a running search and wait for its bestmove."""
        if self.search is not None:
            self.search.stop()
        self.released.set()
        self.answered.wait()
        self.search = None


def summary(result: SearchResult) -> Info:
    """The one `info` line of a search that reports none while it runs."""
    depth = result.depth if result.depth is not None else len(result.pv)
    return Info(depth=depth, value=result.value, pv=tuple(result.pv),
                nodes=result.stats.nodes, elapsed=result.stats.wall_time,
                decided=result.decided, plies=result.plies,
                seldepth=result.stats.max_depth or None)


def serve(engine: UgiEngine, inp: TextIO) -> int:
    """Read the driver's lines until `quit` or the end of input."""
    for line in inp:
        if not engine.handle(line):
            return 0
    engine.finish_search()
    return 0


# -- the driver's side: what an engine says, read --------------------------------------


def score_value(game: AnyGame, state: Any, kind: str,
                number: int) -> tuple[float, bool, int | None]:
    """An `info ... score KIND N` (from the mover's side) as (Max's value, decided,
    plies to the end if known): the inverse of UgiEngine.score."""
    maxs = game.is_maxs_turn(state)
    if kind == "mate":
        plies = 2 * abs(number) - 1 if number > 0 else 2 * abs(number)
        mover = game.values.win if game.values.kind == "outcome" else 1.0  # its size unsaid
        mover = mover if number > 0 else -mover
        return (mover if maxs else -mover), True, plies
    if abs(number) >= DECIDED_CP and game.values.kind == "outcome":
        mover = game.values.win if number > 0 else -game.values.win
        return (mover if maxs else -mover), True, None
    scale = game.values.win if game.values.kind == "outcome" else 1.0
    mover = number * scale / 100
    return (mover if maxs else -mover), False, None


def read_info(game: AnyGame, state: Any, line: str) -> Info | None:
    """An engine's `info` line as an Info (None: a line without a score, such as `info
    string ...`); InputError naming what is malformed (a pv move that is not legal
    ends the pv there: an engine's pv is its own business)."""
    words = line.split()
    if words[:1] != ["info"] or "score" not in words or "string" in words[:2]:
        return None
    fields: dict[str, int] = {}
    pv: list[Any] = []
    score: tuple[str, int] | None = None
    it = iter(words[1:])
    for word in it:
        if word in ("depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv"):
            fields[word] = parse_int(next(it, ""), f"info {word}", lo=0, hi=MAX_GO)
        elif word == "score":
            kind = next(it, "")
            if kind not in ("cp", "mate"):
                raise InputError(f"info score takes cp or mate, not {kind!r}")
            score = kind, parse_int(next(it, ""), f"info score {kind}", lo=-MAX_GO, hi=MAX_GO)
        elif word == "pv":
            at = state
            for text in it:
                try:
                    action = game.parse_move(at, text)
                except (InputError, ValueError):
                    break
                if game.is_terminal(at) or action not in game.actions(at):
                    break
                pv.append(action)
                at = game.result(at, action)
    if score is None:
        return None
    value, decided, plies = score_value(game, state, *score)
    return Info(depth=fields.get("depth", 0), value=value, pv=tuple(pv),
                nodes=fields.get("nodes", 0), elapsed=fields.get("time", 0) / 1000,
                decided=decided, plies=plies, seldepth=fields.get("seldepth"))


def go_command(limit: Limit) -> str:
    """The `go` line for a limit: one kind, as cutegames sends it and engines parse it
    (a depth first, then nodes, then a time; none of them: `go infinite`)."""
    if limit.depth is not None:
        return f"go depth {limit.depth}"
    if limit.nodes is not None:
        return f"go nodes {limit.nodes}"
    if limit.seconds is not None:
        return f"go movetime {max(1, round(limit.seconds * 1000))}"
    return "go infinite"


def read_bestmove(game: AnyGame, state: Any, line: str) -> Any:
    """The move of a `bestmove MOVE` line, in the game's notation; InputError if it is
    not a legal move here (`bestmove 0000` included: the game is not over)."""
    words = line.split()
    if len(words) < 2:
        raise InputError("bestmove names no move")
    if words[1] == NO_MOVE:
        raise InputError(f"bestmove {NO_MOVE}: the engine has no move, but the game is "
                         "not over")
    try:
        action = game.parse_move(state, words[1])
    except ValueError as e:  # InputError included
        raise InputError(f"bestmove {words[1][:40]!r} is not a move here: {e}") from None
    if action not in game.actions(state):
        raise InputError(f"bestmove {words[1][:40]!r} is not legal here")
    return action
