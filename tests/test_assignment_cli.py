"""`zerosum assignment`: list, run (as the launchers do) and export (a folder or zip that
runs with a plain python3 and nothing installed)."""

from __future__ import annotations

import os
import re
import runpy
import shutil
import signal
import stat
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from zerosum.assignments import ASSIGNMENTS
from zerosum.cli import assignment
from zerosum.cli import main as zerosum

ROOT = Path(__file__).resolve().parents[1]
STATE = "rrr....,yy.....,y......,.......,.......,......."
BOARD = "0000000\n0000000\n0000000\n0000000\n0000000\n1200000\n1\n"

# One small run of each assignment: (launcher, arguments, input files to make, output file).
RUNS = {
    "cmpt317": ("a4q1.py", ["--sizes", "1-4"], {}, None),
    "comp3608": ("ConnectFour.py", [STATE, "red", "M", "4"], {}, None),
    "cs540": ("TakeStones", ["5", "0", "0"], {}, None),
    "csc242": ("checkers", ["--seed", "1"], {}, None),
    "uta-logic": ("check_true_false.py", ["wumpus_rules.txt", "kb.txt", "st.txt"],
                  {"kb.txt": "S_1_3\n(not S_2_2)\n", "st.txt": "M_1_4\n"}, "result.txt"),
    "uta-maxconnect4": ("maxconnect4.py", ["one-move", "in.txt", "out.txt", "3"],
                        {"in.txt": BOARD}, "out.txt"),
}
STDIN = "1\n1\nb\n"  # the checkers session: 4x4, random opponent, human black, then EOF
# TakeStones 3 0 0 --format summary
SUMMARY = ("Move: 1\nValue: -1.0\nNumber of Nodes Visited: 4\nNumber of Nodes Evaluated: 2\n"
             "Max Depth Reached: 2\nAvg Effective Branching Factor: 1.5\n")


def untimed(text: str) -> str:
    return re.sub(r"\d+\.\d+", "#", text)  # CPU seconds differ from run to run


def plain_python(launcher: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # -I -S: no environment variables, no site-packages: nothing installed is seen.
    return subprocess.run([sys.executable, "-I", "-S", str(launcher), *args], input=STDIN,
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def command(name: str, args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    import io

    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "stdin", io.StringIO(STDIN))
    status = zerosum(["assignment", name, *args])
    out, err = capsys.readouterr()
    return status, out, err


def make_inputs(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


# -- list and run -----------------------------------------------------------------------------


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["assignment", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[::2]] == [a.name for a in ASSIGNMENTS]
    assert lines[2] == "comp3608         COMP3608  Connect Four: the classic search (minimax, " \
        "alpha-beta) and the tournament player"
    assert lines[3].split() == ["comp3608-connect4/:", "ConnectFour.py"]
    assert lines[1].split()[1:] == [*(f"a4q{q}.py" for q in (1, 2, 3, 4, 5, 6, 7, 9)),
                                    "generate_outputs.py"]


@pytest.mark.parametrize("args", [
    [STATE, "red", "A", "4"],
    [STATE, "blue"],  # an error: one line, status 2
])
def test_run_is_the_launcher(args: list[str], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    launcher = ROOT / "assignments" / "comp3608-connect4" / "ConnectFour.py"
    proc = plain_python(launcher, args, tmp_path)
    ran = command("comp3608-connect4", args, tmp_path, capsys, monkeypatch)
    assert ran == (proc.returncode, proc.stdout, proc.stderr)
    assert ran[1:] == ("3\n362\n", "") if ran[0] == 0 else ran[2].count("\n") == 1


def test_programs_by_name_with_or_without_py(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["assignment", "cmpt317", "a4q1", "--sizes", "3"]) == 0
    first = untimed(capsys.readouterr().out)
    assert "3     +1  ('X', 2)       6" in first
    assert zerosum(["assignment", "cmpt317-nqueens", "a4q1.py", "--sizes", "3"]) == 0
    assert untimed(capsys.readouterr().out) == first
    # One program: its name may be given, as on the course's command line.
    assert zerosum(["assignment", "cs540", "TakeStones", "3", "0", "0", "--format",
                    "summary"]) == 0
    assert capsys.readouterr().out == SUMMARY


@pytest.mark.parametrize("args, message", [
    (["nosuch"], "zerosum: error: unknown assignment 'nosuch'; known: cmpt317, comp3608, "
                 "cs540, csc242, uta-logic, uta-maxconnect4 (see zerosum assignment list)"),
    (["cmpt317"], "zerosum: error: cmpt317 has several programs; name one of: a4q1, a4q2, "
                  "a4q3, a4q4, a4q5, a4q6, a4q7, a4q9, generate_outputs"),
    (["cmpt317", "a4q8"], "zerosum: error: cmpt317 has no program 'a4q8'; name one of: "
                          "a4q1, a4q2, a4q3, a4q4, a4q5, a4q6, a4q7, a4q9, generate_outputs"),
    (["export", "comp3608"], "zerosum assignment export: error: the following arguments are "
                             "required: DIR (see zerosum assignment export --help)"),
])
def test_bad_names_are_one_line(args: list[str], message: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = zerosum(["assignment", *args])
    except SystemExit as stop:  # a usage error, from the argument parser
        status = stop.code  # type: ignore[assignment]
    assert status == 2
    assert capsys.readouterr().err == message + "\n"


@pytest.mark.filterwarnings("ignore:'zerosum.frontends:RuntimeWarning")  # run again, on purpose
@pytest.mark.parametrize("module", sorted({p.target.split(":")[0]
                                           for a in ASSIGNMENTS for p in a.programs}))
def test_front_end_modules_point_to_the_command(module: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    name = next(a.name for a in ASSIGNMENTS if a.programs[0].target.startswith(module + ":"))
    assert err.startswith(f"{module} is not a program: run `zerosum assignment {name} ")
    assert err.count("\n") == 1


def test_python_m_front_end_is_a_pointer() -> None:
    proc = subprocess.run([sys.executable, "-m", "zerosum.frontends.connect4", STATE, "red"],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("zerosum.frontends.connect4 is not a program: run `zerosum "
                           "assignment comp3608 ARGS...` or a launcher in comp3608-connect4/ "
                           "(see zerosum assignment list)\n")


# -- export -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RUNS))
def test_export_runs_with_nothing_installed(name: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    a = assignment.find(name)
    launcher, args, inputs, output = RUNS[name]
    target = tmp_path / "export"
    assert zerosum(["assignment", "export", name, str(target)]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {target} (")
    source = ROOT / "assignments" / a.folder
    assert {f.name for f in target.iterdir()} == {f.name for f in source.iterdir()} | {"zerosum"}
    for p in a.programs:
        assert os.access(target / p.file, os.X_OK)
    assert not list(target.rglob("__pycache__"))
    assert not (target / "zerosum" / "_assignments").exists()

    make_inputs(target, inputs)
    exported = plain_python(target / launcher, args, target)
    assert exported.returncode == 0 and exported.stderr == ""
    here = tmp_path / "here"
    here.mkdir()
    make_inputs(here, inputs)
    if name == "uta-logic":
        shutil.copy(source / "wumpus_rules.txt", here)
    ran = command(name, [launcher, *args], here, capsys, monkeypatch)
    assert (ran[0], untimed(ran[1]), ran[2]) == (0, untimed(exported.stdout), "")
    if output:
        assert (target / output).read_bytes() == (here / output).read_bytes()


def test_export_needs_a_new_or_empty_folder(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep")
    assert zerosum(["assignment", "export", "cs540", str(tmp_path / "full")]) == 2
    assert capsys.readouterr().err == f"zerosum: error: {tmp_path / 'full'} exists and is " \
        "not an empty folder\n"
    assert [f.name for f in (tmp_path / "full").iterdir()] == ["mine.txt"]
    (tmp_path / "empty").mkdir()
    assert zerosum(["assignment", "export", "cs540", str(tmp_path / "empty")]) == 0
    assert (tmp_path / "empty" / "TakeStones").exists()
    assert sorted(f.name for f in tmp_path.iterdir()) == ["empty", "full"]  # no leftovers


def test_export_zip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "takestones.zip"
    assert zerosum(["assignment", "export", "cs540", str(target), "--zip"]) == 0
    with zipfile.ZipFile(target) as z:
        names = z.namelist()
        modes = {i.filename: stat.S_IMODE(i.external_attr >> 16) for i in z.infolist()}
        z.extractall(tmp_path / "unzipped")
    assert names[:2] == ["README.md", "TakeStones"] and "zerosum/_launch.py" in names
    assert modes["TakeStones"] == 0o755 and modes["zerosum/_launch.py"] == 0o644
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    unzipped = tmp_path / "unzipped"
    proc = plain_python(unzipped / "TakeStones", ["3", "0", "0", "--format", "summary"],
                        unzipped)
    assert (proc.returncode, proc.stdout) == (0, SUMMARY)
    assert zerosum(["assignment", "export", "cs540", str(target), "--zip"]) == 2
    assert capsys.readouterr().err.endswith("takestones.zip already exists; export writes a "
                                            "new zip file\n")


@pytest.mark.parametrize("given, written", [("takestones", "takestones.zip"),
                                             ("hand-in.ZIP", "hand-in.ZIP"),
                                             ("v1.2", "v1.2.zip"), ("out/", "out.zip")])
def test_export_zip_name_ends_in_zip(given: str, written: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["assignment", "export", "cs540", f"{tmp_path}/{given}", "--zip"]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {tmp_path / written} (")
    assert [f.name for f in tmp_path.iterdir()] == [written]
    assert zipfile.is_zipfile(tmp_path / written)


REPOSITORY_PATHS = re.compile(r"\.\./|\b(src|bench|docs|tests)/|<!--|-->|repository")
LINK = re.compile(r"\]\(([^)#]+)(#[^)]*)?\)")


@pytest.mark.parametrize("name", [a.name for a in ASSIGNMENTS])
def test_exported_markdown_names_only_what_the_export_holds(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = assignment.find(name)
    folder, packed = tmp_path / "export", tmp_path / "export.zip"
    assert zerosum(["assignment", "export", name, str(folder)]) == 0
    assert zerosum(["assignment", "export", name, str(packed), "--zip"]) == 0
    source = ROOT / "assignments" / a.folder
    markdown = sorted(f for f in folder.iterdir()
                      if f.suffix == ".md" or f.name == "eval_explanation.txt")
    assert {f.name for f in markdown} >= {"README.md"}
    readme = (folder / "README.md").read_text()
    assert "## This folder" in readme and "## Outside the repository" not in readme
    assert REPOSITORY_PATHS.search((source / "README.md").read_text())  # the check can fail
    with zipfile.ZipFile(packed) as z:
        for f in markdown:
            text = f.read_text()
            assert z.read(f.name).decode() == text  # the zip holds the same text
            assert REPOSITORY_PATHS.findall(text) == [], f.name
            for target, _ in LINK.findall(text):
                assert "://" in target or (folder / target).exists(), (f.name, target)
    # Outside the Markdown, the files are copied as they are.
    for f in source.iterdir():
        if f.is_file() and f.name not in {m.name for m in markdown}:
            assert (folder / f.name).read_bytes() == f.read_bytes()


@pytest.mark.parametrize("text, exported", [
    ("a <!-- repository -->`../../src`<!-- export `zerosum/` --> b\n", "a `zerosum/` b\n"),
    ("a <!-- repository\n-->(`tests/x.py`)<!-- /repository -->.\n", "a .\n"),
    ("x\n<!-- repository -->\n## Repo\n<!-- export\n## Here\n-->\ny\n", "x\n## Here\ny\n"),
    ("code in `src/zerosum/games/`\n", "code in `zerosum/games/`\n"),
])
def test_for_export(text: str, exported: str) -> None:
    assert assignment.for_export(text) == exported


def test_for_export_refuses_an_unclosed_passage() -> None:
    with pytest.raises(ValueError, match="without its end marker"):
        assignment.for_export("a <!-- repository -->b\n")


def ctrl_c() -> None:
    raise KeyboardInterrupt


def terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


@pytest.mark.parametrize("as_zip", [False, True])
@pytest.mark.parametrize("stop, stopped", [(ctrl_c, KeyboardInterrupt), (terminate, SystemExit)])
def test_a_stopped_export_leaves_nothing(as_zip: bool, stop: Callable[[], None],
                                         stopped: type[BaseException], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    copyfile, read_bytes = shutil.copyfile, Path.read_bytes
    sigterm = signal.getsignal(signal.SIGTERM)

    def count() -> None:
        calls.append(1)
        if len(calls) == 5:
            stop()  # half-way through

    monkeypatch.setattr(shutil, "copyfile", lambda *a: count() or copyfile(*a))
    monkeypatch.setattr(Path, "read_bytes", lambda self: count() or read_bytes(self))
    with pytest.raises(stopped):
        assignment.export(assignment.find("comp3608"), tmp_path / "out", as_zip)
    assert len(calls) == 5
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) == sigterm


def test_export_from_an_installed_package(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # A wheel has no assignments/ beside the package: the folders are its package data.
    fake = tmp_path / "site" / "zerosum"
    shutil.copytree(Path(assignment.zerosum.__file__).parent, fake,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "assignments" / "uta-logic", fake / "_assignments" / "uta-logic")
    monkeypatch.setattr(assignment.zerosum, "__file__", str(fake / "__init__.py"))
    a = assignment.find("uta-logic")
    assert assignment.assignment_folder(a) == fake / "_assignments" / "uta-logic"
    assignment.export(a, tmp_path / "out")
    assert (tmp_path / "out" / "wumpus_rules.txt").exists()
    assert not (tmp_path / "out" / "zerosum" / "_assignments").exists()
    with pytest.raises(assignment.InputError, match="the files of cs540 are not installed"):
        assignment.export(assignment.find("cs540"), tmp_path / "out2")


@pytest.mark.slow
def test_export_after_a_real_pip_install(tmp_path: Path) -> None:
    # A wheel built from the repository's files, installed in a new venv: the assignment
    # folders come with it (setup.py), and an export from it runs with a plain python3.
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    source = tmp_path / "source"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "--no-deps", str(source)], check=True, timeout=600, capture_output=True)
    export = tmp_path / "export"
    subprocess.run([str(venv / "bin" / "zerosum"), "assignment", "export", "uta-logic",
                    str(export)], check=True, timeout=120, cwd=tmp_path)
    make_inputs(export, RUNS["uta-logic"][2])
    proc = plain_python(export / "check_true_false.py", RUNS["uta-logic"][1], export)
    assert (proc.returncode, proc.stdout) == (0, "definitely true\n")
