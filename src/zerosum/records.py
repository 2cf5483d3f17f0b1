"""A game's record in the game's own notation: the browser's "Download record" and
`zerosum results DB --export`.

A game's registration names its record's style (GameSpec.record), so this module names
no game: "pdn" (tags, then numbered moves in the game's `format_pdn`, with the
computer's figures as comments: checkers), "move-string" (the moves run together, as
`zerosum solve connect4` reads them, then one line per computer move: Connect Four) or
"plain" (the moves as typed, one a line, with the same figures: any other game).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from zerosum.game import AnyGame
from zerosum.result import depth_text

HUMAN = "human"
OPENING = "opening"  # a move of a tournament's opening: nobody's


@dataclass(frozen=True)
class Ply:
    """One move played: who made it and, for a computer move, what its search found."""

    action: Any
    text: str
    by: str  # HUMAN, or the computer player's name (alphabeta, mcts, ...)
    value: str | None = None
    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    unit: str = "nodes"  # what `nodes` counts (MCTS: simulations)

    def figures(self) -> str:
        """The search figures of a computer move; "" for a move without a search (a
        person's, an opening's, a random player's)."""
        if self.by == HUMAN or self.value is None:
            return ""
        return f"{self.by}: value {self.value}, {self.effort()}"

    def effort(self) -> str:
        """"depth 6, 1,234 nodes, 0.05 s" (MCTS: "tree depth 9, 12,245 simulations, ...")."""
        return (f"{depth_text(self.depth, self.unit)}, {self.nodes or 0:,} {self.unit}, "
                f"{self.seconds or 0.0:.2f} s")


def side_players(game: AnyGame, first_max: bool, plies: list[Ply]) -> tuple[str, str]:
    """Who played each side (Max's first): the names seen on its moves, or "?"."""
    seen: tuple[list[str], list[str]] = ([], [])
    for i, ply in enumerate(plies):
        side = seen[0] if (i % 2 == 0) == first_max else seen[1]
        if ply.by not in side and ply.by != OPENING:
            side.append(ply.by)
    return (", ".join(seen[0]) or "?", ", ".join(seen[1]) or "?")


def pdn_result(game: AnyGame, state: Any) -> str:
    if not game.is_terminal(state):
        return "*"
    u = game.utility(state)
    return "1-0" if u > 0 else "0-1" if u < 0 else "1/2-1/2"


def pdn_record(game: Any, start: Any, plies: list[Ply], end: Any, fen: str | None,
                 today: datetime.date, event: str = "zerosum game",
                 result: str | None = None) -> str:
    """PDN of a game (checkers); `fen` when it began from a set-up position; `result` as
    PDN writes it when the game ended otherwise than by its rules (adjudicated)."""
    black, white = side_players(game, game.is_maxs_turn(start), plies)
    result = result or pdn_result(game, end)
    tags = [("Event", event), ("Date", today.strftime("%Y.%m.%d")),
            ("Black", black), ("White", white), ("Result", result)]
    if fen is not None:
        tags += [("SetUp", "1"), ("FEN", fen)]
    lines = [f'[{name} "{value}"]' for name, value in tags]
    words: list[str] = []
    black_first = game.is_maxs_turn(start)
    for i, ply in enumerate(plies):
        black_moves = (i % 2 == 0) == black_first
        number = (i + (0 if black_first else 1)) // 2 + 1
        if black_moves:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(game.format_pdn(ply.action))
        if ply.figures():
            words.append(f"{{{ply.value}, {ply.effort()}}}")
    words.append(result)
    return "\n".join(lines) + "\n\n" + wrap(words) + "\n"


def wrap(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def figure_lines(plies: list[Ply]) -> list[str]:
    return [f"{i + 1}. {ply.text}  {ply.figures()}" for i, ply in enumerate(plies)
            if ply.figures()]


def move_string_record(plies: list[Ply], outcome: str | None, position: str | None) -> str:
    lines = [] if position is None else [f"from: {position}"]
    lines.append("".join(ply.text for ply in plies))
    lines += figure_lines(plies)
    lines.append(outcome or "unfinished")
    return "\n".join(lines) + "\n"


def plain_record(plies: list[Ply], outcome: str | None, position: str | None) -> str:
    lines = [] if position is None else [f"from: {position}"]
    for i, ply in enumerate(plies):
        figures = ply.figures()
        lines.append(f"{i + 1}. {ply.text}" + (f"  {figures}" if figures else ""))
    lines.append(outcome or "unfinished")
    return "\n".join(lines) + "\n"


def game_record(style: str, game: AnyGame, start: Any, plies: list[Ply], end: Any,
                position: str | None, today: datetime.date, fen: str | None = None,
                event: str = "zerosum game", result: str | None = None,
                outcome: str | None = None) -> tuple[str, str]:
    """The record of `game` in `style` (its GameSpec.record) from `start` to `end` in
    its notation, and the file extension for it: PDN (`fen` and `position` when it
    began from a set-up position), Connect Four's move string, or the moves one a line.
    `outcome` in words defaults to the game's own at a finished game; `result` (1-0,
    0-1, 1/2-1/2) to the end position's."""
    if outcome is None and game.is_terminal(end):
        outcome = game.outcome(end)
    if style == "pdn":
        return pdn_record(game, start, plies, end, fen, today, event, result), "pdn"
    if style == "move-string":
        return move_string_record(plies, outcome, position), "txt"
    return plain_record(plies, outcome, position), "txt"
