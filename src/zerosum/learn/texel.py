"""Tuning with solver labels: the Connect Four engine's hand-written evaluation weights
fitted to the exact values of solved positions (Texel's method: a logistic fit of the
evaluation to game results, here to perfect-play values instead of results).

The engine's evaluation (games/connect4/engine.py) is linear, from the mover's side:

    eval = THREAT * t + GOOD_ROW_THREAT * g + PLAYABLE_THREAT * p + centre

with t, g, p the differences of the two sides' threats (all, on their good rows,
playable next) and `centre` the stones weighted by the fours through their cells (its
weight, 1, is the unit). Texel's model: the chance the mover wins is sigmoid(K * eval).
With the mover's exact value y (1 win, 1/2 draw, 0 loss) that is a logistic regression
without hidden parts, fitted by Newton's method on the cross-entropy:

    z = a_t * t + a_g * g + a_p * p + a_c * centre + tempo

whose weights, divided by a_c (= K), are the engine's. `tempo` takes up the side to
move's bias, which the engine has no term for (its passes all end on one parity).

The positions: every position of Pons's six sets and every position one move after it
(their labels are shipped, zerosum/learn/labels/), the mover's value exact; positions
the engine's search never evaluates (the mover wins at once, or the opponent has two
threats to play) are left out. Every second position is held out to report the fit
on positions it was not fitted to.

The result is a `.zsnet` file of method "texel" (the one weights format): played as
`learned,depth=N:FILE` it is the engine itself with the fitted weights (the same
search, node for node, but for the leaves' values).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.registry import GameSpec
from zerosum.learn.weights import Weights

METHOD = "texel"
NAMES = ("threat", "good_row_threat", "playable_threat")
RIDGE = 1e-3  # a little L2 on the coefficients, so Newton's steps stay defined


@dataclass(frozen=True)
class Sample:
    """A position's features from the mover's side (t, g, p, centre) and its exact value
    for the mover (1 win, 0.5 draw, 0 loss)."""

    features: tuple[int, int, int, int]
    value: float


def check_game(spec: GameSpec, game: AnyGame) -> Any:
    geo = getattr(game, "geo", None)
    if not TexelLearner.learns(spec) or geo is None:
        raise InputError(f"the texel method tunes Connect Four's engine only, not {spec.name}")
    return geo


def features(geo: Any, current: int, mask: int) -> tuple[int, int, int, int]:
    """The evaluation's terms for the mover (t, g, p, centre): the engine's own
    evaluation with unit weights, so the features are its definition, not a copy."""
    from zerosum.games.connect4.engine import heuristic

    first = mask.bit_count() % 2 == 0
    centre = heuristic(geo, current, mask, first, (0, 0, 0))
    return (heuristic(geo, current, mask, first, (1, 0, 0)) - centre,
            heuristic(geo, current, mask, first, (0, 1, 0)) - centre,
            heuristic(geo, current, mask, first, (0, 0, 1)) - centre, centre)


def evaluated(geo: Any, current: int, mask: int) -> bool:
    """Whether the engine's search evaluates this position at a leaf: the mover cannot
    win at once and the opponent has not two threats to play (see engine.py)."""
    from zerosum.games.connect4.bitboard import winning_cells

    if geo.has_four(current ^ mask) or mask == geo.board:
        return False
    possible = geo.possible(mask)
    if possible & winning_cells(current, mask, geo.h1, geo.board):
        return False
    forced = possible & winning_cells(current ^ mask, mask, geo.h1, geo.board)
    return not forced & (forced - 1)


def samples(spec: GameSpec, game: AnyGame) -> list[Sample]:
    """The labelled positions of Pons's sets and their children, each once, in the
    sets' order."""
    from zerosum.learn.grade import labelled, set_names

    geo = check_game(spec, game)
    seen: set[tuple[int, int]] = set()
    out: list[Sample] = []

    def add(current: int, mask: int, value: int) -> None:
        if (current, mask) in seen or not evaluated(geo, current, mask):
            return
        seen.add((current, mask))
        out.append(Sample(features(geo, current, mask), (value + 1) / 2))

    for name in set_names(spec, game):
        for row in labelled(spec, game, name):
            state = row.state
            add(state.current, state.mask, row.best)
            for action, (value, _) in row.moves.items():
                child = game.result(state, action)
                add(child.current, child.mask, -value)  # the child's mover is the other side
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def logistic_fit(rows: Sequence[Sequence[float]], ys: Sequence[float],
                 iterations: int = 30) -> list[float]:
    """The coefficients c minimising the cross-entropy of sigmoid(c . x) against y,
    by Newton's method (the loss is convex: a few steps reach its minimum)."""
    n = len(rows[0])
    c = [0.0] * n
    for _ in range(iterations):
        grad = [RIDGE * ci for ci in c]
        hess = [[RIDGE if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in zip(rows, ys, strict=True):
            p = sigmoid(sum(ci * xi for ci, xi in zip(c, x, strict=True)))
            d, w = p - y, p * (1 - p)
            for i in range(n):
                grad[i] += d * x[i]
                for j in range(n):
                    hess[i][j] += w * x[i] * x[j]
        step = _solve(hess, grad)
        c = [ci - si for ci, si in zip(c, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return c


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def loss(rows: Sequence[Sequence[float]], ys: Sequence[float], c: Sequence[float]) -> float:
    """The mean cross-entropy of the model c on the rows (in nats)."""
    total = 0.0
    for x, y in zip(rows, ys, strict=True):
        p = min(max(sigmoid(sum(ci * xi for ci, xi in zip(c, x, strict=True))), 1e-12),
                1 - 1e-12)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


@dataclass(frozen=True)
class Fit:
    """What a fit found: the weights before and after, the scale K and tempo of each
    (eval -> sigmoid(K * eval + tempo)), the cross-entropy on the positions fitted and
    on those held out, before and after."""

    before: tuple[int, int, int]
    after: tuple[int, int, int]
    k: tuple[float, float]
    tempo: tuple[float, float]
    loss_fitted: tuple[float, float]
    loss_held_out: tuple[float, float]
    positions: tuple[int, int]

    def table(self) -> str:
        """The before/after weights as a Markdown table, and the losses."""
        lines = ["| weight | hand-written | fitted |", "|---|---:|---:|"]
        lines += [f"| {n} | {b} | {a} |" for n, b, a in zip(NAMES, self.before, self.after,
                                                             strict=True)]
        lines.append("| centre (the unit) | 1 | 1 |")
        lines.append(f"| K (logistic scale) | {self.k[0]:.4f} | {self.k[1]:.4f} |")
        lines.append(f"| tempo (not in the engine) | {self.tempo[0]:.3f} | "
                     f"{self.tempo[1]:.3f} |")
        lines.append(f"| cross-entropy, {self.positions[0]} positions fitted | "
                     f"{self.loss_fitted[0]:.4f} | {self.loss_fitted[1]:.4f} |")
        lines.append(f"| cross-entropy, {self.positions[1]} held out | "
                     f"{self.loss_held_out[0]:.4f} | {self.loss_held_out[1]:.4f} |")
        return "\n".join(lines)


def fit(data: Sequence[Sample], before: tuple[int, int, int]) -> Fit:
    """Fit the weights to `data` (its even-numbered samples; the odd ones held out),
    starting from the hand-written `before` only to measure them: first K and tempo for
    `before` (the untuned model), then all coefficients at once."""
    fitted, held = data[0::2], data[1::2]
    if len(fitted) < 8:
        raise InputError(f"too few labelled positions to fit ({len(data)})")

    def hand(rows: Sequence[Sample]) -> list[list[float]]:
        return [[sum(w * f for w, f in zip(before, s.features[:3], strict=True))
                 + s.features[3], 1.0] for s in rows]

    def full(rows: Sequence[Sample]) -> list[list[float]]:
        return [[*map(float, s.features), 1.0] for s in rows]

    ys, ys_held = [s.value for s in fitted], [s.value for s in held]
    k0, t0 = logistic_fit(hand(fitted), ys)
    c = logistic_fit(full(fitted), ys)
    k1 = c[3]
    if k1 <= 0:
        raise InputError("the fit gave the centre term no positive weight: no weights "
                         "on its scale")
    after = (round(c[0] / k1), round(c[1] / k1), round(c[2] / k1))
    # The engine's weights are integers: measure the rounded ones, K refitted for them.
    k1, t1 = logistic_fit([[sum(w * f for w, f in zip(after, s.features[:3], strict=True))
                            + s.features[3], 1.0] for s in fitted], ys)

    def rounded(rows: Sequence[Sample]) -> list[list[float]]:
        return [[sum(w * f for w, f in zip(after, s.features[:3], strict=True))
                 + s.features[3], 1.0] for s in rows]

    return Fit(before, after, (k0, k1), (t0, t1),
               (loss(hand(fitted), ys, [k0, t0]), loss(rounded(fitted), ys, [k1, t1])),
               (loss(hand(held), ys_held, [k0, t0]), loss(rounded(held), ys_held, [k1, t1])),
               (len(fitted), len(held)))


class TunedGame:
    """`game` carrying the fitted weights, for its engine (engine.weights_of) to use."""

    def __init__(self, game: AnyGame, weights: tuple[int, int, int]) -> None:
        self._game, self.evaluation_weights = game, weights

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class TexelLearner:
    """The fitted evaluation as a learned player (zerosum.learn.methods.Learner): alone,
    one ply of sigmoid(K * eval); with a depth, the engine with these weights
    (`engine_game`)."""

    method = METHOD
    fitted_not_played = True  # made by `fit_file`, not by self-play

    def __init__(self, spec: GameSpec, game: AnyGame, weights: tuple[int, int, int],
                 k: float, settings: dict[str, Any] | None = None) -> None:
        self.geo = check_game(spec, game)
        self.game, self.weights, self.k = game, weights, k
        self.settings = settings or {}

    @classmethod
    def learns(cls, spec: GameSpec) -> bool:
        from zerosum.games.connect4.game import Connect4

        return spec.make is Connect4  # its features are the Connect Four engine's

    @classmethod
    def new(cls, spec: GameSpec, game: AnyGame, rng: random.Random,
            settings: dict[str, Any]) -> TexelLearner:
        raise InputError("the texel method is fitted to solver labels, not trained by "
                         "self-play: zerosum train connect4 --method texel (no --games)")

    def engine_game(self, game: AnyGame) -> Any:
        return TunedGame(game, self.weights)

    def mover_value(self, state: Any) -> float:
        """sigmoid(K * eval) on [-1, 1], for the side to move; exact at the end."""
        from zerosum.games.connect4.engine import heuristic

        if self.game.is_terminal(state):
            u = self.game.utility(state)
            red = (u > 0) - (u < 0)
            return float(red if state.red_to_move else -red)
        e = heuristic(self.geo, state.current, state.mask, None, self.weights)
        return 2 * sigmoid(self.k * e) - 1

    def afterstate_value(self, state: Any) -> float:
        v = self.mover_value(state)
        return v if state.red_to_move else -v

    def best(self, state: Any) -> tuple[Any, float]:
        options = [(a, -self.mover_value(self.game.result(state, a)))
                   for a in self.game.actions(state)]
        return max(options, key=lambda o: o[1])

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        return self.best(state)[0], False

    def learn(self, states: Sequence[Any], explored: Sequence[bool]) -> None:
        return None  # fitted once, never by self-play

    def save(self, header: dict[str, Any]) -> Weights:
        from array import array

        return Weights({**header, "method": METHOD, "settings": self.settings,
                        "features": list(NAMES), "k": self.k},
                       {"weights": array("d", self.weights)})

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> TexelLearner:
        check_game(spec, game)
        values = weights.arrays.get("weights")
        if weights.header.get("features") != list(NAMES) or values is None \
                or len(values) != len(NAMES):
            raise InputError(f"weights file {name}: {len(NAMES)} texel weights "
                             f"({', '.join(NAMES)}) expected")
        try:
            k = float(weights.header["k"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"weights file {name}: no logistic scale k") from None
        w = (int(values[0]), int(values[1]), int(values[2]))
        return cls(spec, game, w, k, dict(weights.header.get("settings", {})))


def fit_file(spec: GameSpec, game: AnyGame, options: dict[str, Any],
             report: Callable[[str], None] | None = None) -> tuple[Weights, Fit]:
    """Fit the engine's weights to the shipped labels: the weights (to save) and the fit."""
    from zerosum import __version__
    from zerosum.games.connect4.engine import WEIGHTS

    check_game(spec, game)
    data = samples(spec, game)
    if report is not None:
        report(f"{len(data)} labelled positions")
    result = fit(data, WEIGHTS)
    learner = TexelLearner(spec, game, result.after, result.k[1])
    header = {"game": spec.name, "options": options, "zerosum": __version__,
              "fit": {"before": list(result.before), "after": list(result.after),
                      "k": list(result.k), "tempo": list(result.tempo),
                      "loss_fitted": list(result.loss_fitted),
                      "loss_held_out": list(result.loss_held_out),
                      "positions": list(result.positions)}}
    return learner.save(header), result
