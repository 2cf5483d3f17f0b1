"""A tournament's games in their game's notation (`zerosum results DB --export FILE`):
checkers as PDN, one game after another; Connect Four as move strings and the others as
moves one a line, each game under a comment line naming its agents and result. Every
searching agent's move keeps its value, depth, nodes and time."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from zerosum.game import InputError
from zerosum.records import OPENING, game_record
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import make_game

PDN_RESULTS = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}  # the first player's score


def game_text(job: GameJob, result: GameResult, today: datetime.date) -> tuple[str, str]:
    """One game's record, and its file extension."""
    spec, game = make_game(job)
    by = [OPENING if move.by < 0 else job.agents[move.by] for move in result.moves]
    score = PDN_RESULTS[result.score]  # one of them: GameResult.from_json checks
    try:
        text, extension = game_record(spec.record, game, game.initial_state(), result.moves,
                                      by, None, today,
                                      event=f"zerosum tournament, game {job.number}",
                                      result=score, outcome=result.reason)
    except ValueError as e:  # InputError, or a game's own parse_move's
        raise InputError(f"game {job.number}, {e}") from None
    if extension != "pdn":
        names = getattr(game, "players", ("Max", "Min"))
        text = (f"# game {job.number}: {job.agents[0]} ({names[0]}) - {job.agents[1]} "
                f"({names[1]}): {score}, {result.reason}\n") + text
    return text, extension


def export(jobs: Mapping[int, GameJob], results: Mapping[int, GameResult],
           today: datetime.date) -> str:
    """Every game, in number order, separated by blank lines."""
    return "\n".join(game_text(jobs[n], results[n], today)[0] for n in sorted(results))
