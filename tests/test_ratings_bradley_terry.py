"""zerosum.ratings.bradley_terry: ratings of many players, checked against closed forms
(two players, a chain of players), against a Newton fit written here on its own, and
against the likelihood equations the maximum solves."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from zerosum.ratings import Z95, Rating, bradley_terry

ELO = 400 / math.log(10)  # Elo per natural unit of strength

Game = tuple[str, str, float]


def results(a: str, b: str, wins: int, draws: int, losses: int) -> list[Game]:
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


def by_name(ratings: Sequence[Rating]) -> dict[str, Rating]:
    return {r.name: r for r in ratings}


def test_two_players_30_10_is_the_logistic_elo_of_a_75_percent_score() -> None:
    a, b = bradley_terry(results("A", "B", 30, 0, 10), prior_draws=0)
    half = 200 * math.log10(3)  # 400 log10(3) apart, mean 0: +95.4 and -95.4
    assert (a.name, b.name) == ("A", "B")
    assert a.elo == pytest.approx(half, rel=1e-10) and b.elo == pytest.approx(-half, rel=1e-10)
    assert (a.games, a.points, b.games, b.points) == (40, 30.0, 40, 10.0)
    assert round(a.elo, 1) == 95.4


def test_two_players_interval_is_the_binomial_one() -> None:
    a, b = bradley_terry(results("A", "B", 30, 0, 10), prior_draws=0)
    # The difference has variance 1 / (n p (1 - p)); each centred rating carries half
    # the difference, so half its standard deviation.
    sd_difference = math.sqrt(1 / (40 * 0.75 * 0.25))
    margin = Z95 * sd_difference / 2 * ELO
    assert a.high - a.elo == pytest.approx(margin, rel=1e-9)
    assert a.elo - a.low == pytest.approx(margin, rel=1e-9)
    assert b.high - b.elo == pytest.approx(margin, rel=1e-9)
    assert round(margin, 2) == 62.16


def test_a_chain_of_players_has_each_link_s_own_difference() -> None:
    # A and C never met: the likelihood splits into the two matches, each exact.
    games = results("A", "B", 30, 0, 10) + results("C", "B", 2, 4, 14)  # C scores 4 of 20
    r = by_name(bradley_terry(games, prior_draws=0))
    assert r["A"].elo - r["B"].elo == pytest.approx(400 * math.log10(3), rel=1e-10)
    assert r["B"].elo - r["C"].elo == pytest.approx(400 * math.log10(4), rel=1e-10)
    assert sum(x.elo for x in r.values()) == pytest.approx(0, abs=1e-9)
    assert [x.name for x in bradley_terry(games, 0)] == ["A", "B", "C"]


def newton_fit(games: Sequence[Game], prior: float) -> dict[str, float]:
    """Three players' maximum-likelihood strengths by Newton's method, C held at 0 and
    the 2 x 2 system solved by Cramer's rule, then centred; the prior's draws added as
    half a point each way per pair that met."""
    names = ["A", "B", "C"]
    w = {(x, y): 0.0 for x in names for y in names}
    n = dict(w)
    for a, b, s in games:
        w[a, b] += s
        w[b, a] += 1 - s
        n[a, b] += 1
        n[b, a] += 1
    for key in list(n):
        if n[key]:
            w[key] += prior / 2
            n[key] += prior
    r = {x: 0.0 for x in names}
    for _ in range(60):
        p = {(x, y): 1 / (1 + math.exp(r[y] - r[x])) for x in names for y in names}
        g = {x: sum(w[x, y] - n[x, y] * p[x, y] for y in names) for x in names}
        c = {k: n[k] * p[k] * (1 - p[k]) for k in n}
        haa, hbb, hab = c["A", "B"] + c["A", "C"], c["B", "A"] + c["B", "C"], -c["A", "B"]
        det = haa * hbb - hab * hab
        r["A"] += (g["A"] * hbb - hab * g["B"]) / det
        r["B"] += (haa * g["B"] - hab * g["A"]) / det
    mean = sum(r.values()) / 3
    return {x: (v - mean) * ELO for x, v in r.items()}


@pytest.mark.parametrize("prior", [0.0, 1.0, 3.0])
def test_three_transitive_players_match_a_newton_fit(prior: float) -> None:
    games = (results("A", "B", 5, 2, 3) + results("B", "C", 6, 3, 1)
             + results("A", "C", 7, 1, 2))
    expected = newton_fit(games, prior)
    got = bradley_terry(games, prior)
    assert [x.name for x in got] == ["A", "B", "C"]
    for rating in got:
        assert rating.elo == pytest.approx(expected[rating.name], abs=1e-8)
    assert [round(x.elo) for x in bradley_terry(games, 0.0)] == [89, 39, -128]


def test_the_ratings_solve_the_likelihood_equations() -> None:
    # At the maximum every player's expected points equal the points scored (the
    # prior's half points included): a check that needs no fitting of its own.
    rng = random.Random(5)
    names = ["ab", "mcts", "greedy", "random", "minimax", "pvs"]
    games: list[Game] = [(a, b, rng.choice([1.0, 0.5, 0.0, 1.0]))
                         for _ in range(6) for a in names for b in names if a < b]
    ratings = by_name(bradley_terry(games, prior_draws=2))
    for a in names:
        expected = scored = 0.0
        for b in names:
            if a != b:
                p = 1 / (1 + 10 ** ((ratings[b].elo - ratings[a].elo) / 400))
                expected += (6 + 2) * p  # six games and two virtual draws
                scored += 1.0  # the prior's two half points
        assert expected - scored == pytest.approx(ratings[a].points, abs=1e-9)
        assert ratings[a].games == 30
    assert sum(r.elo for r in ratings.values()) == pytest.approx(0, abs=1e-9)


def test_symmetric_results_rate_everyone_0_and_sort_by_name() -> None:
    # A beats B, B beats C and C beats A by the same margin: nobody is ahead.
    games = results("A", "B", 3, 0, 1) + results("B", "C", 3, 0, 1) + results("C", "A", 3, 0, 1)
    ratings = bradley_terry(games)
    assert [(x.name, x.elo) for x in ratings] == [("A", 0.0), ("B", 0.0), ("C", 0.0)]
    assert ratings[0].high == pytest.approx(ratings[2].high, rel=1e-12)
    assert ratings[0].high > 0
    assert ratings[0].low == pytest.approx(-ratings[0].high, rel=1e-12)


def test_the_prior_keeps_a_sweep_finite_and_symmetric() -> None:
    # One virtual draw: A has 10.5 points of 11, B 0.5, so they are ln 21 apart.
    a, b = bradley_terry(results("A", "B", 10, 0, 0), prior_draws=1)
    assert a.elo == pytest.approx(200 * math.log10(21), rel=1e-10)
    assert b.elo == -a.elo
    assert (a.low, a.high) == pytest.approx((-b.high, -b.low), rel=1e-12)
    assert (a.points, b.points) == (10.0, 0.0)
    assert math.isfinite(a.high) and a.low > 0


def test_a_random_player_among_engines_stays_finite() -> None:
    games = (results("random", "e1", 0, 0, 50) + results("random", "e2", 0, 0, 50)
             + results("e1", "e2", 25, 10, 5))
    r = by_name(bradley_terry(games))
    assert r["random"].elo < -500 and math.isfinite(r["random"].low)
    assert r["e1"].elo > r["e2"].elo > r["random"].high
    assert sum(x.elo for x in r.values()) == pytest.approx(0, abs=1e-9)


def test_no_maximum_likelihood_without_the_prior() -> None:
    with pytest.raises(ValueError, match=r"^A won every game they played against the other"):
        bradley_terry(results("A", "B", 10, 0, 0), prior_draws=0)
    # A and B split their games, and both beat C every time: they are the group.
    games = results("A", "B", 2, 1, 2) + results("A", "C", 3, 0, 0) + results("B", "C", 3, 0, 0)
    with pytest.raises(ValueError, match=r"^A, B won every game"):
        bradley_terry(games, prior_draws=0)
    a, b, c = bradley_terry(games, prior_draws=0.5)  # A and B equal: by name
    assert (a.name, b.name, c.name) == ("A", "B", "C")
    assert a.elo == pytest.approx(b.elo, abs=1e-9) and a.elo > 0 > c.elo


def test_players_never_linked_by_games_are_named() -> None:
    games = results("A", "B", 2, 0, 1) + results("B", "C", 1, 1, 1) + results("D", "E", 1, 0, 0)
    with pytest.raises(ValueError, match=r"^D, E never played anyone linked by games to "
                                          r"A, B, C: ratings only compare"):
        bradley_terry(games)


def test_bad_games_and_priors_are_refused() -> None:
    assert bradley_terry([]) == []
    with pytest.raises(ValueError, match="A cannot play a rated game against itself"):
        bradley_terry([("A", "A", 1.0)])
    for score in (1.5, -0.5, math.nan):
        with pytest.raises(ValueError, match=f"not {score} \\(A against B\\)"):
            bradley_terry([("A", "B", score)])
    for prior in (-1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="prior draws are 0 or more"):
            bradley_terry([("A", "B", 1.0)], prior_draws=prior)
