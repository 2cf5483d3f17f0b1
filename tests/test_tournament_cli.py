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
from clirun import count_games, killed_after, zerosum

from zerosum.cli import main
from zerosum.games.registry import get_game
from zerosum.tournament.jobs import GameResult
from zerosum.tournament.referee import play_game
from zerosum.tournament.report import report
from zerosum.tournament.schedule import Settings, jobs

AGENTS = ("random", "alphabeta:depth=2", "mcts:nodes=40")
AGENT_FILES = Path(__file__).parent / "data" / "agents"
FLAGS = [flag for agent in AGENTS for flag in ("--agent", agent)]




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
    settings = Settings("tictactoe", AGENTS, 4, move_timeouts=(60.0, 60.0, 60.0), balanced=True)
    schedule = {j.number: j for j in jobs(settings, get_game("tictactoe").create())}
    results = {n: play_game(j) for n, j in schedule.items()}
    assert out.endswith("\n" + report(results, schedule, AGENTS))
    assert "Forfeits: none" in out
    # `zerosum results` shows it again, without playing
    status, again, _ = zerosum(["results", db], capsys)
    assert (status, again) == (0, report(results, schedule, AGENTS))


def command(db: Path) -> list[str]:
    return [sys.executable, "-m", "zerosum", "tournament", "connect4", "--agent", "random",
            "--agent", "alphabeta:depth=2", "--agent", "mcts:nodes=60", "--games", "10",
            "--workers", "2", "--db", str(db)]


def test_a_tournament_killed_at_any_moment_resumes_to_the_same_tables(tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole.sqlite", tmp_path / "killed.sqlite"
    subprocess.run(command(whole), check=True, capture_output=True, timeout=300)
    at_kill = killed_after(command(killed), killed, 5)
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
        "alphabeta vs random: 3W 1D 0L of 4, pairs (0 ½ 1 1½ 2) 0 0 0 1 1: score 87.5 % "
        "± 24.5 %, Elo +338 [+92, +inf], LOS 99.9 %",
        "LLR +5.468 in [-2.944, +2.944]: H1 accepted: alphabeta is stronger by about 100 Elo "
        "or more"]
    assert sum(line.startswith("game ") for line in out.splitlines()) == 4
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
    # with --move-timeout too, an agent is made before the database is
    (["--agent", "random", "--agent", "nothere.py", "--move-timeout", "5"], "nothere.py"),
    (["--agent", "random", "--agent", str(AGENT_FILES / "slow_to_make.py"),
      "--move-timeout", "0.3"], "slow_to_make.py: not made within 0.3 s"),
    (["--agent", "random", "--agent", str(AGENT_FILES / "exits.py") + ":at=make"],
     "exits.py, line 19: sys.exit(0) called while making the agent"),
    (["--agent", "iterative:time=1e308", "--agent", "random"],
     "player 'iterative:time=1e308': time must be a number above 0 and at most 86,400"),
    (["--agent", "engine:time=inf", "--agent", "random", "--move-timeout", "1"],
     "time must be a number above 0 and at most 86,400, not 'inf'"),
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


# -- the database under faults: one line naming the file and the cause, games kept ----

TICTACTOE = ["tournament", "tictactoe", "--agent", "random", "--agent", "alphabeta:depth=1",
             "--games", "4", "--workers", "1"]


@pytest.mark.parametrize("fault, cause", [
    ("PRAGMA query_only = 1", "cannot be written: the file or its folder is read-only"),
    ("PRAGMA max_page_count = {pages}", "cannot be written: the disk is full"),
    ("lock", "is locked by another program"),
])
def test_a_write_failing_mid_run_is_one_line_and_keeps_the_games_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        fault: str, cause: str) -> None:
    from zerosum.tournament import store as store_module

    db = tmp_path / "t.sqlite"
    monkeypatch.setattr(store_module, "LOCK_SECONDS", 0.1)
    add = store_module.Store.add
    holder: list[sqlite3.Connection] = []

    def add_then_fail(self: store_module.Store, job: object, result: object) -> None:
        add(self, job, result)  # type: ignore[arg-type]
        if job.number == 1:  # type: ignore[attr-defined]
            if fault == "lock":  # another program takes the file and keeps it
                other = sqlite3.connect(db, isolation_level=None)
                other.execute("BEGIN EXCLUSIVE")
                holder.append(other)
            else:  # SQLite's own read-only and disk-full errors, for real
                pages = self.db.execute("PRAGMA page_count").fetchone()[0]
                self.db.execute(fault.format(pages=pages))

    monkeypatch.setattr(store_module.Store, "add", add_then_fail)
    status, out, err = zerosum([*TICTACTOE, "--db", str(db)], capsys)
    for other in holder:
        other.close()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert err.startswith(f"zerosum: error: tournament database {db} {cause} (")
    assert "not a tournament database" not in err
    shown = sum(line.startswith("game ") for line in out.splitlines())
    assert 1 <= count_games(db) == shown < 4  # every game shown before stays


def test_a_locked_database_is_said_to_be_locked_not_to_be_no_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    from zerosum.tournament import store as store_module

    db = tmp_path / "t.sqlite"
    assert zerosum([*TICTACTOE, "--db", str(db)], capsys)[0] == 0
    monkeypatch.setattr(store_module, "LOCK_SECONDS", 0.1)
    with sqlite3.connect(db, isolation_level=None) as other:
        other.execute("BEGIN EXCLUSIVE")
        for args in ([*TICTACTOE, "--db", str(db)], ["results", str(db)]):
            status, _, err = zerosum(args, capsys)
            assert (status, err) == (2, f"zerosum: error: tournament database {db} is locked "
                                        "by another program (database is locked)\n")
        other.execute("ROLLBACK")


def test_results_read_a_database_left_with_a_hot_journal_by_a_kill(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    assert zerosum([*TICTACTOE, "--db", str(db)], capsys)[0] == 0
    before = zerosum(["results", str(db)], capsys)
    # a writer killed mid-transaction: its rollback journal stays beside the file
    script = ("import os, sqlite3, sys\n"
              "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              "con.execute('PRAGMA cache_size = 1')\n"
              "con.execute('BEGIN')\n"
              "con.execute(\"DELETE FROM games\")\n"
              "con.execute(\"INSERT INTO games SELECT number + 100, job, result, first, "
              "second, score, reason, finished FROM games\")\n"
              "con.execute(\"UPDATE settings SET json = json || ' ' || "
              "hex(randomblob(20000))\")\n"
              "os.kill(os.getpid(), 9)\n")
    subprocess.run([sys.executable, "-c", script, str(db)], timeout=60)
    assert Path(f"{db}-journal").exists()
    assert zerosum(["results", str(db)], capsys) == before


DAMAGES = [
    ("UPDATE games SET result = 'nope' WHERE number = 2",
     "{db}: game 2 is damaged: its result is not JSON"),
    ("UPDATE games SET job = '{}' WHERE number = 1",
     "{db}: game 1 is damaged: its job is incomplete"),
    ("UPDATE games SET job = json_remove(job, '$.agents') WHERE number = 1",
     "{db}: game 1 is damaged: its job is incomplete"),
    ("UPDATE games SET result = json_set(result, '$.score', '1') WHERE number = 1",
     "{db}: game 1 is damaged: its result has a wrong 'score'"),
    ("UPDATE games SET result = json_set(result, '$.moves[0].by', 'x') WHERE number = 1",
     "{db}: game 1 is damaged: its result's move has a wrong 'by'"),
    ("UPDATE games SET job = json_set(job, '$.number', 7) WHERE number = 1",
     "{db}: game 1 is damaged: its job says game 7"),
    ("UPDATE settings SET json = 'x'", "{db}: the tournament's settings are damaged: its "
                                       "settings is not JSON"),
    ("UPDATE settings SET json = json_set(json, '$.agents', json('[]'))",
     "{db}: the tournament's settings are damaged: its settings has a wrong 'agents'"),
    ("DROP TABLE games", "{db} is not a tournament database (it has no games table)"),
    ("ALTER TABLE games ADD COLUMN extra TEXT",
     "{db} is not a tournament database (its games table has other columns)"),
    ("CREATE TABLE notes (text TEXT)",
     "{db} is not a tournament database (it holds other tables: notes)"),
]


@pytest.mark.parametrize("damage, message", DAMAGES)
def test_a_damaged_database_is_one_line_in_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, message: str
        ) -> None:
    db = tmp_path / "t.sqlite"
    assert zerosum([*TICTACTOE, "--db", str(db)], capsys)[0] == 0
    with sqlite3.connect(db) as con:
        con.execute(damage)
    con.close()
    wanted = message.format(db=db)
    sprt = ["sprt", "tictactoe", "--agent", "random", "--agent", "alphabeta:depth=1",
            "--max-games", "4", "--workers", "1", "--db", str(db)]
    for args in ([*TICTACTOE, "--db", str(db)], sprt, ["results", str(db)],
                 ["results", str(db), "--export", str(tmp_path / "games.txt")]):
        status, _, err = zerosum(args, capsys)
        if "settings" in damage and args[0] in ("sprt", "tournament") and status == 2:
            assert len(err.splitlines()) == 1  # refused: its settings are not these
            continue
        if "settings" in damage and "--export" in args:
            assert status == 0  # the games are whole: they export
            continue
        assert status == 2 and err.startswith(f"zerosum: error: {wanted}"), (args, err)
        assert len(err.splitlines()) == 1
    assert (tmp_path / "games.txt").exists() == ("settings" in damage)


def test_an_unrelated_sqlite_file_is_refused_and_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "notes.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
        con.execute("INSERT INTO notes VALUES ('keep me')")
    con.close()
    before = other.read_bytes()
    status, _, err = zerosum([*TICTACTOE, "--db", str(other)], capsys)
    assert (status, err) == (2, f"zerosum: error: {other} is not a tournament database (it "
                                "holds other tables: notes); give another --db\n")
    assert other.read_bytes() == before


def test_sys_exit_in_an_agent_file_never_decides_zerosums_exit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    exits = str(AGENT_FILES / "exits.py")
    db = tmp_path / "t.sqlite"
    args = ["tournament", "tictactoe", "--agent", "random", "--agent", exits, "--games", "2",
            "--workers", "1", "--db", str(db)]
    status, out, err = zerosum(args, capsys)  # on its first move: that game is lost
    assert (status, err) == (0, "")
    assert f"O ({exits}) crashed: it called sys.exit(5)" in out
    assert f"X ({exits}) crashed: it called sys.exit(5)" in out
    monkeypatch.setenv("ZEROSUM_TEST_EXIT_AT", "import")
    db.unlink()
    assert zerosum(args, capsys) == (2, "", f"zerosum: error: agent file {exits}, line 9: "
                                            "sys.exit(3) called while loading it\n")
    assert not db.exists()


def test_an_engine_given_a_depth_searches_by_depth_and_replays_its_games() -> None:
    from zerosum.tournament.jobs import GameJob

    # Connect Four's engine deepens 1, 3, 5...: a depth is the deepest pass it makes
    job = GameJob(1, "connect4", ("engine:depth=5", "engine:depth=3"), opening=("4", "4"),
                  seeds=(1, 2))
    first, again = play_game(job), play_game(job)
    assert [(m.move, m.value, m.depth, m.nodes) for m in first.moves] == \
        [(m.move, m.value, m.depth, m.nodes) for m in again.moves]
    estimated = [m for m in first.moves if "estimate" in (m.value or "")]
    assert len(estimated) > 4
    assert all(m.depth == (5, 3)[m.by] for m in estimated)


def test_play_with_an_engine_and_a_depth_searches_that_deep(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = zerosum(["play", "connect4", "--opponent", "engine", "--depth", "3",
                              "--side", "none"], capsys)
    assert status == 0
    estimated = [line for line in out.splitlines() if " plays " in line and "estimate" in line]
    assert len(estimated) > 4 and all(", depth 3, " in line for line in estimated)


def test_workers_end_with_their_tournament_killed_and_say_nothing(tmp_path: Path) -> None:
    import uuid

    mark = uuid.uuid4().hex
    env = {**os.environ, "ZEROSUM_TEST_MARK": mark}
    started = tmp_path / "started"
    agent = tmp_path / "hangs.py"  # says when it is in a game, then thinks for ever
    agent.write_text(f"import time\nfrom pathlib import Path\n\n\nclass Hangs:\n"
                     f"    def play(self, game, state):\n"
                     f"        Path({str(started)!r}).touch()\n"
                     f"        while True:\n            time.sleep(0.01)\n\n\n"
                     f"def make_agent(seed, **settings):\n    return Hangs()\n")
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "tournament", "tictactoe", "--agent",
             "random", "--agent", str(agent), "--games", "4", "--workers", "2",
             "--move-timeout", "60", "--db", str(tmp_path / "t.sqlite")],
            stdout=subprocess.DEVNULL, stderr=err, env=env)
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(marked(mark)) >= 3  # the tournament and its two workers
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while marked(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
    left = marked(mark)
    for pid in left:  # not to leave them running if the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == [] and errors.read_text() == ""


def marked(mark: str) -> list[int]:
    """The processes whose environment holds ZEROSUM_TEST_MARK=mark."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if f"ZEROSUM_TEST_MARK={mark}".encode() in (proc / "environ").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


# -- what the output says -------------------------------------------------------------

def test_the_cross_table_numbers_agents_as_the_standings_do() -> None:
    from zerosum.tournament.jobs import GameJob

    schedule = {}
    results = {}
    # c beats everyone, b beats a: ranked c, b, a, given a, b, c
    for n, (first, second, score) in enumerate(
            [("a", "b", 0.0), ("b", "a", 1.0), ("a", "c", 0.0), ("c", "a", 1.0),
             ("b", "c", 0.0), ("c", "b", 1.0)], 1):
        schedule[n] = GameJob(n, "tictactoe", (first, second), pair=0, round=(n - 1) // 2)
        results[n] = GameResult(n, score, "x")
    text = report(results, schedule, ("a", "b", "c"))
    ranks = [line.split()[:2] for line in text.split("\n\n")[0].splitlines()[2:]]
    rows = [line.split()[:2] for line in text.split("\n\n")[1].splitlines()[2:]]
    assert ranks == rows == [["1", "c"], ["2", "b"], ["3", "a"]]
    assert text.split("\n\n")[1].splitlines()[2].split()[2:] == ["-", "2/2", "2/2"]


def test_game_lengths_count_the_openings_plies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    status, out, _ = zerosum([*TICTACTOE, "--opening-plies", "3", "--db", str(db)], capsys)
    assert status == 0
    with sqlite3.connect(db) as con:
        lengths = {n: len(GameResult.from_json(r).moves)
                   for n, r in con.execute("SELECT number, result FROM games")}
    con.close()
    shown = {int(line.split()[1]): int(line.split("(")[-1].split()[0])
             for line in out.splitlines() if line.startswith("game ")}
    assert shown == lengths and min(lengths.values()) >= 5  # 3 opening plies and 2 more


def test_a_finished_tournament_takes_more_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.sqlite")
    base = [*TICTACTOE[:-4], "--workers", "1", "--db", db]
    assert zerosum([*base, "--games", "2"], capsys)[0] == 0
    status, out, err = zerosum([*base, "--games", "4"], capsys)
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == f"Resuming: 2 of 4 games are already in {db}."
    assert [line.split()[1] for line in out.splitlines() if line.startswith("game ")] == \
        ["3", "4"]
    status, _, err = zerosum([*base, "--games", "2"], capsys)
    assert (status, err) == (2, f"zerosum: error: {db} holds another tournament with 4 games "
                                "a pairing: give --games 4 or more\n")


def test_an_agent_file_shows_by_its_agents_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    greedy = str(Path(__file__).parent.parent / "docs" / "examples" / "myagent.py")
    db = str(tmp_path / "t.sqlite")
    status, out, err = zerosum(["tournament", "connect4", "--agent", greedy, "--agent",
                                "random", "--games", "2", "--workers", "1", "--db", db], capsys)
    assert (status, err) == (0, "")
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert all("greedy (myagent.py)" in line and greedy not in line for line in games)
    status, again, _ = zerosum(["results", db], capsys)
    standings = again.split("\n\n")[0].splitlines()[2:]
    assert sorted(line.split()[1] for line in standings) == ["greedy", "random"]
    assert "  greedy (myagent.py) vs random: " in again


def test_the_game_file_help_says_each_thing_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "game-file", "--help"])
    out = capsys.readouterr().out
    description = out[out.index("\n\n") + 2:out.index("\n\npositional arguments:")]
    assert " ".join(description.split()) == ("Your own game, from a Python file defining GAME "
                                             "(see docs/examples/mygame.py).")
    assert "FILE a Python file defining GAME, your own game (runs the file's code" in \
        " ".join(out.split())


def test_openings_keep_the_games_value_where_a_solver_reaches(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two random plies of tic-tac-toe often hand one side a won game, so that perfect
    players' games were decided by the opening. Balanced openings keep the draw: every
    game of two perfect players is drawn, and each game's line names its opening;
    --random-openings keeps the old draw of openings."""
    def games(*flags: str) -> list[str]:
        db = str(tmp_path / f"t{len(flags)}.sqlite")
        status, out, err = zerosum(["tournament", "tictactoe", "--agent", "alphabeta",
                                    "--agent", "alphabeta:depth=9", "--games", "8",
                                    "--workers", "1", "--db", db, *flags], capsys)
        assert (status, err) == (0, "")
        return [line for line in out.splitlines() if line.startswith("game ")]

    balanced = games()
    assert len(balanced) == 8 and all(": ½-½  Draw" in line for line in balanced)
    assert balanced[0].startswith("game    1  [1/8]  alphabeta - alphabeta:depth=9 after 8 9: "
                                  "½-½  Draw: the board is full (9 plies, ")
    unbalanced = games("--random-openings")
    assert sum(": ½-½  Draw" not in line for line in unbalanced) > 0
    settings = Settings("tictactoe", ("alphabeta", "alphabeta:depth=9"), 400,
                        move_timeouts=(60.0, 60.0), balanced=True)
    game = get_game("tictactoe").create()
    openings = {j.opening for j in jobs(settings, game)}
    # Of the 72 two-ply openings 24 keep the draw: after X's centre O's four corners,
    # after a corner only the centre, after an edge the centre, the two corners beside
    # X and the far edge.
    lost = {("1", "2"), ("5", "2"), ("2", "4")}  # O's first move loses: X wins
    assert len(openings) == 24 and not openings & lost
