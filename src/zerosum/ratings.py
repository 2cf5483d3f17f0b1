"""The statistics of matches: a match's score, its error margin, the Elo difference and
the likelihood of superiority; ratings of many players from their games (Bradley-Terry);
and the sequential probability ratio test (SPRT) that stops a match once it has shown
enough.

A game scores 1 for a win, 1/2 for a draw, 0 for a loss, for the player whose match it
is. Two ways to count a match:

- trinomial: the numbers of wins, draws and losses, the games taken as independent;
- pentanomial: for games played in colour-swapped pairs (one opening, each player once
  on each side), how many pairs scored 0, 1/2, 1, 3/2 and 2. The pair is then the unit:
  what an opening gives one side it mostly takes back in the other game, so the
  variance, and the margin, is smaller and more honest than the trinomial one.

`Tally` collects a player's scores pair by pair and gives the pentanomial figures when
every pair has both its games, the trinomial ones otherwise.

Both estimate the variance of the score from the observed frequencies with the sample
(n - 1) denominator, and give the 95 % interval of the normal approximation, score
plus or minus 1.96 standard errors, clipped to [0, 1]. Few games, or a score near 0 or
1, make that approximation poor (every game won gives a margin of 0): read the margin
as a guide, not as an exact probability.

The Elo difference is the logistic one, elo = -400 log10(1/s - 1); its interval is the
score's interval mapped through the same function, so it is not symmetric, and a score
or bound of 0 or 1 maps to minus or plus infinity. The likelihood of superiority (LOS)
is the probability that the player is the stronger one, in the normal approximation:
Phi((W - L) / sqrt(W + L)) from the wins and losses (draws say nothing about who is
stronger), and Phi((s - 1/2) / standard error) for pentanomial counts.

Ratings of many players (`bradley_terry`): the Bradley-Terry model gives player i a
strength r_i and i beats j with probability 1 / (1 + exp(r_j - r_i)), the logistic Elo
curve once r is multiplied by 400 / ln 10. A draw counts as half a win for each side.
The ratings are the most likely ones given the games (see D. R. Hunter, "MM algorithms
for generalized Bradley-Terry models", The Annals of Statistics 32(1), 2004,
pp. 384-406, for the model, its MM fit, and when the maximum exists), found here by
Newton's method on the log-likelihood, which is concave: each step solves I d = g (g
the gradient, W_i - sum_j N_ij p_ij with W_i the points of i and N_ij the games of i and
j; I the information matrix below) and is halved until the likelihood rises. When a
player (or a group) wins or loses every game, no most likely ratings exist: they run
off to infinity. So, after the prior of Remi Coulom's BayesElo
(https://www.remi-coulom.fr/Bayesian-Elo/), every pair of players that met is given
`prior_draws` extra virtual draws, which pulls the ratings a little towards each other
and keeps them finite; the ratings are then the most probable ones under that prior.
The 95 % interval of each rating is its estimate plus or minus 1.96 standard
deviations, from the observed Fisher information (the curvature of the log-likelihood
at its maximum, virtual draws included): the matrix I with N_ij p_ij (1 - p_ij) off the
diagonal (negated) and the row sums on it, a weighted graph Laplacian L. It is
singular, as adding a constant to every rating changes nothing; the ratings are centred
(mean 0), and their covariance is the pseudo-inverse of L, (L + J/n)^-1 - J/n for a
connected graph of n players (J all ones). The intervals say how well each rating is
known relative to the mean of the field.

The SPRT (`Sprt`) decides between H0: the player's Elo advantage is elo0, and H1: it
is elo1 (elo1 > elo0), with error rates alpha (accepting H1 when H0 holds) and beta.
It adds up the log-likelihood ratio (LLR) of the results and stops when it leaves
[ln(beta / (1 - alpha)), ln((1 - beta) / alpha)] (Wald's bounds). The LLR is the one
of the generalized SPRT in its normal approximation, as worked out by Michel Van den
Bergh for fishtest (the note "GSPRT approximation",
http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf): with n units (games for
trinomial counts, pairs scored 0, 1/4, ..., 1 for pentanomial ones) of observed mean m
and variance v (the maximum-likelihood one, denominator n), and s0, s1 the scores of
elo0 and elo1, LLR = n (s1 - s0) (2m - s0 - s1) / (2v). Like every normal
approximation it is poor for few units or a mean near 0 or 1. When every unit scored
the same, v is 0 and it says nothing; the LLR is then the exact generalized one for
that sample: among the distributions on [0, 1] with mean s, the most likely one gives
the observed value x the probability s/x (x > s) or (1 - s)/(1 - x) (x < s), the rest
going to the far end, so a sweep of n pairs won has LLR n ln(s1 / s0) and the test
ends even when one player wins every game. No units: LLR 0.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: the 95 % interval
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)  # what the pentanomial counts count
GAME_SCORES = (1.0, 0.5, 0.0)  # a win, a draw, a loss: what the trinomial counts count


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of an expected score in [0, 1]; +-inf at 1 and 0."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score lies between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never "-0"


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference, the inverse of elo_from_score."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class MatchStats:
    """A match's figures, for the player whose wins are `wins`.

    `stderr` is the standard error of `score` (inf with fewer than two games, or two
    pairs, to estimate a variance from); `low` and `high` the 95 % interval of the
    score and `elo_low`, `elo_high` that interval in Elo; `los` the likelihood of
    superiority, 0 to 1 (nan from a single pair: unknown). `pairs` holds the
    pentanomial counts when the figures come from them.
    """

    wins: int
    draws: int
    losses: int
    score: float
    stderr: float
    low: float
    high: float
    elo: float
    elo_low: float
    elo_high: float
    los: float
    pairs: tuple[int, int, int, int, int] | None = None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def margin(self) -> float:
        """Half the width of the score's 95 % interval (before clipping to [0, 1])."""
        return Z95 * self.stderr

    def summary(self) -> str:
        """One line, e.g. `26W 3D 51L of 80: score 34.4 % ± 10.3 %, Elo -112 ± 81,
        LOS 0.2 %`; the Elo margin is half the interval's width when both its ends are
        finite, else the interval itself is shown."""
        counts = f"{self.wins}W {self.draws}D {self.losses}L of {self.games}"
        if self.pairs is not None:
            counts += ", pairs (0 ½ 1 1½ 2) " + " ".join(map(str, self.pairs))
        if self.games == 0:
            return counts + ": no games"
        margin = "?" if math.isinf(self.stderr) else f"{100 * self.margin:.1f} %"
        return (f"{counts}: score {100 * self.score:.1f} % ± {margin}, "
                f"Elo {format_elo_interval(self.elo, self.elo_low, self.elo_high)}, "
                f"LOS {'?' if math.isnan(self.los) else f'{100 * self.los:.1f} %'}")


def format_elo(elo: float) -> str:
    return f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")


def format_elo_interval(elo: float, low: float, high: float) -> str:
    if not math.isfinite(elo):
        return format_elo(elo)
    if math.isfinite(low) and math.isfinite(high):
        return f"{format_elo(elo)} ± {(high - low) / 2:.0f}"
    return f"{format_elo(elo)} [{format_elo(low)}, {format_elo(high)}]"


def _stats(wins: int, draws: int, losses: int, score: float, stderr: float, los: float,
           pairs: tuple[int, int, int, int, int] | None) -> MatchStats:
    low = max(0.0, score - Z95 * stderr) if math.isfinite(stderr) else 0.0
    high = min(1.0, score + Z95 * stderr) if math.isfinite(stderr) else 1.0
    return MatchStats(wins, draws, losses, score, stderr, low, high,
                      elo_from_score(score), elo_from_score(low), elo_from_score(high),
                      los, pairs)


def _mean_and_stderr(values: Sequence[float], counts: Sequence[int]) -> tuple[float, float]:
    """Mean of the observations (`counts[i]` of `values[i]`) and its standard error,
    from the sample variance; inf with fewer than two observations.

    When every observation is alike (5 pairs each split 1-1, 10 wins of 10), the sample
    shows no spread, which is not certainty: the variance is then that of the counts with
    one more, virtual, observation spread evenly over the possible values (additive
    smoothing), so the margin shrinks with more games and never claims ± 0."""
    n = sum(counts)
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    if n < 2:
        return mean, math.inf
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / (n - 1)
    if variance == 0.0:
        variance = sum((v - mean) ** 2 for v in values) / len(values) / n
    return mean, math.sqrt(variance / n)


def _check_counts(counts: Sequence[int]) -> None:
    if any(c < 0 for c in counts):
        raise ValueError(f"counts of games are 0 or more, not {list(counts)}")


def trinomial(wins: int, draws: int, losses: int) -> MatchStats:
    """The figures of W wins, D draws and L losses, the games taken as independent."""
    _check_counts((wins, draws, losses))
    if wins + draws + losses == 0:
        return _stats(0, 0, 0, 0.5, math.inf, 0.5, None)
    score, stderr = _mean_and_stderr((1.0, 0.5, 0.0), (wins, draws, losses))
    decisive = wins + losses
    los = normal_cdf((wins - losses) / math.sqrt(decisive)) if decisive else 0.5
    return _stats(wins, draws, losses, score, stderr, los, None)


def pentanomial(pairs: Sequence[int], wins: int, draws: int, losses: int) -> MatchStats:
    """The figures of colour-swapped pairs: `pairs[k]` pairs scored k/2 (k = 0..4) for
    the player; the W/D/L counts of the same games are carried along for the summary."""
    _check_counts(pairs)
    if len(pairs) != len(PAIR_SCORES):
        raise ValueError(f"pentanomial counts are five numbers, not {list(pairs)}")
    counts = (pairs[0], pairs[1], pairs[2], pairs[3], pairs[4])
    if 2 * sum(counts) != wins + draws + losses \
            or sum(s * c for s, c in zip(PAIR_SCORES, counts, strict=True)) != wins + draws / 2:
        raise ValueError(f"the pairs {list(counts)} are not the games "
                         f"{wins}W {draws}D {losses}L")
    if sum(counts) == 0:
        return _stats(0, 0, 0, 0.5, math.inf, 0.5, counts)
    score, stderr = _mean_and_stderr([s / 2 for s in PAIR_SCORES], counts)
    los = normal_cdf((score - 0.5) / stderr) if math.isfinite(stderr) else math.nan
    return _stats(wins, draws, losses, score, stderr, los, counts)


def pair_counts(pair_scores: Sequence[float]) -> tuple[int, int, int, int, int]:
    """The pentanomial counts of the pairs' scores (each 0, 0.5, 1, 1.5 or 2)."""
    counts = [0] * len(PAIR_SCORES)
    for s in pair_scores:
        if s not in PAIR_SCORES:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2, not {s}")
        counts[PAIR_SCORES.index(s)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


@dataclass
class Tally:
    """A player's scores (1, 1/2, 0) by pair: the figures are pentanomial when every pair
    has both its games, trinomial otherwise (a match cut short, a replay of some games)."""

    scores: dict[int, list[float]] = field(default_factory=dict)

    def add(self, pair: int, score: float) -> None:
        if score not in GAME_SCORES:
            raise ValueError(f"a game scores 1, 0.5 or 0, not {score}")
        self.scores.setdefault(pair, []).append(score)

    def counts(self) -> tuple[int, int, int]:
        """Wins, draws and losses."""
        every = [s for pair in self.scores.values() for s in pair]
        return every.count(1.0), every.count(0.5), every.count(0.0)

    def complete_pairs(self) -> tuple[int, int, int, int, int]:
        """The pentanomial counts of the pairs that have both their games."""
        return pair_counts([sum(p) for p in self.scores.values() if len(p) == 2])

    def stats(self) -> MatchStats:
        wins, draws, losses = self.counts()
        pairs = list(self.scores.values())
        if pairs and all(len(p) == 2 for p in pairs):
            return pentanomial(pair_counts([sum(p) for p in pairs]), wins, draws, losses)
        return trinomial(wins, draws, losses)

    def summary(self) -> str:
        return self.stats().summary()


# ------------------------------------------------------------ Bradley-Terry ratings

ELO_PER_UNIT = 400.0 / math.log(10.0)  # Elo per unit of the model's natural strength
FIT_TOLERANCE = 1e-11  # the largest change of a strength (natural units) in a last step
FIT_STEPS = 200


@dataclass(frozen=True)
class Rating:
    """A player's rating in Elo, relative to the mean of the players rated with it (0),
    and its 95 % interval [low, high]; `games` and `points` are the player's real games
    and points (the prior's virtual draws left out)."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    points: float


def bradley_terry(games: Sequence[tuple[str, str, float]],
                  prior_draws: float = 1.0) -> list[Rating]:
    """The Bradley-Terry ratings of the players of `games`, each (a, b, a's score: 1,
    1/2, 0 or any score between), best first (equal ratings by name). Every pair of
    players that met is given `prior_draws` virtual draws (0: the plain maximum
    likelihood, a ValueError when it does not exist). ValueError too when some players
    never met the others, directly or through other players: ratings compare only
    players linked by games. No games, no ratings."""
    if not (math.isfinite(prior_draws) and prior_draws >= 0):
        raise ValueError(f"prior draws are 0 or more, not {prior_draws}")
    names, points, met = _tabulate(games)
    if not names:
        return []
    _check_connected(names, met)
    n = len(names)
    wins = [[points[i][j] + prior_draws / 2 if met[i][j] else 0.0 for j in range(n)]
            for i in range(n)]
    counts = [[met[i][j] + prior_draws if met[i][j] else 0.0 for j in range(n)]
              for i in range(n)]
    if prior_draws == 0:
        _check_likelihood_has_maximum(names, wins)
    strength = _fit(wins, counts)
    mean = sum(strength) / n
    sd = _standard_deviations(strength, counts)
    ratings = []
    for i, name in enumerate(names):
        elo = (strength[i] - mean) * ELO_PER_UNIT + 0.0  # + 0.0: never "-0"
        margin = Z95 * sd[i] * ELO_PER_UNIT
        ratings.append(Rating(name, elo, elo - margin, elo + margin, int(sum(met[i])),
                              sum(points[i])))
    # Ratings equal but for rounding errors (a millionth of a point) sort by name.
    return sorted(ratings, key=lambda r: (-round(r.elo, 6), r.name))


def _tabulate(games: Sequence[tuple[str, str, float]]
              ) -> tuple[list[str], list[list[float]], list[list[int]]]:
    """The players (sorted), the points of each against each, and their games."""
    for a, b, score in games:
        if a == b:
            raise ValueError(f"{a} cannot play a rated game against itself")
        if not 0.0 <= score <= 1.0:  # also refuses nan
            raise ValueError(f"a game scores between 0 and 1, not {score} ({a} against {b})")
    names = sorted({name for a, b, _ in games for name in (a, b)})
    index = {name: i for i, name in enumerate(names)}
    points = [[0.0] * len(names) for _ in names]
    met = [[0] * len(names) for _ in names]
    for a, b, score in games:
        i, j = index[a], index[b]
        points[i][j] += score
        points[j][i] += 1.0 - score
        met[i][j] += 1
        met[j][i] += 1
    return names, points, met


def _reachable(start: int, edge: Sequence[Sequence[bool]]) -> set[int]:
    """The players reached from `start` along `edge[i][j]` (i to j), `start` included."""
    seen, todo = {start}, deque([start])
    while todo:
        i = todo.popleft()
        for j, linked in enumerate(edge[i]):
            if linked and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _check_connected(names: Sequence[str], met: Sequence[Sequence[int]]) -> None:
    linked = [[m > 0 for m in row] for row in met]
    groups: list[set[int]] = []
    for i in range(len(names)):
        if not any(i in g for g in groups):
            groups.append(_reachable(i, linked))
    if len(groups) > 1:
        main = max(groups, key=len)  # the first of the largest: the one with the first name
        apart = sorted(names[i] for g in groups if g is not main for i in g)
        raise ValueError(f"{', '.join(apart)} never played anyone linked by games to "
                         f"{', '.join(names[i] for i in sorted(main))}: ratings only "
                         "compare players linked by games")


def _check_likelihood_has_maximum(names: Sequence[str], wins: Sequence[Sequence[float]]
                                  ) -> None:
    """The maximum likelihood exists when no group of players scored every point against
    the others (Hunter's assumption 1): when everyone can be reached from everyone
    along 'scored a point against'. Else the smallest such group is named."""
    scored_by = [[wins[j][i] > 0 for j in range(len(names))] for i in range(len(names))]
    # Players who scored against i, or against one who did, and so on: nobody outside
    # this group scored against anyone in it.
    groups = [_reachable(i, scored_by) for i in range(len(names))]
    closed = min(groups, key=len)
    if len(closed) < len(names):
        raise ValueError(f"{', '.join(sorted(names[i] for i in closed))} won every game "
                         "they played against the other players: no maximum-likelihood "
                         "ratings exist (use prior draws)")


def _log_sigmoid(x: float) -> float:
    """ln(1 / (1 + e^-x)), without overflow for large |x|."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _log_likelihood(strength: Sequence[float], wins: Sequence[Sequence[float]]) -> float:
    n = len(strength)
    return sum(wins[i][j] * _log_sigmoid(strength[i] - strength[j])
               for i in range(n) for j in range(n) if wins[i][j])


def _information(strength: Sequence[float], counts: Sequence[Sequence[float]]
                 ) -> list[list[float]]:
    """The observed Fisher information of the strengths (minus the Hessian of the
    log-likelihood): N_ij p_ij (1 - p_ij) off the diagonal, negated, row sums on it."""
    n = len(strength)
    laplacian = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and counts[i][j]:
                p = math.exp(_log_sigmoid(strength[i] - strength[j]))
                laplacian[i][j] = -counts[i][j] * p * (1.0 - p)
                laplacian[i][i] += counts[i][j] * p * (1.0 - p)
    return laplacian


def _fit(wins: Sequence[Sequence[float]], counts: Sequence[Sequence[float]]) -> list[float]:
    """The maximum-likelihood strengths (natural units, mean 0) by Newton's method,
    each step halved until it raises the likelihood (which is concave, so this ends)."""
    n = len(wins)
    strength = [0.0] * n
    value = _log_likelihood(strength, wins)
    for _ in range(FIT_STEPS):
        gradient = [sum(wins[i][j] - counts[i][j] * math.exp(_log_sigmoid(r - strength[j]))
                        for j in range(n) if counts[i][j])
                    for i, r in enumerate(strength)]
        # The gradient sums to 0, and on such vectors (L + J/n)^-1 is L's pseudo-inverse.
        step = [row[0] for row in _solve(_plus_mean(_information(strength, counts)),
                                         [[g] for g in gradient])]
        for _ in range(60):
            trial = [r + s for r, s in zip(strength, step, strict=True)]
            trial_value = _log_likelihood(trial, wins)
            if trial_value >= value:
                break
            step = [s / 2 for s in step]
        else:  # no step raises it: the maximum, to the precision of floating point
            return strength
        mean = sum(trial) / n
        strength, value = [r - mean for r in trial], trial_value
        if max(abs(s) for s in step) < FIT_TOLERANCE:
            return strength
    raise ArithmeticError(f"the ratings did not settle in {FIT_STEPS} Newton steps")


def _plus_mean(laplacian: Sequence[Sequence[float]]) -> list[list[float]]:
    """L + J/n: invertible when L is the Laplacian of a connected graph."""
    return [[x + 1.0 / len(laplacian) for x in row] for row in laplacian]


def _standard_deviations(strength: Sequence[float], counts: Sequence[Sequence[float]]
                         ) -> list[float]:
    """The standard deviation of each centred strength: the square root of the diagonal
    of the pseudo-inverse of the information matrix, (L + J/n)^-1 - J/n."""
    n = len(strength)
    identity = [[1.0 if j == i else 0.0 for j in range(n)] for i in range(n)]
    inverse = _solve(_plus_mean(_information(strength, counts)), identity)
    return [math.sqrt(max(0.0, inverse[i][i] - 1.0 / n)) for i in range(n)]


def _solve(matrix: Sequence[Sequence[float]], right: Sequence[Sequence[float]]
           ) -> list[list[float]]:
    """X with matrix X = right (right given row by row; the identity gives the inverse),
    by Gauss-Jordan elimination with partial pivoting."""
    n = len(matrix)
    rows = [[*row, *extra] for row, extra in zip(matrix, right, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if rows[pivot][col] == 0.0:
            raise ArithmeticError("a singular matrix")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        scale = rows[col][col]
        rows[col] = [x / scale for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


# ------------------------------------------------------------------------------ SPRT

Hypothesis = Literal["H0", "H1"]


@dataclass(frozen=True)
class Sprt:
    """The SPRT of H0: Elo advantage `elo0` against H1: `elo1`, with the error rates
    `alpha` (H1 accepted though H0 holds) and `beta` (H0 accepted though H1 holds)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not math.isfinite(value) or not 0.0 < score_from_elo(value) < 1.0:
                raise ValueError(f"the SPRT's {name} is a finite Elo difference, not {value}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"the SPRT's elo1 ({self.elo1:g}) must be greater than its "
                             f"elo0 ({self.elo0:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"the SPRT's {name} is an error rate between 0 and 0.5 "
                                 f"(both excluded), not {value}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        """The LLR of W wins, D draws and L losses, the games taken as independent."""
        _check_counts((wins, draws, losses))
        return self._llr(GAME_SCORES, (wins, draws, losses))

    def llr_pentanomial(self, pairs: Sequence[int]) -> float:
        """The LLR of colour-swapped pairs: `pairs[k]` pairs scored k/2 (k = 0..4)."""
        _check_counts(pairs)
        if len(pairs) != len(PAIR_SCORES):
            raise ValueError(f"pentanomial counts are five numbers, not {list(pairs)}")
        return self._llr([s / 2 for s in PAIR_SCORES], pairs)

    def llr(self, stats: MatchStats) -> float:
        """The LLR of a match's figures (e.g. Tally.stats()): pentanomial when they carry
        pair counts, trinomial otherwise."""
        if stats.pairs is not None:
            return self.llr_pentanomial(stats.pairs)
        return self.llr_trinomial(stats.wins, stats.draws, stats.losses)

    def decision(self, llr: float) -> Hypothesis | None:
        """The hypothesis accepted at this LLR, None while the test goes on."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def _llr(self, values: Sequence[float], counts: Sequence[int]) -> float:
        n = sum(counts)
        if n == 0:
            return 0.0
        mean = sum(x * c for x, c in zip(values, counts, strict=True)) / n
        variance = sum(c * (x - mean) ** 2 for x, c in zip(values, counts, strict=True)) / n
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        if variance > 0.0:
            return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
        return n * (math.log(_likeliest(mean, s1)) - math.log(_likeliest(mean, s0)))


def _likeliest(x: float, s: float) -> float:
    """The greatest probability a distribution on [0, 1] with mean s gives the value x:
    the rest of its mass sits at the end beyond s."""
    if x > s:
        return s / x
    if x < s:
        return (1.0 - s) / (1.0 - x)
    return 1.0
