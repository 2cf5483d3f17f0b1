"""Matches for the bench scripts: two players, colour-swapped pairs of games from seeded
openings, tallied by zerosum.ratings.Tally (which turns the results into figures).

    from matchlib import play_pairs, random_openings   # bench/ is on sys.path

A player is any object with a `name` and `choose(game, state, moves)`, where `moves`
is every action played from the initial state to `state` (the opening included): a
player in another process needs the history, one in this process may use the state.
Player A is Max in the first game of each pair and Min in the second; scores are A's.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from zerosum.game import AnyGame
from zerosum.ratings import Tally
from zerosum.tournament import schedule

OUTCOMES = {1.0: "win", 0.5: "draw", 0.0: "loss"}


class Player(Protocol):
    name: str

    def choose(self, game: AnyGame, state: Any, moves: Sequence[Any]) -> Any: ...


def random_openings(game: AnyGame, plies: int, count: int,
                    rng: random.Random) -> list[list[Any]]:
    """`count` openings of `plies` random moves, as actions (those of the tournament's
    zerosum.tournament.schedule.random_openings, drawn from `rng`)."""
    drawn = schedule.random_openings(game, plies, rng)
    openings: list[list[Any]] = []
    for _ in range(count):
        state, actions = game.initial_state(), list[Any]()
        for text in next(drawn):
            actions.append(game.parse_move(state, text))
            state = game.result(state, actions[-1])
        openings.append(actions)
    return openings


@dataclass
class GameRecord:
    """One game of a match: its number (from 1), A's side and score, the moves."""

    number: int
    pair: int
    a_is_max: bool
    score: float
    moves: list[Any]
    outcome: str  # the game's own words (game.outcome)

    @property
    def result(self) -> str:
        return OUTCOMES[self.score]


def play_game(game: AnyGame, a: Player, b: Player, opening: Sequence[Any],
              a_is_max: bool) -> tuple[float, list[Any], str]:
    """A's score, the moves and the game's outcome line, after the opening."""
    state, moves = game.initial_state(), list(opening)
    for action in opening:
        state = game.result(state, action)
    while not game.is_terminal(state):
        player = a if game.is_maxs_turn(state) == a_is_max else b
        action = player.choose(game, state, moves)
        if action not in game.actions(state):
            raise RuntimeError(f"{player.name} played {game.format_move(action)}, no legal move")
        moves.append(action)
        state = game.result(state, action)
    utility = game.utility(state)
    score = 0.5 if utility == 0 else 1.0 if (utility > 0) == a_is_max else 0.0
    return score, moves, game.outcome(state)


def play_pairs(make_game: Callable[[], AnyGame], make_players: Callable[[], tuple[Player, Player]],
               openings: Sequence[Sequence[Any]], report: Callable[[GameRecord], None],
               workers: int = 1) -> Tally:
    """Every opening twice, A first as Max then as Min, on `workers` threads each with
    its own two players (from `make_players`) and a fresh game object per game;
    `report` sees every game as it ends (under a lock, so it may print)."""
    tally = Tally()
    jobs: queue.Queue[tuple[int, bool]] = queue.Queue()
    for pair in range(len(openings)):
        jobs.put((pair, True))
        jobs.put((pair, False))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            a, b = make_players()
            while not errors:
                try:
                    pair, a_is_max = jobs.get_nowait()
                except queue.Empty:
                    return
                score, moves, outcome = play_game(make_game(), a, b, openings[pair], a_is_max)
                record = GameRecord(2 * pair + (1 if a_is_max else 2), pair, a_is_max,
                                    score, moves, outcome)
                with lock:
                    tally.add(pair, score)
                    report(record)
        except BaseException as e:  # handed to the main thread, which raises it
            errors.append(e)

    if workers <= 1:
        work()
    else:
        threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():  # join in slices: Ctrl-C still reaches the main thread
                t.join(0.2)
    if errors:
        raise errors[0]
    return tally
