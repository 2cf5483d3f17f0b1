"""Programs in any language as tournament players (players/programs.py): COMP3608's call once
a move with its forfeit of a late move, UTA's one-move files, UGI engines; each fault a
recorded reason, and a tournament of programs resumed after kill -9."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from clirun import killed_after, zerosum

import zerosum as package
from zerosum.game import InputError
from zerosum.games.registry import get_game
from zerosum.players.programs import MoveForfeited, ProgramFault
from zerosum.players.spec import agent_from_spec as player_from_spec
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import play_game

DATA = Path(__file__).resolve().parent / "data" / "submissions"
COMP3608 = DATA / "comp3608"
PYTHON = f"{sys.executable} {COMP3608 / 'ConnectFour.py'}"
GOOD = f"course:comp3608,time=20:{PYTHON}"  # generous: a loaded machine is not the program
SLOW = f"course:comp3608,time=0.3:{PYTHON} --fault slow"
ZEROSUM_UGI = f"{sys.executable} -m zerosum ugi"
# The sandbox shows a program its own folder and not zerosum's source: zerosum as an
# engine runs from a copy of its package, as a class's engine would from its folder.
ZEROSUM_COPY = Path(tempfile.mkdtemp(prefix="zerosum-engine-"))
shutil.copytree(Path(package.__file__).parent, ZEROSUM_COPY / "zerosum",
                ignore=shutil.ignore_patterns("__pycache__"))
atexit.register(shutil.rmtree, ZEROSUM_COPY, True)
ZEROSUM_DIR = f"dir={ZEROSUM_COPY}"


def game_of(*agents: str, game: str = "connect4", opening: tuple[str, ...] = (),
            options: tuple[tuple[str, object], ...] = ()) -> GameResult:
    return play_game(GameJob(1, game, (agents[0], agents[1]), opening, (1, 2),
                             (60.0, 60.0), 400, False, options))


# -- specs ---------------------------------------------------------------------------------


def test_a_spec_is_kind_settings_and_command() -> None:
    player = player_from_spec(get_game("connect4"), f"course:comp3608,time=2:{PYTHON} red")
    assert player.command == [sys.executable, str(COMP3608 / "ConnectFour.py"), "red"]
    assert player.limit.seconds == 2 and player.late == "move"
    engine = player_from_spec(get_game("connect4"),
                              f"ugi,depth=3,{ZEROSUM_DIR}:{ZEROSUM_UGI} connect4")
    assert (engine.limit.depth, engine.limit.seconds, engine.timeout) == (3, None, 30.0)


@pytest.mark.parametrize(("spec", "message"), [
    ("course:cs101:x", "unknown player 'course' for connect4; choose from random, "),
    ("ugi:", "give the COMMAND, ugi[,SETTING=VALUE...]:COMMAND"),
    ("course:comp3608,depth=3:python3", "'depth=3' is unknown (settings: time, dir)"),
    ("course:comp3608,time=0:python3", "time must be"),
    ("ugi:no-such-program-here", "no program 'no-such-program-here' on the PATH"),
    ("ugi,time=1,depth=3:python3", "ugi: give one of time, depth and nodes, not time and "
     "depth"),
    ("course:comp3608,dir=/nonexistent:python3", "dir '/nonexistent': no such folder"),
    ("course:maxconnect4:python3", "player 'course:maxconnect4:python3': "
     "course:maxconnect4 does not play connect4"),
    ("course:maxconnect4,depth=2:python3", "course:maxconnect4 does not play connect4"),
])
def test_a_bad_spec_is_one_line_naming_it(spec: str, message: str) -> None:
    with pytest.raises(InputError) as e:
        player_from_spec(get_game("connect4"), spec)
    assert message in str(e.value) and "\n" not in str(e.value)


# -- COMP3608: the course's call, once a move -------------------------------------------


def test_the_course_call_gives_the_programs_column() -> None:
    spec = get_game("connect4")
    game = spec.create()
    state = game.initial_state()
    for column in (3, 3, 2):
        state = game.result(state, column)
    player = player_from_spec(spec, GOOD)
    # Its depth-2 alpha-beta (the example submission's tournament call) blocks nothing
    # yet and takes the first best column.
    assert player.choose(game, state).action == 2


def test_a_two_file_program_plays_though_python_writes_its_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # __pycache__ is written
    shutil.copy(COMP3608 / "ConnectFour.py", tmp_path / "search.py")
    (tmp_path / "ConnectFour.py").write_text("import search  # runs the program\n")
    spec = get_game("connect4")
    game = spec.create()
    player = player_from_spec(spec, f"course:comp3608,time=20,dir={tmp_path}:"
                                    f"{sys.executable} ConnectFour.py")
    state = game.initial_state()
    for column in (3, 3, 2):
        state = game.result(state, column)
    assert player.choose(game, state).action == 2  # as the one-file program answers


@pytest.mark.parametrize(("fault", "why"), [
    ("garbage", "printed 'Thinking... the best column is probably the middle one!', not a "
                "column 0-6"),
    ("crash", "crashed: exit status 1: RuntimeError: something went wrong"),
    ("file", "wrote files, which the course forbids: notes.txt"),
])
def test_what_loses_the_game(fault: str, why: str) -> None:
    spec = get_game("connect4")
    game = spec.create()
    player = player_from_spec(spec, f"course:comp3608,time=20:{PYTHON} --fault {fault}")
    with pytest.raises(ProgramFault) as e:
        player.choose(game, game.initial_state())
    assert str(e.value) == why and not isinstance(e.value, MoveForfeited)


def test_a_late_answer_forfeits_the_move_and_play_returns_to_the_other() -> None:
    result = game_of(SLOW, GOOD)
    # Red never answers in time: four lost moves, and Yellow's four stones win.
    assert result.reason == "Yellow wins: four in a row" and result.score == 0.0
    assert [(m.move, m.forfeit) for m in result.moves][0::2] == \
        [("", "no column within 0.3 s")] * 4
    assert [m.by for m in result.moves] == [0, 1] * 4
    assert result.fault is None  # the game itself was played out
    assert GameResult.from_json(result.to_json()) == result


def test_an_illegal_column_loses_the_game(tmp_path: Path) -> None:
    program = tmp_path / "seven.py"
    program.write_text("print(7)\n")
    result = game_of("random", f"course:comp3608,time=20:{sys.executable} {program}")
    assert result.reason == f"Yellow (course:comp3608,time=20:{sys.executable} {program}) " \
                            "played an illegal move: 7"
    assert (result.score, result.fault) == (1.0, 1)


# -- UTA Max-Connect4: one-move files ------------------------------------------------------


def test_one_move_files_carry_each_move() -> None:
    leftmost = f"course:maxconnect4,depth=2,time=20:{sys.executable} " \
               f"{DATA / 'uta' / 'maxconnect4.py'}"
    result = game_of(leftmost, "random:seed=3", game="maxconnect4")
    assert len(result.moves) == 42 and result.fault is None
    game = get_game("maxconnect4").create()
    state = game.initial_state()
    for move in result.moves:  # the program's moves: always the leftmost open column
        action = game.parse_move(state, move.move)
        if move.by == 0:
            assert action == game.actions(state)[0]
        state = game.result(state, action)
    assert result.reason == game.outcome(state)


def test_a_one_move_file_that_forgets_the_turn_loses() -> None:
    turn = f"course:maxconnect4,time=20:{sys.executable} {DATA / 'uta' / 'maxconnect4.py'} " \
           "--fault turn"
    result = game_of("random", turn, game="maxconnect4")
    assert result.reason == f"Player 2 ({turn}) lost: output.txt says player 2 is next; " \
                            "after player 2, it is 1"
    assert (result.score, len(result.moves)) == (1.0, 1)


# -- UGI engines ---------------------------------------------------------------------------

FAULTY_ENGINE = """import sys, time
fault = sys.argv[1]
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "ugi":
        print("id name faulty", flush=True)
        print("ugiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        if fault == "garbage":
            print("info depth 1 score cp 12 nodes 5 pv 9", flush=True)
            print("bestmove 9", flush=True)
        elif fault == "hang":
            time.sleep(60)
        elif fault == "crash":
            sys.exit(3)
        else:
            print("bestmove 1", flush=True)
"""


@pytest.mark.parametrize(("fault", "why"), [
    ("garbage", "bestmove '9' is not a move here: a move is a column number 1-5, not '9'"),
    ("hang", "no bestmove within 1 s"),
    ("crash", "the engine ended: exited with status 3"),
])
def test_an_engines_faults_lose_its_game(fault: str, why: str, tmp_path: Path) -> None:
    engine = tmp_path / "faulty.py"
    engine.write_text(FAULTY_ENGINE)
    spec = f"ugi,depth=1,timeout=1:{sys.executable} {engine} {fault}"
    result = game_of(spec, "random", options=(("width", 5), ("height", 4)))
    assert result.reason == f"Red ({spec}) lost: {why}"
    assert (result.score, result.fault, result.moves) == (0.0, 0, ())


def test_a_zerosum_engine_plays_through_ugi_with_its_figures() -> None:
    engine = (f"ugi,depth=3,{ZEROSUM_DIR}:{ZEROSUM_UGI} connect4 --width 5 --height 4 "
              "--player alphabeta")
    result = game_of(engine, "random:seed=5", options=(("width", 5), ("height", 4)),
                     opening=("3",))
    assert result.fault is None and not any(m.forfeit for m in result.moves)
    mine = [m for m in result.moves if m.by == 0]
    assert mine and all(m.depth == 3 and m.nodes and m.value is not None for m in mine)
    # the same engine in this process, at depth 3, chooses the same moves
    spec = get_game("connect4")
    game = spec.create(width=5, height=4)
    own = player_from_spec(spec, "alphabeta:depth=3")
    state = game.initial_state()
    for move in result.moves:
        action = game.parse_move(state, move.move)
        if move.by == 0:
            assert own.play(game, state) == action
        state = game.result(state, action)


def test_a_late_course_program_forfeits_the_move_not_the_game_against_an_engine() -> None:
    # COMP3608's rule holds against a UGI engine too: it is told the lost turn as 0000
    engine = f"ugi,depth=1,{ZEROSUM_DIR}:{ZEROSUM_UGI} connect4 --player alphabeta"
    result = game_of(SLOW, engine)
    late = [m for m in result.moves if m.by == 0 and m.forfeit]
    assert late and all(m.forfeit == "no column within 0.3 s" for m in late)
    assert "lost on time" not in result.reason and result.fault is None


# -- the tournament ------------------------------------------------------------------------




def test_two_zerosum_engines_play_a_tournament_through_ugi(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small = "connect4 --width 5 --height 4"
    first = f"ugi,depth=2,{ZEROSUM_DIR}:{ZEROSUM_UGI} {small} --player alphabeta"
    second = f"ugi,nodes=200,{ZEROSUM_DIR}:{ZEROSUM_UGI} {small} --player mcts:seed=4"
    db = str(tmp_path / "u.sqlite")
    status, out, err = zerosum(["tournament", "connect4", "--width", "5", "--height", "4",
                                "--agent", first, "--agent", second, "--games", "2",
                                "--workers", "2", "--db", db], capsys)
    assert (status, err) == (0, "")
    assert sum(line.startswith("game ") for line in out.splitlines()) == 2
    assert "Forfeits: none" in out
    status, _, _ = zerosum(["results", db, "--export", str(tmp_path / "games.txt")], capsys)
    exported = (tmp_path / "games.txt").read_text()
    assert status == 0 and exported.count("# game ") == 2 and ", depth 2, " in exported


def test_a_course_tournament_records_forfeits_and_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    garbage = f"course:comp3608,time=20:{PYTHON} --fault garbage"
    db = str(tmp_path / "c.sqlite")
    status, out, err = zerosum(["tournament", "connect4", "--agent", GOOD, "--agent", SLOW,
                                "--agent", garbage, "--games", "2", "--workers", "2",
                                "--opening-plies", "0", "--db", db], capsys)
    assert (status, err) == (0, "")
    forfeits = out.split("Forfeits:\n")[1].splitlines()
    assert sum(f"({garbage}) lost: printed 'Thinking... the best column is probably the "
               "middle one!', not a column 0-6" in line for line in forfeits) == 4
    assert sum(f"{SLOW} lost move" in line and line.endswith(": no column within 0.3 s")
               for line in forfeits) >= 4
    status, _, _ = zerosum(["results", db, "--export", str(tmp_path / "games.txt")], capsys)
    assert status == 0 and (tmp_path / "games.txt").read_text().count("# game ") == 6


def compiled(tmp_path: Path) -> dict[str, str]:
    """The example submission in C (right and crashing) and Java, compiled here."""
    gcc, javac = shutil.which("gcc"), shutil.which("javac")
    if gcc is None or javac is None or shutil.which("java") is None:
        pytest.skip("no gcc or javac/java on this machine: the C and Java submissions "
                    "are not compiled")
    for name, flags in (("c", []), ("crash", ["-DFAULT_CRASH"])):
        (tmp_path / name).mkdir()
        subprocess.run([gcc, "-O1", "-o", str(tmp_path / name / "ConnectFour"), *flags,
                        str(COMP3608 / "ConnectFour.c")], check=True)
    (tmp_path / "java").mkdir()
    shutil.copy(COMP3608 / "ConnectFour.java", tmp_path / "java")
    subprocess.run([javac, "ConnectFour.java"], cwd=tmp_path / "java", check=True)
    return {"c": f"course:comp3608,time=20:{tmp_path / 'c' / 'ConnectFour'}",
            "crash": f"course:comp3608,time=20:{tmp_path / 'crash' / 'ConnectFour'}",
            "java": f"course:comp3608,time=20,dir={tmp_path / 'java'}:java ConnectFour"}


@pytest.mark.slow
def test_a_course_tournament_in_three_languages_with_an_engine_and_zerosums_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = compiled(tmp_path)
    agents = [GOOD, c["c"], c["java"], c["crash"], SLOW,
              f"ugi,depth=2,{ZEROSUM_DIR}:{ZEROSUM_UGI} connect4 --player alphabeta",
              "alphabeta:depth=2"]
    status, out, err = zerosum(["tournament", "connect4", *[f for a in agents
                                                            for f in ("--agent", a)],
                                "--games", "2", "--workers", "2",
                                "--db", str(tmp_path / "t.sqlite")], capsys)
    assert (status, err) == (0, "")
    assert sum(line.startswith("game ") for line in out.splitlines()) == 42
    forfeits = out.split("Forfeits:\n")[1]
    assert forfeits.count(f"({c['crash']}) lost: crashed: killed by signal SIGSEGV") == 12
    assert f"{SLOW} lost move" in forfeits


@pytest.mark.slow
def test_a_tournament_of_programs_killed_resumes_with_every_game_once(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    command = [sys.executable, "-m", "zerosum", "tournament", "connect4", "--agent", GOOD,
               "--agent", f"course:comp3608,time=20:{PYTHON} --fault garbage", "--agent",
               "random", "--games", "4", "--workers", "2", "--db", str(db)]
    at_kill = killed_after(command, db, 3)
    assert 3 <= at_kill < 12, "the kill came too late to test anything"
    rerun = subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    assert f"Resuming: {at_kill} of 12 games are already in {db}." in rerun.stdout
    played_now = [line for line in rerun.stdout.splitlines() if line.startswith("game ")]
    assert len(played_now) == 12 - at_kill
    with sqlite3.connect(db) as con:
        numbers = [n for (n,) in con.execute("SELECT number FROM games ORDER BY number")]
    assert numbers == list(range(1, 13))  # every game exactly once
    # the final tables cover every game: the garbage printer lost all of its eight
    assert rerun.stdout.split("Forfeits:\n")[1].count("lost: printed 'Thinking...") == 8


def test_no_answer_at_all_forfeits_the_move_too(tmp_path: Path) -> None:
    program = tmp_path / "silent.py"
    program.write_text("import sys\n")
    spec = get_game("connect4")
    game = spec.create()
    state = game.result(game.initial_state(), 3)  # Yellow to move
    with pytest.raises(MoveForfeited) as e:
        player_from_spec(spec, f"course:comp3608,time=20:{sys.executable} {program}").choose(
            game, state)
    assert str(e.value) == "printed no column"
    passed = game.pass_turn(state)  # the same stones, Red to move again
    assert passed.stones == state.stones and game.is_maxs_turn(passed)


def test_what_the_sandbox_does_not_enforce_is_said_not_hidden(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.players.programs import sandbox_note
    from zerosum.sandbox import containment

    spec = get_game("connect4")
    players = [player_from_spec(spec, GOOD), player_from_spec(spec, "random")]
    monkeypatch.setenv("ZEROSUM_SANDBOX", "limits")
    containment.cache_clear()
    try:
        note = sandbox_note(players)
        assert note is not None and note.startswith(
            "note: this system's sandbox (limits) does not enforce the network; ")
        assert sandbox_note(players[1:]) is None  # no program, nothing to say
    finally:  # the probe again, as the system is: the next test of this process uses it
        monkeypatch.undo()
        containment.cache_clear()
    if containment().mode == "bwrap" and not containment().unenforced:
        assert sandbox_note(players) is None


def test_an_engines_cpu_time_is_limited_for_its_whole_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import zerosum.players.programs as programs

    made: list[programs.Limits] = []

    class Started(Exception):
        pass

    def session(command: list[str], limits: programs.Limits, folder: object) -> None:
        made.append(limits)
        raise Started

    monkeypatch.setattr(programs, "Session", session)
    spec = get_game("connect4")
    player = player_from_spec(spec,
                              f"ugi,time=0.5,startup=5,{ZEROSUM_DIR}:{ZEROSUM_UGI} connect4")
    assert isinstance(player, programs.UgiPlayer)
    with pytest.raises(Started):
        player.started()
    # 400 moves at its timeout (2 x 0.5 s + 1 s), not the 30 s of one call
    assert made[0].cpu_seconds == 5 + 400 * 2 + 1


def test_a_course_program_on_another_board_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = zerosum(["tournament", "connect4", "--width", "8", "--agent", GOOD,
                                "--agent", "random", "--db", str(tmp_path / "t.sqlite")],
                               capsys)
    assert (status, out) == (2, "")
    assert err.startswith("zerosum: error: player 'course:comp3608,time=20:")
    assert err.endswith(": COMP3608's programs play on the 7x6 board only, not 8x6\n")
    assert not (tmp_path / "t.sqlite").exists()


def test_command_words_naming_files_here_are_made_absolute(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.players.programs import resolve_command

    own = tmp_path / "own"
    own.mkdir()
    (own / "ConnectFour.py").write_text("")
    (tmp_path / "book.txt").write_text("")
    monkeypatch.chdir(tmp_path)
    # in its own folder (dir=): kept as written; here: made absolute; options: kept
    assert resolve_command("python3 ConnectFour.py --book book.txt -x", own, "p") == [
        "python3", "ConnectFour.py", "--book", str(tmp_path / "book.txt"), "-x"]
    assert resolve_command("python3 own/ConnectFour.py", None, "p") == [
        "python3", str(own / "ConnectFour.py")]
    (tmp_path / "java").mkdir()  # a folder named like the program: the PATH's java runs
    assert resolve_command("java ConnectFour", own, "p") == ["java", "ConnectFour"]
    assert resolve_command("./own/ConnectFour.py", None, "p") == [
        str(own / "ConnectFour.py")]
    with pytest.raises(InputError) as e:
        resolve_command("./nothing", None, "p")
    assert str(e.value) == "p: no program './nothing'"


def test_a_program_played_against_at_the_terminal_fails_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    garbage = f"course:comp3608,time=20:{PYTHON} --fault garbage"
    status, _, err = zerosum(["play", "connect4", "--opponent", garbage, "--side", "none"],
                             capsys)
    assert status == 2
    assert err == "zerosum: error: printed 'Thinking... the best column is probably the " \
                  "middle one!', not a column 0-6\n"


def test_an_engine_is_told_a_passed_turn_as_the_null_move() -> None:
    from zerosum.ugi import UgiEngine

    spec = get_game("connect4")
    engine = UgiEngine("test", spec.create, lambda *_: None, sys.stdout)
    state = engine.position(["startpos", "moves", "4", "0000", "3"])
    game = spec.create()
    assert state == game.result(game.pass_turn(game.result(game.initial_state(), 3)), 2)
