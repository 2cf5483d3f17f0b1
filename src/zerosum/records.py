"""A game's record in the game's own notation: the browser's "Download record" and
`zerosum results DB --export`.

A game's registration names its record's style (GameSpec.record), so this module names
no game: "pdn" (tags, then numbered moves in the game's `format_pdn`, with the
computer's figures as comments: checkers), "move-string" (the moves run together, as
`zerosum solve connect4` reads them, then one line per computer move: Connect Four) or
"plain" (the moves as typed, one a line, with the same figures: any other game).

The moves come in their stored form (match.MoveRecord, made from the one live
record of a played move, zerosum.match.Move, by `MoveRecord.of`) with who played each:
the page's session and a tournament's results give the same thing.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from zerosum.game import AnyGame, InputError, play_line
from zerosum.match import MoveRecord, pass_turn
from zerosum.result import depth_text

HUMAN = "human"
OPENING = "opening"  # a move of a tournament's opening: nobody's


def figures(move: MoveRecord, by: str) -> str:
    """The search figures of a computer move played by `by`; "" for a move without a
    search (a person's, an opening's, a random player's)."""
    if by == HUMAN or move.value is None:
        return ""
    return f"{by}: value {move.value}, {effort(move)}"


def effort(move: MoveRecord) -> str:
    """"depth 6, 1,234 nodes, 0.05 s" (MCTS: "tree depth 9, 12,245 simulations, ...")."""
    return (f"{depth_text(move.depth, move.unit)}, {move.nodes or 0:,} {move.unit}, "
            f"{move.seconds or 0.0:.2f} s")


@dataclass(frozen=True)
class Played:
    """The moves of a record as written: each move's action (replayed from the start),
    its stored form and who played it; a move its side lost (a forfeit) is not written."""

    actions: list[Any]
    moves: list[MoveRecord]
    by: list[str]
    end: Any


def played(game: AnyGame, start: Any, moves: Sequence[MoveRecord],
           by: Sequence[str]) -> Played:
    """Replay `moves` (as stored: their notation; a lost turn passes) from `start`, `by`
    naming who played each; InputError names the first that is not legal."""
    state, kept = start, Played([], [], [], start)
    for ply, (move, name) in enumerate(zip(moves, by, strict=True), 1):
        if move.forfeit:  # the side lost its turn (a referee's ruling): no move to write
            state = pass_turn(game, state)
            if state is None:  # a referee never stores one: a record edited by hand
                raise InputError(f"move {ply}: a lost turn, but this game has no passing")
            continue
        state, (action,) = play_line(game, state, [move.move], first=ply)
        kept.actions.append(action)
        kept.moves.append(move)
        kept.by.append(name)
    return replace(kept, end=state)


def side_players(first_max: bool, by: Sequence[str]) -> tuple[str, str]:
    """Who played each side (Max's first): the names seen on its moves, or "?"."""
    seen: tuple[list[str], list[str]] = ([], [])
    for i, name in enumerate(by):
        side = seen[0] if (i % 2 == 0) == first_max else seen[1]
        if name not in side and name != OPENING:
            side.append(name)
    return (", ".join(seen[0]) or "?", ", ".join(seen[1]) or "?")


def pdn_result(game: AnyGame, state: Any) -> str:
    if not game.is_terminal(state):
        return "*"
    u = game.utility(state)
    return "1-0" if u > 0 else "0-1" if u < 0 else "1/2-1/2"


def pdn_record(game: Any, start: Any, moves: Played, fen: str | None,
               today: datetime.date, event: str = "zerosum game",
               result: str | None = None) -> str:
    """PDN of a game (checkers); `fen` when it began from a set-up position; `result` as
    PDN writes it when the game ended otherwise than by its rules (adjudicated)."""
    black, white = side_players(game.is_maxs_turn(start), moves.by)
    result = result or pdn_result(game, moves.end)
    tags = [("Event", event), ("Date", today.strftime("%Y.%m.%d")),
            ("Black", black), ("White", white), ("Result", result)]
    if fen is not None:
        tags += [("SetUp", "1"), ("FEN", fen)]
    lines = [f'[{name} "{value}"]' for name, value in tags]
    words: list[str] = []
    black_first = game.is_maxs_turn(start)
    for i, (action, move, by) in enumerate(zip(moves.actions, moves.moves, moves.by, strict=True)):
        black_moves = (i % 2 == 0) == black_first
        number = (i + (0 if black_first else 1)) // 2 + 1
        if black_moves:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(game.format_pdn(action))
        if figures(move, by):
            words.append(f"{{{move.value}, {effort(move)}}}")
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


def figure_lines(moves: Played) -> list[str]:
    return [f"{i + 1}. {move.move}  {figures(move, by)}"
            for i, (move, by) in enumerate(zip(moves.moves, moves.by, strict=True))
            if figures(move, by)]


def move_string_record(moves: Played, outcome: str | None, position: str | None) -> str:
    lines = [] if position is None else [f"from: {position}"]
    lines.append("".join(move.move for move in moves.moves))
    lines += figure_lines(moves)
    lines.append(outcome or "unfinished")
    return "\n".join(lines) + "\n"


def plain_record(moves: Played, outcome: str | None, position: str | None) -> str:
    lines = [] if position is None else [f"from: {position}"]
    for i, (move, by) in enumerate(zip(moves.moves, moves.by, strict=True)):
        shown = figures(move, by)
        lines.append(f"{i + 1}. {move.move}" + (f"  {shown}" if shown else ""))
    lines.append(outcome or "unfinished")
    return "\n".join(lines) + "\n"


def game_record(style: str, game: AnyGame, start: Any, moves: Sequence[MoveRecord],
                by: Sequence[str], position: str | None, today: datetime.date,
                fen: str | None = None, event: str = "zerosum game",
                result: str | None = None, outcome: str | None = None) -> tuple[str, str]:
    """The record of `game` in `style` (its GameSpec.record) of `moves` (as stored,
    `by` naming who played each) from `start`, in its notation, and the file extension
    for it: PDN (`fen` and `position` when it began from a set-up position), Connect
    Four's move string, or the moves one a line. `outcome` in words defaults to the
    game's own at a finished game; `result` (1-0, 0-1, 1/2-1/2) to the end position's.
    InputError names a move that is not legal (see `played`)."""
    kept = played(game, start, moves, by)
    if outcome is None and game.is_terminal(kept.end):
        outcome = game.outcome(kept.end)
    if style == "pdn":
        return pdn_record(game, start, kept, fen, today, event, result), "pdn"
    if style == "move-string":
        return move_string_record(kept, outcome, position), "txt"
    return plain_record(kept, outcome, position), "txt"
