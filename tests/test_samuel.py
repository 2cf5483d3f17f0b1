"""Samuel's checkers (zerosum.learn.samuel): its features, TD-Leaf's leaf, seeded runs,
the weights file and the learned player."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main
from zerosum.game import InputError
from zerosum.games.checkers.rules import Checkers
from zerosum.games.registry import get_game
from zerosum.learn import weights as weights_file
from zerosum.learn.methods import new_learner
from zerosum.learn.samuel import FEATURES, INITIAL, SamuelLearner, Settings, features
from zerosum.learn.train import train
from zerosum.match import play_match
from zerosum.players.spec import agent_from_spec

CHECKERS = get_game("checkers")
KNOWN = "B:W14,17:B1,K10"  # 6x6: a black man and king against two white men


def trained(tmp_path: Path, size: int = 6, games: int = 6, seed: int = 1,
            name: str = "s.zsnet") -> Path:
    out = tmp_path / name
    # 6x6 is too big to grade on every position: the run trains ungraded, quickly.
    train(CHECKERS, CHECKERS.create(size=size), {"size": size}, "samuel", out, games=games,
          seed=seed, settings={"depth": 1}, checkpoint_seconds=1e9)
    return out


def test_features_of_a_known_position() -> None:
    game = Checkers(size=6)
    state = game.from_fen(KNOWN)
    got = dict(zip(FEATURES, features(game, state), strict=True))
    # 6 pieces a side at the start; the king on 10 is central, steps: black 1+4, white 4.
    assert got == {"men": -1 / 6, "kings": 1 / 6, "mobility": 1 / 6, "centre": 0.0,
                   "back_rank": 0.0, "advancement": -1 / 30, "attackers": 0.0,
                   "turn": 1.0}
    assert features(game, game.initial_state()) == [0.0] * 7 + [1.0]


def test_the_search_value_is_the_pv_leafs_value() -> None:
    # TD-Leaf trains the leaf because the search's value is the leaf's evaluation.
    game = Checkers(size=6)
    learner = SamuelLearner(CHECKERS, game, Settings(depth=3))
    state = game.initial_state()
    action, value, leaf = learner.search(state)
    assert action in game.actions(state)
    assert leaf.ply == 3 or game.has_capture(leaf) is False
    assert value == pytest.approx(0.999 * learner.afterstate_value(leaf))


def test_the_same_seed_gives_the_same_weights(tmp_path: Path) -> None:
    a, b, c = (weights_file.read(trained(tmp_path, seed=s, name=f"{i}.zsnet"))
               for i, s in enumerate((4, 4, 5)))
    assert a.arrays["weights"] == b.arrays["weights"] != c.arrays["weights"]
    initial = [INITIAL.get(f, 0.0) for f in FEATURES]
    assert list(a.arrays["weights"]) != initial
    assert a.header["features"] == list(FEATURES) and a.header["board"] == 6
    assert a.header["run"]["games"] == 6 and a.header["grade"] == []


def test_td_leaf_rewards_the_winners_material() -> None:
    # One game Black wins: the men weight moves toward the result at every leaf where
    # Black is a man ahead.
    game = CHECKERS.create(size=4)
    learner = SamuelLearner(CHECKERS, game, Settings(depth=1, opening=0, epsilon=0.0,
                                                     lam=1.0, alpha=0.5),
                            [0.0] * len(FEATURES))
    searcher: Any = _Searcher(learner)
    record = play_match(game, [searcher, searcher])
    states, state = [], game.initial_state()
    for move in record.moves:
        state = game.result(state, move.action)
        states.append(state)
    assert list(learner.weights) == [0.0] * len(FEATURES)
    learner.learn(states, [False] * len(states))
    assert game.utility(states[-1]) != 0
    assert list(learner.weights) != [0.0] * len(FEATURES)


class _Searcher:
    name = "searcher"

    def __init__(self, learner: SamuelLearner) -> None:
        self.learner = learner

    def choose(self, game: Any, state: Any) -> Any:
        from zerosum.match import Move

        return Move(self.learner.self_play_move(state, random.Random(0))[0])


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


def test_learned_weights_play_a_match_searching(tmp_path: Path) -> None:
    path = trained(tmp_path, games=2)
    game = Checkers(size=6)
    learned = agent_from_spec(CHECKERS, f"learned,depth=2:{path}")
    hand = agent_from_spec(CHECKERS, "alphabeta:depth=2")
    record = play_match(game, [learned, hand])
    assert record.moves and record.utility in (-1.0, 0.0, 1.0)


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
    pytest.importorskip("matplotlib")
    from zerosum.learn.curve import plot_curve

    png = tmp_path / "weights.png"
    plot_curve(saved.header["run"]["history"], png, "samuel")
    assert png.read_bytes().startswith(b"\x89PNG\r\n")
