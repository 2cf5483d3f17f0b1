"""zerosum.ratings.Sprt: bounds, log-likelihood ratios worked out by hand, and seeded
simulated matches that end at the right bound."""

from __future__ import annotations

import math
import random

import pytest

from zerosum.ratings import Sprt, Tally, score_from_elo, trinomial

ELO_60 = 400 * math.log10(1.5)  # the Elo difference of a 60 % score
ELO_55 = 400 * math.log10(11 / 9)  # and of a 55 % score


def test_bounds_for_5_percent_errors_are_plus_or_minus_ln_19() -> None:
    sprt = Sprt(0, 5)
    assert (sprt.alpha, sprt.beta) == (0.05, 0.05)
    assert sprt.upper == pytest.approx(math.log(19), rel=1e-12)
    assert sprt.lower == pytest.approx(-math.log(19), rel=1e-12)
    assert round(sprt.upper, 3) == 2.944
    other = Sprt(-2, 3, alpha=0.05, beta=0.1)
    assert other.lower == pytest.approx(math.log(0.1 / 0.95), rel=1e-12)
    assert other.upper == pytest.approx(math.log(0.9 / 0.05), rel=1e-12)


def test_decisions_at_and_between_the_bounds() -> None:
    sprt = Sprt(0, 5)
    assert sprt.decision(sprt.upper) == "H1" and sprt.decision(10.0) == "H1"
    assert sprt.decision(sprt.lower) == "H0" and sprt.decision(-3.0) == "H0"
    assert sprt.decision(0.0) is None and sprt.decision(2.9) is None


def test_pentanomial_llr_by_hand() -> None:
    # Pairs 0, 1/4 (2), 1/2 (3), 3/4 (2), 1 (2): mean 0.55, variance 0.975 / 10.
    # H0 score 1/2, H1 score 0.55: LLR = 10 * 0.05 * (1.1 - 1.05) / (2 * 0.0975) = 5/39.
    assert score_from_elo(ELO_55) == pytest.approx(0.55, rel=1e-12)
    assert Sprt(0, ELO_55).llr_pentanomial([1, 2, 3, 2, 2]) == pytest.approx(5 / 39, rel=1e-10)
    # The mean halfway between the hypotheses says nothing either way.
    assert Sprt(0, ELO_60).llr_pentanomial([1, 2, 3, 2, 2]) == pytest.approx(0, abs=1e-12)


def test_trinomial_llr_by_hand() -> None:
    # 6 wins, 2 draws, 2 losses: mean 0.7, variance (6 * .09 + 2 * .04 + 2 * .49) / 10.
    llr = Sprt(0, ELO_60).llr_trinomial(6, 2, 2)
    assert llr == pytest.approx(10 * 0.1 * (1.4 - 1.1) / (2 * 0.16), rel=1e-10)
    assert llr == pytest.approx(0.9375, rel=1e-10)
    assert Sprt(0, ELO_60).llr_trinomial(2, 2, 6) < 0


def test_the_llr_of_a_tally_is_pentanomial_once_every_pair_is_complete() -> None:
    sprt, tally = Sprt(0, ELO_55), Tally()
    for pair, scores in enumerate([(0, 0), (0, .5), (.5, 0), (.5, .5), (1, 0), (0, 1),
                                   (1, .5), (.5, 1), (1, 1), (1, 1)]):
        tally.add(pair, scores[0])
        tally.add(pair, scores[1])
    assert tally.stats().pairs == (1, 2, 3, 2, 2)
    assert sprt.llr(tally.stats()) == pytest.approx(5 / 39, rel=1e-10)
    tally.add(10, 1.0)  # a pair cut short: the games count one by one
    assert sprt.llr(tally.stats()) == sprt.llr_trinomial(9, 6, 6) != 5 / 39
    assert sprt.llr(trinomial(6, 2, 2)) == sprt.llr_trinomial(6, 2, 2)


def test_samples_without_variance_use_the_exact_likelihood_ratio() -> None:
    sprt = Sprt(0, ELO_60)
    # Every pair won: the likeliest mean-s distribution gives "won" the probability s.
    assert sprt.llr_pentanomial([0, 0, 0, 0, 20]) == pytest.approx(20 * math.log(1.2), rel=1e-12)
    assert sprt.llr_trinomial(1, 0, 0) == pytest.approx(math.log(1.2), rel=1e-12)
    # Every pair split: 1/2 has probability 1 under H0, 2 (1 - 0.6) under H1.
    assert sprt.llr_pentanomial([0, 0, 7, 0, 0]) == pytest.approx(7 * math.log(0.8), rel=1e-12)
    assert sprt.llr_trinomial(0, 0, 3) == pytest.approx(3 * math.log(0.4 / 0.5), rel=1e-12)
    # Hypotheses symmetric around 1/2: splits favour neither.
    assert Sprt(-10, 10).llr_pentanomial([0, 0, 9, 0, 0]) == pytest.approx(0, abs=1e-12)
    assert sprt.llr_pentanomial([0] * 5) == 0.0 and sprt.llr_trinomial(0, 0, 0) == 0.0


def test_a_sweep_ends_in_h1() -> None:
    sprt = Sprt(0, 10)
    per_pair = math.log(score_from_elo(10) / 0.5)
    needed = math.ceil(sprt.upper / per_pair)
    assert sprt.decision(sprt.llr_pentanomial([0, 0, 0, 0, needed - 1])) is None
    assert sprt.decision(sprt.llr_pentanomial([0, 0, 0, 0, needed])) == "H1"
    assert needed == 104


def simulate(true_elo: float, sprt: Sprt, seed: int) -> tuple[str | None, int, list[int]]:
    """Pairs of independent games (30 % draws, the score of `true_elo`) until the SPRT
    decides: the decision, the pairs played and their pentanomial counts."""
    rng = random.Random(seed)
    win = score_from_elo(true_elo) - 0.15
    counts = [0] * 5
    for played in range(1, 5001):
        pair = sum(2 if u < win else 1 if u < win + 0.3 else 0
                   for u in (rng.random(), rng.random()))
        counts[pair] += 1
        decision = sprt.decision(sprt.llr_pentanomial(counts))
        if decision is not None:
            return decision, played, counts
    return None, 5000, counts


def test_a_stronger_player_is_accepted_at_the_upper_bound() -> None:
    sprt = Sprt(0, 10)
    decision, played, counts = simulate(40, sprt, seed=1)
    assert (decision, played, counts) == ("H1", 521, [53, 96, 164, 125, 83])
    assert sprt.llr_pentanomial(counts) == pytest.approx(2.959456781, rel=1e-9)
    before = counts.copy()
    before[3] -= 1  # the last pair scored 3/2: one pair earlier, no decision yet
    assert sprt.decision(sprt.llr_pentanomial(before)) is None


def test_a_weaker_player_is_rejected_at_the_lower_bound() -> None:
    decision, played, counts = simulate(-20, Sprt(0, 10), seed=1)
    assert (decision, played, counts) == ("H0", 403, [64, 88, 137, 74, 40])


def test_bad_tests_are_refused() -> None:
    with pytest.raises(ValueError, match=r"elo1 \(0\) must be greater than its elo0 \(10\)"):
        Sprt(10, 0)
    with pytest.raises(ValueError, match="must be greater"):
        Sprt(5, 5)
    for alpha in (0.0, 0.5, -0.1, math.nan):
        with pytest.raises(ValueError, match=f"alpha is an error rate between 0 and 0.5 .*{alpha}"):
            Sprt(0, 5, alpha=alpha)
    with pytest.raises(ValueError, match="beta is an error rate"):
        Sprt(0, 5, beta=0.7)
    for elo in (math.inf, math.nan, 1e6):
        with pytest.raises(ValueError, match="elo1 is a finite Elo difference"):
            Sprt(0, elo)
    with pytest.raises(ValueError, match="five numbers"):
        Sprt(0, 5).llr_pentanomial([1, 2, 3])
    with pytest.raises(ValueError, match="0 or more"):
        Sprt(0, 5).llr_trinomial(1, -1, 0)
