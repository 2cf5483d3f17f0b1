"""Programs in any language as players: a course's program called once a move, exactly as
the course calls it, or an engine that speaks UGI for a whole game.

    course:comp3608[,SETTINGS]:COMMAND      COMP3608's tournament call: COMMAND STATE red|yellow,
                                            one line, a column 0-6; `time` (default 1 s)
    course:maxconnect4[,SETTINGS]:COMMAND   UTA's one-move mode: COMMAND one-move input.txt
                                            output.txt DEPTH; `depth` (default 4), `time`
                                            (default 10 s)
    ugi[,SETTINGS]:COMMAND                  an engine speaking UGI (zerosum.ugi) on its
                                            standard input and output, started once a game;
                                            `time` (seconds a move, `go movetime`), `depth`,
                                            `nodes`, `timeout`, `startup`

Every setting list may also hold `dir=FOLDER`: the program then starts in a fresh copy of
that folder (its compiled classes, its data), else in an empty folder of its own. A word
of COMMAND naming a file or folder that exists here is made absolute first (`python3
my/ConnectFour.py`), so the command works from the empty folder.

Every call runs in zerosum.sandbox (its own folder, a read-only view of the system, no
network, nothing it started left running, limits on CPU, memory, processes, file size
and output; what this system cannot enforce is said). Nothing a program does
is trusted: each player answers `choose(game, state) -> Move` or raises ProgramFault
(match.AgentFault: its message says in words what went wrong; the game is lost) or
MoveForfeited (match.LateAnswer: COMP3608's program that gives no column within its
second forfeits the move, the course's rule, and play returns to the other player; the
player's `late` says so to zerosum.match.play_match). The kinds are registered in the
catalogue by zerosum.players.kinds.programs; `following` tells the players of a refereed
game its moves, and `close_players` ends their processes.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from zerosum.convert import MAX_SECONDS, parse_float, shown
from zerosum.game import AnyGame, InputError
from zerosum.games.registry import GameSpec
from zerosum.match import AgentFault, LateAnswer, MatchObserver, Move
from zerosum.players.agents import ComputerAgent
from zerosum.result import Info, InfoSink, Limit, SearchResult
from zerosum.sandbox import Limits, Run, Session, cost, failure, run_program, strays
from zerosum.stop import Stop

KINDS = ("course:comp3608", "course:maxconnect4", "ugi")
GRACE = 10.0  # seconds past a program's own limit before the referee's clock runs out
ONE_MOVE_DEPTH = 4  # UTA's one-move mode: the depth given when none is set
ONE_MOVE_SECONDS = 10.0
GAME_MOVES = 400  # an engine's moves in a game, for its CPU limit (a tournament's --max-plies)
SHOWN = 60  # characters of a program's wrong answer quoted in a reason
QUIT_SECONDS = 0.5  # an engine told to quit may end by itself within this


class ProgramFault(AgentFault, InputError):
    """A program did not answer as it must: its game is lost. The message says why.
    (An InputError too: outside a refereed game, `zerosum play`, it is one line.)"""


class MoveForfeited(LateAnswer, InputError):
    """The program gave no answer in time (COMP3608: the move is forfeit, and play
    returns to the other player, as the player's `late` says)."""


def resolve_command(command: str, folder: Path | None, what: str) -> list[str]:
    """The command's words, those naming a file or folder here (and not in `folder`,
    the program's own) made absolute: the program starts elsewhere. InputError if the
    program cannot be found."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise InputError(f"{what}: the command cannot be read: {e}") from None
    if not words:
        raise InputError(f"{what}: no command")
    resolved = []
    for number, word in enumerate(words):
        inside = folder is not None and (folder / word).exists()
        # the program itself is a path only when written as one (java, python3: the PATH)
        path = os.sep in word if number == 0 else not word.startswith("-")
        if path and not inside and os.path.exists(word):
            word = os.path.abspath(word)
        resolved.append(word)
    program = resolved[0]
    inside = folder is not None and (folder / program).exists()
    if os.sep not in program and not inside and shutil.which(program) is None:
        raise InputError(f"{what}: no program {shown(program)} on the PATH")
    if os.sep in program and not inside and not os.path.exists(program):
        raise InputError(f"{what}: no program {shown(program)}")
    return resolved


def read_seconds(text: str, what: str) -> float:
    """A program's own setting in seconds (`timeout`, `startup`)."""
    return parse_float(text, what, lo=0, lo_open=True, hi=MAX_SECONDS)


class ProgramPlayer(ComputerAgent):
    """A program as a player: `choose` runs it (raising ProgramFault or MoveForfeited
    for what it did wrong); `move_timeout` is how long the referee lets a move take,
    past the program's own limit (which the player enforces itself)."""

    kind = ""
    thinks = False  # a program keeps its move's time itself (its `timeout`)
    follows_passes = True  # can it be told a position after a forfeited move?
    late: str | None = None  # what a late answer costs, if the course says ("move")
    why_lost = ""  # said of a late answer that costs the game though the course says move

    def __init__(self, command: str, extra: dict[str, Any]) -> None:
        what = f"player {shown(self.kind + ':' + command, 40)}"
        self.name = f"{self.kind}:{command}"
        self.folder: Path | None = None
        if "dir" in extra:
            self.folder = Path(extra["dir"]).resolve()
            if not self.folder.is_dir():
                raise InputError(f"{what}: dir {shown(extra['dir'])}: no such folder")
        self.command = resolve_command(command, self.folder, what)

    @property
    def move_timeout(self) -> float:
        return (self.limit.seconds or 0.0) + GRACE

    def limits(self, seconds: float) -> Limits:
        return Limits(seconds=seconds, cpu_seconds=max(Limits.cpu_seconds, math.ceil(seconds) + 1))

    def choose(self, game: AnyGame, state: Any) -> Move:
        t0 = time.perf_counter()
        result = self.analyse(game, state)
        figures = result if result.algorithm == "ugi" else None
        return Move(result.action, figures, time.perf_counter() - t0)

    def follow(self, moves: list[str | None]) -> None:
        """The game's moves so far, in its notation (None: a forfeited move); a player
        that must tell its program the position keeps them."""

    def run(self, args: Sequence[str], seconds: float,
            inputs: Sequence[tuple[str, str]] = (), outputs: Sequence[str] = ()) -> Run:
        return run_program(self.command, args, self.limits(seconds), self.folder,
                           inputs=inputs, outputs=outputs)

    def close(self) -> list[str]:
        """Ends what the player keeps running (nothing, for a program run once a move);
        what it tried that the sandbox stopped."""
        return []


def no_search(action: Any) -> SearchResult:
    """A program's move, with no search figures (it tells none)."""
    return SearchResult(0.0, action, [action], depth=0, algorithm="program")


def check_run(run: Run, seconds: float, rule: str) -> None:
    """ProgramFault for a run that crashed, timed out, left files behind or tried what
    the sandbox stopped, where the course's `rule` (zerosum.sandbox.COSTS) makes that
    cost the game (the file system outside its folder, processes left running: the
    courses forbid their programs the file system, and a call is the program's whole
    run)."""
    failed = failure(run, seconds)
    if failed is not None:
        raise ProgramFault(failed[1] if failed[0] == "timeout" else f"crashed: {failed[1]}")
    left = strays(run.files)
    if left:
        raise ProgramFault(f"wrote files, which the course forbids: {', '.join(left[:3])}")
    forbidden = cost(rule, run.attempts)
    if forbidden is not None:
        raise ProgramFault(forbidden)


class CourseConnect4(ProgramPlayer):
    """COMP3608's tournament call: `COMMAND STATE red|yellow` once a move, answered by one
    line holding a column 0-6 within `time` seconds (the course's 1 s). No column in
    time (a late answer, or none) forfeits the move; a crash, garbage, more than the
    one line, or files written lose the game (an illegal column too: the referee's)."""

    kind = "course:comp3608"
    late = "move"  # the course's rule

    def __init__(self, command: str, limit: Limit, extra: dict[str, Any]) -> None:
        super().__init__(command, extra)
        self.seconds = limit.seconds or 1.0
        self.limit = Limit(seconds=self.seconds)

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        from zerosum.games.connect4.notation import format_course

        geo = getattr(game, "geo", None)
        if geo is None or (geo.width, geo.height) != (7, 6):
            raise InputError("COMP3608's programs play on the 7x6 board only")
        player = "red" if state.red_to_move else "yellow"
        run = self.run([format_course(state.stones, geo), player], self.seconds)
        if run.timed_out:
            raise MoveForfeited(f"no column within {self.seconds:g} s" + self.why_lost)
        check_run(run, self.seconds, self.kind)
        lines = [line.strip() for line in run.stdout.splitlines() if line.strip()]
        if not lines:
            raise MoveForfeited("printed no column" + self.why_lost)
        if len(lines) > 1:
            raise ProgramFault(f"printed {len(lines)} lines, not one column: "
                               f"{shown(' | '.join(lines), SHOWN)}")
        text = lines[0]
        if not (text.isascii() and text.isdigit()):
            raise ProgramFault(f"printed {shown(text, SHOWN)}, not a column 0-6")
        return no_search(int(text))


class OneMove(ProgramPlayer):
    """UTA's Max-Connect4 one-move mode: the position in input.txt (the course's board
    file: six rows of digits, top first, then the player to move), `COMMAND one-move
    input.txt output.txt DEPTH`, and the move read from output.txt, which must hold the
    input's board with one piece of the mover added and the other player next."""

    kind = "course:maxconnect4"

    def __init__(self, command: str, limit: Limit, extra: dict[str, Any]) -> None:
        super().__init__(command, extra)
        self.depth = limit.depth or ONE_MOVE_DEPTH
        self.seconds = limit.seconds or ONE_MOVE_SECONDS
        self.limit = Limit(depth=self.depth, seconds=self.seconds)

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        from zerosum.games.maxconnect4 import format_board
        from zerosum.games.maxconnect4.onemove import one_move_made

        board = format_board(state).replace("\n", "\r\n")
        run = self.run(["one-move", "input.txt", "output.txt", str(self.depth)], self.seconds,
                       inputs=[("input.txt", board)], outputs=["output.txt"])
        check_run(run, self.seconds, self.kind)
        text = run.outputs.get("output.txt")
        if text is None:
            raise ProgramFault("wrote no output.txt")
        column = one_move_made(board, text)
        if isinstance(column, str):
            raise ProgramFault(column)
        return no_search(column)


class UgiPlayer(ProgramPlayer):
    """An engine speaking UGI, started once a game (at its first move) and ended with it:
    `ugi`/`ugiok`, `isready`/`readyok`, `uginewgame`, then for each move `position
    startpos moves ...` (a forfeited move written 0000, UCI's null move; or `position
    fen` where the game has a position format and the moves are not known) and
    `go` with one kind of limit (`depth`, `nodes` or `movetime`). Its `info` lines give the
    move's figures. No `bestmove` within `timeout`, a move that is not legal, or the
    engine's end loses the game."""

    kind = "ugi"

    def __init__(self, spec: GameSpec, command: str, limit: Limit,
                 extra: dict[str, Any]) -> None:
        super().__init__(command, extra)
        self.limit = limit
        seconds = limit.seconds
        self.timeout = extra.get("timeout") or (2 * seconds + 1 if seconds is not None
                                                 else 30.0)
        self.startup = extra.get("startup") or 20.0
        self.position = spec.position
        self.session: Session | None = None
        self.history: list[str | None] | None = None  # the game's moves (None: forfeited)
        self.known: tuple[Any, list[str]] | None = None  # a state and the moves to it

    @property
    def move_timeout(self) -> float:
        return self.startup + self.timeout + GRACE

    def started(self) -> Session:
        """The engine, started and greeted (the first time)."""
        if self.session is not None:
            return self.session
        try:
            # Its CPU time is limited for the whole game: GAME_MOVES moves at its timeout.
            limits = self.limits(self.startup + GAME_MOVES * self.timeout)
            self.session = session = Session(self.command, limits, self.folder)
        except OSError as e:
            raise ProgramFault(f"cannot start {self.command[0]}: {e.strerror or e}") from None
        deadline = time.monotonic() + self.startup
        for say, answer in (("ugi", "ugiok"), ("isready", "readyok")):
            self.send(say)
            self.until(answer, deadline, f"no {answer} within {self.startup:g} s of start")
        self.send("uginewgame")
        return session

    def send(self, line: str) -> None:
        assert self.session is not None
        if not self.session.send(line):
            raise ProgramFault(f"the engine ended: {self.session.ended()}")

    def until(self, word: str, deadline: float, late: str,
              on_line: Any = None) -> str:
        """The engine's first line starting with `word` before `deadline`; others go to
        `on_line`. ProgramFault if it is late or ends."""
        assert self.session is not None
        while True:
            try:
                line = self.session.read_line(deadline - time.monotonic())
            except EOFError:
                raise ProgramFault(f"the engine ended: {self.session.ended()}") from None
            if line is None:
                raise ProgramFault(late)
            if line.split()[:1] == [word]:
                return line
            if on_line is not None:
                on_line(line)

    def moves_to(self, game: AnyGame, state: Any) -> str:
        """The `position` command for `state`: the referee's record of the game when it
        told one, else the moves this player saw (its own and each reply found by
        trying the legal moves), else the game's position format."""
        moves: list[str | None] | None = None
        if self.history is not None:
            moves = list(self.history)
        elif state == game.initial_state():
            moves = []
        elif self.known is not None:
            before, seen = self.known
            if not game.is_terminal(before):
                for action in game.actions(before):
                    if game.result(before, action) == state:
                        moves = [*seen, game.format_move(action)]
                        break
        from zerosum.ugi import NO_MOVE

        if moves is not None:  # a forfeited move is UCI's null move: the side passed
            shown_moves = [NO_MOVE if m is None else m for m in moves]
            return "position startpos" + ("" if not moves else " moves " + " ".join(shown_moves))
        if self.position is not None:
            text = self.position.format(game, state)
            if self.position.parse(game, text) == state:  # whose turn it is included
                return f"position fen {text}"
        raise InputError("the engine cannot be told this position: the game has no "
                         "position format and its moves are not known")

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        from zerosum.ugi import go_command, read_bestmove, read_info

        limit = limit or self.limit
        position = self.moves_to(game, state)
        self.started()
        self.send(position)
        infos: list[Info] = []

        def heard(line: str) -> None:
            try:
                info = read_info(game, state, line)
            except InputError:
                return  # a malformed info line tells nothing; only bestmove is binding
            if info is not None:
                infos.append(info)
                if on_info is not None:
                    on_info(info)

        t0 = time.perf_counter()
        self.send(go_command(limit))
        line = self.until("bestmove", time.monotonic() + self.timeout,
                          f"no bestmove within {self.timeout:g} s", heard)
        try:
            action = read_bestmove(game, state, line)
        except InputError as e:
            raise ProgramFault(str(e)) from None
        moves = position.split(" moves ", 1)[1].split() if " moves " in position else []
        self.known = (game.result(state, action), [*moves, game.format_move(action)])
        result = SearchResult(0.0, action, [action], depth=0, algorithm="ugi")
        result.stats.wall_time = time.perf_counter() - t0
        if infos:
            last = infos[-1]
            pv = list(last.pv) if last.pv and last.pv[0] == action else [action]
            result = SearchResult(last.value, action, pv, depth=last.depth,
                                  decided=last.decided, plies=last.plies, algorithm="ugi")
            result.stats.nodes = last.nodes
        return result

    def follow(self, moves: list[str | None]) -> None:
        self.history = list(moves)

    def close(self) -> list[str]:
        if self.session is None:
            return []
        self.session.send("quit")
        attempts = self.session.close(wait=QUIT_SECONDS)
        self.session = None
        return attempts


# -- what a referee does with program players (beside asking their moves) ------------------


class Following(MatchObserver):
    """Tells the program players of a refereed game every move (an engine must be sent
    the game's moves), the opening's first; and settles the course's forfeit of a move:
    where the other side cannot be told of a pass (a UGI engine in a game without a
    position format), a late answer loses the game instead, and the reason says so."""

    def __init__(self, agents: Sequence[Any], opening: Sequence[str]) -> None:
        self.players = [a if isinstance(a, ProgramPlayer) else None for a in agents]
        self.moves: list[str | None] = list(opening)
        for side, player in enumerate(self.players):
            other = agents[1 - side] if len(agents) == 2 else None
            if player is not None and player.late == "move" and \
                    isinstance(other, ProgramPlayer) and not other.follows_passes:
                player.late = "game"
                player.why_lost = " (its opponent cannot be told of a forfeited move)"

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        player = self.players[side]
        if player is not None:
            player.follow(self.moves)

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        self.moves.append(None if move.action is None else game.format_move(move.action))


def close_players(agents: Iterable[Any]) -> list[str]:
    """End whatever the game's players keep running (an engine's process); what each
    tried that the sandbox stopped, one phrase each naming the player."""
    tried = []
    for agent in agents:
        if isinstance(agent, ProgramPlayer):
            tried += [f"{shown(agent.name, 40)} {attempt}" for attempt in agent.close()]
    return tried


def sandbox_note(agents: Iterable[Any], game: AnyGame | None = None) -> str | None:
    """What the sandbox cannot enforce here, when programs play (None: all of it);
    InputError for a program that cannot play `game` as it is set up (COMP3608's
    programs know only the 7x6 board)."""
    from zerosum.sandbox import containment

    agents = list(agents)
    for a in agents:
        geo = getattr(game, "geo", None)
        if isinstance(a, CourseConnect4) and geo is not None \
                and (geo.width, geo.height) != (7, 6):
            raise InputError(f"player {shown(a.name, 40)}: COMP3608's programs play on the "
                             f"7x6 board only, not {geo.width}x{geo.height}")
    if any(isinstance(a, ProgramPlayer) for a in agents):
        return containment().note()
    return None


def move_timeout_of(agent: Any) -> float | None:
    """A program player's own time a move (None: the tournament's rule decides)."""
    return agent.move_timeout if isinstance(agent, ProgramPlayer) else None
