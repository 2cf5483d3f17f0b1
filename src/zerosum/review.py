"""A game record reviewed: the value after every move, and the moves that changed the
game's value (`zerosum review GAME RECORD`, and the notebook's move list).

A record is read in the formats `records.py` writes (what the browser's "Download
record" and `zerosum results --export` save): checkers PDN, Connect Four's move string,
or the moves one a line (`1. 5  alphabeta: value ...`), each with an optional
`from: POSITION` line; a tournament export holds several games, one after another.

Each position is valued exactly where it can be: by the game's own perfect solver where
it registers one (Connect Four's, within a node budget) or by the generic strong solver
(search/solve.py) within a position budget; the rest by the game's engine (or iterative
deepening) at a stated depth, which is an estimate and said to be one. A position's set
of reachable positions holds every later position's, so the generic solver is tried from
the end of the game backwards and given up at the first position too big for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.game import AnyGame, InputError, format_value, play_line, shown
from zerosum.games.registry import GameSpec
from zerosum.result import Limit
from zerosum.search.driver import analyse_with
from zerosum.search.iterative import iterative_deepening_search
from zerosum.search.solve import Solution, TooBig, Unsolvable, solve
from zerosum.stop import SearchStopped, Stop

DEFAULT_BUDGET = 200_000  # positions for the generic solver, nodes for a game's own
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # how a PDN game ends


@dataclass(frozen=True)
class Record:
    """One game of a record file: its moves as written, and the start position when it
    did not begin at the start (the game's position format, or checkers' PDN FEN)."""

    moves: tuple[str, ...]
    position: str | None = None


def read_records(text: str, style: str) -> list[Record]:
    """Every game in a record file's text, read in the style its game's registration
    declares (GameSpec.record: "pdn", "move-string" or "plain"); InputError if none."""
    games = read_pdn(text) if style == "pdn" else read_lines(text, style == "move-string")
    if not games:
        raise InputError("no game in the record: expected "
                         + ("PDN moves (e.g. 1. 11-15 22-18)" if style == "pdn" else
                            "moves one a line (5, or 1. 5)"
                            + (", or a Connect Four move string" if style == "move-string"
                               else "")))
    return games


def read_pdn(text: str) -> list[Record]:
    """PDN games: tags (a FEN tag sets the start), numbered moves, {comments}, a result
    ending each game."""
    games: list[Record] = []
    moves: list[str] = []
    fen: str | None = None
    started = False
    # Comments may span lines; tags are whole lines.
    text = re.sub(r"\{[^}]*\}", " ", text)
    for line in text.splitlines():
        line = line.strip()
        tag = re.fullmatch(r'\[(\w+)\s+"([^"]*)"\]', line)
        if tag:
            if tag.group(1) == "FEN":
                fen = tag.group(2)
            started = True
            continue
        if line.startswith("["):
            raise InputError(f"not a PDN tag: {line[:60]}")
        for word in line.split():
            word = re.sub(r"^\d+\.(\.\.)?", "", word)
            if not word:
                continue
            started = True
            if word in RESULTS:
                games.append(Record(tuple(moves), fen))
                moves, fen, started = [], None, False
            else:
                moves.append(word)
    if started:
        games.append(Record(tuple(moves), fen))  # a record cut short of its result
    return games


NUMBERED = re.compile(r"(\d+)\.\s+(.*)")
# One-word lines that end a game rather than name a move (a PDN-style result, or the
# outcome in one word: GameBase.outcome says "Draw").
RESULT_WORDS = {"draw", "*", "1-0", "0-1", "1/2-1/2", "unfinished"}


def read_lines(text: str, strings: bool = False) -> list[Record]:
    """Records of moves one a line, numbered (`N. MOVE`, then two spaces and the search's
    figures: what the project writes) or bare (`MOVE`, one word a line: what a person
    types), or, with `strings`, a Connect Four move string (a line of columns; its figure
    lines repeat moves); a blank line or a `#` comment between games, the outcome in words
    last. A game keeps to one of the three."""
    games: list[Record] = []
    moves: list[str] = []
    position: str | None = None
    style = ""  # how this game's moves came: "numbered", "bare" or "string"
    seen = False

    def end() -> None:
        nonlocal moves, position, style, seen
        if seen:
            games.append(Record(tuple(moves), position))
        moves, position, style, seen = [], None, "", False

    def mixed(number: int, line: str) -> InputError:
        if style == "string":
            return InputError(f"line {number}: {shown(line)} after a move string: give the "
                              "moves one a line or all in the string")
        return InputError(f"line {number}: {shown(line)} mixes numbered and unnumbered "
                          "moves: number every move of a game or none")

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            end()
            continue
        if line.startswith("from:"):
            if seen:
                end()
            position, seen = line[5:].strip(), True
            continue
        numbered = NUMBERED.fullmatch(line)
        bare = len(line.split()) == 1 and line.lower() not in RESULT_WORDS
        if numbered and style == "string":
            continue  # a computer move's figures under a move string
        if numbered:
            if style == "bare":
                raise mixed(number, line)
            # compared as text: int() of a 5,000-digit number is refused by Python itself
            if numbered.group(1).lstrip("0") != str(len(moves) + 1):
                raise InputError(f"line {number}: move {shown(numbered.group(1))} where "
                                 f"move {len(moves) + 1} was expected")
            moves.append(numbered.group(2).split("  ")[0].strip())
            style, seen = "numbered", True
        elif bare and strings and not moves and re.fullmatch(r"\d\d+|-", line):
            moves, style, seen = [c for c in line if c != "-"], "string", True
        elif bare and style in ("", "bare"):
            moves.append(line)
            style, seen = "bare", True
        elif bare:
            raise mixed(number, line)
        elif seen:
            end()  # the outcome in words closes the game
        else:
            raise InputError(f"line {number}: not a move, a move string or an outcome: "
                             f"{line[:60]}")
    end()
    return games


@dataclass(frozen=True)
class Value:
    """A position's value from Max's side: `decided` (exact, `plies` its distance to the
    end when known) or an estimate; `by` names what gave it."""

    value: float
    decided: bool
    plies: int | None
    by: str

    def text(self, game: AnyGame, side: int = 0) -> str:
        """In words, the number from player `side`'s point of view (format_value)."""
        return format_value(game, self.value, decided=self.decided, plies=self.plies,
                            side=side)


@dataclass(frozen=True)
class Reviewed:
    """One move of a reviewed game: who made it, as written, the value after it and,
    where both values are exact, what the move did to the mover's prospects. `side`
    is the mover's (0 the first player): the value after a move is shown from its
    mover's point of view, as every move's value is (`value_text`)."""

    number: int
    mover: str
    text: str
    after: Value
    verdict: str | None  # e.g. "threw a win away (now a draw)"
    side: int = 0

    def value_text(self, game: AnyGame) -> str:
        return self.after.text(game, self.side)


def prospect(value: float, maxs: bool) -> int:
    """+1 a win, 0 a draw, -1 a loss for the side (Max if `maxs`) of a decided value."""
    mine = value if maxs else -value
    return (mine > 0) - (mine < 0)


WORDS = {1: "win", 0: "draw", -1: "loss"}


def verdict(before: Value, after: Value, maxs: bool) -> str | None:
    """What a move by Max (if `maxs`) did when both values are exact: threw a win away
    ("threw a win away: win -> draw") or turned a draw into a loss. With exact values no
    move does better than its position allowed; the other side sees the same move turn
    its loss into a draw, or its draw into a win."""
    if not (before.decided and after.decided):
        return None
    was, now = prospect(before.value, maxs), prospect(after.value, maxs)
    if now >= was:
        return None
    what = "threw a win away" if was == 1 else "turned a draw into a loss"
    return f"{what}: {WORDS[was]} -> {WORDS[now]}"


class Valuer:
    """The values of a game's positions, exact wherever the budget allows: what `zerosum
    review`, the notebook and the page's value graph show.

    `known`: values already found, by game.key. A caller that keeps it (the page's
    session) never values a position twice, and may put in it what was proven
    elsewhere (the page's analysis of a position's moves)."""

    def __init__(self, spec: GameSpec, game: AnyGame, budget: int, depth: int,
                 progress: Callable[[str], None] | None = None,
                 known: dict[Hashable, Value] | None = None) -> None:
        self.spec, self.game, self.budget, self.depth = spec, game, budget, depth
        self.progress = progress
        self.known: dict[Hashable, Value] = {} if known is None else known
        self.solution: Solution | None = None
        self.too_big = False  # the generic solver gave up: earlier positions are bigger
        self.perfect = spec.solver.play if spec.solver is not None else None

    def describe(self) -> str:
        """How values are found, in words (the review's header)."""
        exact = (f"the game's solver (budget {self.budget:,} nodes a position)"
                 if self.perfect is not None else
                 f"the strong solver (budget {self.budget:,} positions)")
        guess = "the engine" if self.spec.kernel is not None else "iterative deepening"
        return f"exact by {exact}, else estimates by {guess} at depth {self.depth}"

    def all(self, states: Sequence[Any]) -> list[Value]:
        """The value of each state, given in play order; the last ones are valued first."""
        return [v for v in self.within(states) if v is not None]  # none missing: no stop

    def within(self, states: Sequence[Any], stop: Stop | None = None) -> list[Value | None]:
        """As `all`, but once `stop` says so (time's up) the states not valued yet have
        None; the last ones, valued first, are those a solver settles soonest."""
        values: list[Value | None] = []
        for i in reversed(range(len(states))):
            if self.progress is not None:
                self.progress(f"position {i + 1} of {len(states)}")
            key = self.game.key(states[i])
            if key not in self.known and stop is not None and stop.expired():
                values.append(None)
                continue
            try:
                values.append(self.value(states[i], stop))
            except SearchStopped:  # time was up before the estimate's first depth
                values.append(None)
        return values[::-1]

    def value(self, state: Any, stop: Stop | None = None) -> Value:
        """The exact value where a solver settles it within the budget, else the
        engine's estimate (cut short by `stop`, if one is given and says so)."""
        key = self.game.key(state)
        if key not in self.known:
            exact = self.exact_value(state)
            self.known[key] = self.estimate(state, stop) if exact is None else exact
        return self.known[key]

    def exact_value(self, state: Any) -> Value | None:
        """The value a solver settles within the budget; None where none does."""
        game = self.game
        if game.is_terminal(state):
            return self.exact(game.utility(state), None)  # over: no distance to tell
        if self.perfect is not None:
            try:
                r = self.perfect(game, state, Limit(nodes=self.budget))
            except SearchStopped:
                return None
            return self.exact(r.value, r.plies) if r.decided else None
        return self.solved(state)

    def solved(self, state: Any) -> Value | None:
        """The generic solver's value: from the last solution when it holds `state`,
        else from a new one solved from `state` (None once one was too big)."""
        if self.solution is not None and self.game.key(state) in self.solution.table:
            s = self.solution[state]
            return self.exact(s.value, s.plies)
        if self.too_big:
            return None
        try:
            self.solution = solve(self.game, state, self.budget)
        except (TooBig, Unsolvable):
            self.too_big = True
            return None
        s = self.solution[state]
        return self.exact(s.value, s.plies)

    def exact(self, value: float, plies: int | None) -> Value:
        # The plies are a minimax distance only for a won or lost outcome.
        distance = self.game.values.kind == "outcome" and value != 0
        return Value(value, True, plies if distance else None, "solver")

    def estimate(self, state: Any, stop: Stop | None = None) -> Value:
        limit = Limit(depth=self.depth)
        if self.spec.kernel is not None:
            r = analyse_with(self.spec.kernel, self.game, state, limit, stop=stop)
        else:
            r = iterative_deepening_search(self.game, state, max_depth=self.depth, stop=stop)
        return Value(r.value, r.decided, r.plies, "estimate")


def undecided(reviewed: Sequence[Reviewed]) -> str:
    """The moves whose value after them is an estimate, as ranges ("1-8, 11"): where
    the review can flag no mistake. "" when every value is exact."""
    numbers = [r.number for r in reviewed if not r.after.decided]
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def replay_record(spec: GameSpec, game: AnyGame, record: Record) -> list[Any]:
    """The states of a recorded game, its start first; InputError names the first move
    that is not legal."""
    if record.position is None:
        state = game.initial_state()
    elif spec.position is None:
        raise InputError(f"the record starts from a position ({record.position}), and "
                         f"{spec.name} has no position format to read it")
    else:
        state = spec.position.parse(game, record.position)
    states = [state]
    for action in play_line(game, state, record.moves)[1]:
        states.append(game.result(states[-1], action))
    return states


def review(game: AnyGame, states: Sequence[Any], moves: Sequence[str],
           values: Sequence[Value]) -> list[Reviewed]:
    """Each move with the value after it and its verdict."""
    out = []
    for i, text in enumerate(moves):
        maxs = game.is_maxs_turn(states[i])
        mover = game.players[0] if maxs else game.players[1]
        out.append(Reviewed(i + 1, mover, text, values[i + 1],
                            verdict(values[i], values[i + 1], maxs), 0 if maxs else 1))
    return out
