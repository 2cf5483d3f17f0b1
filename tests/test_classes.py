"""`zerosum class mark` and `zerosum class tournament`: a small made-up class
(tools/make_class.py: right, faulty and hostile submissions) built, marked and played;
the gradebook, the reports, the HTML page, resuming, and hostile names."""

from __future__ import annotations

import csv
import html.parser
import runpy
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from zerosum.classes.build import build_command, run_command, safe_name, submissions
from zerosum.classes.mark import Plan, Record, kind_of_failure, mark_class
from zerosum.classes.names import entrant_label, labelled
from zerosum.cli import main
from zerosum.game import InputError

ROOT = Path(__file__).resolve().parents[1]
MAKER = runpy.run_path(str(ROOT / "tools" / "make_class.py"))
KINDS = {name: make for name, _, _, make in MAKER["KINDS"]}
HTML_NAME = "<img src=x onerror=alert('name')><b>"
FORMULA = '=HYPERLINK("x","y")'
SMALL = ["alice", "dave", HTML_NAME, FORMULA, "ivan", "peggy", "line\nbreak", "heidi"]
# Generous for a loaded machine: the course's 1 s rule is the marker's own tests' business.
SLACK = ["--move-time", "20", "--timeout", "30", "--build-timeout", "60"]


def make_class(root: Path, names: list[str]) -> Path:
    root.mkdir()
    for name in names:
        (root / name).mkdir()
        KINDS[name](root / name)
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        raise SystemExit(main(list(args)))
    code = done.value.code
    assert isinstance(code, int)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def gradebook(out: Path) -> dict[str, list[str]]:
    with (out / "gradebook.csv").open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["student", "key", "minimax (M)", "alpha-beta (A)", "tournament call",
                       "total", "status", "reason"]
    return {row[0]: row[1:] for row in rows[1:]}


def test_safe_names_keep_plain_names_and_take_apart_the_rest() -> None:
    assert safe_name("alice") == "alice"
    assert safe_name("bob_c-2") == "bob_c-2"
    for hostile in ("..", "a b", "../../etc", "line\nbreak", HTML_NAME, "x" * 300, "\udcff"):
        key = safe_name(hostile)
        assert key.replace("_", "a").replace("-", "a").isalnum() and len(key) <= 41
    assert safe_name("a b") != safe_name("a_b") and safe_name("a b").startswith("a_b-")


def test_submissions_are_the_folders_in_order(tmp_path: Path) -> None:
    for name in ("zed", "amy", ".hidden"):
        (tmp_path / name).mkdir()
    (tmp_path / "notes.txt").write_text("not a student")
    assert [s.name for s in submissions(tmp_path)] == ["amy", "zed"]
    assert [s.name for s in submissions(tmp_path, [tmp_path / "zed"])] == ["amy"]
    with pytest.raises(InputError, match="no such folder"):
        submissions(tmp_path / "nothing")
    with pytest.raises(InputError, match="holds no submission"):
        submissions(tmp_path / "amy")


@pytest.mark.parametrize(("files", "built", "runs"), [
    ({"Makefile": "", "x.c": ""}, ["make"], None),
    ({"build.sh": "", "x.java": ""}, ["sh", "build.sh"], None),
    ({"B.java": "", "A.java": ""}, ["javac", "A.java", "B.java"], None),
    ({"b.c": "", "a.c": ""}, ["gcc", "-O2", "-o", "ConnectFour", "a.c", "b.c", "-lm"], None),
    ({"ConnectFour.py": ""}, None, ["python3", "ConnectFour.py"]),
    ({"ConnectFour.class": "", "ConnectFour.py": ""}, None, ["java", "ConnectFour"]),
    ({"ConnectFour.py": "", "run.txt": "# mine\n\n  python3 -u 'my prog.py' --fast\n"}, None,
     ["python3", "-u", "my prog.py", "--fast"]),
    ({"run.txt": "# nothing\n"}, None, "run.txt holds no command"),
    ({"README": ""}, None, "no program: none of ConnectFour.class, an executable "
     "ConnectFour, ConnectFour.py, nor a run.txt saying the command"),
])
def test_the_build_and_run_rules(tmp_path: Path, files: dict[str, str], built: Any,
                                 runs: Any) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert build_command(tmp_path, "ConnectFour") == built
    if runs is not None:
        assert run_command(tmp_path, "ConnectFour", "") == runs


def test_an_executable_and_cmpt317s_numbered_programs(tmp_path: Path) -> None:
    program = tmp_path / "ConnectFour"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    assert run_command(tmp_path, "ConnectFour", "") == ["./ConnectFour"]
    (tmp_path / "a4q1.py").write_text("")
    assert run_command(tmp_path, "a4q{q}", "{q}") == ["python3", "a4q{q}.py"]


def test_failures_are_counted_by_kind_not_by_their_numbers() -> None:
    assert kind_of_failure("minimax (M)", "wrong", "line 2: expected '379', got '380'") == \
        "minimax (M): wrong (line N: expected …, got …)"
    assert kind_of_failure("tournament call", "timeout", "no answer within 1 s") == \
        "tournament call: timeout"


def test_a_small_class_is_marked_resumed_and_shown_safely(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = make_class(tmp_path / "sub", SMALL)
    out = tmp_path / "out"
    code, said, err = run(capsys, "class", "mark", "comp3608", str(sub), "--cases", "5",
                          "--out", str(out), *SLACK)
    assert code == 0
    assert said == (f"8 submissions, 6 marked, 2 not: {out}/gradebook.csv, "
                    f"{out}/summary.html, {out}/reports/\n")
    assert err.splitlines()[0] == f"marked 1/8: {safe_name(HTML_NAME)} 100.0"
    book = gradebook(out)
    key = safe_name(HTML_NAME)
    assert book == {
        "'" + FORMULA: ["HYPERLINK_x_y-1abcce2a3a", "0.00", "0.00", "0.00", "0.00", "marked",
                        ""],
        HTML_NAME: [key, "40.00", "40.00", "20.00", "100.00", "marked", ""],
        "alice": ["alice", "40.00", "40.00", "20.00", "100.00", "marked", ""],
        "dave": ["dave", "0.00", "0.00", "20.00", "20.00", "marked", ""],
        "heidi": ["heidi", "0.00", "0.00", "0.00", "0.00", "marked", ""],
        "ivan": ["ivan", "0.00", "0.00", "0.00", "0.00", "no program",
                 "no program: none of ConnectFour.class, an executable ConnectFour, "
                 "ConnectFour.py, nor a run.txt saying the command"],
        "line\nbreak": [safe_name("line\nbreak"), "40.00", "40.00", "20.00", "100.00",
                        "marked", ""],
        "peggy": ["peggy", "0.00", "0.00", "0.00", "0.00", "run.txt is not a plain file",
                  "run.txt is not a plain file"],
    }
    # Nothing written but the outputs, in --out only.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "sub"]
    assert sorted(p.name for p in out.iterdir()) == ["class.json", "gradebook.csv", "records",
                                                     "reports", "summary.html"]
    assert sorted(p.name for p in (out / "reports").iterdir()) == sorted(
        f"{safe_name(n)}.txt" for n in SMALL)

    # A report is what `zerosum assignment check` prints, under the student and build.
    report = (out / "reports" / "dave.txt").read_text()
    code, checked, _ = run(capsys, "assignment", "check", "comp3608", "--cases", "5",
                           "--move-time", "20", "--timeout", "30", "--dir", str(sub / "dave"),
                           "--", "python3", "ConnectFour.py", "--fault", "nodes")
    assert report.startswith("student: dave\nbuild: nothing to build\n"
                             "command: python3 ConnectFour.py --fault nodes\n\ncase 1 ")
    timing = [line for line in report.splitlines() if "time per case" in line]

    def without(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if "time per case" not in line)

    assert len(timing) == 1 and without(report).endswith(without(checked))

    # The page: every name escaped, no element a submission chose.
    page = (out / "summary.html").read_text()
    assert "&lt;img src=x onerror=alert(&#x27;name&#x27;)&gt;&lt;b&gt;" in page
    tags = Tags()
    tags.feed(page)
    assert tags.seen <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p",
                         "table", "tr", "th", "td", "div", "a"}
    assert tags.links == sorted(f"reports/{safe_name(n)}.txt" for n in SMALL)
    assert "<td>90-100</td><td class=\"n\">3</td>" in page
    assert "<td>0-9</td><td class=\"n\">4</td>" in page
    assert '<td class="fail">minimax (M): wrong (line N: expected …, got …)</td>' \
        '<td class="n">3</td><td>=HYPERLINK(&quot;x&quot;,&quot;y&quot;), dave, heidi</td>' in page
    assert '<td class="fail">no program</td><td class="n">1</td><td>ivan</td>' in page

    # Resumed: a student whose record is gone is marked again, and only that one.
    before = (out / "gradebook.csv").read_text()
    (out / "records" / "alice.json").unlink()
    (out / "gradebook.csv").unlink()
    stuck = out / ".work" / "killed" / "locked"  # what a kill -9 mid-build leaves
    stuck.mkdir(parents=True)
    stuck.chmod(0)
    seen: list[str] = []
    records = mark_class(Plan("comp3608", 5, 1, 30.0, 60.0, 20.0), sub, out,
                         progress=lambda done, total, r: seen.append(f"{done}/{total} {r.key}"))
    assert seen == ["8/8 alice"]
    assert len(records) == 8 and (out / "gradebook.csv").read_text() == before
    assert not (out / ".work").exists()

    # Another class, or other settings, into the same folder: refused.
    code, _, err = run(capsys, "class", "mark", "comp3608", str(sub), "--cases", "5",
                       "--seed", "2", "--out", str(out), *SLACK)
    assert code == 2 and err == (f"zerosum: error: {out} holds the marks of another class or "
                                 "other settings (class.json): give another --out, or delete "
                                 "it to start afresh\n")


class Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        self.links += [v or "" for k, v in attrs if tag == "a" and k == "href"]
        self.links.sort()


def test_a_build_that_fails_is_a_mark_with_its_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("no gcc on this machine")
    sub = make_class(tmp_path / "sub", ["grace", "bob_c", "sybil"])
    out = tmp_path / "out"
    code, _, _ = run(capsys, "class", "mark", "comp3608", str(sub), "--cases", "2", "--out",
                     str(out), "--move-time", "20", "--timeout", "30", "--build-timeout", "3")
    assert code == 0
    book = gradebook(out)
    # two cases for three parts: the third is not checked ("-"), the total scaled to it
    assert book["bob_c"][:6] == ["bob_c", "40.00", "40.00", "-", "100.00", "marked"]
    assert book["grace"][4:6] == ["0.00", "build failed"]
    assert book["grace"][6].startswith("build failed: ConnectFour.c:1:26: error: expected")
    assert book["sybil"][5:] == ["build failed", "build failed: no answer within 3 s"]
    record = Record.from_json((out / "records" / "grace.json").read_text())
    assert record.build == "gcc -O2 -o ConnectFour ConnectFour.c -lm"
    report = (out / "reports" / "grace.txt").read_text()
    assert "  | ConnectFour.c:1:26: error: expected" in report
    assert "\n  total                            0.0 of 100\n" in report


@pytest.mark.parametrize(("args", "message"), [
    (["mark", "csc242", "."], "no auto-marker for 'csc242'; there is one for cmpt317, "
     "comp3608, cs540, uta-logic, uta-maxconnect4"),
    (["mark", "comp3608", "/nonexistent"], "/nonexistent: no such folder"),
    (["mark", "comp3608", ".", "--cases", "0"], "--cases"),
    (["mark", "comp3608", ".", "--out", "someone/marks"], "someone/marks is inside the "
     "submission someone: give an --out outside every student's folder"),
    (["tournament", "tictactoe", "."], "no course's programs play 'tictactoe'; a class "
     "tournament "
     "plays connect4, maxconnect4"),
    (["tournament", "connect4", ".", "--games", "3"], "give an even --games, not 3"),
    ([], "name a command: zerosum class mark NAME DIR, or zerosum class tournament GAME DIR"),
])
def test_usage_errors_are_one_line(args: list[str], message: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "someone").mkdir()
    code, _, err = run(capsys, "class", *args)
    assert code == 2 and message in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["someone"]


def test_a_student_is_shown_by_their_key() -> None:
    assert entrant_label("course:comp3608,dir=/x/t.sqlite.builds/alice:python3 A.py") == \
        "alice"
    assert entrant_label("course:comp3608,time=5,dir=/x/t.sqlite.builds/bob:./a") == "bob"
    assert entrant_label("course:comp3608,dir=/x/elsewhere/bob:./a") == \
        "course:comp3608,dir=/x/elsewhere/bob:./a"
    assert entrant_label("alphabeta:depth=4") == "alphabeta:depth=4"
    spec = "course:comp3608,dir=/x/t.sqlite.builds/walter:python3 C.py"
    assert labelled(f"Red ({spec}) lost: wrote files", [spec, "random"]) == \
        "Red (walter) lost: wrote files"


def test_a_small_class_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = make_class(tmp_path / "sub", ["alice", "niaj", "ivan"])
    db = tmp_path / "t.sqlite"
    code, out, err = run(capsys, "class", "tournament", "connect4", str(sub), "--db", str(db),
                         "--engine", "random", "--move-time", "20", "--workers", "1")
    assert code == 0
    assert err.splitlines() == ["built 1/3: alice: entered (nothing to build)",
                                "built 2/3: ivan: not entered: no program: none of "
                                "ConnectFour.class, an executable ConnectFour, "
                                "ConnectFour.py, nor a run.txt saying the command",
                                "built 3/3: niaj: entered (nothing to build)"]
    assert out.splitlines()[0] == (f"6 games, 2 students and 1 reference players, results in "
                                   f"{db}")
    assert "  game 1: Red (niaj) lost: crashed: exit status 1: RuntimeError: something went " \
        "wrong" not in out  # alice and niaj meet first: alice is Red in game 1
    assert "game 1 [1/6] alice - niaj: 1 " in out
    assert "game 2 [2/6] niaj - alice: 0 " in out
    standings = out[out.index("Standings"):].splitlines()
    assert [line.split()[1] for line in standings[2:5]] == ["alice", "random", "niaj"] or \
        [line.split()[1] for line in standings[2:5]] == ["random", "alice", "niaj"]
    assert "t.sqlite.builds" not in out[out.index("Standings"):]
    assert sorted(p.name for p in (tmp_path / "t.sqlite.builds").iterdir()) == \
        ["alice", "niaj"]
    assert stat.S_ISDIR((tmp_path / "t.sqlite.builds" / "alice").stat().st_mode)


@pytest.mark.slow
def test_killed_with_sigkill_and_run_again(tmp_path: Path) -> None:
    """A real kill -9 in the middle of a class: the students done are kept, no file is
    left half written, and the run again marks the rest to the same gradebook."""
    import signal
    import subprocess
    import sys
    import time

    names = ["alice", "dave", "heidi", "ivan", "niaj"]
    sub = make_class(tmp_path / "sub", names)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "zerosum", "class", "mark", "comp3608", str(sub),
               "--cases", "5", "--out", str(out), *SLACK]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    records = out / "records"
    deadline = time.monotonic() + 300
    while not (records.is_dir() and len(list(records.glob("*.json"))) >= 2):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = sorted(p.name for p in records.iterdir())
    assert 2 <= len(kept) < len(names) and all(n.endswith(".json") for n in kept)
    assert not (out / "gradebook.csv").exists()
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True,
                          check=True)  # the rest in two processes
    again = [line.split()[2] for line in done.stderr.splitlines()]
    assert again == [n for n in names if f"{n}.json" not in kept]
    assert not list(out.rglob("*.tmp")) and not (out / ".work").exists()
    book = gradebook(out)
    assert [book[n][4] for n in names] == ["100.00", "20.00", "0.00", "0.00", "0.00"]


def test_a_gauntlet_plays_the_first_reference_player_against_each_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = make_class(tmp_path / "sub", ["alice", "ivan"])
    db = tmp_path / "g.sqlite"
    code, out, _ = run(capsys, "class", "tournament", "connect4", str(sub), "--db", str(db),
                       "--format", "gauntlet", "--engine", "random", "--engine",
                       "alphabeta:depth=1", "--move-time", "20", "--workers", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"4 games, 1 students and 2 reference players, results in {db}"
    assert [line.split("] ")[1].split(": ")[0] for line in lines[1:5]] == [
        "random - alice", "alice - random", "random - alphabeta:depth=1",
        "alphabeta:depth=1 - random"]
