"""The auto-marker (`zerosum assignment check`): example submissions of our own, in
Python, C and Java, right and wrong in each way a student's can be, checked against the
reference; the report, its JSON and JUnit forms, and the sandbox's limits."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hostile import processes_running

from zerosum.cli import main
from zerosum.marker.cases import COMP3608
from zerosum.marker.check import check, strays
from zerosum.sandbox import Limits, can_cut_network, containment, failure, run_program

SUBMISSIONS = Path(__file__).resolve().parent / "data" / "submissions" / "comp3608"
PYTHON = [sys.executable, "ConnectFour.py"]
# Generous for a loaded machine: the course's 1 s tournament rule is tested on its own.
SLACK = ["--move-time", "20", "--timeout", "30"]


def marks(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        raise SystemExit(main(["assignment", "check", *args]))
    code = done.value.code
    assert isinstance(code, int)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_correct_python_submission_gets_full_marks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "comp3608", "--cases", "10", "--dir", str(SUBMISSIONS), *SLACK,
                      "--", *PYTHON)
    assert code == 0
    assert "ConnectFour checked against zerosum's reference, seed 1:\n" in out
    assert "  minimax (M)          5/5   passed   40.0 of 40\n" in out
    assert "  alpha-beta (A)       3/3   passed   40.0 of 40\n" in out
    assert "  tournament call      2/2   passed   20.0 of 20\n" in out
    assert "  total                          100.0 of 100\n" in out


def two_files(folder: Path) -> Path:
    """The example submission split in two: ConnectFour.py imports the search, so that
    Python writes its bytecode cache (__pycache__) where it runs."""
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "ConnectFour.py", folder / "search.py")
    (folder / "ConnectFour.py").write_text("import search  # runs the program\n")
    return folder


def test_bytecode_caches_are_not_files_the_program_wrote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    folder = two_files(tmp_path / "submission")
    run = run_program(PYTHON, [".......," * 5 + ".......", "red", "M", "1"],
                      Limits(seconds=30), folder)
    assert run.status == 0 and run.stdout == "0\n8\n"  # as the reference answers
    assert run.files[0] == "__pycache__" and run.files[1].startswith("__pycache__/search.")
    assert strays([*run.files, "Helper.class", "notes.txt"]) == ["notes.txt"]
    code, out, _ = marks(capsys, "comp3608", "--cases", "5", "--dir", str(folder), *SLACK,
                         "--", *PYTHON)
    assert code == 0 and "  total                          100.0 of 100\n" in out, out


def test_the_current_folder_is_checked_without_its_virtual_environment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(SUBMISSIONS / "ConnectFour.py", tmp_path)
    for venv in (".venv", "env"):  # a clone after `make setup`, a venv of another name
        (tmp_path / venv / "lib").mkdir(parents=True)
        (tmp_path / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
        with (tmp_path / venv / "lib" / "big").open("wb") as f:
            f.truncate(60 << 20)  # 60 MB (sparse): over the limit of a submission
    (tmp_path / ".venv" / "bin").mkdir()
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    monkeypatch.chdir(tmp_path)
    # The interpreter named inside the virtual environment left out is reached there.
    code, out, err = marks(capsys, "comp3608", "--cases", "3", *SLACK, "--",
                           ".venv/bin/python", "ConnectFour.py")
    assert code == 0 and "  total                          100.0 of 100\n" in out
    assert err == "zerosum: each case gets a copy of the current folder without .venv, env " \
                  "(hidden entries, caches and virtual environments are no part of a " \
                  "submission)\n"
    with (tmp_path / "data.bin").open("wb") as f:
        f.truncate(60 << 20)  # the submission's own: too big to copy for every case
    code, out, err = marks(capsys, "comp3608", "--cases", "3", *SLACK, "--", *PYTHON)
    assert (code, out) == (2, "")
    assert err == "zerosum: error: the current folder: more than 50 MB: is it the " \
                  "submission's folder? (give it with --dir FOLDER)\n"


def test_wrong_node_counts_show_the_case_and_a_diff(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "comp3608", "--cases", "4", "--dir", str(SUBMISSIONS), *SLACK,
                      "--", *PYTHON, "--fault", "nodes")
    assert code == 1
    first = out.split("\n\n")[0].splitlines()
    # (red 7, yellow 11: the course's states need not be balanced)
    assert first[0] == "case 1 (alpha-beta (A)): wrong: line 2: expected '186', got '187'"
    assert first[1].endswith("ConnectFour.py --fault nodes "
                             "yyryryr,rryryr.,yy.yy..,...y...,.......,....... red A 5")
    assert first[2:] == ["  --- expected standard output", "  +++ got standard output",
                         "  @@ -1,2 +1,2 @@", "   0",
                         "  -186", "  +187"]
    # 4 cases: the tournament call, which the first 4 of seed 1 miss, takes the place
    # of the last minimax case (every part gets a case).
    assert "  minimax (M)          0/2   passed    0.0 of 40\n" in out
    assert "  tournament call      1/1   passed   20.0 of 20\n" in out
    assert "  total                           20.0 of 100\n" in out


@pytest.mark.parametrize(("fault", "verdict"), [
    ("crash", "crash: exit status 1: RuntimeError: something went wrong"),
    ("garbage", "wrong: line 1: expected '0', got "
                "'Thinking... the best column is probably the middle one!'"),
    ("file", "wrong: wrote files in its folder: notes.txt"),
])
def test_each_way_of_failing_is_a_result(fault: str, verdict: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "comp3608", "--cases", "1", "--dir", str(SUBMISSIONS), *SLACK,
                      "--", *PYTHON, "--fault", fault)
    assert code == 1
    assert out.startswith(f"case 1 (alpha-beta (A)): {verdict}\n")


def test_a_slow_program_times_out() -> None:
    outcomes = check(COMP3608, [*PYTHON, "--fault", "slow"], 1, 1, Limits(seconds=1.0),
                     SUBMISSIONS)
    assert [(o.verdict, o.why) for o in outcomes] == [("timeout", "no answer within 1 s")]


def test_the_network_is_cut_off() -> None:
    if not can_cut_network():
        pytest.skip("this system cannot make a network namespace (unshare): not enforced here")
    outcomes = check(COMP3608, [*PYTHON, "--fault", "socket"], 1, 1, Limits(seconds=20),
                     SUBMISSIONS)
    assert outcomes[0].verdict == "crash"
    # its own namespace: no interface but its own loopback (bubblewrap's), or none at all
    assert outcomes[0].why.endswith(("Connection refused", "Network is unreachable"))


def test_the_tournament_call_keeps_the_courses_second() -> None:
    outcomes = check(COMP3608, [*PYTHON, "--fault", "slow"], 5, 1, Limits(seconds=30),
                     SUBMISSIONS)
    tournament = outcomes[4]
    assert tournament.case.part == "tournament call" and len(tournament.case.args) == 2
    assert (tournament.verdict, tournament.why) == ("timeout", "no answer within 1 s")


def test_memory_and_file_size_are_limited(tmp_path: Path) -> None:
    hog = "x = bytearray(600 * 2**20)"
    run = run_program([sys.executable, "-c", hog], [], Limits(seconds=30, memory_mb=256))
    assert run.status == 1 and "MemoryError" in run.stderr
    big = "open('big', 'wb').write(bytes(3 * 2**20))"
    run = run_program([sys.executable, "-c", big], [], Limits(seconds=30, file_mb=1))
    assert run.status != 0  # SIGXFSZ, or an OSError where the signal is ignored


def test_reports_for_course_tooling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "marks.xml"
    code, out, _ = marks(capsys, "comp3608", "--cases", "3", "--json", "--junit", str(junit),
                      "--dir", str(SUBMISSIONS), *SLACK, "--", *PYTHON, "--fault", "nodes")
    assert code == 1
    report = json.loads(out)
    # --cases 3: one case for each of the three parts.
    assert report["parts"] == {
        "minimax (M)": {"passed": 0, "cases": 1, "marks": 0.0, "out_of": 40.0},
        "alpha-beta (A)": {"passed": 0, "cases": 1, "marks": 0.0, "out_of": 40.0},
        "tournament call": {"passed": 1, "cases": 1, "marks": 20.0, "out_of": 20.0}}
    assert report["total"] == 20.0
    assert [c["verdict"] for c in report["cases"]] == ["wrong", "wrong", "pass"]
    assert report["cases"][0]["expected"] == "0\n186\n" and report["cases"][0]["got"] == "0\n187\n"
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "2", "0")
    assert len(suite.findall("testcase/failure")) == 2


@pytest.mark.parametrize("name", ["comp3608", "cs540", "uta-logic", "uta-maxconnect4"])
def test_as_many_cases_as_parts_give_each_part_one(name: str) -> None:
    from zerosum.marker.cases import MARKINGS
    from zerosum.marker.check import spread

    marking = MARKINGS[name]
    for seed in (1, 2, 3):
        cases = spread(marking, seed, len(marking.parts))
        assert sorted(c.part for c in cases) == sorted(marking.parts), (seed, cases)


def test_fewer_cases_than_parts_scale_the_marks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "comp3608", "--cases", "2", "--dir", str(SUBMISSIONS), *SLACK,
                         "--", *PYTHON)
    assert code == 0
    assert "  tournament call      no case     not checked (of 20)\n" in out
    assert "  total                          100.0 of 100\n" in out
    assert "  note: 1 of 3 parts had no case (--cases 2); the total is of the parts checked, " \
           "scaled to 100: give --cases 3 or more for every part\n" in out
    code, out, _ = marks(capsys, "comp3608", "--cases", "2", "--dir", str(SUBMISSIONS), *SLACK,
                         "--", *PYTHON, "--fault", "nodes")
    assert code == 1 and "  total                            0.0 of 100\n" in out


COLOURS = """import sys
sys.stdout.write("\\x1b[31m" + "x" * 1_000_000 + "\\x1b[0m\\x00\\n")
"""


def test_control_characters_and_a_huge_line_keep_the_reports_valid(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "colours.py").write_text(COLOURS)
    junit = tmp_path / "marks.xml"
    code, out, _ = marks(capsys, "comp3608", "--cases", "1", "--junit", str(junit), "--dir",
                         str(tmp_path), *SLACK, "--", sys.executable, "colours.py")
    assert code == 1
    first = out.splitlines()[0]
    assert first == ("case 1 (alpha-beta (A)): wrong: line 1: expected '0', got '\\x1b[31m"
                     + "x" * 195 + "'… (999810 more)")
    # The diff: 2000 characters kept, the ESC shown as an escape, the line clipped.
    assert "  +\\x1b[31m" + "x" * 192 + "… (1803 more)\n" in out
    suite = ET.parse(junit).getroot()  # well-formed, the ESC and NUL shown as escapes
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.text is not None
    assert failure.get("message") == first.split(": wrong: ")[1]
    assert "+\\x1b[31m" + "x" * 192 + "… (1803 more)" in failure.text


def test_the_cases_are_the_same_for_the_same_seed() -> None:
    import random

    first = COMP3608.make_cases(random.Random(7), 6)
    again = COMP3608.make_cases(random.Random(7), 6)
    assert [c.args for c in first] == [c.args for c in again]
    assert [c.args for c in first] != [c.args for c in COMP3608.make_cases(random.Random(8), 6)]


def test_a_correct_c_submission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no gcc on this machine: the C example submission is not compiled")
    for name, flags in (("right", []), ("crash", ["-DFAULT_CRASH"])):
        (tmp_path / name).mkdir()
        subprocess.run([gcc, "-O1", "-o", str(tmp_path / name / "ConnectFour"), *flags,
                        str(SUBMISSIONS / "ConnectFour.c")], check=True)
    code, out, _ = marks(capsys, "comp3608", "--cases", "10", "--dir", str(tmp_path / "right"),
                      *SLACK, "--", "./ConnectFour")
    assert code == 0 and "  total                          100.0 of 100\n" in out
    code, out, _ = marks(capsys, "comp3608", "--cases", "1", "--dir", str(tmp_path / "crash"),
                      *SLACK, "--", "./ConnectFour")
    assert code == 1 and out.startswith("case 1 (alpha-beta (A)): crash: killed by signal "
                                        "SIGSEGV\n")


def test_a_java_submission_with_an_off_by_one(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    javac = shutil.which("javac")
    if javac is None or shutil.which("java") is None:
        pytest.skip("no javac/java on this machine: the Java example submission is not run")
    shutil.copy(SUBMISSIONS / "ConnectFour.java", tmp_path)
    subprocess.run([javac, "ConnectFour.java"], cwd=tmp_path, check=True)
    (tmp_path / "ConnectFour.java").unlink()
    code, out, _ = marks(capsys, "comp3608", "--cases", "6", "--seed", "7", "--dir",
                      str(tmp_path), *SLACK, "--", "java", "ConnectFour")
    assert code == 1
    assert "minimax (M)          2/2   passed   40.0 of 40" in out
    assert "alpha-beta (A)       2/3   passed   26.7 of 40" in out
    assert out.startswith("case 3 (alpha-beta (A)): wrong: line 2: expected ")


@pytest.mark.parametrize(("args", "message"), [
    (["comp3608"], "give the program's command after --"),
    (["nosuch", "--", "x"], "unknown assignment 'nosuch'"),
    (["csc242", "--", "x"], "no auto-marker for csc242 yet; there is one for cmpt317, "
     "comp3608, cs540, uta-logic, uta-maxconnect4"),
    (["cmpt317", "--", "python3", "a4q1.py"], "cmpt317's command holds {q} where each case "
     "puts its question, e.g. zerosum assignment check cmpt317 -- python3 a4q{q}.py"),
    (["comp3608", "--dir", "/nonexistent", "--", "x"], "/nonexistent: no such folder"),
    (["comp3608", "--cases", "0", "--", "x"], "--cases"),
])
def test_usage_errors_are_one_line(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = marks(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_the_take_stones_reference_program_marks_itself_full(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # exported: the sandbox shows a program its own folder, not zerosum's source
    folder = tmp_path / "cs540"
    assert main(["assignment", "export", "cs540", str(folder)]) == 0
    code, out, _ = marks(capsys, "cs540", "--cases", "4", "--dir", str(folder), *SLACK,
                         "--", sys.executable, "TakeStones")
    assert code == 0
    assert "  trace                2/2   passed   50.0 of 50\n" in out
    assert "  summary              2/2   passed   50.0 of 50\n" in out


UTA = Path(__file__).resolve().parent / "data" / "submissions" / "uta"


def test_max_connect4_one_move_files_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "uta-maxconnect4", "--cases", "3", "--dir", str(UTA), *SLACK,
                         "--", sys.executable, "maxconnect4.py")
    assert code == 0 and "  one-move             3/3   passed  100.0 of 100\n" in out
    code, out, _ = marks(capsys, "uta-maxconnect4", "--cases", "1", "--dir", str(UTA), *SLACK,
                         "--", sys.executable, "maxconnect4.py", "--fault", "turn")
    assert code == 1
    assert out.startswith("case 1 (one-move): wrong: output.txt says player 1 is next; "
                          "after player 1, it is 2\n")
    assert "  --- expected output.txt\n  +++ got output.txt\n" in out
    code, out, _ = marks(capsys, "uta-maxconnect4", "--cases", "1", "--dir", str(UTA), *SLACK,
                         "--", sys.executable, "maxconnect4.py", "--fault", "quiet")
    # It prints the boards (their digits hold 0 0 0 0) but no line saying the score.
    assert out.startswith("case 1 (one-move): wrong: the scores before (0-0) and after "
                          "(0-0) are not printed, in that order, on lines saying score\n")


def test_the_wumpus_checker_is_marked_per_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = marks(capsys, "uta-logic", "--cases", "8", "--dir", str(UTA), *SLACK,
                         "--", sys.executable, "check_true_false.py")
    assert code == 1
    assert "  definitely true                 0/2   passed    0.0 of 25\n" in out
    assert "  possibly true, possibly false   2/2   passed   25.0 of 25\n" in out
    assert "  both true and false             0/2   passed    0.0 of 25\n" in out
    assert ("wrong: line 1: expected 'definitely true', got 'possibly true, possibly false'"
            in out)


def test_the_reference_programs_exported_mark_themselves_full(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # caches are written
    for name, program, cases in (("uta-logic", "check_true_false.py", "4"),
                                 ("uta-maxconnect4", "maxconnect4.py", "2")):
        assert main(["assignment", "export", name, str(tmp_path / name)]) == 0
        code, out, _ = marks(capsys, name, "--cases", cases, "--dir", str(tmp_path / name),
                             *SLACK, "--", sys.executable, program)
        assert code == 0 and "100.0 of 100\n" in out, out


def test_a_junit_file_that_cannot_be_written_is_refused_before_any_case(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = marks(capsys, "comp3608", "--junit", "/nonexistent/folder/marks.xml",
                           "--dir", str(SUBMISSIONS), "--", *PYTHON)
    assert (code, out) == (2, "")
    assert err == "zerosum: error: output file /nonexistent/folder/marks.xml: no folder " \
                  "/nonexistent/folder\n"


NQUEENS_TABLE = """import sys
q = sys.argv[1]
# a student's own layout: N, then the value, then whatever else
values = {"1a": [1, 1, 1, -1, 1, 1, 1, -1, -1, 1], "1b": [1, 1, 1, -2, 5, 5, 5, -6, -6, 7]}
variations = {"1": ["1a"], "2": ["1b"], "3": ["1a"], "4": ["1b"], "5": ["1a"], "6": ["1b"],
              "7": ["1a", "1b"]}[q]
for v in variations:
    print(f"Question {q}, variation {v}")
    for n in range(1, 11):
        value = values[v][n - 1]
        if q == "4" and n == 9:
            value = -value  # a wrong value
        if q in "567" and n > 4:
            value = 0  # a heuristic's estimate: not compared
        if q == "3":  # another layout: a table of floats
            print(f"| {n} | {float(value)} | (X, 1) | 0.001 |")
        else:
            print(f"N={n}  value={value:+d}  best=('X', 1)  time=0.013 s  nodes=2,057")
"""


def test_nqueens_tables_are_marked_by_their_values(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "tables.py").write_text(NQUEENS_TABLE)
    code, out, _ = marks(capsys, "cmpt317", "--cases", "7", "--dir", str(tmp_path), *SLACK,
                         "--", sys.executable, "tables.py", "{q}")
    assert code == 1
    assert out.startswith("case 4 (q4): wrong: variation 1b, N = 9: expected the value -6, "
                          "got +6\n")
    assert "tables.py 4\n" in out.splitlines()[1] + "\n"
    assert "  q4                   0/1   passed    0.0 of 14.29\n" in out
    assert "  q7                   1/1   passed   14.3 of 14.29\n" in out
    assert "  total                           85.7 of 100\n" in out


def test_the_nqueens_reference_scripts_exported_mark_themselves_full(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    assert main(["assignment", "export", "cmpt317", str(tmp_path / "a4")]) == 0
    code, out, _ = marks(capsys, "cmpt317", "--cases", "7", "--dir", str(tmp_path / "a4"),
                         *SLACK, "--", sys.executable, "a4q{q}.py")
    assert code == 0 and "  total                          100.0 of 100\n" in out, out


def test_a_program_is_done_when_it_ends_and_what_it_left_running_is_killed() -> None:
    # The child keeps the program's pipes open; the answer is in when the program ends.
    code = ("import subprocess\n"
            "child = subprocess.Popen(['sleep', '301.5'], stdout=subprocess.DEVNULL)\n"
            "print('answered')")
    run = run_program([sys.executable, "-c", code], [], Limits(seconds=20))
    assert (run.status, run.timed_out, run.stdout) == (0, False, "answered\n")
    if containment().mode != "limits":
        assert run.attempts == ["left 1 process running (killed)"]
    assert processes_running("301.5") == []


def test_garbage_without_end_is_kept_to_a_megabyte() -> None:
    run = run_program([sys.executable, "-c", "import sys\nfor _ in range(40):\n"
                       "    sys.stdout.write('x' * 2**16)"], [], Limits(seconds=20))
    assert len(run.stdout) == 2**20
    assert run.stopped == "printed more than 1 MB on its standard output (stopped)"
    assert failure(run, 20) == ("crash", run.stopped)
