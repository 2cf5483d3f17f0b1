"""Samuel's checkers: a linear evaluation over named features, learned by TD-Leaf.

Samuel (1959) scored a checkers position as a weighted sum of features a player would
name (pieces, kings, mobility, centre control...) and tuned the weights by making the
evaluation of a position agree with that of a deeper search later in the game. TD-Leaf
(Baxter, Tridgell and Weaver, 1998) is the modern form: at each move of self-play the
learner searches alpha-beta to `depth` with its own evaluation; the leaf of that
search's principal variation is what the search's value really is, so it is that leaf
whose value is moved toward the next search's value (a lambda-return of the leaves
that follow, the game's result at the end):

    w += alpha * (target_t - V(leaf_t)) * dV/dw (leaf_t)

with V = tanh(w . features), from Black's (Max's) side. A feature is Black's count
minus White's, divided by the pieces each side starts with, so a weight reads as "a
side's whole army of this is worth w" and weights of different boards compare.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.checkers.board import count_steps, jumpers
from zerosum.games.checkers.evaluation import masks
from zerosum.games.checkers.rules import Checkers
from zerosum.games.registry import GameSpec
from zerosum.learn.weights import Weights
from zerosum.search.alphabeta import alphabeta_search

METHOD = "samuel"
FEATURES = ("men", "kings", "mobility", "centre", "back_rank", "advancement",
            "attackers", "turn")
# Samuel began with material alone; the rest is for the learning to find.
INITIAL = {"men": 1.0, "kings": 1.5}


@dataclass(frozen=True)
class Settings:
    depth: int = 2  # the search of each self-play move, and of `best`
    alpha: float = 0.05  # the step size
    lam: float = 0.7  # TD lambda
    epsilon: float = 0.05  # the share of random moves after the opening
    opening: int = 2  # plies played at random at the start, so games differ

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_game(spec: GameSpec, game: AnyGame) -> Checkers:
    """`game` as checkers; InputError for any other game."""
    if not isinstance(game, Checkers):
        raise InputError(f"the samuel method learns checkers only, not {spec.name}")
    return game


def features(game: Checkers, state: Any) -> list[float]:
    """The FEATURES of a checkers position, each Black's count minus White's over the
    pieces a side starts with (`turn`: +1 with Black to move, -1 with White)."""
    b, m = game.board, masks(game.size)
    black, white, kings = state.black, state.white, state.kings
    bm, wm, bk, wk = black & ~kings, white & ~kings, black & kings, white & kings
    empty = b.valid & ~(black | white)
    last = b.n - 1
    # Rows advanced by each man: black moves down the rows, white up.
    advance = sum(r * (bm & row).bit_count() - (last - r) * (wm & row).bit_count()
                  for r, row in enumerate(m.rows)) / last
    counts = (
        bm.bit_count() - wm.bit_count(),
        bk.bit_count() - wk.bit_count(),
        count_steps(b, black, kings, empty, True) - count_steps(b, white, kings, empty, False),
        (black & m.centre).bit_count() - (white & m.centre).bit_count(),
        (bm & m.black_back).bit_count() - (wm & m.white_back).bit_count(),
        advance,
        # Pieces that could capture if it were their side's turn.
        jumpers(b, black, white, empty, kings, True).bit_count()
        - jumpers(b, white, black, empty, kings, False).bit_count(),
    )
    scale = m.start_pieces
    return [c / scale for c in counts] + [1.0 if state.black_to_move else -1.0]


class Evaluated:
    """`game` evaluated by the learner's V at the leaves of a search (on the utility's
    scale, a win being 1, kept inside it)."""

    def __init__(self, game: AnyGame, learner: SamuelLearner) -> None:
        self._game, self._learner = game, learner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def evaluate(self, state: Any) -> float:
        return 0.999 * self._learner.afterstate_value(state)


class SamuelLearner:
    """The method as the trainer uses it (zerosum.learn.methods.Learner)."""

    method = METHOD

    def __init__(self, spec: GameSpec, game: AnyGame, settings: Settings,
                 weights: Sequence[float] | None = None) -> None:
        self.spec, self.game = spec, check_game(spec, game)
        self.size = self.game.size
        self.settings = settings
        self.weights = array("d", weights if weights is not None
                             else [INITIAL.get(f, 0.0) for f in FEATURES])
        self._leaves: list[Any] = []  # the PV leaf of each self-play search of a game
        self._searched = Evaluated(game, self)

    @classmethod
    def learns(cls, spec: GameSpec) -> bool:
        return spec.make is Checkers  # its features are checkers' own

    @classmethod
    def new(cls, spec: GameSpec, game: AnyGame, rng: random.Random,
            settings: dict[str, Any]) -> SamuelLearner:
        """A fresh learner (the engine's hand-written weights to start from); `settings`
        by Settings' names. (No random choice: `rng` is the trainer's, for every method.)"""
        unknown = set(settings) - {f.name for f in fields(Settings)}
        if unknown:
            raise InputError(f"samuel has no setting {sorted(unknown)[0]!r}; its settings: "
                             f"{', '.join(f.name for f in fields(Settings))}")
        return cls(spec, game, Settings(**settings))

    def named(self) -> dict[str, float]:
        """The weights by feature name."""
        return dict(zip(FEATURES, self.weights, strict=True))

    def snapshot(self) -> dict[str, Any]:
        """The weights at a checkpoint, for the run's history (their plot)."""
        return {"weights": {f: round(w, 6) for f, w in self.named().items()}}

    # -- play --

    def afterstate_value(self, state: Any) -> float:
        """V of a position from Black's side: exact at the end of the game."""
        game = self.game
        if game.is_terminal(state):
            u = game.utility(state)
            return float((u > 0) - (u < 0))
        return math.tanh(sum(w * f for w, f in zip(self.weights, features(game, state),
                                                   strict=True)))

    def search(self, state: Any) -> tuple[Any, float, Any]:
        """Alpha-beta to the settings' depth with V at the leaves: the move, its value
        for the side to move and the principal variation's leaf."""
        result = alphabeta_search(self._searched, state, self.settings.depth, order=True)
        leaf = state
        for action in result.pv:
            leaf = self.game.result(leaf, action)
        mine = result.value if self.game.is_maxs_turn(state) else -result.value
        return result.action, mine, leaf

    def best(self, state: Any) -> tuple[Any, float]:
        action, value, _ = self.search(state)
        return action, value

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        if state.ply == 0:
            self._leaves = []  # a new game
        action, _, leaf = self.search(state)
        self._leaves.append(leaf)
        s = self.settings
        if state.ply < s.opening or rng.random() < s.epsilon:
            return rng.choice(list(self.game.actions(state))), True
        return action, False

    # -- learning --

    def learn(self, states: Sequence[Any], explored: Sequence[bool]) -> None:
        """TD-Leaf(lambda) from a finished game: the leaf of the search before each
        move moves toward the lambda-return of the leaves after it; a random move
        teaches nothing of the search before it and ends the return there."""
        leaves, self._leaves = self._leaves, []
        if not states:
            return
        last = len(leaves)
        values = [self.afterstate_value(x) for x in leaves]
        values.append(self.afterstate_value(states[-1]))
        s, w = self.settings, self.weights
        g = values[last]
        targets: list[float | None] = [None] * last
        for t in range(last - 1, -1, -1):
            after = values[t + 1] if t + 1 == last or explored[t + 1] \
                else (1 - s.lam) * values[t + 1] + s.lam * g
            targets[t] = None if explored[t] else after
            g = after if not explored[t] else values[t]
        for t in range(last):
            target = targets[t]
            if target is None or self.game.is_terminal(leaves[t]):
                continue
            v = values[t]
            step = s.alpha * (target - v) * (1 - v * v)
            for i, f in enumerate(features(self.game, leaves[t])):
                w[i] += step * f

    # -- the file --

    def save(self, header: dict[str, Any]) -> Weights:
        return Weights({**header, "method": METHOD, "settings": self.settings.as_dict(),
                        "features": list(FEATURES), "board": self.size},
                       {"weights": array("d", self.weights)})

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> SamuelLearner:
        size = check_game(spec, game).size
        try:
            settings = Settings(**weights.header["settings"])
        except (KeyError, TypeError):
            raise InputError(f"weights file {name}: no samuel settings in its header") from None
        if weights.header.get("features") != list(FEATURES):
            raise InputError(f"weights file {name}: its features are not "
                             f"{', '.join(FEATURES)}")
        if weights.header.get("board") != size:
            raise InputError(f"weights file {name} is for a {weights.header.get('board')}"
                             f"x{weights.header.get('board')} board, not {size}x{size}")
        values = weights.arrays.get("weights")
        if values is None or len(values) != len(FEATURES):
            raise InputError(f"weights file {name}: {len(FEATURES)} weights expected")
        return cls(spec, game, settings, values)
