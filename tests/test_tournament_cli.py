"""`zerosum tournament`, `zerosum sprt` and `zerosum results`: the whole run, resuming
after kill -9, and one clear line for every bad input."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.games.registry import get_game
from zerosum.tournament.jobs import GameResult
from zerosum.tournament.referee import play_game
from zerosum.tournament.report import report
from zerosum.tournament.schedule import Settings, jobs

AGENTS = ("random", "alphabeta:depth=2", "mcts:nodes=40")
FLAGS = [flag for agent in AGENTS for flag in ("--agent", agent)]


def zerosum(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(args)
    except SystemExit as e:  # argparse's own errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_tournament_reports_what_its_games_give_played_here(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.sqlite")
    status, out, err = zerosum(["tournament", "tictactoe", *FLAGS, "--games", "4",
                                "--workers", "2", "--db", db], capsys)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"12 games, 3 agents, 3 pairings, results in {db}."
    assert sum(line.startswith("game ") for line in lines) == 12
    # the same games played one by one in this process give the same report
    settings = Settings("tictactoe", AGENTS, 4, move_timeouts=(60.0, 60.0, 60.0))
    schedule = {j.number: j for j in jobs(settings, get_game("tictactoe").create())}
    results = {n: play_game(j) for n, j in schedule.items()}
    assert out.endswith("\n" + report(results, schedule, AGENTS))
    assert "Forfeits: none" in out
    # `zerosum results` shows it again, without playing
    status, again, _ = zerosum(["results", db], capsys)
    assert (status, again) == (0, report(results, schedule, AGENTS))


def count_games(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def command(db: Path) -> list[str]:
    return [sys.executable, "-m", "zerosum", "tournament", "connect4", "--agent", "random",
            "--agent", "alphabeta:depth=2", "--agent", "mcts:nodes=60", "--games", "10",
            "--workers", "2", "--db", str(db)]


def test_a_tournament_killed_at_any_moment_resumes_to_the_same_tables(tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole.sqlite", tmp_path / "killed.sqlite"
    subprocess.run(command(whole), check=True, capture_output=True, timeout=300)
    process = subprocess.Popen(command(killed), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while count_games(killed) < 5 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    at_kill = count_games(killed)
    assert 5 <= at_kill < 30, "the kill came too late to test anything"
    rerun = subprocess.run(command(killed), check=True, capture_output=True, text=True,
                           timeout=300)
    assert f"Resuming: {at_kill} of 30 games are already in {killed}." in rerun.stdout
    played_now = [line for line in rerun.stdout.splitlines() if line.startswith("game ")]
    assert len(played_now) == 30 - at_kill  # none played twice, none lost
    shown = [subprocess.run([sys.executable, "-m", "zerosum", "results", str(db)],
                            check=True, capture_output=True, text=True).stdout
             for db in (whole, killed)]
    assert shown[0] == shown[1]
    with sqlite3.connect(whole) as a, sqlite3.connect(killed) as b:
        games = "SELECT number, first, second, score, reason FROM games ORDER BY number"
        assert a.execute(games).fetchall() == b.execute(games).fetchall()


def test_an_sprt_stops_once_decided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    args = ["sprt", "tictactoe", "--agent", "alphabeta", "--agent", "random", "--elo0", "0",
            "--elo1", "100", "--workers", "1", "--db", db]
    status, out, err = zerosum(args, capsys)
    assert (status, err) == (0, "")
    # one worker: the games end in order, so the test stops after the same game each time
    assert out.splitlines()[-2:] == [
        "alphabeta vs random: 10W 0D 2L of 12, pairs (0 ½ 1 1½ 2) 0 0 2 0 4: score 83.3 % "
        "± 20.7 %, Elo +280 [+90, +inf], LOS 99.9 %",
        "LLR +3.983 in [-2.944, +2.944]: H1 accepted: alphabeta is stronger by about 100 Elo "
        "or more"]
    assert sum(line.startswith("game ") for line in out.splitlines()) == 12
    # run again: decided already, nothing more is played
    status, again, _ = zerosum(args, capsys)
    assert status == 0 and not any(line.startswith("game ") for line in again.splitlines())
    assert again.splitlines()[-1] == out.splitlines()[-1]


@pytest.mark.parametrize(("args", "message"), [
    (["--agent", "random"], "a tournament needs two agents or more (--agent), not 1"),
    (["--agent", "random", "--agent", "random"], "agent 'random' is given twice"),
    (["--agent", "random", "--agent", "alphabeta:depth=-3"], "depth"),
    (["--agent", "random", "--agent", "wizard"], "unknown player 'wizard'"),
    (["--agent", "random", "--agent", "engine", "--games", "3"], "give an even --games, not 3"),
    (["--agent", "random", "--agent", "engine", "--games", "²"], "--games"),
    (["--agent", "random", "--agent", "engine", "--openings", "missing.txt"], "missing.txt"),
    (["--agent", "random", "--agent", "engine", "--address", "1.2.3.4:6379"],
     "--address goes with --backend ray"),
    (["--agent", "random", "--agent", "nothere.py"], "nothere.py"),
])
def test_bad_input_is_one_line_and_status_2_and_leaves_no_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = zerosum(["tournament", "connect4", *args], capsys)
    assert status == 2 and message in err and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_database_of_another_tournament_or_none_at_all_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    base = ["tournament", "tictactoe", "--agent", "random", "--agent", "alphabeta:depth=1",
            "--games", "2", "--workers", "1", "--db", str(db)]
    assert zerosum(base, capsys)[0] == 0
    status, _, err = zerosum([*base, "--seed", "5"], capsys)
    assert status == 2 and "holds another tournament" in err
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 50)
    status, _, err = zerosum([*base[:-1], str(notes)], capsys)
    assert status == 2 and "is not a tournament database" in err
    status, _, err = zerosum(["results", str(tmp_path / "none.sqlite")], capsys)
    assert (status, err) == (2, f"zerosum: error: no tournament database "
                                f"{tmp_path / 'none.sqlite'}\n")


def test_own_agents_forfeits_and_the_plot(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db, png = str(tmp_path / "t.sqlite"), str(tmp_path / "ratings.png")
    greedy = str(Path(__file__).parent.parent / "docs" / "examples" / "myagent.py")
    crashing = str(Path(__file__).parent / "data" / "agents" / "crashing.py")
    status, out, err = zerosum(["tournament", "connect4", "--agent", greedy, "--agent",
                                crashing, "--agent", "random", "--games", "2",
                                "--workers", "2", "--db", db, "--plot", png], capsys)
    assert (status, err) == (0, "")
    forfeits = out[out.index("Forfeits:"):].splitlines()[1:-1]
    assert len(forfeits) == 4  # the crashing agent's four games, each lost on its 3rd move
    crashed = f"{crashing}) crashed: RuntimeError: out of ideas"
    assert all(crashed in line for line in forfeits), forfeits
    assert out.splitlines()[-1] == f"Plot of the ratings: {png}"
    assert Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_persons_own_game_from_its_file(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    game = str(Path(__file__).parent.parent / "docs" / "examples" / "mygame.py")
    status, out, err = zerosum(["tournament", "game-file", game, "--agent", "alphabeta",
                                "--agent", "random", "--games", "4", "--workers", "2",
                                "--db", str(tmp_path / "g.sqlite")], capsys)
    assert (status, err) == (0, "")
    # a full alpha-beta wins all four games of Twenty-one from the random player: it
    # takes the counters down to a multiple of 4 as soon as the random player lets it
    assert "  alphabeta vs random: 4W 0D 0L of 4, pairs (0 ½ 1 1½ 2) 0 0 0 0 2" in out
    status, _, err = zerosum(["tournament", "game-file", str(tmp_path / "none.py"),
                              "--agent", "random", "--agent", "alphabeta"], capsys)
    assert status == 2 and "none.py" in err and len(err.splitlines()) == 1


def test_export_writes_every_game_in_its_notation_with_the_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, text = str(tmp_path / "c.sqlite"), tmp_path / "games.txt"
    assert zerosum(["tournament", "connect4", "--agent", "alphabeta:depth=2", "--agent",
                    "random", "--games", "2", "--workers", "1", "--db", db], capsys)[0] == 0
    status, out, _ = zerosum(["results", db, "--export", str(text)], capsys)
    assert (status, out) == (0, f"2 games written to {text}\n")
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT number, result FROM games ORDER BY number").fetchall()
    results = [GameResult.from_json(r) for _, r in rows]
    records = text.read_text().split("\n# game ")
    assert len(records) == 2
    first = records[0].splitlines()
    score = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[results[0].score]
    assert first[0] == (f"# game 1: alphabeta:depth=2 (Red) - random (Yellow): {score}, "
                        f"{results[0].reason}")
    assert first[1] == "".join(m.move for m in results[0].moves)  # the move string
    searched = [(i, m) for i, m in enumerate(results[0].moves, 1) if m.value is not None]
    assert first[2:-1] == [f"{i}. {m.move}  alphabeta:depth=2: value {m.value}, depth "
                           f"{m.depth}, {m.nodes:,} nodes, {m.seconds:.2f} s"
                           for i, m in searched]
    assert first[-1] == results[0].reason
    status, _, err = zerosum(["results", db, "--export", str(tmp_path / "no" / "x.txt")],
                             capsys)
    assert status == 2 and "no folder" in err


def test_checkers_games_export_as_pdn(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    db, pdn = str(tmp_path / "k.sqlite"), tmp_path / "games.pdn"
    assert zerosum(["tournament", "checkers", "--agent", "alphabeta:depth=1", "--agent",
                    "random", "--games", "2", "--workers", "1", "--max-plies", "30",
                    "--db", db], capsys)[0] == 0
    assert zerosum(["results", db, "--export", str(pdn)], capsys)[0] == 0
    games = pdn.read_text().split('[Event "zerosum tournament, game ')
    assert [g[:1] for g in games[1:]] == ["1", "2"]
    assert '[Black "alphabeta:depth=1"]\n[White "random"]' in games[1]
    assert '[Black "random"]\n[White "alphabeta:depth=1"]' in games[2]
    assert all('[Result "1/2-1/2"]' in g or '[Result "1-0"]' in g or '[Result "0-1"]' in g
               for g in games[1:])


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_no_game_named(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum([command], capsys) == (
        2, "", f"zerosum: error: name a game, e.g. zerosum {command} connect4 --agent engine "
               "--agent random\n")
