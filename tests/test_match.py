"""The one game loop under rules: a referee's forfeits (of the game, or of the move, as
COMP3608's tournament rules), the move limit, an adjudicator, and replaying the record."""

from __future__ import annotations

import time
from typing import Any

import pytest

from zerosum.games.takestones import TakeStones
from zerosum.games.tictactoe import TicTacToe
from zerosum.match import OPENING, Move, Rules, play_match, replay
from zerosum.players.agents import RandomAgent


class Scripted:
    """Plays the given cells (0-8) in turn; 'slow' sleeps, 'crash' raises, an int that
    is taken is an illegal move."""

    def __init__(self, name: str, script: list[Any]) -> None:
        self.name, self.script = name, list(script)

    def choose(self, game: Any, state: Any) -> Move:
        step = self.script.pop(0)
        if step == "slow":
            time.sleep(0.3)
            return Move(game.actions(state)[0])
        if step == "crash":
            raise RuntimeError("boom")
        return Move(step)


REFEREE = Rules(refereed=True, move_seconds=(0.1, 0.1))


@pytest.mark.parametrize(("script", "reason"), [
    (["slow"], "X (x) lost on time: no move within 0.1 s"),
    (["crash"], "X (x) crashed: RuntimeError: boom"),
    ([0, 0], "X (x) played an illegal move: 0"),
])
def test_a_fault_loses_the_game(script: list[Any], reason: str) -> None:
    o = Scripted("o", [4, 8])
    record = play_match(TicTacToe(), [Scripted("x", script), o], rules=REFEREE)
    assert (record.score, record.reason, record.fault) == (0.0, reason, 0)
    assert record.utility is None


def test_a_late_move_is_forfeit_and_play_returns_to_the_other_player() -> None:
    """COMP3608's rule: the late side passes its turn (the game's pass_turn)."""
    rules = Rules(refereed=True, move_seconds=(0.1, 0.1), late="move")
    x = Scripted("x", [0, "slow", 1, 2])
    o = Scripted("o", [3, 4, 6])
    record = play_match(TicTacToe(), [x, o], rules=rules)
    # X 0, O 3, X late (its turn passes), O 4, X 1, O 6, X 2: three in a row.
    assert [(m.side, m.action, m.forfeit) for m in record.moves] == [
        (0, 0, ""), (1, 3, ""), (0, None, "no move within 0.1 s"), (1, 4, ""), (0, 1, ""),
        (1, 6, ""), (0, 2, "")]
    assert (record.score, record.reason) == (1.0, "X wins: three in a row")
    assert record.utility == 1 and record.fault is None
    assert replay(TicTacToe(), TicTacToe().initial_state(), record.moves) == record.final_state


def test_a_game_that_cannot_pass_forfeits_the_game_instead() -> None:
    rules = Rules(refereed=True, move_seconds=(0.1, 0.1), late="move")
    game = TakeStones(7)
    record = play_match(game, [Scripted("a", ["slow"]), RandomAgent(1)], rules=rules)
    assert (record.score, record.fault) == (0.0, 0)
    assert record.reason.endswith("lost on time: no move within 0.1 s")


def test_the_move_limit_and_the_adjudicator() -> None:
    game = TicTacToe()
    opening = [Move(4, side=OPENING), Move(0, side=OPENING)]
    state = replay(game, game.initial_state(), opening)
    record = play_match(game, [RandomAgent(1), RandomAgent(2)], state,
                        Rules(refereed=True, max_plies=4), played=opening)
    assert len(record.moves) == 4 and record.moves[:2] == opening
    assert (record.score, record.reason) == (0.5, "draw by the move limit (4 plies)")
    calls: list[Any] = []

    def adjudicator(game: Any, state: Any) -> float | None:
        calls.append(state)
        return -1.0 if len(calls) == 3 else None

    record = play_match(game, [RandomAgent(1), RandomAgent(2)],
                        rules=Rules(refereed=True, adjudicator=adjudicator))
    assert (record.score, record.reason, len(record.moves)) == (0.0, "adjudicated: O wins", 2)


def test_unrefereed_errors_reach_the_caller() -> None:
    with pytest.raises(RuntimeError, match="boom"):
        play_match(TicTacToe(), [Scripted("x", ["crash"]), Scripted("o", [])])


def test_a_lost_move_is_stored_and_old_records_still_read() -> None:
    from zerosum.match import MoveRecord
    from zerosum.tournament.jobs import GameResult

    lost = MoveRecord.of(TicTacToe(), Move(None, None, 0.31234, 1, "no move within 0.1 s"))
    assert lost == MoveRecord("", 0.3123, by=1, forfeit="no move within 0.1 s")
    played = MoveRecord("5", 0.0, by=0)
    text = GameResult(1, 1.0, "X wins", (played, lost)).to_json()
    assert '"forfeit": "no move within 0.1 s"' in text and text.count("forfeit") == 1
    assert GameResult.from_json(text).moves == (played, lost)
    old = ('{"fault": null, "moves": [{"by": 0, "depth": null, "move": "5", "nodes": null, '
           '"seconds": 0.0, "unit": "nodes", "value": null}], "number": 1, "reason": "X wins", '
           '"score": 1.0, "seconds": 0.5}')
    assert GameResult.from_json(old).moves == (played,)


def test_the_printer_shows_a_lost_move_and_a_forfeit() -> None:
    import io

    from zerosum.players.text import MatchPrinter

    out = io.StringIO()
    rules = Rules(refereed=True, move_seconds=(0.1, 0.1), late="move")
    play_match(TicTacToe(), [Scripted("x", ["slow", 0]), Scripted("o", [4, "crash"])], rules=rules,
               observer=MatchPrinter(out, show_board=False))
    assert out.getvalue().splitlines()[:4] == [
        "X (x) loses the move: no move within 0.1 s",
        "O (o) plays 5: time 0.000 s",
        "X (x) plays 1: time 0.000 s",
        "Game over: O (o) crashed: RuntimeError: boom.",
    ]
