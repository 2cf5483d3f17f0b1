"""AlphaZero, small (zerosum.learn.alphazero): the network's backpropagation against
finite differences, PUCT search, seeded and resumable tiny runs, the learned player's
own search and the glass box beside the solver's values."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from zerosum.game import InputError
from zerosum.games.registry import get_game
from zerosum.learn import alphazero
from zerosum.learn import grade as grading
from zerosum.learn import weights as weights_file
from zerosum.learn.methods import learner_of, new_learner, read
from zerosum.learn.train import train
from zerosum.players.spec import agent_from_spec
from zerosum.search.mcts import Simulation, Update
from zerosum.stop import Stop

TTT = get_game("tictactoe")
GAME = TTT.create()
TINY = {"hidden": 16, "simulations": 8, "fast": 4}


def trained(tmp_path: Path, games: int, seed: int = 1, name: str = "az.zsnet",
            resume: bool = False) -> Path:
    out = tmp_path / name
    train(TTT, GAME, {}, "alphazero", out, games=games, seed=seed, settings=TINY,
          resume=resume, checkpoint_seconds=1e9)
    return out


def test_backpropagation_matches_finite_differences() -> None:
    net = alphazero.Net.fresh(6, 3, 5, 2, random.Random(4))
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, (4, 6)).astype(float)
    legal = np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1], [1, 0, 1]], dtype=bool)
    target = legal / legal.sum(axis=1, keepdims=True)
    z = np.array([1.0, -1.0, 0.0, 1.0])
    grads, _, _ = net.gradients(x, legal, target, z, l2=0.01)

    def loss() -> float:
        _, lv, lp = net.gradients(x, legal, target, z, l2=0.0)
        return lv + lp + 0.005 * sum(float((p ** 2).sum()) for n, p in net.params.items()
                                     if n.startswith("w"))

    for name in ("w0", "b0", "w1_1", "w2_0", "wp", "bv"):
        p = net.params[name].reshape(-1)
        for i in (0, p.size - 1):
            keep = p[i]
            p[i] = keep + 1e-6
            up = loss()
            p[i] = keep - 1e-6
            down = loss()
            p[i] = keep
            assert grads[name].reshape(-1)[i] == pytest.approx((up - down) / 2e-6, abs=1e-6)


def test_the_network_size_and_a_fresh_learners_policy() -> None:
    learner = new_learner("alphazero", TTT, GAME, random.Random(0), {})
    # 18 inputs (two planes of 9 cells), 64 hidden, one block, 9 policy logits, 1 value.
    assert learner.net.size() == 18 * 64 + 64 + 2 * (64 * 64 + 64) + 64 * 9 + 9 + 64 + 1
    node = learner.expand(GAME.initial_state())
    assert node.cells == list(range(9)) and sum(node.priors) == pytest.approx(1.0)
    assert -1 < node.value < 1


def test_puct_finds_the_win_and_the_block() -> None:
    learner = new_learner("alphazero", TTT, GAME, random.Random(0), TINY)
    win = ("XX.OO....", "X")  # X to play: 2 wins at once
    assert learner.puct(win, 50)[0] == 2
    block = ("XX.O.....", "O")  # O must block at 2
    assert learner.puct(block, 200)[0] == 2


def test_puct_reads_the_stop_before_each_simulation() -> None:
    """A node budget on the Stop counts simulations; a request or the deadline ends the
    search at the next one (here from the tracer, after the fifth: no timing); stopped
    before any, the move is the network's own choice, the highest prior."""
    learner = new_learner("alphazero", TTT, GAME, random.Random(0), TINY)
    state = ("XX.O.....", "O")
    stop = Stop(nodes=7)
    root = learner.search(state, 100, noise=False, stop=stop)
    assert sum(root.visits) == 7 and stop.nodes_used == 7 and stop.reason() == "nodes"

    stop = Stop()
    seen: list[int] = []

    def request_at_five(sim: Simulation) -> None:
        seen.append(sim.number)
        if sim.number == 5:
            stop.request()

    assert sum(learner.search(state, 100, False, stop, request_at_five).visits) == 5
    assert seen == [1, 2, 3, 4, 5]

    now = [0.0]
    timed = Stop(seconds=1.0, clock=lambda: now[0])

    def late_after_three(sim: Simulation) -> None:
        if sim.number == 3:
            now[0] = 2.0

    assert sum(learner.search(state, 100, False, timed, late_after_three).visits) == 3
    assert timed.reason() == "time"

    stopped = Stop()
    stopped.request()
    move, _, root = learner.puct(state, 100, stopped)
    assert sum(root.visits) == 0
    assert move == root.actions[max(range(len(root.priors)), key=root.priors.__getitem__)]


def test_the_learned_player_passes_its_stop_to_puct(tmp_path: Path) -> None:
    out = trained(tmp_path, 2)
    agent = agent_from_spec(TTT, f"learned,mcts=50:{out}")
    state = ("XX.O.....", "O")
    result = agent.analyse(GAME, state, stop=Stop(nodes=9))
    assert result.stats.nodes == 9 and sum(result.details["visits"].values()) == 9
    assert result.complete  # a budget spent, not a request
    stop = Stop()
    stop.request()
    result = agent.analyse(GAME, state, stop=stop)
    assert not result.complete and result.stats.nodes == 0
    priors = result.details["priors"]
    assert result.action == max(priors, key=priors.__getitem__)
    assert agent.analyse(GAME, ("XXXOO....", "O")).action is None  # over: no move


def test_batched_puct_stops_at_the_simulation_not_the_batch() -> None:
    """Connect Four's search sends 8 leaves to the network at once; a budget of 20
    still gets 20 simulations (8, 8, then 4), each traced after its own back-up."""
    spec = get_game("connect4")
    game = spec.create()
    learner = new_learner("alphazero", spec, game, random.Random(0), {"hidden": 16})
    assert learner.settings.leaves == 8
    sims: list[Simulation] = []
    root = learner.search(game.initial_state(), 100, False, Stop(nodes=20), sims.append)
    assert sum(root.visits) == 20 and [s.number for s in sims] == list(range(1, 21))
    assert all(n == 0 for n in root.pending)  # every virtual loss taken back
    # after its own back-up the root has counted this simulation and those before it
    assert [s.updates[-1].visits for s in sims] == list(range(1, 21))
    # the root's moves as backed up so far: the batch's simulations in flight left out
    assert [sum(m.visits for m in s.root_moves) for s in sims] == list(range(1, 21))


def test_a_traced_search_is_the_same_search_told_step_by_step() -> None:
    learner = new_learner("alphazero", TTT, GAME, random.Random(0), TINY)
    state = ("XX.OO....", "X")  # X to play: 2 wins at once
    plain = learner.search(state, 30, noise=False)
    sims: list[Simulation] = []
    traced = learner.search(state, 30, noise=False, tracer=sims.append)
    assert traced.visits == plain.visits and traced.totals == plain.totals
    assert len(sims) == 30 and traced.visits == [21, 1, 3, 3, 2]
    # the first simulation: every move unvisited, so the highest prior (7) is chosen
    first = sims[0].selected[0]
    assert [o.action for o in first.options] == [2, 5, 6, 7, 8] and first.chosen == 7
    assert [o.prior for o in first.options] == traced.priors
    assert sum(o.prior or 0 for o in first.options) == pytest.approx(1.0)
    assert all(o.visits == 0 and o.uct_exploit == traced.value for o in first.options)
    assert sims[0].expanded == (7,) and sims[0].playout == ()
    # the network's value of the leaf, Max's side, backed up as MCTS's reward (1 + v) / 2
    v = sims[0].utility
    assert sims[0].updates[0] == Update((7,), 1, (1 + v) / 2, None)
    assert sims[0].updates[1] == Update((), 1, (1 - v) / 2, None)  # O "moved" to the root
    # the third finds the win: a finished game, its exact value; later ones reach it again
    win = sims[2]
    assert [s.chosen for s in win.selected] == [2] and win.expanded == (2,)
    assert win.utility == 1 and win.reward == 1 and win.updates[0] == Update((2,), 1, 1, 1)
    assert sims[3].expanded is None and sims[3].updates[0] == Update((2,), 2, 2, 1)
    last = sims[-1].root_moves
    assert [m.visits for m in last] == traced.visits
    assert last[0].proven == 1 and last[0].mean == 1.0  # a win: Q is 1, Max's side too


def test_the_same_seed_gives_the_same_weights(tmp_path: Path) -> None:
    a = weights_file.read(trained(tmp_path, 12, name="a.zsnet"))
    b = weights_file.read(trained(tmp_path, 12, name="b.zsnet"))
    c = weights_file.read(trained(tmp_path, 12, seed=2, name="c.zsnet"))
    assert a.arrays["net:w0"] == b.arrays["net:w0"]
    assert a.arrays["net:wp"] == b.arrays["net:wp"]
    assert a.arrays["net:w0"] != c.arrays["net:w0"]
    assert a.header["net"]["parameters"] == 18 * 16 + 16 + 2 * (16 * 16 + 16) + 16 * 9 + 9 \
        + 16 + 1
    assert a.header["learner"]["filled"] > 0  # the replay buffer travels with the weights


def test_resume_continues_the_same_run(tmp_path: Path) -> None:
    whole = weights_file.read(trained(tmp_path, 12, name="whole.zsnet"))
    trained(tmp_path, 6, name="split.zsnet")
    split = weights_file.read(trained(tmp_path, 12, name="split.zsnet", resume=True))
    assert split.header["run"]["games"] == 12
    for name in ("net:w0", "net:wv", "adam:m:w0"):
        assert split.arrays[name] == whole.arrays[name], name


def test_a_short_run_learns_and_plays_as_a_player(tmp_path: Path) -> None:
    rows = grading.labelled(TTT, GAME, grading.ALL)
    fresh = new_learner("alphazero", TTT, GAME, random.Random(1), {})
    before = grading.grade(GAME, "all", rows, lambda g, s: fresh.best(s)[0])
    out = tmp_path / "ttt.zsnet"
    train(TTT, GAME, {}, "alphazero", out, games=300, seed=1, checkpoint_seconds=1e9)
    learner = learner_of(read(out, TTT), TTT, GAME, str(out))
    after = grading.grade(GAME, "all", rows, lambda g, s: learner.best(s)[0])
    assert after.mistakes < before.mistakes / 2
    agent = agent_from_spec(TTT, f"learned,mcts=40:{out}")
    result = agent.analyse(GAME, ("XX.OO....", "X"))
    assert result.action == 2 and result.algorithm == "learned puct"
    assert sum(result.details["visits"].values()) == 40


def test_explain_puts_the_network_beside_the_solver() -> None:
    learner = new_learner("alphazero", TTT, GAME, random.Random(0), TINY)
    state = ("XX.OO....", "X")
    exact = {m: v for m, (v, _) in grading.labelled(TTT, GAME, grading.ALL)[0].moves.items()}
    rows = alphazero.explain(learner, state, simulations=30, exact={2: 1, 5: 0})
    assert [r["move"] for r in rows] == [2, 5, 6, 7, 8]
    assert rows[0]["exact"] == 1 and rows[1]["exact"] == 0 and rows[2]["exact"] is None
    assert rows[0]["value"] == 1.0  # the move that wins: the game's own end
    assert sum(r["visits"] for r in rows) == 30
    assert set(exact.values()) <= {-1, 0, 1}


def test_a_file_for_another_board_and_a_missing_numpy_are_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = trained(tmp_path, 2)
    c4 = get_game("connect4")
    w = weights_file.read(out)
    w.header["game"] = "connect4"
    weights_file.write(tmp_path / "c4.zsnet", w)
    with pytest.raises(InputError, match="is for a"):
        learner_of(read(tmp_path / "c4.zsnet", c4), c4, c4.create(), "c4.zsnet")
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(InputError, match=r"needs numpy \(the learn extra\): .*learn"):
        new_learner("alphazero", TTT, GAME, random.Random(0), {})


def test_the_glass_box_on_connect4_gets_the_solvers_values() -> None:
    c4 = get_game("connect4")
    game = c4.create()
    learner = new_learner("alphazero", c4, game, random.Random(0), {"hidden": 8,
                                                                    "blocks": 1})
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves

    # An end game of Pons's End-Easy set: the solver proves every move at once.
    state = position_from_stones(parse_moves("2252576253462244111563365343671351441", game.geo))
    rows = alphazero.glass_box(c4, learner, state, simulations=16)
    exact = {r["move"]: r["exact"] for r in rows}
    assert set(exact) == set(game.actions(state))
    assert set(exact.values()) <= {-1, 0, 1} and None not in exact.values()
    assert sum(r["visits"] for r in rows) == 16
    ttt_rows = alphazero.glass_box(TTT, new_learner("alphazero", TTT, GAME,
                                                    random.Random(0), TINY),
                                   ("XX.OO....", "X"))
    assert [r["exact"] for r in ttt_rows] == [1, 0, -1, -1, -1]  # win, block, or lose


def test_alphazero_refuses_several_workers(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="one process only"):
        train(TTT, GAME, {}, "alphazero", tmp_path / "w.zsnet", games=4, workers=2)
    assert not (tmp_path / "w.zsnet").exists()


def test_alphazero_refuses_a_ray_cluster_before_joining_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refused in one line before any cluster is joined or started (the address is
    one nobody listens at: joining it would fail otherwise, or hang)."""
    from zerosum.cli import main

    status = main(["train", "tictactoe", "--method", "alphazero", "--games", "4",
                   "--backend", "ray", "--address", "127.0.0.1:9", "--out",
                   str(tmp_path / "w.zsnet")])
    assert (status, capsys.readouterr().err) == (
        2, "zerosum: error: alphazero plays its self-play in this process (its policy "
           "targets are its own searches' visits): no --backend ray\n")
    assert not (tmp_path / "w.zsnet").exists()
