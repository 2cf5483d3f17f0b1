"""Samuel's checkers (zerosum.learn.samuel): the engine's evaluation terms as its
features, TD-Leaf's leaf, seeded and resumed runs, the weights file and the learned
player (the engine with the learned weights)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main
from zerosum.game import InputError
from zerosum.games.checkers.engine import CheckersKernel, Memory
from zerosum.games.checkers.evaluation import WEIGHTS, score, to_utility_scale
from zerosum.games.checkers.rules import Checkers
from zerosum.games.registry import get_game
from zerosum.kernel import Weighted
from zerosum.learn import train as train_module
from zerosum.learn import weights as weights_file
from zerosum.learn.methods import new_learner
from zerosum.learn.samuel import (
    FEATURES,
    SEARCHED,
    SamuelLearner,
    Settings,
    engine_weights,
    features,
)
from zerosum.learn.train import train
from zerosum.learn.weights import Weights
from zerosum.match import play_match
from zerosum.players.spec import agent_from_spec
from zerosum.result import Limit
from zerosum.search.driver import analyse_with

CHECKERS = get_game("checkers")
KNOWN = "B:W14,17:B1,K10"  # 6x6: a black man and king against two white men


@pytest.fixture(autouse=True)
def ungraded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs here train ungraded (6x6 is refused at once; a 4x4 grade takes seconds)."""
    monkeypatch.setattr(train_module, "grade_sample", lambda *args: [])


def trained(tmp_path: Path, size: int = 6, games: int = 6, seed: int = 1,
            name: str = "s.zsnet") -> Path:
    out = tmp_path / name
    train(CHECKERS, CHECKERS.create(size=size), {"size": size}, "samuel", out, games=games,
          seed=seed, settings={"depth": 1}, checkpoint_seconds=1e9)
    return out


def test_features_of_a_known_position() -> None:
    game = Checkers(size=6)
    state = game.from_fen(KNOWN)
    got = dict(zip(FEATURES, features(game, state), strict=True))
    # Black is ahead (a king, 140, for a man, 100) with 4 of 12 pieces left: trading
    # counts the 8 gone; the king (row 3, column 0) is 2 king steps from the man on 17;
    # steps: black 1 + 4, white 4; white's man on 14 is a row advanced.
    assert got == {"man": -1, "king": 1, "advance": -1, "back_row": 0, "centre": 0,
                   "king_centre": 0, "mobility": 1, "trade": 8, "chase": -2}
    assert score(game.board, state.black, state.white, state.kings) == \
        sum(w * f for w, f in zip(WEIGHTS, got.values(), strict=True)) == 59
    # Under weights where a king is worth less than a man, Black is behind.
    assert features(game, state, (100, 90, *WEIGHTS[2:]))[7:] == [-8, 0]
    assert features(game, game.initial_state()) == [0] * len(FEATURES)


def test_the_engine_is_given_the_weights_scaled_to_a_man_of_100() -> None:
    assert engine_weights([w * 2.5 for w in WEIGHTS]) == WEIGHTS
    assert engine_weights([50.0, 75.0, 1.2, 0, 0, 0, 0, 0, -0.6]) == \
        (100, 150, 2, 0, 0, 0, 0, 0, -1)
    assert engine_weights([-1.0, 2.4, *[0.0] * 7])[:2] == (-1, 2)


def test_the_search_value_is_the_quiet_pv_leafs_value() -> None:
    # TD-Leaf trains the leaf because the search's value is the leaf's evaluation;
    # here a capture is due past the depth, so the leaf is the quiescence's.
    game = Checkers(size=8)
    state = game.from_fen("W:W18,22,23,27:B9,10,11,14")
    learner = SamuelLearner(CHECKERS, game, Settings(depth=2))
    action, value, leaf = learner.search(state)
    assert action in game.actions(state) and not game.has_capture(leaf)
    black = to_utility_scale(score(game.board, leaf.black, leaf.white, leaf.kings))
    assert value == pytest.approx(black if game.is_maxs_turn(state) else -black)


def test_learned_weights_search_alike_in_python_and_c() -> None:
    # The engine with other weights: the compiled twin's search is the Python's, node
    # for node (a machine without a compiler plays the same moves).
    game = Checkers(size=8)
    learned = Weighted(game, (100, 170, 5, 4, 9, 2, 3, 1, 6))
    state = game.from_fen("B:W18,21,22,23,25,27,30:B1,5,9,10,11,14,K26")
    results = [analyse_with(lambda g, s, stop, e, n=native: CheckersKernel(
        g, s, stop, e, Memory(g), native=n), learned, state, Limit(depth=5))
        for native in (True, False)]
    assert [(r.action, r.pv, r.value, r.stats.nodes) for r in results[:1]] == \
        [(r.action, r.pv, r.value, r.stats.nodes) for r in results[1:]]
    plain = analyse_with(CHECKERS.kernel, game, state, Limit(depth=5))  # type: ignore[arg-type]
    assert plain.value != results[0].value  # the weights were used


def test_the_same_seed_gives_the_same_weights(tmp_path: Path) -> None:
    a, b, c = (weights_file.read(trained(tmp_path, seed=s, name=f"{i}.zsnet"))
               for i, s in enumerate((4, 4, 5)))
    assert a.arrays["weights"] == b.arrays["weights"] != c.arrays["weights"]
    assert list(a.arrays["weights"]) != list(WEIGHTS)
    assert a.header["features"] == list(FEATURES) and a.header["board"] == 6
    assert a.header["run"]["games"] == 6 and a.header["grade"] == []


def test_a_resumed_run_continues_the_same(tmp_path: Path) -> None:
    whole = weights_file.read(trained(tmp_path, games=4, seed=3, name="whole.zsnet"))
    part = trained(tmp_path, games=2, seed=3, name="part.zsnet")
    train(CHECKERS, CHECKERS.create(size=6), {"size": 6}, "samuel", part, games=4, seed=3,
          resume=True, settings={"depth": 1}, checkpoint_seconds=1e9)
    assert weights_file.read(part).arrays["weights"] == whole.arrays["weights"]


def test_td_leaf_rewards_the_winners_material() -> None:
    # A game Black wins, each leaf a man up for Black but valued at 0 by the weights
    # (all 0: no side is ahead, so trading and chasing count nothing).
    game = Checkers(size=6)
    learner = SamuelLearner(CHECKERS, game, Settings(lam=1.0, alpha=0.5),
                            [0.0] * len(FEATURES))
    ahead = game.from_fen("W:W16:B1,3")
    won = game.from_fen("W:W:B1,3")
    learner._leaves = [ahead, ahead]
    learner.learn([ahead, won], [False, False])
    f = features(game, ahead, [0.0] * len(FEATURES))
    assert f == [1, 0, 0, 1, 0, 0, 2, 0, 0] and game.utility(won) > 0
    # V was 0 at both leaves, the target 1 (the result): step = alpha * SCALE *
    # sum(h) / (sum(h^2) + PRIOR) for each term, h = f (1 - 0).
    from zerosum.learn.samuel import PRIOR, SCALE

    assert list(learner.weights) == pytest.approx(
        [0.5 * SCALE * 2 * x / (2 * x * x + PRIOR) for x in f])


def test_the_pull_is_a_prior_toward_the_hand_written_weights() -> None:
    # The game of the test above, learned with a prior worth 20 leaves that the weights
    # are the hand-written ones: each step is the ridge fit's, alpha of the way.
    from zerosum.learn.samuel import PRIOR, SCALE

    game = Checkers(size=6)
    learner = SamuelLearner(CHECKERS, game, Settings(lam=1.0, alpha=0.5, pull=20.0),
                            [0.0] * len(FEATURES))
    ahead = game.from_fen("W:W16:B1,3")
    learner._leaves = [ahead, ahead]
    learner.learn([ahead, game.from_fen("W:W:B1,3")], [False, False])
    f = [1, 0, 0, 1, 0, 0, 2, 0, 0]
    assert list(learner.weights) == pytest.approx(
        [0.5 * (SCALE * 2 * x + 20 * w) / (2 * x * x + PRIOR + 20)
         for x, w in zip(f, WEIGHTS, strict=True)])
    assert learner.weights[1] == pytest.approx(0.5 * 20 * 140 / 30)  # no leaf: the prior
    # A weight at the hand-written value, with nothing learned, stays there.
    learner = SamuelLearner(CHECKERS, game, Settings(pull=20.0))
    learner._leaves = [None]
    learner.learn([game.initial_state()], [True])
    assert tuple(learner.weights) == WEIGHTS


def test_a_pulled_run_of_a_fixed_seed(tmp_path: Path) -> None:
    # 4x4, depth 2, 20 games, seed 2: the weights with and without the pull (the pull
    # keeps each nearer the hand-written one).
    got = {}
    for pull in (0.0, 10.0):
        out = tmp_path / f"{pull}.zsnet"
        train(CHECKERS, CHECKERS.create(size=4), {"size": 4}, "samuel", out, games=20,
              seed=2, settings={"depth": 2, "pull": pull}, checkpoint_seconds=1e9)
        saved = weights_file.read(out)
        assert saved.header["settings"]["pull"] == pull
        got[pull] = [round(w, 6) for w in saved.arrays["weights"]]
    assert got == {
        0.0: [100.064222, 139.93077, 3.197241, 9.985471, 4.132705, 5.547358, 1.759852,
              2.969169, 1.999833],
        10.0: [100.031539, 139.954602, 3.110874, 9.988511, 4.070004, 5.634042, 1.77375,
               2.974862, 1.999911]}
    assert all(abs(p - h) <= abs(q - h) for p, q, h in zip(got[10.0], got[0.0], WEIGHTS,
                                                          strict=True))


def test_the_average_is_played_and_the_iterates_learn(tmp_path: Path) -> None:
    # 4x4, depth 2, seed 2: an averaging run learns the very iterates of a run without
    # (its self-play uses them); it saves and plays their average, the mean of the
    # first 5 games' iterates and then 1/5 of the way to each new one.
    def run(name: str, games: int, average: int, resume: bool = False) -> Weights:
        out = tmp_path / name
        train(CHECKERS, CHECKERS.create(size=4), {"size": 4}, "samuel", out, games=games,
              seed=2, resume=resume, settings={"depth": 2, "average": average},
              checkpoint_games=1, checkpoint_seconds=1e9)
        return weights_file.read(out)

    plain, averaged = run("plain.zsnet", 12, 0), run("avg.zsnet", 12, 5)
    iterates = [[h["weights"][f] for f in FEATURES] for h in plain.header["run"]["history"]]
    assert len(iterates) == 12
    assert averaged.arrays["iterate"] == plain.arrays["weights"]
    mean = list(iterates[0])
    for n, w in enumerate(iterates[1:], start=2):
        mean = [m + (x - m) / min(n, 5) for m, x in zip(mean, w, strict=True)]
    assert list(averaged.arrays["weights"]) == pytest.approx(mean, abs=1e-5)
    assert [averaged.header["run"]["history"][-1]["weights"][f] for f in FEATURES] == \
        [round(w, 6) for w in averaged.arrays["weights"]]
    # The learned player plays the average; a resumed run continues both.
    learner: Any = agent_from_spec(CHECKERS, f"learned:{tmp_path / 'avg.zsnet'}")
    assert learner.learner(Checkers(size=4)).engine_game(Checkers(size=4)) \
        .evaluation_weights == engine_weights(averaged.arrays["weights"])
    run("part.zsnet", 7, 5)
    resumed = run("part.zsnet", 12, 5, resume=True)
    assert resumed.arrays == averaged.arrays


@pytest.mark.parametrize("average", [-1, 2.5, "3"])
def test_a_bad_average_is_refused(average: Any) -> None:
    with pytest.raises(InputError, match=r"samuel's average must be a whole number of games"):
        new_learner("samuel", CHECKERS, Checkers(size=4), random.Random(0),
                    {"average": average})


@pytest.mark.parametrize("pull", [-1.0, math.nan, math.inf, "5"])
def test_a_bad_pull_is_refused(pull: Any) -> None:
    with pytest.raises(InputError, match=r"samuel's pull must be a number from 0 up, not"):
        new_learner("samuel", CHECKERS, Checkers(size=4), random.Random(0), {"pull": pull})


def test_the_train_command_refuses_a_negative_pull(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c.zsnet"
    with pytest.raises(SystemExit) as exit:
        main(["train", "checkers", "--size", "4", "--depth", "1", "--pull", "-3",
              "--games", "2", "--out", str(out)])
    assert exit.value.code == 2
    assert capsys.readouterr().err == (
        "zerosum train checkers: error: argument --pull: must be a number from 0 to "
        "1,000,000,000, not '-3' (see zerosum train checkers --help)\n")
    assert not out.exists()


def test_samuel_learns_checkers_only() -> None:
    with pytest.raises(InputError, match="learns checkers only"):
        new_learner("samuel", get_game("connect4"), get_game("connect4").create(),
                    random.Random(0))
    with pytest.raises(InputError, match="ntuple has no setting 'depth'"):
        new_learner("ntuple", get_game("tictactoe"), get_game("tictactoe").create(),
                    random.Random(0), {"depth": 2})


def test_weights_for_another_board_are_refused(tmp_path: Path) -> None:
    path = trained(tmp_path, games=1)
    with pytest.raises(InputError, match="is for a 6x6 board, not 8x8"):
        agent: Any = agent_from_spec(CHECKERS, f"learned:{path}")
        agent.learner(CHECKERS.create(size=8))


def test_learned_weights_are_played_by_the_engine(tmp_path: Path) -> None:
    path = trained(tmp_path, games=2)
    game = Checkers(size=6)
    learned: Any = agent_from_spec(CHECKERS, f"learned,depth=3:{path}")
    state = game.initial_state()
    result = learned.analyse(game, state)
    assert result.algorithm == "engine, samuel weights"
    saved = weights_file.read(path).arrays["weights"]
    by_hand = analyse_with(CHECKERS.kernel, Weighted(game, engine_weights(saved)),  # type: ignore[arg-type]
                           state, Limit(depth=3))
    assert (result.action, result.value, result.stats.nodes) == \
        (by_hand.action, by_hand.value, by_hand.stats.nodes)
    hand = agent_from_spec(CHECKERS, "engine:depth=3")
    record = play_match(game, [learned, hand])
    assert record.moves and record.utility in (-1.0, 0.0, 1.0)


def test_on_4x4_the_learned_weights_search_with_the_solution_off(tmp_path: Path) -> None:
    """4x4: the engine reads the solution whatever its weights, unless `off=solution`;
    then it searches with the learned ones (the 4x4 grades of docs/learning.md)."""
    path = trained(tmp_path, size=4, games=3)
    game = Checkers(size=4)
    state = game.initial_state()
    exact: Any = agent_from_spec(CHECKERS, f"learned,depth=2:{path}")
    assert exact.analyse(game, state).decided
    learned: Any = agent_from_spec(CHECKERS, f"learned,depth=2,off=solution:{path}")
    result = learned.analyse(game, state)
    saved = weights_file.read(path).arrays["weights"]
    by_hand = analyse_with(CHECKERS.kernel, Weighted(game, engine_weights(saved)),  # type: ignore[arg-type]
                           state, Limit(depth=2), enhancements=SEARCHED)
    assert not result.decided and result.depth == 2
    assert (result.action, result.value, result.stats.nodes) == \
        (by_hand.action, by_hand.value, by_hand.stats.nodes)
    for spec in (f"learned,mcts=5,off=solution:{path}", f"learned,off=solution:{path}"):
        with pytest.raises(InputError, match=r"off=\.\.\. switches off enhancements of a "
                           r"game's engine, which only a texel or samuel file with a depth"):
            agent: Any = agent_from_spec(CHECKERS, spec)
            agent.analyse(game, state)
    with pytest.raises(InputError, match="no enhancement 'exact'"):
        agent_from_spec(CHECKERS, f"learned,depth=2,off=exact:{path}")


def test_a_file_of_the_old_features_is_refused(tmp_path: Path) -> None:
    path = trained(tmp_path, games=1)
    w = weights_file.read(path)
    old = ["men", "kings", "mobility", "centre", "back_rank", "advancement", "attackers",
           "turn"]
    weights_file.write(path, Weights({**w.header, "features": old},
                                     {"weights": w.arrays["weights"][:8]}))
    with pytest.raises(InputError, match=r"its features are not the checkers engine's .*"
                       r"train it again"):
        agent: Any = agent_from_spec(CHECKERS, f"learned:{path}")
        agent.learner(Checkers(size=6))


def test_train_command_offers_samuel_for_checkers(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c.zsnet"
    status = main(["train", "checkers", "--size", "6", "--method", "samuel", "--depth", "1",
                   "--games", "2", "--out", str(out)])
    said, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert said.splitlines()[-1] == f"saved {out}: 2 games"
    assert weights_file.read(out).header["settings"]["depth"] == 1


def test_the_history_keeps_the_weights_and_the_plot_draws_them(tmp_path: Path) -> None:
    out = tmp_path / "s.zsnet"
    saved = train(CHECKERS, CHECKERS.create(size=6), {"size": 6}, "samuel", out, games=3,
                  seed=1, settings={"depth": 1}, checkpoint_seconds=1e9, grade_positions=0)
    last = saved.header["run"]["history"][-1]
    assert last["games"] == 3 and list(last["weights"]) == list(FEATURES)
    assert [last["weights"][f] for f in FEATURES] == \
        [round(w, 6) for w in saved.arrays["weights"]]
    # The /train page's chart of them (zerosum.learn.watch.status, its data).
    from zerosum.learn.watch import status

    assert status(out)["weights"] == {
        f: [[h["games"], h["weights"][f]] for h in saved.header["run"]["history"]]
        for f in FEATURES}
    pytest.importorskip("matplotlib")
    from zerosum.learn.curve import plot_curve

    png = tmp_path / "weights.png"
    plot_curve(saved.header["run"]["history"], png, "samuel")
    assert png.read_bytes().startswith(b"\x89PNG\r\n")


def test_a_checkpoints_grade_is_the_engines() -> None:
    """The trainer grades a checkpoint by the learner's own search, each position from
    a fresh start as `zerosum grade` grades a player: with the hand-written weights, the
    engine's grade (the table kept from one position to the next once made it 4, not 5)."""
    from zerosum.learn import grade as grading

    game = Checkers(size=4)
    rows = grading.labelled(CHECKERS, game, grading.ALL, 300)
    learner = SamuelLearner(CHECKERS, game, Settings(depth=2))
    by_trainer = train_module.grade_learner(game, learner, [(grading.ALL, rows)])[0]
    engine: Any = agent_from_spec(CHECKERS, "engine:depth=2,off=solution")
    by_engine = grading.grade(game, grading.ALL, rows,
                              lambda g, s: engine.analyse(g, s).action)
    assert by_trainer == by_engine
    assert (by_engine.positions, by_engine.mistakes) == (300, 5)
