"""The statistics of a match: score, its error margin, the Elo difference and the
likelihood of superiority, from the games' results.

A game scores 1 for a win, 1/2 for a draw, 0 for a loss, for the player whose match it
is. Two ways to count a match:

- trinomial: the numbers of wins, draws and losses, the games taken as independent;
- pentanomial: for games played in colour-swapped pairs (one opening, each player once
  on each side), how many pairs scored 0, 1/2, 1, 3/2 and 2. The pair is then the unit:
  what an opening gives one side it mostly takes back in the other game, so the
  variance, and the margin, is smaller and more honest than the trinomial one.

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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: the 95 % interval
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)  # what the pentanomial counts count


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
    from the sample variance; inf with fewer than two observations."""
    n = sum(counts)
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    if n < 2:
        return mean, math.inf
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / (n - 1)
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
    if stderr == 0.0:  # every pair alike: certain in this approximation, unless even
        los = 0.5 if score == 0.5 else float(score > 0.5)
    else:
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
