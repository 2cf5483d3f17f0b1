"""Tuning Connect Four's evaluation with solver labels (zerosum.learn.texel): the
features are the engine's evaluation, the fit recovers known coefficients, the fitted
weights play through the engine itself, node for node on both node functions."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from clirun import zerosum

from zerosum import native
from zerosum.games.connect4.engine import WEIGHTS, Connect4Kernel, Memory, heuristic
from zerosum.games.connect4.game import position_from_stones
from zerosum.games.connect4.notation import parse_moves
from zerosum.games.registry import get_game
from zerosum.kernel import ALL, Enhancements, Weighted
from zerosum.learn import texel
from zerosum.learn import weights as weights_file
from zerosum.result import Limit
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop

SPEC = get_game("connect4")
GAME = SPEC.create()


def position(moves: str) -> Any:
    return position_from_stones(parse_moves(moves, GAME.geo))


def test_the_features_are_the_engines_evaluation() -> None:
    for moves in ("4", "4453", "44536", "3344556", "123456712345"):
        p = position(moves)
        f = texel.features(GAME.geo, p.current, p.mask)
        assert sum(w * x for w, x in zip(WEIGHTS, f[:3], strict=True)) + f[3] \
            == heuristic(GAME.geo, p.current, p.mask)
    # Red's first stone in the centre column: 7 fours through it, no threats.
    assert texel.features(GAME.geo, *position("4")[:2]) == (0, 0, 0, -7)


def test_logistic_fit_recovers_known_coefficients() -> None:
    rows = [[x / 10, 1.0] for x in range(-30, 31)]
    ys = [texel.sigmoid(2 * x - 1) for x, _ in rows]
    c = texel.logistic_fit(rows, ys)
    assert c[0] == pytest.approx(2.0, abs=0.02) and c[1] == pytest.approx(-1.0, abs=0.02)
    assert texel.loss(rows, ys, c) < texel.loss(rows, ys, [1.0, 0.0])


def test_the_fit_on_pons_sets() -> None:
    data = texel.samples(SPEC, GAME)
    assert len(data) == 15947  # the sets' positions and their children, each once
    assert {s.value for s in data} == {0.0, 0.5, 1.0}
    fit = texel.fit(data, WEIGHTS)
    assert fit.before == WEIGHTS and fit.after == (4, 9, 4)
    assert fit.positions == (7974, 7973)
    assert fit.loss_held_out[1] < fit.loss_held_out[0]  # better on positions not fitted
    assert "| threat | 24 | 4 |" in fit.table()


def engine(game: Any, state: Any, depth: int, use_native: bool) -> Any:
    def make(g: Any, s: Any, stop: Stop, enhancements: Enhancements) -> Connect4Kernel:
        return Connect4Kernel(g, s, stop, enhancements, Memory(g, use_native),
                              native=use_native)
    return analyse_with(make, game, state, Limit(depth=depth), enhancements=ALL)


@pytest.mark.parametrize("use_native", [False, True])
def test_tuned_weights_change_only_the_leaves(use_native: bool) -> None:
    if use_native and native.twin("connect4 engine", None) is None:
        pytest.skip("the compiled twin is not built here")
    p = position("4453")
    plain = engine(GAME, p, 7, use_native)
    same = engine(Weighted(GAME, WEIGHTS), p, 7, use_native)
    assert (same.action, same.value, same.stats.nodes) == \
        (plain.action, plain.value, plain.stats.nodes)
    tuned = engine(Weighted(GAME, (4, 9, 4)), p, 7, use_native)
    assert tuned.stats.nodes != plain.stats.nodes


def test_the_twins_agree_on_tuned_weights() -> None:
    if native.twin("connect4 engine", None) is None:
        pytest.skip("the compiled twin is not built here")
    p = position("44536")
    pure = engine(Weighted(GAME, (4, 9, 4)), p, 7, False)
    compiled = engine(Weighted(GAME, (4, 9, 4)), p, 7, True)
    assert (pure.action, pure.value, pure.stats.nodes) == \
        (compiled.action, compiled.value, compiled.stats.nodes)


def test_fit_command_saves_a_player_of_the_engine(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tuned.zsnet"
    status, text, err = zerosum(["train", "connect4", "--method", "texel", "--out", str(out)],
                                capsys)
    assert status == 0, err
    assert "15947 labelled positions" in text and "| good_row_threat | 36 | 9 |" in text
    saved = weights_file.read(out, "connect4")
    assert saved.method == "texel" and list(saved.arrays["weights"]) == [4.0, 9.0, 4.0]
    from zerosum.players.spec import agent_from_spec

    agent = agent_from_spec(SPEC, f"learned,depth=5:{out}")
    result = agent.analyse(GAME, position("4453"))
    assert result.algorithm == "engine, texel weights" and result.depth == 5
    timed = agent_from_spec(SPEC, f"learned,time=0.2:{out}").analyse(GAME, position("4453"))
    assert timed.algorithm == "engine, texel weights"  # the engine by time, as engine:time
    alone = agent_from_spec(SPEC, f"learned:{out}").analyse(GAME, position("4453"))
    assert alone.depth == 1 and -1 < alone.value < 1
    with pytest.raises(texel.InputError, match="texel weights have no PUCT search"):
        agent_from_spec(SPEC, f"learned,mcts=5:{out}").puct(GAME, position("4453"), 5,
                                                            Limit())


def test_texel_is_not_trained_by_self_play(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.learn.train import train

    with pytest.raises(texel.InputError, match="fitted to solver labels"):
        train(SPEC, GAME, {}, "texel", tmp_path / "x.zsnet", games=1)
    status, _, err = zerosum(["train", "tictactoe", "--method", "texel"], capsys)
    assert status == 2 and "invalid choice" in err
    status, _, err = zerosum(["train", "connect4", "--method", "texel", "--games", "5",
                              "--out", str(tmp_path / "y.zsnet")], capsys)
    assert (status, err) == (2, "zerosum: error: texel is fitted at once to solver labels, "
                                "with no self-play: no --games\n")
    # every option of self-play is named, none ignored in silence
    status, _, err = zerosum(["train", "connect4", "--method", "texel", "--workers", "4",
                              "--gate-games", "3", "--backend", "ray", "--seed", "2",
                              "--out", str(tmp_path / "y.zsnet")], capsys)
    assert (status, err) == (2, "zerosum: error: texel is fitted at once to solver labels, "
                                "with no self-play: no --seed, --workers, --backend, "
                                "--gate-games\n")
    assert not (tmp_path / "y.zsnet").exists()


def test_a_texel_file_without_its_weights_is_refused(tmp_path: Path) -> None:
    w = weights_file.Weights({"game": "connect4", "options": {}, "method": "texel",
                              "features": ["threat"], "k": 0.1})
    path = tmp_path / "bad.zsnet"
    weights_file.write(path, w)
    from zerosum.players.spec import agent_from_spec

    agent = agent_from_spec(SPEC, f"learned:{path}")
    with pytest.raises(texel.InputError, match="3 texel weights"):
        agent.analyse(GAME, position("4"))
    assert math.isfinite(texel.sigmoid(-1000.0))


# -- Max-Connect4 --------------------------------------------------------------------------

MC4 = get_game("maxconnect4")


def mc4_position(moves: str) -> Any:
    game = MC4.create()
    state = game.initial_state()
    for column in moves:
        state = game.result(state, int(column) - 1)
    return state


def mc4_engine(game: Any, state: Any, depth: int, use_native: bool) -> Any:
    from zerosum.games.maxconnect4.engine import MaxConnect4Kernel
    from zerosum.games.maxconnect4.engine import Memory as MC4Memory

    def make(g: Any, s: Any, stop: Stop, enhancements: Enhancements) -> Any:
        return MaxConnect4Kernel(g, s, stop, enhancements, MC4Memory(g), native=use_native)
    return analyse_with(make, game, state, Limit(depth=depth), enhancements=ALL)


def test_maxconnect4_features_are_its_evaluation() -> None:
    from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS
    from zerosum.games.maxconnect4.game import evaluate_position

    game = MC4.create()
    for moves in ("4", "4453", "44536", "3344556", "123456712345", "4444333322221111555"):
        s = mc4_position(moves)
        f = texel.maxconnect4_features(s)
        mover = sum(w * x for w, x in zip(POTENTIAL_WEIGHTS, f[:-1], strict=True)) + f[-1]
        assert mover == texel.maxconnect4_eval(game, s, POTENTIAL_WEIGHTS)
        assert mover / 100 == evaluate_position(s) * (1 if s.p1_to_move else -1)
    # 1 2 1 2 1 2 1: player 1 has four in column 1 (a point), player 2 to move
    s = mc4_position("1212121")
    assert (s.score1, s.p1_to_move) == (1, False) and texel.maxconnect4_features(s)[-1] == -100


@pytest.mark.parametrize("use_native", [False, True])
def test_maxconnect4_tuned_weights_change_only_the_leaves(use_native: bool) -> None:
    """The engine takes its weights from the game (evaluation_weights): the hand-written
    ones give the same search; others another, the same in Python and C."""
    from zerosum.games.maxconnect4.bitboard import POTENTIAL_WEIGHTS

    if use_native and native.twin("maxconnect4 engine", None) is None:
        pytest.skip("the compiled twin is not built here")
    game = MC4.create()
    s = mc4_position("44536")
    plain = mc4_engine(game, s, 5, use_native)
    same = mc4_engine(Weighted(game, POTENTIAL_WEIGHTS), s, 5, use_native)
    assert (same.action, same.value, same.stats.nodes) == \
        (plain.action, plain.value, plain.stats.nodes)
    other = (13, 32, 60, 122, -17)
    tuned = mc4_engine(Weighted(game, other), s, 5, use_native)
    pure = mc4_engine(Weighted(game, other), s, 5, False)
    assert tuned.stats.nodes != plain.stats.nodes
    assert (tuned.action, tuned.value, tuned.stats.nodes) == \
        (pure.action, pure.value, pure.stats.nodes)
    with pytest.raises(ValueError, match="5 whole weights"):
        mc4_engine(Weighted(game, (1, 2, 3)), s, 5, use_native)


def test_maxconnect4_fit_to_its_shipped_endgame_labels(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """The 1,200 endgame positions solved by the engine (tools/maxconnect4_labels.py):
    the fit's weights and held-out cross-entropy as docs/learning.md reports them, the
    file the engine with those weights."""
    out = tmp_path / "mc4.zsnet"
    status, text, err = zerosum(["train", "maxconnect4", "--method", "texel", "--out",
                                 str(out)], capsys)
    assert status == 0, err
    assert "1200 labelled positions" in text
    assert "| threat_own_row | 80 | 133 |" in text
    assert "| cross-entropy, 600 held out | 0.5159 | 0.5062 |" in text
    saved = weights_file.read(out, "maxconnect4")
    assert list(saved.arrays["weights"]) == [16.0, 35.0, 68.0, 133.0, 7.0]
    assert saved.header["features"] == list(texel.MAXCONNECT4_NAMES)
    from zerosum.players.spec import agent_from_spec

    game = MC4.create()
    s = mc4_position("44536")
    agent = agent_from_spec(MC4, f"learned,depth=5:{out}")
    result = agent.analyse(game, s)
    tuned = mc4_engine(Weighted(game, (16, 35, 68, 133, 7)), s, 5, True)
    assert result.algorithm == "engine, texel weights"
    assert (result.action, result.value, result.stats.nodes) == \
        (tuned.action, tuned.value, tuned.stats.nodes)
    alone = agent_from_spec(MC4, f"learned:{out}").analyse(game, s)
    assert alone.depth == 1 and alone.action in game.actions(s)
