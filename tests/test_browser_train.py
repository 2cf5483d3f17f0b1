"""`zerosum serve --train FILE`: a training run watched as it goes, through the API and in
headless Chromium: the learning curve, the checkpoints' ratings, each move's learned
and exact values, the n-tuples' heat map, and the newest weights as a player of the
board page. The run is a real one: tic-tac-toe, 1,200 games, gated every 400."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import fresh_page, live_server, screenshot

from zerosum.cli import main
from zerosum.games.registry import get_game
from zerosum.learn import weights as weights_file
from zerosum.learn.methods import learner_of
from zerosum.learn.train import train
from zerosum.tournament.backends import InProcessBackend
from zerosum.tournament.gate import CheckpointGate

pytest.importorskip("starlette")

TTT = get_game("tictactoe")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("train") / "ttt.zsnet"
    train(TTT, TTT.create(), {}, "ntuple", out, games=1200, seed=1, checkpoint_games=400,
          checkpoint_seconds=1e9,
          gatekeeper=CheckpointGate(TTT, TTT.create(), {}, 1, InProcessBackend()))
    return out


@pytest.fixture(scope="module")
def server(run: Path) -> Iterator[str]:
    from zerosum.web.app import create_app

    with live_server(create_app(train=str(run))) as base:
        yield base


def test_the_run_as_json(run: Path) -> None:
    from starlette.testclient import TestClient

    from zerosum.web.app import create_app

    client = TestClient(create_app(train=str(run)))
    w = weights_file.read(run)
    data = client.get("/api/train").json()
    assert (data["game"], data["method"], data["games"]) == ("tictactoe", "ntuple", 1200)
    assert data["curves"] == {"all": [[h["games"], 100 * h["mistakes"]["all"]]
                                      for h in w.header["run"]["history"]]}
    assert [c[0] for c in data["curves"]["all"]] == [400, 800, 1200]
    assert data["ratings"] == w.header["run"]["ratings"] and data["best"] == "games-1200"
    assert [g["decision"] for g in data["gates"]] == ["H1", "H0", "H1"]
    assert data["weights"] == {}  # n-tuples keep no named weights: no chart of them
    assert data["progress"]["games"] == 1200
    assert data["player"] == f"learned:{run}"
    # The weights are a player of their game only.
    games = {g["name"]: g["players"] for g in client.get("/api/games").json()["games"]}
    assert data["player"] in games["tictactoe"] and data["player"] not in games["connect4"]

    learner = learner_of(w, TTT, TTT.create(), str(run))
    game = TTT.create()
    start = client.get("/api/train/position").json()
    assert [v["move"] for v in start["values"]] == [str(n) for n in range(1, 10)]
    assert {v["exact"] for v in start["values"]} == {"draw"}  # every first move draws
    assert not any(v["mistake"] for v in start["values"])
    assert [v["learned"] for v in start["values"]] == [
        round(learner.afterstate_value(game.result(game.initial_state(), a)), 4)
        for a in game.actions(game.initial_state())]
    # After X in a corner, O's only drawing move is the centre: the rest lose.
    corner = client.get("/api/train/position", params={"moves": "1"}).json()
    exact = {v["move"]: v["exact"] for v in corner["values"]}
    assert exact == {"2": "loss", "3": "loss", "4": "loss", "5": "draw", "6": "loss",
                     "7": "loss", "8": "loss", "9": "loss"}
    assert [v["move"] for v in corner["values"] if v["mistake"]] == \
        ["2", "3", "4", "6", "7", "8", "9"]
    assert corner["view"]["cells"][0] != "" and corner["over"] is False

    heat = client.get("/api/train/heat").json()["heat"]
    assert (heat["rows"], heat["cols"]) == (3, 3)
    assert heat["cells"] == pytest.approx(learner.cell_weights())  # type: ignore[attr-defined]
    assert heat["cells"][0] == pytest.approx(heat["cells"][8])  # the board's symmetry

    bad = client.get("/api/train/position", params={"moves": "1 1"})
    assert bad.status_code == 400 and "move 2 (1)" in bad.json()["error"]


def test_the_page_watches_the_run_and_plays_its_weights(server: str, browser: Any) -> None:
    for name, width, height, scheme in (("train-desktop", 1280, 900, "light"),
                                        ("train-phone", 390, 844, "light"),
                                        ("train-dark", 1280, 900, "dark")):
        with fresh_page(browser, width, height) as page:
            page.emulate_media(color_scheme=scheme)
            page.goto(f"{server}/train")
            page.wait_for_selector("#curve polyline")
            page.wait_for_selector("#position-board svg")
            page.wait_for_selector("#heat svg")
            assert page.locator("#curve polyline").get_attribute("data-set") == "all"
            assert page.locator("#ratings tbody tr").count() == 3
            assert page.inner_text("#ratings tr.best td") == "games-1200 (best)"
            assert page.locator("#values tbody tr").count() == 9
            assert page.inner_text("#summary").startswith("Tic-tac-toe, ntuple: 1,200 games")
            assert page.locator("#heat rect").count() == 9
            assert page.locator("#weights-section").is_hidden()  # n-tuples: no weights
            if name == "train-desktop":
                page.click("[aria-label='cell 1']")
                page.wait_for_function("document.querySelector('#line').textContent"
                                       " === 'after 1'")
                assert page.locator("#values td.mistake").count() == 7
            screenshot(page, name)
    with fresh_page(browser) as page:
        page.goto(f"{server}/train?moves=1+5+9")  # a link to a position
        page.wait_for_function("document.querySelector('#line').textContent"
                               " === 'after 1 5 9'")
        assert page.locator("#values tbody tr").count() == 6
        page.goto(f"{server}/train?moves=1+1")  # an illegal line: said, and the start
        page.wait_for_function("document.querySelector('#line').textContent"
                               ".startsWith('move 2 (1)')")
        page.click("#start")
        page.wait_for_function("document.querySelector('#line').textContent"
                               " === 'the start'")
    with fresh_page(browser) as page:
        page.goto(f"{server}/train")
        page.wait_for_selector("#curve polyline")
        href = page.get_attribute("#play", "href") or ""
        assert href.startswith("/?game=tictactoe&player=learned%3A")  # no options
        page.click("#play")
        page.wait_for_selector("#board svg")
        player = page.input_value("#player")
        assert player.startswith("learned:") and player.endswith("ttt.zsnet")
        page.check("#computer-first")  # the weights move first: X, one ply
        page.click("#setup button[type=submit]")
        page.wait_for_function("() => document.querySelector('#status').textContent"
                               " === 'O to move (you)'")
        # Its first move: the first of the corners it values most (+0.021, the page's
        # table above), drawn in the top left cell.
        assert page.locator("#board text.mark.side-a").count() == 1
        assert page.locator("#board text.mark.side-a").get_attribute("x") == "30"


def test_the_page_draws_samuels_weights(tmp_path: Path, browser: Any) -> None:
    from zerosum.learn import train as train_module
    from zerosum.learn.samuel import FEATURES
    from zerosum.web.app import create_app

    checkers, out = get_game("checkers"), tmp_path / "s.zsnet"
    with pytest.MonkeyPatch.context() as patch:
        # 6x6 is too big to grade on every position; the solver takes minutes to say so.
        patch.setattr(train_module, "grade_sample", lambda *args: [])
        train(checkers, checkers.create(size=6), {"size": 6}, "samuel", out, games=4,
              seed=1, settings={"depth": 1}, checkpoint_games=2, checkpoint_seconds=1e9)
    with live_server(create_app(train=str(out))) as base, fresh_page(browser) as page:
        page.goto(f"{base}/train")
        # (A weight that stayed put is a flat line, which has no height to be visible.)
        page.wait_for_selector("#weights polyline", state="attached")
        lines = page.locator("#weights polyline")
        # By name, as the run's file keeps them.
        assert [lines.nth(i).get_attribute("data-set") for i in range(lines.count())] == \
            sorted(FEATURES)
        assert page.locator("#weights circle").count() == 2 * len(FEATURES)  # 2 checkpoints
        assert page.inner_text("#weights-key").split() == sorted(FEATURES)
        screenshot(page, "train-samuel")


def test_serve_refuses_a_file_that_is_no_run_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("x.zsnet").write_text("hello\n")
    with pytest.raises(SystemExit) as done:
        raise SystemExit(main(["serve", "--train", "x.zsnet"]))
    assert done.value.code == 2
    assert capsys.readouterr().err == (
        "zerosum: error: weights file 'x.zsnet': not a zerosum weights file (it does not "
        "start with 'zerosum-weights')\n")


def test_a_link_sets_the_games_options(server: str, browser: Any) -> None:
    """The board page takes a game's options from its link (as the training page's link
    gives a run's: a 4x4 board's weights play on a 4x4 board)."""
    with fresh_page(browser) as page:
        page.goto(f"{server}/?game=connect4&width=5&height=4&player=random")
        page.wait_for_selector("#board svg")
        assert (page.input_value("[data-option=width]"),
                page.input_value("[data-option=height]")) == ("5", "4")
        assert page.locator("#board circle.hole").count() == 20
        page.goto(f"{server}/?game=connect4&width=99")  # not a choice: left as it is
        page.wait_for_selector("#board svg")
        assert page.input_value("[data-option=width]") == "7"
