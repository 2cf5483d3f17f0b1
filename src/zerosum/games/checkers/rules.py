"""Checkers as a Game: the rules, draw rules, display and move input.

Black (Max) starts at the top and moves first. Captures are mandatory; under `english`
any capture sequence may be chosen (and must be completed), under `max` (the course
rule) only a sequence taking the most pieces. Crowning ends the move.

Draws: the `course` rule ends the game as a draw when each side has made `moves` moves
(50 by default; 0 turns it off) without a winner; the `tournament` rule draws on the
third occurrence of a position (same pieces, same side to move) or after 40 moves by
each side with no capture and no man move.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

from zerosum.convert import shown
from zerosum.game import OUTCOME_BOUNDED, GameBase, InputError
from zerosum.games.checkers import notation
from zerosum.games.checkers.board import (
    Path,
    apply,
    board,
    generate,
    generate_captures,
    move_from_path,
    zobrist_hash,
)
from zerosum.games.checkers.compiled import perft
from zerosum.games.checkers.evaluation import score, to_utility_scale

CAPTURE_RULES = ("english", "max")
DRAW_RULES = ("course", "tournament")
TOURNAMENT_QUIET_PLIES = 80  # 40 moves by each side
REPETITIONS = 3
# Distinct positions (by `key`) reachable from the start, at least, where counted: the
# generic solver held this many of 6x6's (English captures, the course's 50 moves) when
# its budget ran out, after about a minute. A grade or a solve refuses at once with it.
KNOWN_REACHABLE = {(6, "english", "course", 50): 2_000_000}


class State(NamedTuple):
    black: int
    white: int
    kings: int
    black_to_move: bool
    ply: int = 0  # plies played since the start (the course rule)
    quiet: int = 0  # plies since the last capture or man move (the tournament rule)
    # Hashes of the positions since the last capture or man move, this one included
    # (the tournament rule's repetitions; empty under the course rule).
    history: tuple[int, ...] = ()


class Checkers(GameBase[State, Path]):
    name = "checkers"
    players = ("Black", "White")
    values = OUTCOME_BOUNDED

    def __init__(self, size: int = 8, capture: str = "english", draw: str = "course",
                 moves: int = 50) -> None:
        if capture not in CAPTURE_RULES:
            raise InputError(f"capture rule must be one of {', '.join(CAPTURE_RULES)}, "
                             f"not {shown(capture)}")
        if draw not in DRAW_RULES:
            raise InputError(f"draw rule must be one of {', '.join(DRAW_RULES)}, not {shown(draw)}")
        if moves < 0:
            raise InputError(f"the move limit must be 0 or more, not {moves}")
        try:
            self.board = board(size)
        except ValueError as e:
            raise InputError(str(e)) from None
        self.size = size
        self.capture = capture
        self.max_capture = capture == "max"
        self.draw = draw
        self.moves = moves
        self.ply_limit = 2 * moves if draw == "course" and moves > 0 else 0
        self._cache: tuple[State | None, list[Path]] = (None, [])

    # --- positions -----------------------------------------------------------------

    def initial_state(self) -> State:
        b = self.board
        return self.make_state(b.black_start, b.white_start, 0, True)

    def make_state(self, black: int, white: int, kings: int, black_to_move: bool,
                   ply: int = 0) -> State:
        history: tuple[int, ...] = ()
        if self.draw == "tournament":
            history = (zobrist_hash(self.board, black, white, kings, black_to_move),)
        return State(black, white, kings, black_to_move, ply, 0, history)

    def from_fen(self, text: str) -> State:
        """A state from PDN FEN; men may not stand on the row where they would be crowned."""
        b = self.board
        black, white, kings, btm = notation.parse_fen(b, text)
        if black & ~kings & b.black_crown or white & ~kings & b.white_crown:
            raise InputError(f"a man stands on its crowning row in {shown(text)}; "
                             "make it a king (K)")
        return self.make_state(black, white, kings, btm)

    def perft(self, state: State, depth: int) -> int:
        """Leaf count of the move tree (piece rules only, no draw rules), bulk-counted;
        compiled where it can be (compiled.py)."""
        return perft(self.board, state.black, state.white, state.kings, state.black_to_move,
                     depth, self.max_capture)

    def to_fen(self, state: State) -> str:
        return notation.to_fen(self.board, state.black, state.white, state.kings,
                               state.black_to_move)

    # --- rules ---------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Path]:
        """The legal moves by the piece rules alone (whatever the draw rules say)."""
        cached_state, cached = self._cache
        if cached_state is state:
            return cached
        moves = [m[0] for m in generate(self.board, state.black, state.white, state.kings,
                                        state.black_to_move, self.max_capture)]
        self._cache = (state, moves)
        return moves

    def draw_reason(self, state: State) -> str | None:
        """Why the game is drawn here, or None. A side without moves has lost instead."""
        if self.ply_limit and state.ply >= self.ply_limit:
            return f"{self.moves} moves by each side without a winner"
        if self.draw == "tournament":
            if state.history and state.history.count(state.history[-1]) >= REPETITIONS:
                return "the same position occurred three times"
            if state.quiet >= TOURNAMENT_QUIET_PLIES:
                return "40 moves by each side without a capture or a man move"
        return None

    def actions(self, state: State) -> list[Path]:
        moves = self.legal_moves(state)
        if moves and self.draw_reason(state) is not None:
            return []
        return moves

    def is_terminal(self, state: State) -> bool:
        return not self.actions(state)

    def utility(self, state: State) -> float:
        if not self.legal_moves(state):  # no piece or no move: the side to move loses
            return -1.0 if state.black_to_move else 1.0
        return 0.0

    def is_maxs_turn(self, state: State) -> bool:
        return state.black_to_move

    def result(self, state: State, action: Path) -> State:
        b = self.board
        move = move_from_path(b, state.black, state.white, tuple(action))
        black, white, kings = apply(b, state.black, state.white, state.kings,
                                    state.black_to_move, move)
        irreversible = bool(move[3]) or not state.kings & move[1]
        quiet = 0 if irreversible else state.quiet + 1
        history: tuple[int, ...] = ()
        if self.draw == "tournament":
            h = zobrist_hash(b, black, white, kings, not state.black_to_move)
            history = (h,) if irreversible else (*state.history, h)
        return State(black, white, kings, not state.black_to_move, state.ply + 1, quiet, history)

    def evaluate(self, state: State) -> float:
        return to_utility_scale(score(self.board, state.black, state.white, state.kings))

    def cutoff_test(self, state: State, depth: int, limit: int) -> bool:
        # Capture-aware: never stop while a capture is pending (they are forced).
        return depth >= limit and not self.has_capture(state)

    def has_capture(self, state: State) -> bool:
        return bool(generate_captures(self.board, state.black, state.white, state.kings,
                                      state.black_to_move))

    def positions_known_at_least(self, state: State) -> int:
        """Positions reachable from `state` as counted once by a solver (0: not known);
        zerosum.search.solve refuses a game too big at once with it."""
        if (state.black, state.white, state.kings, state.black_to_move, state.ply) != \
                (self.board.black_start, self.board.white_start, 0, True, 0):
            return 0
        return KNOWN_REACHABLE.get((self.size, self.capture, self.draw, self.moves), 0)

    def key(self, state: State) -> Hashable:
        # Everything the value depends on: the draw counters too, so a table stays sound.
        position = (state.black, state.white, state.kings, state.black_to_move)
        if self.draw == "tournament":
            return (*position, state.quiet, state.history)
        return (*position, state.ply) if self.ply_limit else position

    def order(self, state: State, actions: Sequence[Path]) -> Sequence[Path]:
        """Longest captures first, then crowning moves, then steps toward the far side."""
        b = self.board
        forward = 1 if state.black_to_move else -1

        def priority(path: Path) -> tuple[int, int]:
            crowns = (b.black_crown if state.black_to_move else b.white_crown) >> path[-1] & 1
            king = state.kings >> path[0] & 1
            gain = 0 if king else forward * (path[-1] - path[0])
            return (-len(path) - 2 * (crowns and not king), -gain)

        return sorted(actions, key=priority)

    # --- people ----------------------------------------------------------------------

    def piece_at(self, state: State, sq: int) -> str:
        if not (state.black | state.white) >> sq & 1:
            return ""
        return notation.piece_letter(bool(state.black >> sq & 1), bool(state.kings >> sq & 1))

    def render(self, state: State) -> str:
        b = self.board
        n = b.n
        header = "    " + "".join(f"{c + 1:^4}" for c in range(n)).rstrip()
        rule = "   +" + "---+" * n
        lines = [header, rule]
        for r in range(n):
            cells = []
            for c in range(n):
                cells.append(f" {self.piece_at(state, b.bit(r, c)) or ' '} ")
            lines.append(f" {notation.ROWS[r]} |" + "|".join(cells) + "|")
            lines.append(rule)
        if not self.is_terminal(state):
            lines.append(f"Next to play: {'BLACK' if state.black_to_move else 'WHITE'}")
        return "\n".join(lines)

    def format_move(self, action: Path) -> str:
        return notation.format_move(self.board, action)

    def outcome(self, state: State) -> str:
        reason = self.draw_reason(state)
        if reason is not None and self.legal_moves(state):  # as in utility(): a loss first
            return f"Draw: {reason}"
        mover, other = self.players if state.black_to_move else self.players[::-1]
        pieces = state.black if state.black_to_move else state.white
        why = "has no pieces left" if not pieces else "has no legal move"
        return f"{mover} {why}: {other} wins"

    def describe_move(self, state: State, action: Path) -> str:
        """The move with its piece, as the course prints it: `b:A2-B1`, `W:C2xA4`."""
        return f"{self.piece_at(state, action[0])}:{self.format_move(action)}"

    def format_pdn(self, action: Path) -> str:
        return notation.format_pdn_move(self.board, action)

    def parse_move(self, state: State, text: str) -> Path:
        legal = self.actions(state)
        if not legal:
            raise InputError("the game is over: there is no move to make")
        return notation.match_move(self.board, text, legal)

    def move_help(self) -> str:
        n = self.board.n
        last = notation.ROWS[n - 1]
        if n == 8:
            steps, jumps, numbers = "G4-F3", "B3xD1, G8xE6xC8", "11-15, 22x15"
        else:
            steps, jumps, numbers = "A2-B1", "B3xD1", "1-3"
        return (
            f"Name a move by its squares: row letter A-{last} (from the top) and column "
            f"1-{n} (from the left), joined by '-' for a step ({steps}) or 'x' for a "
            f"capture ({jumps}), or by square numbers 1-{len(self.board.squares)} counted "
            f"row by row from the top left ({numbers}). Upper or lower case. Captures are "
            f"mandatory{'; you must take the most pieces' if self.max_capture else ''}."
        )
