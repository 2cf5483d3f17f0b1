"""The conformance check: every registered game keeps the protocol's rules (with its
default options and some others), and a game that breaks a rule is told which."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

from zerosum import conformance as rules
from zerosum.conformance import check_game, check_spec
from zerosum.game import GameBase, InputError
from zerosum.games.registry import all_games, get_game
from zerosum.games.tree import TreeGame

OTHER_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("checkers", {"size": 4, "capture": "english"}),
    ("checkers", {"size": 4, "capture": "max"}),
    ("checkers", {"size": 6, "capture": "english"}),
    ("checkers", {"size": 6, "capture": "max", "draw": "tournament"}),
    ("connect4", {"width": 5, "height": 4}),
    ("nqueens", {"size": 5, "variation": "1b"}),
    ("nqueens", {"size": 6, "variation": "2"}),
    ("nqueens", {"size": 7, "variation": "2b"}),
    ("takestones", {"stones": 15}),
    ("takestones", {"stones": 25, "scale": "summary"}),
]
CASES: list[tuple[str, dict[str, Any]]] = [(spec.name, {}) for spec in all_games()] + OTHER_OPTIONS


@pytest.mark.parametrize(("name", "options"), CASES,
                         ids=[f"{n}-{'-'.join(map(str, o.values())) or 'default'}"
                              for n, o in CASES])
def test_registered_game_keeps_the_rules(name: str, options: dict[str, Any]) -> None:
    assert check_spec(get_game(name), **options) == []


def test_explicit_trees_keep_the_rules() -> None:
    # Not a registered game (`zerosum tree` reads one from a file), but a Game all the same.
    text = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "fig52.txt").read_text()
    for max_first in (True, False):
        assert check_game(TreeGame.from_text(text, max_first)) == []


def test_every_game_is_checked() -> None:
    names = {spec.name for spec in all_games()}
    assert names == {"checkers", "connect4", "maxconnect4", "nqueens", "takestones",
                     "tictactoe"}
    assert {name for name, _ in OTHER_OPTIONS} < names


def test_bounded_evaluation_is_declared_where_it_holds() -> None:
    # nqueens' estimate is the exact value once the game's length is known, and
    # maxconnect4's estimates the final score: both on the utility's own scale.
    declared = {spec.name for spec in all_games() if spec.create().values.bounded}
    assert declared == {"checkers", "connect4", "takestones", "tictactoe"}
    kinds = {spec.name: spec.create().values.kind for spec in all_games()}
    assert {name for name, kind in kinds.items() if kind == "score"} == {"maxconnect4"}
    held_to_it = check_game(get_game("nqueens").create(), bounded_evaluation=True)
    assert [p.split(":")[0] for p in held_to_it] == [rules.BOUNDED]


# -- a toy game, sound, and broken one rule at a time ---------------------------------------

State = tuple[int, bool]  # (counters left, Max to move); take 1 or 2, taking the last wins


class Toy(GameBase[Any, int]):
    def initial_state(self) -> Any:
        return (7, True)

    def actions(self, state: Any) -> list[int]:
        return [t for t in (1, 2) if t <= state[0]]

    def result(self, state: Any, action: int) -> Any:
        return (state[0] - action, not state[1])

    def is_terminal(self, state: Any) -> bool:
        return not state[0]

    def utility(self, state: Any) -> float:
        return -1.0 if state[1] else 1.0

    def is_maxs_turn(self, state: Any) -> bool:
        return state[1] is True

    def evaluate(self, state: Any) -> float:
        return 0.5 if state[0] % 3 else -0.5


class Box:
    """A hashable state whose fields can be changed (the mistake MutatingResult makes)."""

    def __init__(self, left: int, max_to_move: bool) -> None:
        self.left, self.max_to_move = left, max_to_move

    def __getitem__(self, i: int) -> Any:
        return (self.left, self.max_to_move)[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and (self.left, self.max_to_move) == (
            other.left, other.max_to_move)

    def __hash__(self) -> int:
        return hash((self.left, self.max_to_move))

    def __repr__(self) -> str:
        return f"Box({self.left}, {self.max_to_move})"


class MutatingResult(Toy):
    def initial_state(self) -> Any:
        return Box(7, True)

    def result(self, state: Any, action: int) -> Any:
        state.left -= action
        state.max_to_move = not state.max_to_move
        return Box(state.left, state.max_to_move)


class MisreadMove(Toy):
    def parse_move(self, state: Any, text: str) -> int:
        return int(text) % 2 + 1  # reads 1 as 2 and 2 as 1


class UnreadableMove(Toy):
    def format_move(self, action: int) -> str:
        return f"take {action}"

    def parse_move(self, state: Any, text: str) -> int:
        raise InputError(f"not a number: {text!r}")


class EstimateOutOfRange(Toy):
    def evaluate(self, state: Any) -> float:
        return 1.0  # the value of a win: the search would take the guess for a proof


class ListState(Toy):
    def initial_state(self) -> Any:
        return [7, True]


class ShuffledActions(Toy):
    rng = random.Random(1)

    def actions(self, state: Any) -> list[int]:
        return self.rng.sample(super().actions(state), k=len(super().actions(state)))


class EndsEarly(Toy):
    def is_terminal(self, state: Any) -> bool:
        return state[0] in (0, 1)


class NanUtility(Toy):
    def utility(self, state: Any) -> float:
        return math.nan


class InfiniteEstimate(Toy):
    def evaluate(self, state: Any) -> float:
        return math.inf


class IntTurn(Toy):
    def is_maxs_turn(self, state: Any) -> bool:
        return 1 if state[1] else 0  # type: ignore[return-value]


class ListKey(Toy):
    def key(self, state: Any) -> Hashable:
        return list(state)  # type: ignore[return-value]


class Endless(Toy):
    def result(self, state: Any, action: int) -> Any:
        return (state[0], not state[1])  # nothing is ever taken


class HalfPoint(Toy):
    """An outcome game whose utilities are not whole numbers: it should say it keeps score."""

    def utility(self, state: Any) -> float:
        return 0.5 if not state[1] else -0.5


class RaisingUtility(Toy):
    def utility(self, state: Any) -> float:
        raise KeyError("no score")


def test_the_toy_keeps_every_rule() -> None:
    assert check_game(Toy(), bounded_evaluation=True) == []


@pytest.mark.parametrize(("game", "rule", "shown"), [
    (MutatingResult(), rules.PURE_RESULT, "move 1 changed state Box(7, True) into Box(6, False)"),
    (MisreadMove(), rules.ROUND_TRIP, "move 1 is written '1', which reads back as 2"),
    (UnreadableMove(), rules.ROUND_TRIP, "reads back as an error (not a number: 'take 1')"),
    (EstimateOutOfRange(), rules.BOUNDED,
     "it returned 1.0 for state (7, True), not inside (-1, 1)"),
    (ListState(), rules.HASHABLE, "state [7, True] is not hashable"),
    (ShuffledActions(), rules.SAME_ACTIONS, "[1, 2], then [2, 1] for state (7, True)"),
    (EndsEarly(), rules.TERMINAL, "is_terminal() is True with 1 legal moves"),
    (NanUtility(), rules.UTILITY, "it returned nan for state"),
    (InfiniteEstimate(), rules.EVALUATE, "it returned inf for state (7, True)"),
    (IntTurn(), rules.TURN, "it returned 1 for state (7, True)"),
    (ListKey(), rules.KEY, "key [7, True] of state (7, True) is not hashable"),
    (Endless(), rules.ENDS, "50 random moves did not end it"),
    (RaisingUtility(), rules.NO_ERROR, "KeyError: 'no score'"),
    (HalfPoint(), rules.VALUES, "; the game declares Values(kind='outcome'"),
], ids=lambda x: type(x).__name__ if isinstance(x, Toy) else "")
def test_a_broken_rule_is_named(game: Toy, rule: str, shown: str) -> None:
    problems = check_game(game, playthroughs=5, max_moves=50, bounded_evaluation=True)
    assert [p for p in problems if p.startswith(f"{rule}: ")], problems
    message = next(p for p in problems if p.startswith(f"{rule}: "))
    assert shown in message
    assert "(playthrough " in message


def test_one_problem_per_rule_with_where_it_broke() -> None:
    problems = check_game(MisreadMove(), playthroughs=20)
    assert problems == [f"{rules.ROUND_TRIP}: move 1 is written '1', which reads back as 2 "
                        "at state (7, True) (playthrough 1, at the start)"]
