"""Connect Four as a Game for the generic searches, the terminal and the menu.

A state is a `Position(current, mask, red_to_move)`: the bitboards of `bitboard.py`
(stones of the player to move, all stones) and whose turn it is. Red (X) is Max and
usually moves first; positions read from the course string may give the turn to either.
Actions are columns 0..W-1; people type 1..W.

Utility is the solver's score seen from red's side: a win is worth 22 minus the
number of stones the winner played (on 7x6; in general cells/2 + 1 minus them), so a
quicker win is worth more; a draw 0. `evaluate` is the tournament engine's heuristic
scaled into (-1, 1), so that estimates never look like decided values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from zerosum.convert import parse_int, shown
from zerosum.game import GameBase, InputError, Values
from zerosum.games.connect4.bitboard import Geometry, geometry
from zerosum.games.connect4.notation import Stones, format_grid


class Position(NamedTuple):
    current: int  # stones of the player to move
    mask: int  # all stones
    red_to_move: bool

    @property
    def stones(self) -> Stones:
        other = self.current ^ self.mask
        if self.red_to_move:
            return Stones(self.current, other)
        return Stones(other, self.current)


def position_from_stones(stones: Stones, red_to_move: bool | None = None) -> Position:
    """The position with these stones; by default red moves when the counts are equal."""
    mask = stones.red | stones.yellow
    if red_to_move is None:
        red_to_move = stones.red.bit_count() == stones.yellow.bit_count()
    return Position(stones.red if red_to_move else stones.yellow, mask, red_to_move)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plies_to_win(winning_stone: int, winner_has: int, winner_to_move: bool) -> int:
    """Plies (both sides' moves) from now until the winner's `winning_stone`-th stone
    lands, that stone included, when the winner has `winner_has` stones on the board now."""
    return 2 * (winning_stone - winner_has) - winner_to_move


class Connect4(GameBase[Position, int]):
    name = "connect4"
    players = ("Red", "Yellow")

    def __init__(self, width: int = 7, height: int = 6) -> None:
        try:
            self.geo: Geometry = geometry(width, height)
        except ValueError as e:
            raise InputError(str(e)) from None
        self.width, self.height = width, height
        # Utilities are Pons's scores: a win with the k-th stone of a side is worth
        # cells/2 + 1 - k, so the sooner the larger; the first win possible is the 4th stone.
        best = self.geo.cells // 2 - 3
        self.values = Values("outcome", 1.0, -best, best, bounded=True)

    def initial_state(self) -> Position:
        return Position(0, 0, True)

    def winner_colour(self, state: Position) -> str | None:
        """'red' or 'yellow' if that side has four in a row (red checked first)."""
        red, yellow = state.stones
        if self.geo.has_four(red):
            return "red"
        if self.geo.has_four(yellow):
            return "yellow"
        return None

    def is_terminal(self, state: Position) -> bool:
        return state.mask == self.geo.board or self.winner_colour(state) is not None

    def actions(self, state: Position) -> list[int]:
        if self.is_terminal(state):
            return []
        return [c for c in range(self.width) if self.geo.playable(state.mask, c)]

    def result(self, state: Position, action: int) -> Position:
        if not 0 <= action < self.width or not self.geo.playable(state.mask, action):
            raise InputError(f"column {action + 1} is full or not on the board")
        move = self.geo.move_bit(state.mask, action)
        return Position(state.current ^ state.mask, state.mask | move, not state.red_to_move)

    def utility(self, state: Position) -> float:
        colour = self.winner_colour(state)
        if colour is None:
            return 0.0
        stones = state.stones.red if colour == "red" else state.stones.yellow
        value = self.geo.cells // 2 + 1 - stones.bit_count()
        return float(value if colour == "red" else -value)

    def is_maxs_turn(self, state: Position) -> bool:
        return state.red_to_move

    def pass_turn(self, state: Position) -> Position:
        """The same stones, the other side to move (a course's forfeited move: such a
        position need not be balanced, as the course's own states)."""
        return Position(state.current ^ state.mask, state.mask, not state.red_to_move)

    def evaluate(self, state: Position) -> float:
        from zerosum.games.connect4.engine import heuristic

        value = heuristic(self.geo, state.current, state.mask, state.red_to_move) / 1000
        return value if state.red_to_move else -value

    def order(self, state: Position, actions: Sequence[int]) -> list[int]:
        """Centre first: the best cheap guess in Connect Four."""
        rank = {c: i for i, c in enumerate(self.geo.centre_order)}
        return sorted(actions, key=rank.__getitem__)

    def render(self, state: Position) -> str:
        grid = format_grid(state.stones, self.geo)
        if self.is_terminal(state):
            return grid
        side = "Red (X)" if state.red_to_move else "Yellow (O)"
        return f"{grid}\n{side} to move"

    def outcome(self, state: Position) -> str:
        colour = self.winner_colour(state)
        if colour is None:
            return "Draw: the board is full"
        return f"{colour.capitalize()} wins: four in a row"

    def format_move(self, action: int) -> str:
        return str(action + 1)

    def parse_move(self, state: Position, text: str) -> int:
        text = text.strip()
        try:
            column = parse_int(text, lo=1, hi=self.width) - 1
        except InputError:
            raise InputError(f"a move is a column number 1-{self.width}, "
                             f"not {shown(text)}") from None
        if column not in self.actions(state):
            raise InputError(f"column {text} is full")
        return column

    def move_help(self) -> str:
        return f"Type the column to drop a stone in, 1-{self.width} from the left."
