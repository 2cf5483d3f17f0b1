"""zerosum.ratings: the figures of a match, checked against values worked out by hand,
and the Tally that collects them; bench/matchlib.py, which plays the pairs of games
behind them. Ratings of many players: test_ratings_bradley_terry.py; the SPRT:
test_ratings_sprt.py."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.ratings import (
    Z95,
    Tally,
    elo_from_score,
    normal_cdf,
    pair_counts,
    pentanomial,
    score_from_elo,
    trinomial,
)


def test_an_even_match_is_elo_0_with_the_sample_standard_error() -> None:
    m = trinomial(50, 0, 50)
    assert m.score == 0.5 and m.elo == 0.0 and m.los == 0.5
    # 100 games of +-1/2 around the mean: variance 100 * 1/4 / 99, standard error over 100.
    assert m.stderr == pytest.approx(0.5 / math.sqrt(99), rel=1e-12)
    assert m.low == pytest.approx(0.5 - Z95 * 0.5 / math.sqrt(99), rel=1e-12)
    assert m.elo_low == pytest.approx(-m.elo_high, rel=1e-12)
    assert m.summary() == "50W 0D 50L of 100: score 50.0 % ± 9.8 %, Elo +0 ± 69, LOS 50.0 %"


def test_the_mcts_bench_match_26_3_51() -> None:
    m = trinomial(26, 3, 51)
    assert m.score == 27.5 / 80
    # Deviations 21/32, 5/32, 11/32 from the mean 11/32... of 26, 3 and 51 games.
    squares = (26 * 21**2 + 3 * 5**2 + 51 * 11**2) / 32**2
    assert m.stderr == pytest.approx(math.sqrt(squares / 79 / 80), rel=1e-12)
    assert m.elo == pytest.approx(-400 * math.log10(21 / 11), rel=1e-12)
    assert m.elo_low == pytest.approx(elo_from_score(m.score - Z95 * m.stderr), rel=1e-12)
    assert m.los == pytest.approx(normal_cdf(-25 / math.sqrt(77)), rel=1e-12)
    assert m.summary() == "26W 3D 51L of 80: score 34.4 % ± 10.3 %, Elo -112 ± 81, LOS 0.2 %"


def test_elo_of_known_scores_and_round_trips() -> None:
    assert elo_from_score(10 / 11) == pytest.approx(400.0, rel=1e-12)  # odds 10:1
    assert elo_from_score(1 / 11) == pytest.approx(-400.0, rel=1e-12)
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3), rel=1e-12)
    assert score_from_elo(0.0) == 0.5
    assert score_from_elo(400.0) == pytest.approx(10 / 11, rel=1e-12)
    for elo in (-800.0, -112.3, -1.0, 0.0, 35.0, 191.0, 700.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)
    for score in (0.01, 0.2, 0.5, 0.9, 0.999):
        assert score_from_elo(elo_from_score(score)) == pytest.approx(score, rel=1e-12)


def test_scores_of_0_and_1_are_infinite_and_others_are_refused() -> None:
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert str(elo_from_score(0.5)) == "0.0"  # not -0.0
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="between 0 and 1"):
            elo_from_score(bad)
    with pytest.raises(ValueError, match="0 or more"):
        trinomial(1, -1, 0)


def test_every_game_won_or_lost() -> None:
    won = trinomial(10, 0, 0)
    # No spread in the sample is not certainty: the variance is that of one virtual game
    # spread over win, draw and loss, (0 + 1/4 + 1) / 3 / 10, for a mean of 10 games.
    assert (won.score, won.elo) == (1.0, math.inf)
    assert won.stderr == pytest.approx(math.sqrt(1.25 / 3 / 10 / 10), rel=1e-12)
    assert won.elo_low == pytest.approx(elo_from_score(1 - Z95 * won.stderr), rel=1e-12)
    assert won.los == pytest.approx(normal_cdf(math.sqrt(10)), rel=1e-12)
    assert won.summary() == "10W 0D 0L of 10: score 100.0 % ± 12.7 %, Elo +inf, LOS 99.9 %"
    lost = trinomial(0, 0, 3)  # LOS: Phi(-sqrt 3)
    assert lost.summary() == "0W 0D 3L of 3: score 0.0 % ± 42.2 %, Elo -inf, LOS 4.2 %"


def test_an_interval_reaching_1_shows_its_infinite_end() -> None:
    m = trinomial(9, 0, 1)
    # Deviations 0.1 (9 games) and 0.9 (1): variance 0.9 / 9, standard error 0.1.
    assert m.stderr == pytest.approx(0.1, rel=1e-12)
    assert (m.high, m.elo_high) == (1.0, math.inf)
    assert m.elo_low == pytest.approx(elo_from_score(0.9 - Z95 * 0.1), rel=1e-12)
    assert m.summary() == "9W 0D 1L of 10: score 90.0 % ± 19.6 %, Elo +382 [+151, +inf], " \
        "LOS 99.4 %"


def test_too_few_games_for_a_margin() -> None:
    one = trinomial(0, 1, 0)
    assert one.stderr == math.inf and (one.low, one.high) == (0.0, 1.0)
    assert (one.elo_low, one.elo_high) == (-math.inf, math.inf) and one.los == 0.5
    assert one.summary() == "0W 1D 0L of 1: score 50.0 % ± ?, Elo +0 [-inf, +inf], LOS 50.0 %"
    assert trinomial(0, 0, 0).summary() == "0W 0D 0L of 0: no games"


def test_pentanomial_by_hand() -> None:
    # 10 pairs scoring 0, 1/2 (2), 1 (3), 3/2 (2), 2 (2): per game 0, .25, .5, .75, 1.
    m = pentanomial([1, 2, 3, 2, 2], 8, 6, 6)
    assert m.score == pytest.approx(0.55, rel=1e-12)
    squares = 0.55**2 + 2 * 0.3**2 + 3 * 0.05**2 + 2 * 0.2**2 + 2 * 0.45**2
    assert m.stderr == pytest.approx(math.sqrt(squares / 9 / 10), rel=1e-12)
    assert m.los == pytest.approx(normal_cdf(0.05 / m.stderr), rel=1e-12)
    assert m.summary() == ("8W 6D 6L of 20, pairs (0 ½ 1 1½ 2) 1 2 3 2 2: score 55.0 % "
                           "± 20.4 %, Elo +35 ± 153, LOS 68.5 %")


def test_pairs_that_each_split_have_little_variance_where_single_games_much() -> None:
    pairs = pentanomial([0, 0, 10, 0, 0], 10, 0, 10)  # every opening won by the same side
    # none seen, but never claimed none: one virtual pair spread over the five scores,
    # (1/4 + 1/16 + 0 + 1/16 + 1/4) / 5 / 10, for a mean of 10 pairs
    assert (pairs.score, pairs.los) == (0.5, 0.5)
    assert pairs.stderr == pytest.approx(math.sqrt(0.625 / 5 / 10 / 10), rel=1e-12)
    assert trinomial(10, 0, 10).stderr > 0.1 > 2 * pairs.stderr
    assert pentanomial([0, 0, 5, 0, 0], 5, 0, 5).summary() == (
        "5W 0D 5L of 10, pairs (0 ½ 1 1½ 2) 0 0 5 0 0: score 50.0 % ± 13.9 %, Elo +0 ± 99, "
        "LOS 50.0 %")
    swept = pentanomial([0, 0, 0, 0, 3], 6, 0, 0)  # three pairs won: likely, not certain
    assert swept.los == pytest.approx(normal_cdf(0.5 / swept.stderr), rel=1e-12)
    assert swept.los < 0.995
    lone = pentanomial([1, 0, 0, 0, 0], 0, 0, 2)  # one pair: no variance to estimate
    assert lone.stderr == math.inf and math.isnan(lone.los)
    assert lone.summary() == \
        "0W 0D 2L of 2, pairs (0 ½ 1 1½ 2) 1 0 0 0 0: score 0.0 % ± ?, Elo -inf, LOS ?"


def test_pentanomial_counts_must_be_the_games() -> None:
    with pytest.raises(ValueError, match="not the games"):
        pentanomial([1, 2, 3, 2, 2], 9, 6, 5)
    with pytest.raises(ValueError, match="five numbers"):
        pentanomial([1, 2, 3], 3, 0, 3)
    assert pentanomial([0] * 5, 0, 0, 0).summary() == \
        "0W 0D 0L of 0, pairs (0 ½ 1 1½ 2) 0 0 0 0 0: no games"


def test_pair_counts() -> None:
    assert pair_counts([2, 1, 1.5, 0.5, 1]) == (0, 1, 2, 1, 1)
    with pytest.raises(ValueError, match=r"not 0\.75"):
        pair_counts([0.75])


# ------------------------------------ bench/matchlib.py, which feeds these figures


def load_matchlib() -> Any:
    path = Path(__file__).resolve().parents[1] / "bench" / "matchlib.py"
    spec = importlib.util.spec_from_file_location("matchlib", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["matchlib"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


matchlib = load_matchlib()


@dataclass
class Pick:
    """Plays the first (or the last) legal square: tic-tac-toe games worked out by hand."""

    name: str
    last: bool

    def choose(self, game: Any, state: Any, moves: Sequence[Any]) -> Any:
        return game.actions(state)[-1 if self.last else 0]


def test_a_pair_plays_each_side_once_and_scores_for_a() -> None:
    records: list[Any] = []
    # Empty board: first-as-X 0 1 2 beats last-as-O 8 7; then last-as-X 8 7 6 beats
    # first-as-O 0 1. After X in the centre: O 8 7 6 (last) beats X 0 1 (first), and
    # O 0 1 2 (first) beats X 8 7 (last). A (first) wins, loses, loses, wins.
    tally = matchlib.play_pairs(TicTacToe, lambda: (Pick("first", False), Pick("last", True)),
                                [[], [4]], records.append)
    assert [(r.number, r.pair, r.a_is_max, r.result) for r in records] == [
        (1, 0, True, "win"), (2, 0, False, "loss"), (3, 1, True, "loss"), (4, 1, False, "win")]
    assert [len(r.moves) for r in records] == [5, 5, 6, 6]
    assert isinstance(tally, Tally) and tally.stats().pairs == (0, 0, 2, 0, 0)
    assert tally.summary().startswith("2W 0D 2L of 4, pairs (0 ½ 1 1½ 2) 0 0 2 0 0: score 50.0 %")


def test_a_tally_with_a_lone_game_is_trinomial() -> None:
    tally = Tally()
    for pair, score in [(0, 1.0), (0, 0.5), (1, 0.0)]:
        tally.add(pair, score)
    assert tally.counts() == (1, 1, 1) and tally.stats() == trinomial(1, 1, 1)
    tally.add(1, 1.0)
    assert tally.stats() == pentanomial([0, 0, 1, 1, 0], 2, 1, 1)
    with pytest.raises(ValueError, match=r"1, 0\.5 or 0"):
        tally.add(2, 0.25)


def test_openings_are_distinct_while_there_are_fresh_ones() -> None:
    openings = matchlib.random_openings(TicTacToe(), 1, 10, random.Random(1))
    assert sorted(o[0] for o in openings[:9]) == list(range(9)) and len(openings) == 10
    two = matchlib.random_openings(TicTacToe(), 2, 4, random.Random(7))
    assert len({tuple(o) for o in two}) == 4 and all(len(o) == 2 for o in two)
