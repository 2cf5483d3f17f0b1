"""Grading a player against perfect play: on a set of positions whose every move's exact
value is known, how often the player's move is a mistake, with a 95 % interval.

A move is a mistake when its exact value (a win, a draw or a loss for the side making
it) is below the best move's: a draw thrown away from a won position, a loss from a
drawn one (AlphaZero.jl's measure on Pons's sets). Finer: the share of moves that keep
the position's exact score (in Connect Four, Pons's score, which also counts how soon
the game is won; elsewhere the solver's value).

Where the labels come from:
- a small game (tic-tac-toe, Take-Stones, Connect Four 4x4, checkers 4x4...): every
  non-terminal position reachable from the start, solved by the generic solver
  (search/solve.py), set "all";
- Connect Four 7x6: Pascal Pons's six benchmark sets, each move labelled once by our
  solver and shipped in zerosum/learn/labels/ (tools/connect4_labels.py builds them; a
  file's header names its source, and the SHA-256 of its lines is checked on load), so
  grading costs no solving.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from zerosum.game import AnyGame, InputError, shown
from zerosum.games.registry import GameSpec
from zerosum.kernel import forget
from zerosum.search.solve import TooBig, Unsolvable, solve

ALL = "all"
# Pons's file names and the names the literature gives them (start, middle or end of
# the game; easy, medium or hard by the moves left to its end).
PONS_SETS = {"L3_R1": "End-Easy", "L2_R1": "Middle-Easy", "L2_R2": "Middle-Medium",
             "L1_R1": "Beginning-Easy", "L1_R2": "Beginning-Medium",
             "L1_R3": "Beginning-Hard"}
Z95 = 1.959963984540054
VALUE = {"w": 1, "d": 0, "l": -1}  # a label's letter (its case: keeps the score or not)


@dataclass(frozen=True)
class Labelled:
    """A position and its legal moves' labels: for each move, (its value for the side
    making it, +1/0/-1; whether it keeps the exact score)."""

    state: Any
    moves: dict[Any, tuple[int, bool]]

    @property
    def best(self) -> int:
        return max(v for v, _ in self.moves.values())


@dataclass(frozen=True)
class Grade:
    """A player's grade on one set: `positions` graded, `mistakes`, `kept` (moves keeping
    the exact score)."""

    set: str
    positions: int
    mistakes: int
    kept: int

    @property
    def mistake_rate(self) -> float:
        return self.mistakes / self.positions if self.positions else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.mistakes, self.positions)

    def line(self) -> str:
        lo, hi = self.interval()
        kept = self.kept / self.positions if self.positions else 0.0
        return (f"{self.set}: {self.positions} positions, {self.mistakes} mistakes "
                f"{100 * self.mistake_rate:.1f} % (95 % interval {100 * lo:.1f}-"
                f"{100 * hi:.1f} %), exact score kept {100 * kept:.1f} %")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (it stays inside [0, 1] and says
    something at k = 0, where the normal approximation says nothing)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def uses_pons(spec: GameSpec, game: AnyGame) -> bool:
    """Pons's sets grade Connect Four on the board they were solved on, 7x6."""
    from zerosum.games.connect4.game import Connect4

    return isinstance(game, Connect4) and (game.geo.width, game.geo.height) == (7, 6)


def set_names(spec: GameSpec, game: AnyGame) -> list[str]:
    """The sets a game grades on: Pons's (those whose labels are shipped) or "all"."""
    if uses_pons(spec, game):
        return [name for name in PONS_SETS if _label_file(name).is_file()]
    return [ALL]


def _label_file(name: str) -> Any:
    return resources.files("zerosum.learn") / "labels" / f"connect4_{name}.txt"


def set_name(spec: GameSpec, game: AnyGame, text: str) -> str:
    """A set named as Pons's file (L1_R3, Test_L1_R3) or its long name
    (Beginning-Hard); InputError listing the sets otherwise."""
    names = set_names(spec, game)
    wanted = text.removeprefix("Test_").lower()
    for name in names:
        if wanted in (name.lower(), PONS_SETS.get(name, name).lower()):
            return name
    choices = ", ".join(f"{n} ({PONS_SETS[n]})" if n in PONS_SETS else n for n in names)
    raise InputError(f"no set {shown(text)} of {spec.name}; choose from {choices}")


def pons_positions(game: AnyGame, name: str) -> list[Labelled]:
    """The labelled positions of Pons's set `name` (its shipped labels, checked)."""
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves

    text = _label_file(name).read_text(encoding="utf-8")
    lines = text.splitlines()
    body = "".join(f"{line}\n" for line in lines if not line.startswith("#"))
    digest = next((line.split()[-1] for line in lines if line.startswith("# labels sha256")),
                  None)
    if digest != hashlib.sha256(body.encode()).hexdigest():
        raise InputError(f"the labels of {name} are damaged (their SHA-256 differs from "
                         "their header's): rebuild them with tools/connect4_labels.py")
    geo = getattr(game, "geo")  # noqa: B009 (a Connect Four game's board)
    out = []
    for line in body.splitlines():
        moves, _score, labels = line.split()
        state = position_from_stones(parse_moves(moves, geo))
        out.append(Labelled(state, {c: (VALUE[ch.lower()], ch.isupper())
                                    for c, ch in enumerate(labels) if ch != "-"}))
    return out


def solved_positions(game: AnyGame) -> list[Labelled]:
    """Every non-terminal position reachable from the start, labelled by the generic
    solver, in the solver's order."""
    try:
        solution = solve(game, game.initial_state())
    except (TooBig, Unsolvable) as e:
        raise InputError(f"cannot grade on every position: {e}") from None
    seen: set[Any] = set()
    out = []
    stack = [game.initial_state()]
    while stack:  # depth first from the start, each position once
        state = stack.pop()
        key = game.key(state)
        if key in seen or game.is_terminal(state):
            continue
        seen.add(key)
        side = 1 if game.is_maxs_turn(state) else -1
        here = solution[state].value
        moves = {}
        for a, child in solution.move_values(state):
            moves[a] = (sign(side * child.value), child.value == here)
        out.append(Labelled(state, moves))
        stack.extend(game.result(state, a) for a in reversed(list(game.actions(state))))
    return out


def labelled(spec: GameSpec, game: AnyGame, name: str,
             positions: int | None = None) -> list[Labelled]:
    """The positions of set `name`; with `positions`, that many spread evenly over it."""
    rows = pons_positions(game, name) if name != ALL else solved_positions(game)
    rows = [r for r in rows if r.moves]
    if positions is not None and positions < len(rows):
        rows = [rows[i * len(rows) // positions] for i in range(positions)]
    return rows


def judged(game: AnyGame, rows: Sequence[Labelled],
           choose: Callable[[AnyGame, Any], Any]) -> Iterator[tuple[bool, bool]]:
    """For each position, whether the move `choose(game, state)` is a mistake and whether
    it keeps the exact score. Each position is played from a fresh start: what an engine
    kept from the position before (its table) is forgotten first, so a position's verdict
    is the same whatever was graded before it (another set, or a subset of this one with
    --positions)."""
    for row in rows:
        forget(game)
        action = choose(game, row.state)
        if action not in row.moves:
            raise InputError(f"the player chose {action!r}, not a legal move, in\n"
                             f"{game.render(row.state)}")
        value, keeps = row.moves[action]
        yield value < row.best, keeps


def grade(game: AnyGame, name: str, rows: Sequence[Labelled],
          choose: Callable[[AnyGame, Any], Any]) -> Grade:
    """The grade of the player whose move in a position is `choose(game, state)`."""
    mistakes = kept = 0
    for mistake, keeps in judged(game, rows, choose):
        mistakes += mistake
        kept += keeps
    return Grade(name, len(rows), mistakes, kept)


def grades(spec: GameSpec, game: AnyGame, choose: Callable[[AnyGame, Any], Any],
           sets: Sequence[str], positions: int | None = None) -> Iterator[Grade]:
    """The player's grade on each set, one by one."""
    for name in sets:
        yield grade(game, name, labelled(spec, game, name, positions), choose)


EXACT_BUDGET = 200_000  # a solver's nodes (positions for the generic one) for each move
EXACT_SECONDS = 5.0  # for a game's own per-move solver, all moves of a position


def exact_outcomes(spec: GameSpec, game: AnyGame, state: Any,
                   seconds: float = EXACT_SECONDS) -> dict[Any, int]:
    """Each legal move's exact outcome for the side making it (+1 a win, 0 a draw, -1 a
    loss), for the moves settled: by the game's own per-move solver (its Solver's
    move_values: Connect Four's) within `seconds`, else by a solver within EXACT_BUDGET
    (review.Valuer: the game's solver, or the generic one). What the /train page and
    AlphaZero's glass box show beside a learned player's values."""
    from zerosum.review import Valuer
    from zerosum.stop import SearchStopped, Stop

    found: dict[Any, int] = {}
    move_solver = spec.solver.move_values if spec.solver is not None else None
    if move_solver is not None:
        try:
            for mv in move_solver(game, state, Stop(seconds=seconds)):
                if mv.interval is None:  # proven, not a move still being proven
                    found[mv.action] = OUTCOMES[mv.outcome]
        except SearchStopped:
            pass  # the rest stay unsettled
        return found
    valuer = Valuer(spec, game, EXACT_BUDGET, depth=1)
    sign = 1 if game.is_maxs_turn(state) else -1
    for action in game.actions(state):
        exact = valuer.exact_value(game.result(state, action))
        if exact is not None:
            mine = sign * exact.value
            found[action] = (mine > 0) - (mine < 0)
    return found


OUTCOMES = {"win": 1, "draw": 0, "loss": -1}

