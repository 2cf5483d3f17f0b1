"""How the programs start: the assignment launchers are the table's, parse as Python 3.6 up
to a one-line version check, and Ctrl-C while starting exits 130 without a traceback."""

from __future__ import annotations

import ast
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum import REQUIRES
from zerosum.assignments import ASSIGNMENTS
from zerosum.cli.assignment import launcher_text

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
LAUNCHERS = {p.file: ROOT / "assignments" / a.folder / p.file
             for a in ASSIGNMENTS for p in a.programs}
CHECKERS = LAUNCHERS["checkers"]
NEEDS = ".".join(map(str, REQUIRES))
# Read before the version check, so valid Python 3.6.
EARLY_MODULES = [SRC / "zerosum" / name for name in ("__init__.py", "_launch.py", "__main__.py")]
FUTURE_IN_3_6 = {"nested_scopes", "generators", "division", "absolute_import",
                 "with_statement", "print_function", "unicode_literals", "generator_stop"}


def env_without_pythonpath() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


# -- the files ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LAUNCHERS))
def test_launcher_is_the_table_s(name: str) -> None:
    program = next(p for a in ASSIGNMENTS for p in a.programs if p.file == name)
    path = LAUNCHERS[name]
    assert path.read_text(encoding="utf-8") == launcher_text(program)
    assert os.access(path, os.X_OK)


def test_every_assignment_folder_and_launcher_is_in_the_table() -> None:
    folders = {d.name for d in (ROOT / "assignments").iterdir() if d.is_dir()}
    assert folders == {a.folder for a in ASSIGNMENTS}
    executables = {f.name for f in (ROOT / "assignments").glob("*/*")
                   if f.is_file() and os.access(f, os.X_OK)}
    assert executables == set(LAUNCHERS)


def annotations(tree: ast.AST) -> list[ast.expr]:
    found: list[ast.expr | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [a for a in found if a is not None]


@pytest.mark.parametrize("path", [*LAUNCHERS.values(), *EARLY_MODULES], ids=lambda p: p.name)
def test_valid_python_3_6(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, feature_version=(3, 6))
    assert "=}" not in source  # f"{x=}" is 3.8
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            assert {a.name for a in node.names} <= FUTURE_IN_3_6
    for a in annotations(tree):
        # Evaluated when the function is defined: `list[str]` or `X | None` fail before 3.9/3.10.
        assert not any(isinstance(n, ast.Subscript | ast.BinOp) for n in ast.walk(a)), path


def test_required_version_is_the_same_everywhere() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    major, minor = REQUIRES
    assert f'requires-python = ">={major}.{minor}"' in pyproject
    assert f'target-version = "py{major}{minor}"' in pyproject
    assert f'python_version = "{major}.{minor}"' in pyproject


# -- an old Python ----------------------------------------------------------------------------

def old_pythons() -> list[Path]:
    """A Python 3.6 and a 3.9 if this machine has them (on PATH or under pyenv)."""
    versions = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = []
    for minor in (6, 9):
        candidates = [*sorted(versions.glob(f"3.{minor}.*/bin/python3")),
                      shutil.which(f"python3.{minor}")]
        found += [Path(c) for c in candidates if c][:1]
    return found


@pytest.mark.skipif(not old_pythons(), reason="no Python older than 3.10 here")
@pytest.mark.parametrize("python", old_pythons(), ids=lambda p: "/".join(p.parts[-3:]))
def test_old_python_gets_one_line_and_status_2(python: Path) -> None:
    version = subprocess.run([str(python), "-c", "import platform as p; print(p.python_version())"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version.startswith(("3.6.", "3.9."))
    runs = {
        "ConnectFour.py": [str(python), str(LAUNCHERS["ConnectFour.py"]), "x", "red"],
        "TakeStones": [str(python), str(LAUNCHERS["TakeStones"]), "7", "0", "0"],
        "zerosum": [str(python), "-m", "zerosum", "play"],
    }
    for prog, argv in runs.items():
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=SRC,
                              env=env_without_pythonpath())
        assert (proc.returncode, proc.stdout) == (2, "")
        assert proc.stderr == f"{prog}: needs Python {NEEDS} or newer (this is Python {version})\n"


# -- Ctrl-C -----------------------------------------------------------------------------------

# Runs a program (a launcher's path, or '-m zerosum') with SIGINT sent to itself while it
# imports the module named first: deterministically in the middle of the start-up.
TRIP = """
import os, runpy, signal, sys
module, how, what = sys.argv[1:4]
class Trip:
    def find_spec(self, name, path=None, target=None):
        if name == module:
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Trip())
sys.argv = [what, *sys.argv[4:]]
if how == "path":
    runpy.run_path(what, run_name="__main__")
else:
    sys.path.insert(0, os.environ["SRC"])
    runpy.run_module(what, run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("module, how, what", [
    ("zerosum.frontends.csc242_checkers", "path", str(CHECKERS)),
    ("zerosum.cli.play", "module", "zerosum"),
])
def test_ctrl_c_while_importing_exits_130_quietly(module: str, how: str, what: str) -> None:
    proc = subprocess.run([sys.executable, "-c", TRIP, module, how, what], input="",
                          capture_output=True, text=True, timeout=60,
                          env={**env_without_pythonpath(), "SRC": str(SRC)})
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "")


def ours(stderr: str, launcher: Path) -> list[str]:
    """The traceback lines that point into zerosum or into the launcher past its first line:
    a Ctrl-C earlier than that lands in the interpreter's own start-up, which no program
    can quieten."""
    lines = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    return [f"{f}:{n}" for f, n in lines
            if f.startswith(str(SRC)) or (f == str(launcher) and int(n) > 1)]


def wait_for_exec(proc: subprocess.Popen[str], argv: list[str]) -> None:
    """Until the child runs `argv` (Linux): a signal sent between fork and exec is lost."""
    cmdline = Path(f"/proc/{proc.pid}/cmdline")
    deadline = time.monotonic() + 60
    while cmdline.exists() and time.monotonic() < deadline:
        if cmdline.read_bytes().split(b"\0")[:len(argv)] == [a.encode() for a in argv]:
            return


@pytest.mark.parametrize("delay", [0.0, 0.05])
@pytest.mark.parametrize("how", ["launcher", "command"])
def test_ctrl_c_at_once_is_quiet(delay: float, how: str) -> None:
    argv = [str(CHECKERS)] if how == "launcher" else ["-m", "zerosum", "assignment", "csc242"]
    argv = [sys.executable, *argv]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env_without_pythonpath())
    try:
        wait_for_exec(proc, argv)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert ours(err, CHECKERS) == []
    if "Traceback" not in err:  # none from the interpreter's own start-up either
        # Killed by the signal before Python set its handler; or 130 from ours or the
        # program's (which prints one line).
        assert proc.returncode in (130, -signal.SIGINT)
        assert err in ("", "\ncheckers: interrupted\n", "\nzerosum: interrupted\n")


def read_until(proc: subprocess.Popen[bytes], text: bytes) -> bytes:
    assert proc.stdout is not None
    seen, deadline = b"", time.monotonic() + 60
    while text not in seen:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {text!r} in {seen!r}"
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, f"no {text!r} in {seen!r}"
        seen += chunk
    return seen


def test_ctrl_c_once_started_is_the_program_s() -> None:
    # Python's handler is back by the time the program runs: the front-end's guard says
    # 'interrupted' and exits 130.
    proc = subprocess.Popen([sys.executable, str(CHECKERS)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env_without_pythonpath())
    read_until(proc, b"Your choice (1-2): ")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, b"\ncheckers: interrupted\n")
