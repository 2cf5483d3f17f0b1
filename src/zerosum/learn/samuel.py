"""Samuel's checkers: the engine's linear evaluation, its weights learned by TD-Leaf.

Samuel (1959) scored a checkers position as a weighted sum of features a player would
name and tuned the weights by making the evaluation of a position agree with that of a
deeper search later in the game. Here the features are the checkers engine's own: the
nine terms its hand-written evaluation weighs (games/checkers/evaluation.py, TERMS:
men, kings, advancement, back row, centre, kings in the centre, mobility, trading down
when ahead, chasing with kings when ahead), so the learner starts from the engine's
WEIGHTS and what it learns is played by the engine itself, with the same search, node
for node, but for the leaves' values (`engine_game`).

TD-Leaf (Baxter, Tridgell and Weaver, 1998): at each move of self-play the engine
searches to `depth` with the learner's weights; the search's value is the static value
of its principal variation's leaf (quiescence included: the leaf is quiet), so it is
that leaf whose value moves toward the next search's value (a lambda-return of the
leaves that follow, the game's result at the end):

    w_i += alpha * sum_t (target_t - V_t) g_ti / (sum_t g_ti^2 + PRIOR / SCALE^2)

over a game's leaves, with V = tanh(score / SCALE) from Black's (Max's) side, score the
engine's points under w (a man about 100) and g_ti = dV_t/dw_i: a diagonal Gauss-Newton
step, a fraction alpha of the way to the weight the game's leaves would fit, so a term
counted in tens (advancement) moves no faster than one counted in ones (men).

With `pull` above 0 the fit is a ridge regression toward the hand-written weights:
each game's leaves are fitted together with a prior worth `pull` leaves (where a term
is 1) that the weights are the engine's WEIGHTS,

    w_i += alpha * (SCALE sum_t (target_t - V_t) h_ti - pull (w_i - WEIGHTS_i))
                 / (sum_t h_ti^2 + PRIOR + pull),    h_ti = SCALE g_ti,

so a direction the games do not tell apart (on 4x4, where a man crowns in three moves,
men, advancement and the back row say nearly the same thing) stays at the hand-written
weights instead of drifting along it.

With `average` above 0 the weights played (saved, graded, played by `learned:`) are
not the last game's but an average of the iterates (Polyak and Juditsky, 1992): their
mean while fewer than `average` games are played, then each game moves the average
1/average of the way to the new iterate. Self-play and learning use the iterates.

The engine is given integer weights: the learned ones scaled so a man is MAN points
(the hand-written 100) and rounded. Scaling all weights by one positive factor changes
no move of the search (every value scales with it, a draw is 0, a win beyond any
score), so this loses only the rounding, under half a point a weight.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.checkers.evaluation import MAN, TERMS, WEIGHTS, terms
from zerosum.games.checkers.rules import Checkers
from zerosum.games.registry import GameSpec
from zerosum.kernel import ALL, Weighted, derive
from zerosum.learn.weights import Weights
from zerosum.result import Limit, SearchResult
from zerosum.search.driver import analyse_with

METHOD = "samuel"
FEATURES = TERMS  # the engine's evaluation terms, in WEIGHTS' order
SCALE = 250.0  # points at which V is tanh(1), about 0.76: two and a half men ahead
PRIOR = 10.0  # the damping of a weight's step, in leaves where its term is 1
SEARCHED = replace(ALL, solution=False)  # the engine searching, on 4x4 as elsewhere
QUIET_LOOKS = 40  # at most this many captures followed past the principal variation


@dataclass(frozen=True)
class Settings:
    depth: int = 4  # the engine's search of each self-play move
    alpha: float = 0.02  # the step: this share of the way to the fit of a game
    lam: float = 0.7  # TD lambda
    epsilon: float = 0.05  # the share of random moves after the opening
    opening: int = 4  # plies played at random at the start, so games differ
    pull: float = 0.0  # the prior toward the hand-written weights, in leaves' worth
    average: int = 0  # the iterates averaged over about this many games (0: the last)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_game(spec: GameSpec, game: AnyGame) -> Checkers:
    """`game` as checkers; InputError for any other game."""
    if not isinstance(game, Checkers):
        raise InputError(f"the samuel method learns checkers only, not {spec.name}")
    return game


def features(game: Checkers, state: Any, weights: Sequence[float] = WEIGHTS) -> list[int]:
    """The FEATURES of a position, from Black's side: the engine's evaluation terms
    (whether a side is ahead, for trading and chasing, judged under `weights`)."""
    return list(terms(game.board, state.black, state.white, state.kings, weights))


def engine_weights(weights: Sequence[float]) -> tuple[int, ...]:
    """The integer weights the engine is given: scaled so a man is MAN points, rounded
    (as they are if a man's weight is not positive: no scale keeps their order then)."""
    scale = MAN / weights[0] if weights[0] > 0 else 1.0
    return tuple(round(w * scale) for w in weights)


class SamuelLearner:
    """The method as the trainer uses it (zerosum.learn.methods.Learner)."""

    method = METHOD

    def __init__(self, spec: GameSpec, game: AnyGame, settings: Settings,
                 weights: Sequence[float] | None = None,
                 iterate: Sequence[float] | None = None) -> None:
        self.spec, self.game = spec, check_game(spec, game)
        self.size = self.game.size
        self.settings = settings
        start = array("d", weights if weights is not None else WEIGHTS)
        # The weights self-play learns (the iterates) and, averaging, those played.
        self.weights = array("d", iterate) if iterate is not None else start
        self.average = array("d", start) if settings.average > 0 else None
        self.games = 0  # games of the run played (the trainer says, `at_game`)
        self._leaves: list[Any] = []  # the PV leaf of each self-play search of a game
        self._searched: Any = None  # the game with the weights the engine last had

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
        pull = settings.get("pull", 0.0)
        if not (isinstance(pull, int | float) and 0 <= pull < math.inf):
            raise InputError(f"samuel's pull must be a number from 0 up, not {pull!r}")
        average = settings.get("average", 0)
        if not (isinstance(average, int) and average >= 0):
            raise InputError("samuel's average must be a whole number of games from 0 "
                             f"up, not {average!r}")
        return cls(spec, game, Settings(**settings))

    @property
    def played(self) -> array[float]:
        """The weights played: the average where the run averages, else the iterate."""
        return self.average if self.average is not None else self.weights

    def at_game(self, games: int) -> None:
        self.games = games

    def named(self) -> dict[str, float]:
        """The weights played, by feature name."""
        return dict(zip(FEATURES, self.played, strict=True))

    def snapshot(self) -> dict[str, Any]:
        """The weights at a checkpoint, for the run's history (their plot)."""
        return {"weights": {f: round(w, 6) for f, w in self.named().items()}}

    # -- play --

    def engine_game(self, game: AnyGame) -> Any:
        """`game` as the engine plays it with these weights (a new object when they
        change: the engine's table, kept per game object, holds values of old ones)."""
        return Weighted(game, engine_weights(self.played))

    def afterstate_value(self, state: Any) -> float:
        """V of a position from Black's side: exact at the end of the game."""
        game = self.game
        if game.is_terminal(state):
            u = game.utility(state)
            return float((u > 0) - (u < 0))
        return math.tanh(self.points(state) / SCALE)

    def points(self, state: Any) -> float:
        """The evaluation under the learned weights, from Black's side."""
        return sum(w * f for w, f in zip(self.weights, features(self.game, state,
                                                                  self.weights),
                                         strict=True))

    def search(self, state: Any, weights: Sequence[float] | None = None
               ) -> tuple[Any, float, Any]:
        """The engine's search to the settings' depth with `weights` (the iterate's by
        default): the move, its value for the side to move and the principal
        variation's quiet leaf."""
        game = self.game
        given = engine_weights(self.weights if weights is None else weights)
        if self._searched is None or self._searched.evaluation_weights != given:
            self._searched = self.weighted(given)
        result = self.engine(state, self.settings.depth)
        leaf = state
        for action in result.pv:
            leaf = game.result(leaf, action)
        # Quiescence searched on past the depth while captures were due: follow the
        # engine's choice of capture to the leaf it evaluated.
        for _ in range(QUIET_LOOKS):
            if game.is_terminal(leaf) or not game.has_capture(leaf):
                break
            leaf = game.result(leaf, self.engine(leaf, 1).action)
        mine = result.value if game.is_maxs_turn(state) else -result.value
        return result.action, mine, leaf

    def weighted(self, given: tuple[int, ...]) -> Any:
        """The game as the engine plays it under `given`, derived from the learner's
        game: forgetting that game (as the grader does before each position) forgets
        this one's table too, so a checkpoint's grade is the learned player's."""
        return derive(self.game, Weighted(self.game, given))

    def engine(self, state: Any, depth: int) -> SearchResult:
        kernel = self.spec.kernel
        assert kernel is not None  # checkers has its engine
        # TD-Leaf learns from its own search: on 4x4 too, never the solution's moves.
        return analyse_with(kernel, self._searched, state, Limit(depth=depth),
                            enhancements=SEARCHED)

    def best(self, state: Any) -> tuple[Any, float]:
        action, value, _ = self.search(state, self.played)
        return action, value

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        if state.ply == 0:  # a new game, searched afresh (so a resumed run is the same)
            self._leaves, self._searched = [], self.weighted(engine_weights(self.weights))
        s = self.settings
        if state.ply < s.opening:
            self._leaves.append(None)  # no search, nothing to learn
            return rng.choice(list(self.game.actions(state))), True
        action, _, leaf = self.search(state)
        self._leaves.append(leaf)
        if rng.random() < s.epsilon:
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
        values: list[float] = [0.0 if x is None else self.afterstate_value(x)
                               for x in leaves]
        values.append(self.afterstate_value(states[-1]))
        s, w = self.settings, self.weights
        g = values[last]
        targets: list[float | None] = [None] * last
        for t in range(last - 1, -1, -1):
            after = values[t + 1] if t + 1 == last or explored[t + 1] \
                else (1 - s.lam) * values[t + 1] + s.lam * g
            targets[t] = None if explored[t] else after
            g = after if not explored[t] else values[t]
        # One step for the game, each weight's its own: the errors' correlation with
        # the weight's gradient over the game's leaves, divided by that gradient's
        # squares (a diagonal Gauss-Newton step, damped by PRIOR leaves' worth), so a
        # term counted in tens (advancement) moves no faster than one counted in ones;
        # `pull` leaves' worth of prior hold it toward the hand-written weight.
        n = len(FEATURES)
        num, den = [0.0] * n, [0.0] * n
        for t in range(last):
            target, leaf = targets[t], leaves[t]
            if target is None or leaf is None or self.game.is_terminal(leaf):
                continue
            v = values[t]
            for i, x in enumerate(features(self.game, leaf, w)):
                h = (1 - v * v) * x
                num[i] += (target - v) * h
                den[i] += h * h
        for i in range(n):
            # (Without a pull, the same floating-point step as before it was added.)
            w[i] += (s.alpha * SCALE * num[i] - s.alpha * s.pull * (w[i] - WEIGHTS[i])) \
                / (den[i] + PRIOR + s.pull)
        if self.average is not None:
            share = 1 / min(self.games + 1, s.average)
            for i in range(n):
                self.average[i] += share * (w[i] - self.average[i])

    # -- the file --

    def save(self, header: dict[str, Any]) -> Weights:
        return Weights({**header, "method": METHOD, "settings": self.settings.as_dict(),
                        "features": list(FEATURES), "board": self.size},
                       {"weights": array("d", self.played)}
                       | ({} if self.average is None else {"iterate": array("d", self.weights)}))

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> SamuelLearner:
        size = check_game(spec, game).size
        if weights.header.get("features") != list(FEATURES):
            raise InputError(f"weights file {name}: its features are not the checkers "
                             f"engine's ({', '.join(FEATURES)}); a samuel file of an "
                             "older version: train it again")
        try:
            settings = Settings(**weights.header["settings"])
        except (KeyError, TypeError):
            raise InputError(f"weights file {name}: no samuel settings in its header") from None
        if weights.header.get("board") != size:
            raise InputError(f"weights file {name} is for a {weights.header.get('board')}"
                             f"x{weights.header.get('board')} board, not {size}x{size}")
        values = weights.arrays.get("weights")
        if values is None or len(values) != len(FEATURES):
            raise InputError(f"weights file {name}: {len(FEATURES)} weights expected")
        iterate = weights.arrays.get("iterate")
        if settings.average > 0 and (iterate is None or len(iterate) != len(FEATURES)):
            raise InputError(f"weights file {name}: {len(FEATURES)} iterates expected "
                             "with the average")
        return cls(spec, game, settings, values, iterate)
