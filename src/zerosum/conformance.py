"""Does a game keep the rules search relies on? A check over random playthroughs.

`check_game(game)` plays seeded random games from the initial state and, at every state
reached, checks the Game protocol's promises (the rules below). It returns the problems
found, at most one per rule, each a sentence naming the rule and the state and moves
where it broke; an empty list means none was found. Run it on your own game:

    from zerosum.conformance import check_game
    for problem in check_game(MyGame()):
        print(problem)

Random play reaches only some states, so passing is evidence, not proof.
"""

from __future__ import annotations

import copy
import inspect
import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from zerosum.game import AnyGame, GameBase, InputError
from zerosum.games.registry import GameSpec

HASHABLE = "states are hashable and equal to a copy of themselves"
PURE_RESULT = "result() leaves the state it is given unchanged"
SAME_ACTIONS = ("actions() gives the same moves, in the same order, every time and for "
                "equal states")
TERMINAL = "is_terminal() is true exactly when actions() is empty"
UTILITY = "utility() of a terminal state is a finite number"
EVALUATE = "evaluate() of a non-terminal state is a finite number"
BOUNDED = ("evaluate() lies strictly between a decided loss and a decided win "
           "(the game's values say bounded)")
VALUES = "utility() lies within the game's values (lo to hi; whole numbers in an outcome game)"
ROUND_TRIP = "parse_move(state, format_move(a)) == a for every legal move a"
KEY = "key() is hashable and the same for equal states"
TURN = "is_maxs_turn() is a bool"
ENDS = "the game ends within max_moves moves"
NO_ERROR = "the game's methods raise no exception on states reached in play"
SEQUENCE = "actions() returns a sequence (a list or a tuple), not an iterator"

SHOWN = 100  # characters of a state's repr shown in a message


def check_spec(spec: GameSpec, *, playthroughs: int = 20, seed: int = 0,
               max_moves: int = 1000, **options: Any) -> list[str]:
    """`check_game` on the game `spec` makes with these options."""
    return check_game(spec.create(**options), playthroughs=playthroughs, seed=seed,
                      max_moves=max_moves)


def check_game(game: AnyGame, *, playthroughs: int = 20, seed: int = 0,
               max_moves: int = 1000, bounded_evaluation: bool | None = None) -> list[str]:
    """The rules `game` breaks in `playthroughs` random games (seeded by `seed`), at most
    one problem per rule. Utilities must lie within the game's `values` (whole numbers
    in an outcome game). With `bounded_evaluation` (by default: what the game's values
    say), every evaluation must lie strictly inside (-W, W), W the largest size of a
    terminal utility seen (zero-sum: a win for one side worth W is a loss worth -W for
    the other), so that no estimate looks like a decided result."""
    checker = _Checker(game)
    rng = random.Random(seed)
    for number in range(1, playthroughs + 1):
        checker.play(number, rng, max_moves)
    if game.values.bounded if bounded_evaluation is None else bounded_evaluation:
        checker.check_bounds()
    return list(checker.problems.values())


GAMEBASE_FILE = inspect.getsourcefile(GameBase)


def unwritten(e: BaseException) -> str | None:
    """The method a game left to GameBase's default that raised `e`, a bare
    NotImplementedError (it says nothing); None for any other error."""
    if not isinstance(e, NotImplementedError):
        return None
    tb, method = e.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        method = code.co_name if code.co_filename == GAMEBASE_FILE else None
        tb = tb.tb_next
    return method


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


class _Checker:
    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.problems: dict[str, str] = {}
        self.utilities: list[float] = []
        self.estimates: list[tuple[float, str, str]] = []  # (evaluation, at, where)

    def fail(self, rule: str, detail: str, where: str) -> None:
        self.problems.setdefault(rule, f"{rule}: {detail} ({where})")

    def play(self, number: int, rng: random.Random, max_moves: int) -> None:
        game = self.game
        moves: list[str] = []
        where = f"playthrough {number}, at the start"
        try:
            state = game.initial_state()
            for _ in range(max_moves):
                where = (f"playthrough {number}, after moves {' '.join(moves)}" if moves
                         else f"playthrough {number}, at the start")
                actions = self.check_state(state, where)
                if not actions:
                    return
                action = rng.choice(actions)
                moves.append(game.format_move(action))
                state = game.result(state, action)
            self.fail(ENDS, f"{max_moves} random moves did not end it", where)
        except (Exception, SystemExit) as e:  # any error in a person's game is a finding
            self.fail(NO_ERROR, self.raised(e), where)

    def raised(self, e: BaseException) -> str:
        """What a game's method raised, in words: the error, the method it came from and,
        where the game's own code raised it, the file's line."""
        if isinstance(e, SystemExit):
            return f"it called sys.exit({e.code!r})"
        if (method := unwritten(e)) is not None:
            return f"{method}() is not written: the game must define it"
        method, line = "", ""
        tb = e.__traceback__
        while tb is not None:  # the deepest frame of one of the game's methods
            frame = tb.tb_frame
            if frame.f_locals.get("self") is self.game:
                method = frame.f_code.co_name
                line = f", {Path(frame.f_code.co_filename).name} line {tb.tb_lineno}"
            tb = tb.tb_next
        text = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        return f"{text} in {method}(){line}" if method else text

    def check_state(self, state: Any, where: str) -> Sequence[Any]:
        """Check `state`; its legal moves, or [] to end the playthrough."""
        game = self.game
        at = f"state {_shown(state)}"
        try:
            code = hash(state)
        except TypeError as e:
            self.fail(HASHABLE, f"{at} is not hashable ({e})", where)
            return []
        twin = copy.deepcopy(state)
        if twin != state or hash(twin) != code:
            self.fail(HASHABLE, f"{at} differs from its copy", where)
        turn = game.is_maxs_turn(state)
        if not isinstance(turn, bool):
            self.fail(TURN, f"it returned {turn!r} for {at}", where)
        given = game.actions(state)
        if not isinstance(given, Sequence):  # search takes len() and indexes it
            self.fail(SEQUENCE, f"it returned {type(given).__name__} for {at}", where)
            return []
        actions = list(given)
        for again in (list(game.actions(state)), list(game.actions(twin))):
            if again != actions:
                self.fail(SAME_ACTIONS, f"{_shown(actions)}, then {_shown(again)} for {at}",
                          where)
        self.check_key(state, twin, at, where)
        terminal = game.is_terminal(state)
        if terminal != (not actions):
            self.fail(TERMINAL, f"is_terminal() is {terminal} with {len(actions)} legal "
                      f"moves at {at}", where)
            return []
        if terminal:
            utility = game.utility(state)
            if self.check_number(UTILITY, utility, at, where, self.utilities):
                self.check_value(utility, at, where)
            return []
        value = game.evaluate(state)
        if self.check_number(EVALUATE, value, at, where, []):
            self.estimates.append((value, at, where))
        self.check_moves(state, actions, at, where)
        snapshot = repr(state)
        if state != twin or hash(state) != code or repr(state) != snapshot:
            self.fail(PURE_RESULT, f"{at} changed while its moves were played", where)
            return []
        return actions

    def check_key(self, state: Any, twin: Any, at: str, where: str) -> None:
        key = self.game.key(state)
        try:
            hash(key)
        except TypeError:
            self.fail(KEY, f"key {_shown(key)} of {at} is not hashable", where)
            return
        if self.game.key(twin) != key or self.game.key(state) != key:
            self.fail(KEY, f"{at} and a copy of it have different keys", where)

    def check_number(self, rule: str, value: Any, at: str, where: str,
                     seen: list[float]) -> bool:
        if isinstance(value, int | float) and not isinstance(value, bool) \
                and math.isfinite(value):
            seen.append(float(value))
            return True
        self.fail(rule, f"it returned {value!r} for {at}", where)
        return False

    def check_moves(self, state: Any, actions: list[Any], at: str, where: str) -> None:
        """Each move's round trip through its text, and result() on each; the state's
        own unchanged-ness is checked by the caller afterwards."""
        game = self.game
        before = repr(state)
        for action in actions:
            text = game.format_move(action)
            read = _parse(game.parse_move, state, text)
            if read != ("", action):
                back = read[0] or repr(read[1])
                self.fail(ROUND_TRIP, f"move {action!r} is written {text!r}, which reads "
                          f"back as {back} at {at}", where)
            game.result(state, action)
            if repr(state) != before:
                self.fail(PURE_RESULT, f"move {action!r} changed {at} into "
                          f"{_shown(state)}", where)
                return

    def check_value(self, utility: float, at: str, where: str) -> None:
        values = self.game.values
        whole = values.kind == "score" or utility == int(utility)
        if not (values.lo <= utility <= values.hi and whole):
            self.fail(VALUES, f"utility {utility!r} at {at}; the game declares {values}", where)

    def check_bounds(self) -> None:
        win = max((abs(u) for u in self.utilities), default=0.0)
        if win == 0:  # no decided win or loss seen: nothing to compare with
            return
        for value, at, where in self.estimates:
            if not -win < value < win:
                self.fail(BOUNDED, f"it returned {value!r} for {at}, not inside (-{win:g}, "
                          f"{win:g}), the largest utilities seen", where)
                return


def _parse(parse: Callable[[Any, str], Any], state: Any, text: str) -> tuple[str, Any]:
    """("", parse(state, text)), or (a description of the error it raised, None)."""
    try:
        return "", parse(state, text)
    except InputError as e:
        return f"an error ({e})", None
