"""The Game protocol: the one small interface where games and search algorithms meet.

Names follow AIMA chapter 5. A game is any object with these methods; `GameBase`
supplies the optional ones with sensible defaults, so a game only writes what it needs.
Utilities and evaluations are always from Max's (player 1's) side.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

S = TypeVar("S")  # a state: immutable and hashable
A = TypeVar("A")  # an action


def shown(text: str, limit: int = 24) -> str:
    """`text` quoted for a message, cut short when long (a message stays one line). The
    one way every message quotes what a person typed (zerosum.convert has it too)."""
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    return repr(text)


def move_words(text: str) -> tuple[str, ...]:
    """A move's text as its words, without brackets, commas or case: `(0, 2)`, `0 2`
    and `[0,2]` are all ('0', '2'); () for none."""
    return tuple(w for w in re.split(r"[\s,;()\[\]{}]+", text.lower()) if w)


class InputError(ValueError):
    """Bad input from a person or a file: a board string, a move, an argument.

    Front-ends turn it into one line on stderr and exit status 2.
    """


class Unresponsive(InputError):
    """A search that did not answer a stop: it is stuck in code that checks none (a
    person's game looping in one of its methods)."""


@dataclass(frozen=True)
class Values:
    """What a game's utilities mean, declared once per game (`Game.values`).

    `kind` "outcome": the game is won, drawn or lost, and the sign of a utility says
    which (its size may say more, e.g. how soon Connect Four is won); utilities are
    whole numbers and a win is worth at least `win`. `kind` "score": the utility is a
    final score (Max-Connect4's points, a textbook tree's leaves). `lo` and `hi` bound
    the utilities. `bounded`: every evaluation lies strictly inside (-win, win), so an
    estimate never looks like a result and a value of at least `win` is a decided win
    (the conformance check holds a game that says so to it). An estimate within
    `about_even` of 0 favours neither side enough to say so.
    """

    kind: Literal["outcome", "score"] = "outcome"
    win: float = 1.0
    lo: float = -math.inf
    hi: float = math.inf
    bounded: bool = False

    @property
    def about_even(self) -> float:
        """The estimates called "about even" (outcome) or "about level" (score) lie
        strictly within this of 0: a twentieth of the least win (one point of a score
        game), below which an evaluation's sign is noise (e.g. Connect Four's bonus for
        the side that moved last, checkers' tempo)."""
        return EVEN_SHARE * self.win

    def decides(self, value: float) -> bool:
        """Is `value` a decided win or loss whatever the search behind it?"""
        return self.bounded and abs(value) >= self.win


EVEN_SHARE = 0.05
OUTCOME = Values()  # what a game that declares nothing is taken to be
OUTCOME_BOUNDED = Values(lo=-1, hi=1, bounded=True)  # +1/0/-1, estimates strictly between


class Game(Protocol[S, A]):
    """What every search algorithm may ask of a game."""

    values: Values
    players: tuple[str, str]  # the printed names of the two sides, Max first

    def initial_state(self) -> S: ...

    def actions(self, state: S) -> Sequence[A]:
        """Legal moves, in the (deterministic) order search examines them."""
        ...

    def result(self, state: S, action: A) -> S: ...

    def is_terminal(self, state: S) -> bool: ...

    def utility(self, state: S) -> float:
        """Value of a terminal state from Max's side."""
        ...

    def is_maxs_turn(self, state: S) -> bool: ...

    def evaluate(self, state: S) -> float:
        """Heuristic estimate of a non-terminal state, on the utility's scale."""
        ...

    def cutoff_test(self, state: S, depth: int, limit: int) -> bool:
        """Stop a depth-limited search here? Asked only of non-terminal states.

        Search assumes the answer depends on the state and `limit - depth` only
        (what a transposition table needs to reuse a result soundly).
        """
        ...

    def key(self, state: S) -> Hashable:
        """The transposition-table key; may fold symmetries where that is sound."""
        ...

    def order(self, state: S, actions: Sequence[A]) -> Sequence[A]:
        """Actions in the order a search with move ordering should try them."""
        ...

    def render(self, state: S) -> str: ...

    def format_move(self, action: A) -> str: ...

    def parse_move(self, state: S, text: str) -> A:
        """A move typed by a person; raises InputError when it is not legal here."""
        ...

    def move_help(self) -> str: ...

    def outcome(self, state: S) -> str:
        """At a terminal state, one line: the result and why ("X wins: three in a row")."""
        ...

    # Optional, asked only by Monte Carlo tree search (GameBase: a uniformly random move):
    # def playout_policy(self, state: S, rng: random.Random) -> A:
    #     """The move a random playout makes in the non-terminal `state`, drawn with `rng`
    #     (a game may prefer better moves, e.g. a win in one, to make playouts wiser)."""

    # Optional, asked only by the generic solver (zerosum.search.solve; absent: unknown):
    # def positions_known_at_least(self, state: S) -> int:
    #     """Distinct positions (by `key`) reachable from `state` as once counted, or 0
    #     where none was (the solver refuses at once a game it knows is too big)."""


class GameBase(Generic[S, A]):
    """Defaults for the optional parts of the protocol."""

    name = "game"
    # Printed names of the two sides, Max first.
    players: tuple[str, str] = ("Max", "Min")
    values: Values = OUTCOME

    def initial_state(self) -> S:
        raise NotImplementedError

    def actions(self, state: S) -> Sequence[A]:
        raise NotImplementedError

    def result(self, state: S, action: A) -> S:
        raise NotImplementedError

    def is_terminal(self, state: S) -> bool:
        return not self.actions(state)

    def utility(self, state: S) -> float:
        raise NotImplementedError

    def is_maxs_turn(self, state: S) -> bool:
        raise NotImplementedError

    def evaluate(self, state: S) -> float:
        # A game without a heuristic says "unknown": the midpoint of the scale.
        return 0.0

    def cutoff_test(self, state: S, depth: int, limit: int) -> bool:
        return depth >= limit

    def key(self, state: S) -> Hashable:
        return state

    def order(self, state: S, actions: Sequence[A]) -> Sequence[A]:
        return actions

    def render(self, state: S) -> str:
        return str(state)

    def format_move(self, action: A) -> str:
        return str(action)

    def parse_move(self, state: S, text: str) -> A:
        """The legal move whose text (format_move) is `text`, ignoring case, and where none
        is, the one written with the same words: a move shown as `(0, 2)` may be typed
        `0 2`, `0,2` or `[0 2]`. InputError otherwise."""
        text = text.strip()
        actions = list(self.actions(state))
        for action in actions:
            if self.format_move(action).lower() == text.lower():
                return action
        alike = [a for a in actions if move_words(self.format_move(a)) == move_words(text)]
        if len(alike) == 1 and move_words(text):  # () matches nothing typed
            return alike[0]
        raise InputError(f"not a legal move here: {shown(text)}")

    def move_help(self) -> str:
        """How a person types a move in this game."""
        return "Type one of the legal moves listed."

    def outcome(self, state: S) -> str:
        """At a terminal state, one line: the result and why. Games override it to say
        why; this default says only the result."""
        winner = self.winner(state)
        return f"{winner} wins" if winner else "Draw"

    def pass_turn(self, state: S) -> S | None:
        """The state after the side to move loses its turn (a referee's ruling, e.g. a
        course's "a late move is forfeit and play returns to the other player"); None
        (the default) where the game cannot express it: the side then loses the game."""
        return None

    def playout_policy(self, state: S, rng: random.Random) -> A:
        """The move a Monte Carlo playout makes in the non-terminal `state`: uniformly
        random here; a game may prefer better moves (drawn with `rng`, for replays)."""
        return rng.choice(list(self.actions(state)))

    def winner(self, state: S) -> str | None:
        """The winning side's name at a terminal state, or None for a draw."""
        u = self.utility(state)
        if u > 0:
            return self.players[0]
        if u < 0:
            return self.players[1]
        return None


AnyGame = Game[Any, Any]


def format_value(game: AnyGame, value: float, *, decided: bool = False,
                 plies: int | None = None, side: int = 0) -> str:
    """A search's value as a person reads it, for every game alike, the one place a
    value is put in words: a decided value says who it favours, and `plies` (given only
    when it is the minimax distance to the end: the search prefers faster wins and
    slower losses) says how soon; without it the value is "proven". An estimate says
    so, and which side it favours unless it is about even (Values.about_even).

    "+1 (X wins in 3 plies)", "-1 (Yellow wins, proven)", "0 (draw, proven)",
    "+0.25 (estimate, good for X)", "-0.008 (estimate, about even)",
    "+3 (proven: Player 1 ahead by 3)", "-1.5 (estimate: Player 2 ahead)".

    `value` is from Max's side, as every search returns it; the number is shown from
    the point of view of player `side` (0 the first player, 1 the second): a value shown
    to a person is from the side that makes the move (docs/search.md, "Values as
    shown"), so "-1 (X wins in 4 plies)" is a move of O's that loses. The words name the
    side either way."""
    if math.isinf(value):
        return "none yet"  # a search stopped before it judged any move
    number = format_number(-value if side else value, decided=decided)
    favoured = game.players[0] if value > 0 else game.players[1]
    score = game.values.kind == "score"
    if not decided:
        if abs(value) < game.values.about_even:
            return f"{number} (estimate: about level)" if score \
                else f"{number} (estimate, about even)"
        return f"{number} (estimate: {favoured} ahead)" if score \
            else f"{number} (estimate, good for {favoured})"
    if score:
        result = f"{favoured} ahead by {abs(value):g}" if value else "level"
        soon = "" if plies is None else f" after {plies_text(plies)}"
        return f"{number} (proven: {result}{soon})"
    result = f"{favoured} wins" if value else "draw"
    soon = ", proven" if plies is None else f" in {plies_text(plies)}"
    return f"{number} ({result}{soon})"


def side_to_move(game: AnyGame, state: Any) -> int:
    """The player (0 or 1) who moves in `state`: whose point of view a value of that
    position, or of one of its moves, is shown from (format_value's `side`)."""
    return 0 if game.is_maxs_turn(state) else 1


def format_number(value: float, *, decided: bool = False) -> str:
    """A value's number alone, as format_value writes it (a window's bounds, a tree's
    values in the explain views): signed, an estimate to three decimals (more would be
    noise), a decided value as it is; "+inf" and "-inf" for an open window's ends.
    "+1", "-0.111", "0", "+inf"."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    number = f"{value:+.6g}" if decided else f"{value:+.3f}".rstrip("0").rstrip(".")
    return "0" if number in ("+0", "-0", "0") or not value else number


def plies_text(plies: int) -> str:
    """A number of plies (one side's move each), the one unit every interface counts
    a distance to the end of a game in: "1 ply", "11 plies"."""
    return f"{plies} ply" if plies == 1 else f"{plies} plies"


def count_paths(game: AnyGame, state: Any, depth: int) -> int:
    """Perft: the number of move paths `depth` plies long from `state` (a path on which
    the game ends sooner does not count), through the protocol alone; the standard test
    of a move generator. A game may register a faster counter of its own (GameSpec.perft)."""
    if depth == 0:
        return 1
    actions = game.actions(state)
    if depth == 1:
        return len(actions)
    return sum(count_paths(game, game.result(state, a), depth - 1) for a in actions)


def play_line(game: AnyGame, state: Any, moves: Sequence[str],
              first: int = 1) -> tuple[Any, list[Any]]:
    """(the position after the typed `moves` from `state`, their actions); InputError
    names the first move that is not legal (its number, counting from `first`) or comes
    after the end."""
    actions = []
    for number, text in enumerate(moves, first):
        # A long text is cut short here (the game's own message quotes it, shown).
        written = text if len(text) <= 24 else text[:24] + "..."
        if game.is_terminal(state):
            raise InputError(f"move {number} ({written}): the game is already over")
        try:
            action = game.parse_move(state, text)
            if action not in game.actions(state):  # a lenient parse_move of one's own
                raise InputError("not a legal move here")
            state = game.result(state, action)
        except InputError as e:
            raise InputError(f"move {number} ({written}): {e}") from None
        actions.append(action)
    return state, actions


def replay(game: AnyGame, state: Any, moves: Sequence[str]) -> Any:
    """The position after the typed `moves` from `state` (see play_line)."""
    return play_line(game, state, moves)[0]
