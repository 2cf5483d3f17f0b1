"""A tournament's games in their game's notation (`zerosum results DB --export FILE`):
checkers as PDN, one game after another; Connect Four as move strings and the others as
moves one a line, each game under a comment line naming its agents and result. Every
searching agent's move keeps its value, depth, nodes and time."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from zerosum.game import InputError
from zerosum.programs import FORFEIT, pass_turn
from zerosum.records import OPENING, Ply, game_record
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import make_game

PDN_RESULTS = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}  # the first player's score


def game_text(job: GameJob, result: GameResult, today: datetime.date) -> tuple[str, str]:
    """One game's record, and its file extension."""
    spec, game = make_game(job)
    state = start = game.initial_state()
    plies: list[Ply] = []
    for ply, move in enumerate(result.moves, 1):
        if move.move == FORFEIT:  # a program's forfeited move: the other side is to move
            plies.append(Ply(None, FORFEIT, job.agents[move.by], seconds=move.seconds))
            state = pass_turn(game, state)
            continue
        if game.is_terminal(state):
            raise InputError(f"game {job.number}, move {ply} ({move.move}): the game was "
                             "already over")
        try:
            action = game.parse_move(state, move.move)
        except (InputError, ValueError) as e:
            raise InputError(f"game {job.number}, move {ply} ({move.move}): {e}") from None
        if action not in game.actions(state):
            raise InputError(f"game {job.number}, move {ply} ({move.move}) is not legal")
        by = OPENING if move.by < 0 else job.agents[move.by]
        plies.append(Ply(action, move.move, by, move.value, move.depth, move.nodes,
                         move.seconds, move.unit))
        state = game.result(state, action)
    score = PDN_RESULTS[result.score]  # one of them: GameResult.from_json checks
    # A forfeited move has no place in a move string or PDN: such a game, a move a line.
    name = spec.name if not result.forfeits else "moves"
    text, extension = game_record(name, game, start, plies, state, None, today,
                                  event=f"zerosum tournament, game {job.number}",
                                  result=score, outcome=result.reason)
    if extension != "pdn":
        names = getattr(game, "players", ("Max", "Min"))
        text = (f"# game {job.number}: {job.agents[0]} ({names[0]}) - {job.agents[1]} "
                f"({names[1]}): {score}, {result.reason}\n") + text
    return text, extension


def export(jobs: Mapping[int, GameJob], results: Mapping[int, GameResult],
           today: datetime.date) -> str:
    """Every game, in number order, separated by blank lines."""
    return "\n".join(game_text(jobs[n], results[n], today)[0] for n in sorted(results))
