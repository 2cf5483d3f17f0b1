"""A match as text: a search's value and figures in words, and `MatchPrinter`, the
plain text of a match (`zerosum play`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from zerosum.game import AnyGame, format_value
from zerosum.match import Agent, MatchObserver, MatchRecord, Move, player_names
from zerosum.result import SearchResult, depth_text


def value_text(game: AnyGame, result: SearchResult, side: int) -> str:
    """A search's value as a person reads it (zerosum.game.format_value), from the
    point of view of `side`, the player whose move it searched."""
    return format_value(game, result.value, decided=result.decided, plies=result.plies,
                        side=side)


def describe(game: AnyGame, move: Move, state: Any = None) -> str:
    """One line of search figures for an engine move chosen in `state`."""
    r = move.result
    if r is None:
        return f"time {move.seconds:.3f} s"
    stopped = "" if r.complete else " (stopped early)"
    return (
        f"value {value_text(game, r, move.side)}, {depth_text(r.depth, r.unit)}{stopped}, "
        f"{r.unit} {r.stats.nodes:,}, time {move.seconds:.3f} s"
    )


class MatchPrinter(MatchObserver):
    """The plain text of a match (`zerosum play`): the board before every move (unless
    `show_board` is false), one line per move with its search figures, the result
    and each side's thinking time."""

    def __init__(self, out: TextIO, show_board: bool = True) -> None:
        self.out, self.show_board = out, show_board
        self.names: list[str] = []

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def start(self, game: AnyGame, state: Any, agents: Sequence[Agent]) -> None:
        self.names = [agent.name for agent in agents]

    def before_move(self, game: AnyGame, state: Any, side: int) -> None:
        if self.show_board:
            self.say(game.render(state))

    def after_move(self, game: AnyGame, state: Any, side: int, move: Move) -> None:
        if move.forfeit:
            self.say(f"{player_names(game)[side]} ({self.names[side]}) loses the move: "
                     f"{move.forfeit}")
            return
        self.say(f"{player_names(game)[side]} ({self.names[side]}) plays "
                 f"{game.format_move(move.action)}: {describe(game, move, state)}")

    def end(self, game: AnyGame, record: MatchRecord) -> None:
        players = player_names(game)
        if record.abandoned:
            self.say("Input ended: the game is abandoned.")
        elif record.utility is not None:
            if self.show_board:
                self.say(game.render(record.final_state))
            self.say(f"Game over. {game.outcome(record.final_state)}.")
        elif record.score is not None:  # decided by the rules: a forfeit, a draw, ...
            self.say(f"Game over: {record.reason}.")
        else:
            self.say(f"Stopped after {len(record.moves)} moves: the game is unfinished.")
        self.say(f"Thinking time: {players[0]} {record.seconds[0]:.2f} s, "
                 f"{players[1]} {record.seconds[1]:.2f} s")


