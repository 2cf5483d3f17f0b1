"""A training run's checkpoints gated and rated (zerosum.learn.gate): each plays the best
so far in the tournament's SPRT, is rated by the tournament's Bradley-Terry, and the
gates change nothing of the weights; the learning curve's data and figure."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import killed_when, zerosum

from zerosum.games.registry import get_game
from zerosum.learn import gate as gating
from zerosum.learn import weights as weights_file
from zerosum.learn.curve import curve_data, curve_figure
from zerosum.learn.gate import GATE_GAMES
from zerosum.learn.train import train
from zerosum.ratings import bradley_terry
from zerosum.tournament.backends import InProcessBackend
from zerosum.tournament.gate import CheckpointGate
from zerosum.tournament.report import PRIOR_DRAWS
from zerosum.tournament.store import Store

TTT = get_game("tictactoe")


def keeper(games: int = GATE_GAMES) -> CheckpointGate:
    return CheckpointGate(TTT, TTT.create(), {}, 1, InProcessBackend(), games)


def run(out: Path, games: int = 1200, gated: bool = True,
        resume: bool = False) -> weights_file.Weights:
    return train(TTT, TTT.create(), {}, "ntuple", out, games=games, seed=1,
                 checkpoint_games=400, checkpoint_seconds=1e9, resume=resume,
                 gatekeeper=keeper() if gated else None)


def test_checkpoints_are_gated_by_the_sprt_and_rated(tmp_path: Path) -> None:
    w = run(tmp_path / "t.zsnet")
    history = w.header["run"]["history"]
    assert [h["games"] for h in history] == [400, 800, 1200]
    assert [h["gate"] for h in history] == [
        {"checkpoint": "games-400", "against": None, "games": 0, "llr": 0.0,
         "decision": "H1"},
        {"checkpoint": "games-800", "against": "games-400", "games": 30, "llr": -5.2551,
         "decision": "H0"},
        {"checkpoint": "games-1200", "against": "games-400", "games": 42, "llr": 3.1492,
         "decision": "H1"}]
    assert w.header["run"]["best"] == "games-1200"
    folder = tmp_path / "t.zsnet.run"
    # The loser's copy and the superseded best are gone; their games stay.
    assert sorted(p.name for p in folder.iterdir()) == [
        "games-1200.zsnet", "gate-games-1200.sqlite", "gate-games-800.sqlite",
        "progress.json"]
    games = []
    for name in ("gate-games-800.sqlite", "gate-games-1200.sqlite"):
        with Store.existing(str(folder / name)) as store:
            settings = store.settings()
            games += [(Path(job.agents[0]).stem, Path(job.agents[1]).stem,
                       store.results()[n].score) for n, job in store.jobs().items()]
        assert settings.opening_plies == 2 and not settings.adjudicate
    assert len(games) == 72
    expected = bradley_terry(games, prior_draws=PRIOR_DRAWS)
    assert [(r["checkpoint"], r["elo"], r["games"]) for r in w.header["run"]["ratings"]] \
        == [(r.name, round(r.elo, 1), r.games) for r in expected]
    assert {r["checkpoint"] for r in w.header["run"]["ratings"]} == \
        {"games-400", "games-800", "games-1200"}
    # The best plays as any learned player.
    best = weights_file.read(folder / "games-1200.zsnet", "tictactoe")
    assert best.header["run"]["games"] == 1200


def test_gates_change_nothing_of_the_weights(tmp_path: Path) -> None:
    gated = run(tmp_path / "a.zsnet", games=800)
    plain = run(tmp_path / "b.zsnet", games=800, gated=False)
    assert gated.arrays["weights"] == plain.arrays["weights"]
    assert "gate" not in plain.header["run"]["history"][0]
    assert plain.header["run"]["ratings"] == []
    assert sorted(p.name for p in (tmp_path / "b.zsnet.run").iterdir()) == ["progress.json"]


def test_a_resumed_run_gates_against_its_best(tmp_path: Path) -> None:
    out = tmp_path / "t.zsnet"
    run(out, games=800)
    w = run(out, resume=True)
    straight = run(tmp_path / "s.zsnet")
    assert w.header["run"]["history"][2]["gate"] == \
        straight.header["run"]["history"][2]["gate"]
    assert w.arrays["weights"] == straight.arrays["weights"]
    assert w.header["run"]["ratings"] == straight.header["run"]["ratings"]


def test_the_progress_file_says_where_the_run_is(tmp_path: Path) -> None:
    run(tmp_path / "t.zsnet", games=400, gated=False)
    progress = gating.read_progress(tmp_path / "t.zsnet.run")
    assert progress is not None
    assert (progress["games"], progress["game"], progress["method"]) == \
        (400, "tictactoe", "ntuple")
    assert progress["line"].startswith("400 games, ")
    assert progress["mistakes"] == {"all": pytest.approx(0.057522)}


def test_the_command_shows_the_ratings(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.zsnet"
    status, said, err = zerosum(["train", "tictactoe", "--games", "1200",
                                 "--checkpoint-games", "400", "--seed", "1", "--out",
                                 str(out)], capsys)
    assert (status, err) == (0, "")
    lines = said.splitlines()
    said_gates = [line.partition("; ")[2] for line in lines if "; " in line]
    assert said_gates == ["games-400 is the first best",
                          "games-800 against games-400: 30 games, LLR -5.26, not stronger",
                          "games-1200 against games-400: 42 games, LLR +3.15, the new best"]
    at = lines.index(f"saved {out}: 1200 games")
    assert lines[at + 1] == "Checkpoints: Bradley-Terry ratings in Elo (mean 0), 95 % " \
        "intervals"
    assert [line.split()[0] for line in lines[at + 3:]] == \
        [r["checkpoint"] for r in weights_file.read(out).header["run"]["ratings"]]
    assert sum(line.endswith("  best") for line in lines) == 1
    status, _, err = zerosum(["train", "tictactoe", "--games", "10", "--address", "x:1",
                              "--out", str(tmp_path / "u.zsnet")], capsys)
    assert (status, err) == (2, "zerosum: error: --address goes with --backend ray\n")


HISTORY = [{"games": 100, "mistakes": {"L3_R1": 0.25, "L1_R1": 0.5}},
           {"games": 300, "mistakes": {"L3_R1": 0.125, "L1_R1": 0.375}}]
RATINGS = [{"checkpoint": "games-300", "elo": 20.0, "low": 5.0, "high": 35.0},
           {"checkpoint": "games-100", "elo": -20.0, "low": -35.0, "high": -5.0}]


def test_the_curve_data_by_set() -> None:
    assert curve_data(HISTORY) == {"Beginning-Easy": [(100, 50.0), (300, 37.5)],
                                   "End-Easy": [(100, 25.0), (300, 12.5)]}
    assert curve_data([]) == {}


def test_the_curve_figure_draws_the_data() -> None:
    pytest.importorskip("matplotlib")
    figure = curve_figure(HISTORY, "a run", RATINGS)
    curve, ratings = figure.axes
    assert [line.get_label() for line in curve.lines] == ["Beginning-Easy", "End-Easy"]
    assert [line.get_xydata().tolist() for line in curve.lines] == \
        [[[100.0, 50.0], [300.0, 37.5]], [[100.0, 25.0], [300.0, 12.5]]]
    dots = ratings.lines[0].get_xydata().tolist()
    assert dots == [[100.0, -20.0], [300.0, 20.0]]
    assert len(curve_figure(HISTORY, "no ratings").axes) == 1


def test_a_notebook_gets_the_runs_figure_and_status(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from zerosum.learn.watch import figure, status

    out = tmp_path / "t.zsnet"
    w = run(out)
    curve, ratings = figure(out).axes
    history = w.header["run"]["history"]
    assert curve.lines[0].get_xydata().tolist() == \
        [[h["games"], 100 * h["mistakes"]["all"]] for h in history]
    assert len(ratings.lines[0].get_xydata()) == 3
    data = status(out)
    assert data["best"] == "games-1200" and data["games"] == 1200
    assert [g["checkpoint"] for g in data["gates"]] == ["games-400", "games-800",
                                                       "games-1200"]


def test_a_new_run_into_the_same_file_starts_its_folder_afresh(tmp_path: Path) -> None:
    out = tmp_path / "t.zsnet"
    run(out)
    folder = tmp_path / "t.zsnet.run"
    (folder / "notes.txt").write_text("mine\n")
    again = run(out, games=400)
    assert again.header["run"]["best"] == "games-400"
    assert sorted(p.name for p in folder.iterdir()) == ["games-400.zsnet", "notes.txt",
                                                       "progress.json"]


def test_a_run_killed_with_its_gates_resumes_the_same(tmp_path: Path) -> None:
    """kill -9 once the first checkpoint is saved (while the next games or the next gate
    run), then --resume: the same weights, gates and ratings as a run never stopped."""
    import subprocess
    import sys

    out = tmp_path / "killed.zsnet"
    command = [sys.executable, "-m", "zerosum", "train", "tictactoe", "--games", "1200",
               "--checkpoint-games", "400", "--seed", "1", "--out", str(out)]
    killed_when(command,
                lambda: out.exists() and weights_file.read(out).header["run"]["games"] >= 400)
    assert weights_file.read(out).header["run"]["games"] in (400, 800)
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    resumed, straight = weights_file.read(out), run(tmp_path / "straight.zsnet")
    assert resumed.arrays["weights"] == straight.arrays["weights"]
    assert [h["gate"] for h in resumed.header["run"]["history"]] == \
        [h["gate"] for h in straight.header["run"]["history"]]
    assert resumed.header["run"]["ratings"] == straight.header["run"]["ratings"]
