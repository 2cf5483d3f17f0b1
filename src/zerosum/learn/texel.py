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

Max-Connect4 (games/maxconnect4/bitboard.py) is tuned the same way: its evaluation,
from the mover's side in hundredths, is

    eval = 100 * lead + OPEN_ONE * o1 + OPEN_TWO * o2 + THREAT_NOW * n
           + THREAT_OWN_ROW * r_own + THREAT_OTHER_ROW * r_other

(`lead` the points scored so far, the mover's minus the opponent's: the unit here), and
y the mover's exact result (win, draw, loss by the final score). No solver reaches the
whole game, so the labels are exact values just before the engine's exact horizon:
positions with 17 to 20 empty cells from games of a weak, noisy engine, solved by the
engine's search to the end (tools/maxconnect4_labels.py, shipped in
zerosum/learn/labels/maxconnect4_endgames.txt): exact rather than a deeper search's
estimates (which would teach the evaluation its own errors), and where its leaves are.

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
from zerosum.kernel import Weighted
from zerosum.learn.weights import Weights

METHOD = "texel"
NAMES = ("threat", "good_row_threat", "playable_threat")
MAXCONNECT4_NAMES = ("open_one", "open_two", "threat_now", "threat_own_row",
                     "threat_other_row")
MAXCONNECT4_LABELS = "maxconnect4_endgames.txt"
RIDGE = 1e-3  # a little L2 on the coefficients, so Newton's steps stay defined


@dataclass(frozen=True)
class Sample:
    """A position's features from the mover's side (the weighted terms, then the unit
    term: Connect Four's t, g, p, centre) and its exact value for the mover (1 win,
    0.5 draw, 0 loss)."""

    features: tuple[int, ...]
    value: float


@dataclass(frozen=True)
class Tuning:
    """What tuning one game's engine takes: the names of its weights, the term that is
    their unit, the hand-written weights, the labelled samples, and the evaluation for
    the mover under given weights (on the unit's scale)."""

    names: tuple[str, ...]
    unit: str
    hand: tuple[int, ...]
    samples: Callable[[GameSpec, AnyGame], list[Sample]]
    evaluate: Callable[[AnyGame, Any, tuple[int, ...]], float]


def tuning_of(spec: GameSpec) -> Tuning | None:
    """The tuning of `spec`'s engine, None for a game this method does not tune."""
    from zerosum.games.connect4.game import Connect4
    from zerosum.games.maxconnect4.game import MaxConnect4

    if spec.make is Connect4:
        from zerosum.games.connect4.engine import WEIGHTS, heuristic

        def evaluate(game: Any, state: Any, w: tuple[int, ...]) -> float:
            return float(heuristic(game.geo, state.current, state.mask, None,
                                   (w[0], w[1], w[2])))

        return Tuning(NAMES, "centre", WEIGHTS, samples, evaluate)
    if spec.make is MaxConnect4:
        from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS

        return Tuning(MAXCONNECT4_NAMES, "lead in hundredths", POTENTIAL_WEIGHTS,
                      maxconnect4_samples, maxconnect4_eval)
    return None


def check_game(spec: GameSpec, game: AnyGame) -> Tuning:
    tuning = tuning_of(spec)
    if tuning is None:
        raise InputError("the texel method tunes the engines of Connect Four and "
                         f"Max-Connect4 only, not {spec.name}")
    return tuning


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

    connect4: Any = game
    geo = connect4.geo
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


def maxconnect4_features(state: Any) -> tuple[int, ...]:
    """Max-Connect4's evaluation terms for the mover: `potential` with unit weights (its
    own definition, not a copy), then the unit, 100 x the mover's lead."""
    from zerosum.games.maxconnect4.bitboard import potential

    p1, p2, p1_to_move, s1, s2 = state
    mine, theirs, lead = (p1, p2, s1 - s2) if p1_to_move else (p2, p1, s2 - s1)
    units = ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 0, 1, 0),
             (0, 0, 0, 0, 1))
    return (*(potential(mine, theirs, p1 | p2, w) for w in units), 100 * lead)


def maxconnect4_eval(game: AnyGame, state: Any, w: tuple[int, ...]) -> float:
    """Max-Connect4's evaluation of `state` for the mover under weights `w`."""
    from zerosum.games.maxconnect4.bitboard import potential

    p1, p2, p1_to_move, s1, s2 = state
    mine, theirs, lead = (p1, p2, s1 - s2) if p1_to_move else (p2, p1, s2 - s1)
    return float(100 * lead + potential(mine, theirs, p1 | p2, (w[0], w[1], w[2], w[3], w[4])))


def maxconnect4_samples(spec: GameSpec, game: AnyGame) -> list[Sample]:
    """The shipped endgame labels (tools/maxconnect4_labels.py), checked against their
    header's SHA-256: each position's features and the mover's exact result."""
    import hashlib
    from importlib import resources

    text = (resources.files("zerosum.learn") / "labels" / MAXCONNECT4_LABELS).read_text(
        encoding="utf-8")
    lines = text.splitlines()
    digest = next((line.split()[-1] for line in lines if line.startswith("# labels sha256")),
                  None)
    rows = [line for line in lines if line and not line.startswith("#")]
    if digest != hashlib.sha256("\n".join(rows).encode()).hexdigest():
        raise InputError(f"the labels {MAXCONNECT4_LABELS} are damaged (their SHA-256 "
                         "differs from their header's): rebuild them with "
                         "tools/maxconnect4_labels.py")
    out = []
    for row in rows:
        moves, value = row.split()
        state = game.initial_state()
        for column in moves:
            state = game.result(state, int(column) - 1)
        final = int(value) if state.p1_to_move else -int(value)  # for the mover
        out.append(Sample(maxconnect4_features(state), (1 + (final > 0) - (final < 0)) / 2))
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
    """What a fit found: the weights before and after (named `names`, on the scale of
    the `unit` term), the scale K and tempo of each (eval -> sigmoid(K * eval + tempo)),
    the cross-entropy on the positions fitted and on those held out, before and after."""

    before: tuple[int, ...]
    after: tuple[int, ...]
    k: tuple[float, float]
    tempo: tuple[float, float]
    loss_fitted: tuple[float, float]
    loss_held_out: tuple[float, float]
    positions: tuple[int, int]
    names: tuple[str, ...] = NAMES
    unit: str = "centre"

    def table(self) -> str:
        """The before/after weights as a Markdown table, and the losses."""
        lines = ["| weight | hand-written | fitted |", "|---|---:|---:|"]
        lines += [f"| {n} | {b} | {a} |" for n, b, a in zip(self.names, self.before,
                                                             self.after, strict=True)]
        lines.append(f"| {self.unit} (the unit) | 1 | 1 |")
        lines.append(f"| K (logistic scale) | {self.k[0]:.4f} | {self.k[1]:.4f} |")
        lines.append(f"| tempo (not in the engine) | {self.tempo[0]:.3f} | "
                     f"{self.tempo[1]:.3f} |")
        lines.append(f"| cross-entropy, {self.positions[0]} positions fitted | "
                     f"{self.loss_fitted[0]:.4f} | {self.loss_fitted[1]:.4f} |")
        lines.append(f"| cross-entropy, {self.positions[1]} held out | "
                     f"{self.loss_held_out[0]:.4f} | {self.loss_held_out[1]:.4f} |")
        return "\n".join(lines)


def fit(data: Sequence[Sample], before: tuple[int, ...], names: tuple[str, ...] = NAMES,
        unit: str = "centre") -> Fit:
    """Fit the weights to `data` (its even-numbered samples; the odd ones held out),
    starting from the hand-written `before` only to measure them: first K and tempo for
    `before` (the untuned model), then all coefficients at once. A sample's last
    feature is the unit term, whose weight is 1."""
    fitted, held = data[0::2], data[1::2]
    if len(fitted) < 8:
        raise InputError(f"too few labelled positions to fit ({len(data)})")

    def scored(rows: Sequence[Sample], w: tuple[int, ...]) -> list[list[float]]:
        return [[sum(wi * f for wi, f in zip(w, s.features[:-1], strict=True))
                 + s.features[-1], 1.0] for s in rows]

    def full(rows: Sequence[Sample]) -> list[list[float]]:
        return [[*map(float, s.features), 1.0] for s in rows]

    ys, ys_held = [s.value for s in fitted], [s.value for s in held]
    k0, t0 = logistic_fit(scored(fitted, before), ys)
    c = logistic_fit(full(fitted), ys)
    k1 = c[len(before)]
    if k1 <= 0:
        raise InputError(f"the fit gave the {unit} term no positive weight: no weights "
                         "on its scale")
    after = tuple(round(ci / k1) for ci in c[:len(before)])
    # The engine's weights are integers: measure the rounded ones, K refitted for them.
    k1, t1 = logistic_fit(scored(fitted, after), ys)
    return Fit(before, after, (k0, k1), (t0, t1),
               (loss(scored(fitted, before), ys, [k0, t0]),
                loss(scored(fitted, after), ys, [k1, t1])),
               (loss(scored(held, before), ys_held, [k0, t0]),
                loss(scored(held, after), ys_held, [k1, t1])),
               (len(fitted), len(held)), names, unit)


class TexelLearner:
    """The fitted evaluation as a learned player (zerosum.learn.methods.Learner): alone,
    one ply of sigmoid(K * eval); with a depth, the engine with these weights
    (`engine_game`)."""

    method = METHOD
    fitted_not_played = True  # made by `fit_file`, not by self-play

    def __init__(self, spec: GameSpec, game: AnyGame, weights: tuple[int, ...],
                 k: float, settings: dict[str, Any] | None = None) -> None:
        self.tuning = check_game(spec, game)
        self.game, self.weights, self.k = game, weights, k
        self.settings = settings or {}

    @classmethod
    def learns(cls, spec: GameSpec) -> bool:
        return tuning_of(spec) is not None  # its features are the game's engine's

    @classmethod
    def new(cls, spec: GameSpec, game: AnyGame, rng: random.Random,
            settings: dict[str, Any]) -> TexelLearner:
        raise InputError("the texel method is fitted to solver labels, not trained by "
                         f"self-play: zerosum train {spec.name} --method texel (no --games)")

    def engine_game(self, game: AnyGame) -> Any:
        return Weighted(game, self.weights)

    def mover_value(self, state: Any) -> float:
        """sigmoid(K * eval) on [-1, 1], for the side to move; exact at the end."""
        game = self.game
        if game.is_terminal(state):
            u = game.utility(state)
            first = (u > 0) - (u < 0)
            return float(first if game.is_maxs_turn(state) else -first)
        e = self.tuning.evaluate(game, state, self.weights)
        return 2 * sigmoid(self.k * e) - 1

    def afterstate_value(self, state: Any) -> float:
        v = self.mover_value(state)
        return v if self.game.is_maxs_turn(state) else -v

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
                        "features": list(self.tuning.names), "k": self.k},
                       {"weights": array("d", self.weights)})

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> TexelLearner:
        names = check_game(spec, game).names
        values = weights.arrays.get("weights")
        if weights.header.get("features") != list(names) or values is None \
                or len(values) != len(names):
            raise InputError(f"weights file {name}: {len(names)} texel weights "
                             f"({', '.join(names)}) expected")
        try:
            k = float(weights.header["k"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"weights file {name}: no logistic scale k") from None
        w = tuple(int(v) for v in values)
        return cls(spec, game, w, k, dict(weights.header.get("settings", {})))


def fit_file(spec: GameSpec, game: AnyGame, options: dict[str, Any],
             report: Callable[[str], None] | None = None) -> tuple[Weights, Fit]:
    """Fit the engine's weights to the shipped labels: the weights (to save) and the fit."""
    from zerosum import __version__

    tuning = check_game(spec, game)
    data = tuning.samples(spec, game)
    if report is not None:
        report(f"{len(data)} labelled positions")
    result = fit(data, tuning.hand, tuning.names, tuning.unit)
    learner = TexelLearner(spec, game, result.after, result.k[1])
    header = {"game": spec.name, "options": options, "zerosum": __version__,
              "fit": {"before": list(result.before), "after": list(result.after),
                      "k": list(result.k), "tempo": list(result.tempo),
                      "loss_fitted": list(result.loss_fitted),
                      "loss_held_out": list(result.loss_held_out),
                      "positions": list(result.positions)}}
    return learner.save(header), result
