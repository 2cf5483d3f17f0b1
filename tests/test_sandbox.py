"""Hostile programs, in Python and C, against zerosum.sandbox: each tries one escape (a
secret read, a write outside its folder, processes left running, a fork loop, huge
output, other processes seen or traced, a link or a FIFO out of its folder, its folder
made unremovable, shared memory past the limit, the network) and each test asserts
that it was contained and that nothing of it survives the call. Where this system
cannot contain something, the test asserts that the run says so instead."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile import processes_running

import zerosum
from zerosum.sandbox import UNTRACED, Limits, Run, containment, failure, run_program

HOSTILE_C = Path(__file__).resolve().parent / "data" / "hostile" / "hostile.c"
FAST = Limits(seconds=20)


def contained() -> bool:
    """Does this system hide the file system from a program (bubblewrap)?"""
    return containment().mode == "bwrap"


def traced() -> bool:
    """Are a program's file attempts traced here (strace)?"""
    return containment().traced


def python(tmp_path: Path, code: str, *args: str, limits: Limits = FAST,
           outputs: tuple[str, ...] = ()) -> Run:
    """Run `code` as a student's Python program in a folder of its own."""
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    (folder / "prog.py").write_text(textwrap.dedent(code))
    return run_program([sys.executable, "prog.py"], args, limits, folder, outputs=outputs)


@pytest.fixture(scope="module")
def hostile_c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler here")
    folder = tmp_path_factory.mktemp("c")
    subprocess.run([compiler, "-O1", "-o", str(folder / "hostile"), str(HOSTILE_C)],
                   check=True, timeout=120)
    yield folder


def c(folder: Path, *args: str, limits: Limits = FAST) -> Run:
    return run_program(["./hostile"], args, limits, folder)


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A reference answer kept outside the program's folder."""
    path = tmp_path / "reference" / "answer.txt"
    path.parent.mkdir()
    path.write_text("the reference's answer\n")
    return path


def test_it_reads_no_secret_no_reference_no_source(tmp_path: Path, secret: Path) -> None:
    source = Path(zerosum.__file__).resolve().parent / "sandbox.py"
    other = tmp_path / "other-student" / "ConnectFour.py"
    other.parent.mkdir()
    other.write_text("print(3)\n")
    run = python(tmp_path, """
        import os, sys
        for path in sys.argv[1:] + ["/etc/shadow", "/root/.bashrc", "/home"]:
            try:
                if os.path.isdir(path):
                    print("listed", path, os.listdir(path))
                else:
                    open(path).read()
                    print("read", path)
            except OSError as e:
                pass
        print(open("/etc/passwd").read().count("\\n"), "users")
    """, str(secret), str(source), str(other), os.getcwd())
    assert run.status == 0, run.stderr
    if not contained():
        assert "its view of the file system" in " ".join(run.unenforced)
        return
    assert run.stdout == "2 users\n"  # root and nobody, not the system's
    if not traced():
        assert UNTRACED in run.unenforced
        return
    # each attempt named once, by the most it tried (it looked, then read)
    assert run.attempts == [f"tried to read {secret} (hidden)",
                            f"tried to read {source} (hidden)",
                            f"tried to read {other} (hidden)",
                            f"tried to read {os.getcwd()} (hidden)",
                            "tried to read /etc/shadow (refused)",
                            "tried to read /root/.bashrc (hidden)",
                            "tried to read /home (hidden)"]


def test_it_writes_nothing_outside_its_folder(tmp_path: Path, hostile_c: Path) -> None:
    outside = tmp_path / "outside.txt"
    run = python(tmp_path, """
        import sys
        for path in ["/root/pwned", "/tmp/pwned", "/usr/pwned", "/pwned", sys.argv[1]]:
            try:
                with open(path, "w") as f:
                    f.write("pwned")
                print("wrote", path)
            except OSError:
                pass
    """, str(outside))
    if not contained():
        assert "write outside its folder" in " ".join(run.unenforced)
        return
    assert run.stdout == "wrote /tmp/pwned\n"  # its private /tmp
    assert not outside.exists() and not Path("/root/pwned").exists()
    assert not Path("/usr/pwned").exists() and not Path("/pwned").exists()
    # /root holds the folders of this Python (pyenv, shown read-only): its / is read-only
    root = "refused: read-only" if Path(sys.executable).resolve().is_relative_to("/root") \
        else "hidden"
    tried = [f"tried to write /root/pwned ({root})",
             "tried to write /usr/pwned (refused: read-only)",
             "tried to write /pwned (refused: read-only)",
             f"tried to write {outside} (hidden)"]
    assert run.attempts == [*(tried if traced() else []),
                            "wrote /tmp/pwned (its private /tmp, discarded)"]
    run = c(hostile_c, "write", str(outside))
    assert (run.status, run.stdout) == (0, "")
    assert not outside.exists() and not Path("/root/pwned-c").exists()
    if traced():
        assert run.attempts == ["tried to write /root/pwned-c (hidden)",
                                "tried to write /usr/pwned-c (refused: read-only)",
                                "tried to write /pwned-c (refused: read-only)",
                                f"tried to write {outside} (hidden)"]


def test_c_reads_no_secret(hostile_c: Path, secret: Path) -> None:
    run = c(hostile_c, "read", str(secret))
    if contained():
        assert (run.status, run.stdout) == (0, "")
    if contained() and traced():
        assert run.attempts == ["tried to read /etc/shadow (refused)",
                                "tried to read /root/.bashrc (hidden)",
                                f"tried to read {secret} (hidden)"]


def test_running_or_entering_what_it_cannot_see_is_named(tmp_path: Path, secret: Path) -> None:
    tool = secret.parent / "tool.sh"
    tool.write_text("#!/bin/sh\necho ran\n")
    tool.chmod(0o755)
    run = python(tmp_path, """
        import os, subprocess, sys
        for action in (lambda: subprocess.run([sys.argv[1]]), lambda: os.chdir("/home")):
            try:
                action()
            except OSError:
                pass
        print(os.getcwd() == os.environ["HOME"])
    """, str(tool))
    assert (run.status, run.stdout) == (0, "True\n")
    if contained() and traced():
        assert run.attempts == [f"tried to run {tool} (hidden)",
                                "tried to enter /home (hidden)"]


@pytest.mark.parametrize("language", ["python3", "java", "c", "node"])
def test_a_well_behaved_program_tries_nothing(tmp_path: Path, language: str) -> None:
    """No false attempt: an interpreter's probing of its own libraries, a JVM's look at
    /sys and /proc, the C library's files, Node.js's search for a package.json in every
    folder above its script are what they may do."""
    folder = tmp_path / language
    folder.mkdir()
    if language == "node":
        if shutil.which("node") is None:
            pytest.skip("no Node.js here")
        (folder / "main.js").write_text("console.log(JSON.stringify([1].length === 1));\n")
        command = ["node", "main.js"]
    elif language == "python3":
        (folder / "prog.py").write_text("import json, random, subprocess, tempfile\n"
                                        "with tempfile.TemporaryFile() as f: f.write(b'x')\n"
                                        "print(json.dumps(random.Random(3).random() < 1))\n")
        command = ["python3", "prog.py"]
    elif language == "java":
        if shutil.which("javac") is None:
            pytest.skip("no JDK here")
        (folder / "Main.java").write_text(
            "public class Main { public static void main(String[] a) {\n"
            "  System.out.println(new java.util.ArrayList<>(java.util.List.of(1)).size()"
            " == 1); } }\n")
        subprocess.run(["javac", "Main.java"], cwd=folder, check=True, timeout=300)
        command = ["java", "Main"]
    else:
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            pytest.skip("no C compiler here")
        (folder / "main.c").write_text("#include <stdio.h>\n#include <stdlib.h>\n"
                                       "int main(void) { free(malloc(9)); puts(\"true\"); }\n")
        subprocess.run([compiler, "-o", "main", "main.c"], cwd=folder, check=True, timeout=120)
        command = ["./main"]
    run = run_program(command, (), Limits(seconds=60), folder)
    assert (run.status, run.stdout.lower(), run.attempts) == (0, "true\n", [])


@pytest.mark.parametrize("language", ["python", "c"])
def test_nothing_it_started_outlives_the_call(tmp_path: Path, hostile_c: Path,
                                              language: str) -> None:
    if language == "python":
        run = python(tmp_path, """
            import subprocess
            for _ in range(3):
                subprocess.Popen(["setsid", "sleep", "302.25"], stdout=subprocess.DEVNULL)
            print("answered")
        """)
    else:
        run = c(hostile_c, "daemon")
    assert (run.status, run.stdout) == (0, "answered\n")
    if containment().mode == "limits":
        assert "the end of processes that leave its process group" in run.unenforced
        for pid in processes_running("302.25"):
            os.kill(pid, 9)
        return
    assert processes_running("302.25") == []
    assert run.attempts == ["left 3 processes running (killed)"]


def test_stray_children_holding_its_output_do_not_hold_the_call(tmp_path: Path) -> None:
    # issue: the call waited ~10 s for children that kept the program's pipes open
    run = python(tmp_path, """
        import subprocess, sys
        subprocess.Popen(["sleep", "303.5"])  # its standard output and error, inherited
        print("3")
    """, limits=Limits(seconds=60))
    assert (run.status, run.stdout, run.timed_out) == (0, "3\n", False)
    assert run.seconds < 30  # far below the 60 s it was allowed: the call did not wait
    if containment().mode != "limits":
        assert processes_running("303.5") == []


def test_a_fork_loop_is_bounded_and_killed(hostile_c: Path) -> None:
    run = c(hostile_c, "forkbomb", limits=Limits(seconds=20, processes=32))
    assert run.status == 0, run.stderr
    made = int(run.stdout.split()[1])
    if "the number of processes (root, and no pids cgroup)" in run.unenforced:
        return
    assert made <= 32
    if os.geteuid() == 0:
        assert any(a.startswith("tried to run more than 32 processes") for a in run.attempts)
    if containment().mode != "limits":
        assert f"left {made} processes running (killed)" in run.attempts


def test_huge_output_is_stopped_at_a_megabyte(tmp_path: Path) -> None:
    run = python(tmp_path, """
        import sys
        while True:
            sys.stdout.write("x" * 65536)
    """)
    assert len(run.stdout) == 1 << 20 and not run.timed_out
    assert failure(run, 20) == ("crash", "printed more than 1 MB on its standard output "
                                         "(stopped)")


def test_other_processes_are_not_seen_signalled_or_traced(tmp_path: Path,
                                                          hostile_c: Path) -> None:
    run = python(tmp_path, """
        import os, sys
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        print(len(pids), "processes")
        try:
            os.kill(int(sys.argv[1]), 0)
            print("signalled the caller")
        except OSError:
            pass
    """, str(os.getpid()))
    if containment().mode == "limits":
        assert "its view of other processes (it can see and signal them)" in run.unenforced
        return
    assert run.stdout in ("2 processes\n", "1 processes\n")  # the shell, and itself
    run = c(hostile_c, "ptrace", str(os.getpid()))
    assert (run.status, run.stdout) == (0, "")


def test_a_link_out_of_its_folder_is_not_followed(tmp_path: Path, secret: Path) -> None:
    run = python(tmp_path, """
        import os, sys
        os.symlink(sys.argv[1], "output.txt")
        os.symlink("/", "root")
        print("done")
    """, str(secret), outputs=("output.txt",))
    assert run.outputs == {"output.txt": None}  # never the reference's text
    assert f"made a link output.txt to {secret}, outside its folder" in run.attempts
    assert "made a link root to /, outside its folder" in run.attempts


def test_a_fifo_left_behind_does_not_block_and_is_removed(tmp_path: Path) -> None:
    run = python(tmp_path, """
        import os
        os.mkfifo("output.txt")
        os.mkfifo("extra")
        print(os.getcwd())
    """, outputs=("output.txt",))
    assert run.status == 0 and run.outputs == {"output.txt": None}
    assert "left a FIFO output.txt in its folder" in run.attempts
    assert not Path(run.stdout.strip()).exists()


def test_a_folder_made_unremovable_is_removed(tmp_path: Path) -> None:
    run = python(tmp_path, """
        import os
        os.makedirs("deep/er")
        open("deep/er/file", "w").write("x")
        os.chmod("deep/er", 0)
        os.chmod("deep", 0)
        print(os.getcwd())
        os.chmod(".", 0o500)
    """)
    assert run.status == 0, run.stderr
    assert "took permissions away from its folder (removed anyway)" in run.attempts
    assert not Path(run.stdout.strip()).exists()


def test_shared_anonymous_memory_counts_against_the_limit(hostile_c: Path,
                                                         tmp_path: Path) -> None:
    run = c(hostile_c, "shm", limits=Limits(seconds=20, memory_mb=1024))
    assert (run.status, run.stdout) == (0, "")
    run = python(tmp_path, """
        import mmap
        try:
            m = mmap.mmap(-1, 2 << 30, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
            print("mapped")
        except OSError as e:
            print("refused")
    """, limits=Limits(seconds=20, memory_mb=1024))
    assert run.stdout == "refused\n"


def test_processes_are_bounded_even_as_root(tmp_path: Path) -> None:
    run = python(tmp_path, """
        import subprocess
        made = []
        for _ in range(60):
            try:
                made.append(subprocess.Popen(["sleep", "304.5"]))
            except OSError:
                break
        print(len(made))
    """, limits=Limits(seconds=20, processes=16))
    if "the number of processes (root, and no pids cgroup)" in run.unenforced:
        return
    assert int(run.stdout) < 16
    assert processes_running("304.5") == [] or containment().mode == "limits"


def test_the_network_of_the_caller_is_out_of_reach(tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        run = python(tmp_path, """
            import socket, sys
            for host in ("127.0.0.1", "1.1.1.1"):
                try:
                    socket.create_connection((host, int(sys.argv[1])), timeout=2).close()
                    print("connected to", host)
                except OSError:
                    pass
        """, str(port))
    if containment().mode == "limits":
        assert "the network" in run.unenforced
        return
    assert (run.status, run.stdout) == (0, "")


def test_a_run_says_what_this_system_does_not_enforce(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    from zerosum.sandbox import Uncontained, refuse_unless_contained

    monkeypatch.setenv("ZEROSUM_SANDBOX", "limits")
    containment.cache_clear()
    try:
        run = python(tmp_path, "print(1)\n")
        assert run.stdout == "1\n"
        assert run.unenforced[:2] == (
            "the network", "its view of the file system (it can read what zerosum can, and "
            "write outside its folder)")
        with pytest.raises(Uncontained, match="^--strict: this system's sandbox "
                                              r"\(limits\) does not enforce the network; "):
            refuse_unless_contained()
    finally:
        containment.cache_clear()


@pytest.mark.slow
def test_the_unshare_fallback_still_ends_every_process(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setenv("ZEROSUM_SANDBOX", "unshare")
    containment.cache_clear()
    try:
        if containment().mode != "unshare":
            pytest.skip("no unprivileged namespaces here")
        run = python(tmp_path, """
            import subprocess
            subprocess.Popen(["setsid", "sleep", "305.5"], stdout=subprocess.DEVNULL)
            print("answered")
        """)
        assert (run.stdout, run.attempts) == ("answered\n", ["left 1 process running (killed)"])
        assert processes_running("305.5") == []
    finally:
        containment.cache_clear()


ORDINARY_USER_CHECK = """
import os, subprocess, sys
from pathlib import Path
from zerosum.sandbox import Limits, containment, run_program
code = ("import os, subprocess\\n"
        "subprocess.Popen(['setsid', 'sleep', '306.5'])\\n"
        "for p in ['/etc/shadow', sys.argv[1]]:\\n"
        "    try: open(p).read(); print('read', p)\\n"
        "    except OSError: pass\\n")
run = run_program(["python3", "-c", "import sys\\n" + code], [sys.argv[1]], Limits(seconds=20))
print(os.getuid(), containment().mode, run.status, repr(run.stdout), run.attempts)
"""


@pytest.mark.slow
def test_as_an_ordinary_user_too() -> None:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None or not Path("/usr/bin/python3").exists():
        pytest.skip("needs root (to become another user), setpriv and /usr/bin/python3")
    src = Path(zerosum.__file__).resolve().parents[1]
    if not all(os.stat(p).st_mode & 0o005 == 0o005 for p in [src, *src.parents]):
        pytest.skip(f"{src} cannot be read by another user")
    with tempfile.TemporaryDirectory() as home:
        os.chmod(home, 0o777)
        secret = Path(home, "answer.txt")
        secret.write_text("the reference's answer\n")
        done = subprocess.run(
            [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups",
             "/usr/bin/python3", "-c", ORDINARY_USER_CHECK, str(secret)],
            capture_output=True, text=True, timeout=120,
            env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "HOME": home,
                 "TMPDIR": home, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    uid, mode, status, *_ = done.stdout.split()
    assert (uid, status) == ("65534", "0")
    if mode == "bwrap" and shutil.which("strace"):
        assert done.stdout.split(" ", 3)[3] == (
            f"'' ['tried to read /etc/shadow (refused)', 'tried to read {secret} (hidden)', "
            "'left 1 process running (killed)']\n")
    elif mode == "bwrap":
        assert done.stdout.split(" ", 3)[3] == "'' ['left 1 process running (killed)']\n"
    assert processes_running("306.5") == []


# -- what an attempt costs: the marker's case, a course program's game ----------------------

EVIL_WRAPPER = """
import os, subprocess, sys
subprocess.Popen(["setsid", "sleep", "307.5"], stdout=subprocess.DEVNULL)
os.execv(sys.executable, [sys.executable, "ConnectFour.py", *sys.argv[1:]])
"""


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """A right COMP3608 program that leaves a process running at every call."""
    folder = tmp_path / "evil"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "submissions" / "comp3608",
                    folder)
    (folder / "evil.py").write_text(EVIL_WRAPPER)
    return folder


def test_the_marker_fails_the_case_of_an_attempt(evil: Path) -> None:
    from zerosum.marker.cases import COMP3608
    from zerosum.marker.check import check

    if containment().mode == "limits":
        pytest.skip("processes left running are not seen here")
    outcomes = check(COMP3608, [sys.executable, "evil.py"], 1, 1, Limits(seconds=30), evil)
    assert [(o.verdict, o.why) for o in outcomes] == [
        ("wrong", "tried what the sandbox forbids: left 1 process running (killed)")]
    assert processes_running("307.5") == []


def test_a_course_program_loses_the_game_for_an_attempt(evil: Path) -> None:
    from zerosum.games.registry import get_game
    from zerosum.players.programs import ProgramFault
    from zerosum.players.spec import agent_from_spec

    if containment().mode == "limits":
        pytest.skip("processes left running are not seen here")
    spec = get_game("connect4")
    game = spec.create()
    player = agent_from_spec(spec, f"course:comp3608,time=20,dir={evil}:"
                                   f"{sys.executable} evil.py")
    with pytest.raises(ProgramFault, match="^tried what the sandbox forbids: left 1 process "
                                           r"running \(killed\)$"):
        player.choose(game, game.initial_state())
    assert processes_running("307.5") == []


PEEKING_WRAPPER = """
import os, sys
try:
    open({reference!r}).read()
except OSError:
    pass
os.execv(sys.executable, [sys.executable, "ConnectFour.py", *sys.argv[1:]])
"""


@pytest.fixture
def peeking(tmp_path: Path) -> tuple[Path, str]:
    """A right COMP3608 program that tries to read zerosum's source (where the marker's
    reference lives) at every call."""
    folder = tmp_path / "peeking"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "submissions" / "comp3608",
                    folder)
    reference = str(Path(zerosum.__file__).resolve().parent / "marker" / "cases.py")
    (folder / "peek.py").write_text(PEEKING_WRAPPER.format(reference=reference))
    return folder, reference


def test_the_marker_fails_the_case_of_a_file_attempt(peeking: tuple[Path, str]) -> None:
    from zerosum.marker.cases import COMP3608
    from zerosum.marker.check import check, report_text

    folder, reference = peeking
    if not (contained() and traced()):
        pytest.skip("file attempts are not traced (or not hidden) here")
    outcomes = check(COMP3608, [sys.executable, "peek.py"], 2, 1, Limits(seconds=30), folder)
    why = f"tried what the sandbox forbids: tried to read {reference} (hidden)"
    assert [(o.verdict, o.why) for o in outcomes] == [("wrong", why)] * 2
    assert f"case 1 ({outcomes[0].case.part}): wrong: {why}\n" in \
        report_text(COMP3608, [sys.executable, "peek.py"], outcomes, 1)


def test_the_marker_report_lists_every_attempt_past_the_three_of_its_reason(
        peeking: tuple[Path, str]) -> None:
    from zerosum.marker.cases import COMP3608
    from zerosum.marker.check import check, report_text

    folder, _ = peeking
    if not (contained() and traced()):
        pytest.skip("file attempts are not traced (or not hidden) here")
    (folder / "greedy.py").write_text(
        "import os, sys\n"
        "for n in range(4):\n"
        "    try: open(f'/root/answer{n}.txt').read()\n"
        "    except OSError: pass\n"
        "os.execv(sys.executable, [sys.executable, 'ConnectFour.py', *sys.argv[1:]])\n")
    outcomes = check(COMP3608, [sys.executable, "greedy.py"], 1, 1, Limits(seconds=30),
                     folder)
    tried = [f"tried to read /root/answer{n}.txt (hidden)" for n in range(4)]
    assert outcomes[0].why == (f"tried what the sandbox forbids: {'; '.join(tried[:3])}; "
                               "and 1 more")
    text = report_text(COMP3608, [sys.executable, "greedy.py"], outcomes, 1)
    assert "\n  what it tried:\n" + "".join(f"    {t}\n" for t in tried) in text


def test_a_comp3608_program_that_reads_a_file_loses_its_game(
        peeking: tuple[Path, str]) -> None:
    from zerosum.tournament.jobs import GameJob
    from zerosum.tournament.referee import play_game

    folder, reference = peeking
    if not (contained() and traced()):
        pytest.skip("file attempts are not traced (or not hidden) here")
    spec = f"course:comp3608,time=20,dir={folder}:{sys.executable} peek.py"
    result = play_game(GameJob(1, "connect4", (spec, "random"), (), (1, 2), (60.0, 60.0),
                               400, False, ()))
    assert result.fault == 0 and result.score == 0
    assert result.reason.endswith(f"tried what the sandbox forbids: tried to read "
                                  f"{reference} (hidden)")


def test_what_an_attempt_costs_is_said_in_one_place() -> None:
    from zerosum.players.programs import KINDS
    from zerosum.sandbox import COSTS, cost

    assert set(COSTS) == {"marker", *KINDS}  # every course player has its rule
    tried = [f"tried to read /root/{n} (hidden)" for n in range(5)]
    assert cost("marker", []) is None and cost("ugi", tried) is None
    assert cost("course:comp3608", tried) == (
        "tried what the sandbox forbids: tried to read /root/0 (hidden); tried to read "
        "/root/1 (hidden); tried to read /root/2 (hidden); and 2 more")


def test_without_strace_the_reports_say_file_attempts_are_not_traced(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from zerosum.sandbox import Uncontained, refuse_unless_contained

    monkeypatch.setenv("ZEROSUM_TRACE", "off")
    containment.cache_clear()
    try:
        run = python(tmp_path, "open('/root/x', 'a')\n")
        assert UNTRACED in run.unenforced and not containment().traced
        assert not any("/root/x" in a for a in run.attempts)
        with pytest.raises(Uncontained, match="file attempts not traced"):
            refuse_unless_contained()
    finally:
        containment.cache_clear()


LEAVING_ENGINE = """
import subprocess, sys
heights = {}
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["ugi"]:
        subprocess.Popen(["setsid", "sleep", "308.5"], stdout=subprocess.DEVNULL)
        try:
            open("/root/book.txt").read()
        except OSError:
            pass
        print("id name leaving\\nugiok", flush=True)
    elif words[:1] == ["isready"]:
        print("readyok", flush=True)
    elif words[:1] == ["position"]:
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        heights = {c: moves.count(c) for c in "12345"}
    elif words[:1] == ["go"]:
        print("bestmove", next(c for c in "12345" if heights.get(c, 0) < 4), flush=True)
    elif words[:1] == ["quit"]:
        break
"""


def test_an_engines_attempts_are_said_with_its_game(tmp_path: Path) -> None:
    from zerosum.convert import shown
    from zerosum.tournament.jobs import GameJob
    from zerosum.tournament.referee import play_game

    if containment().mode == "limits":
        pytest.skip("processes left running are not seen here")
    (tmp_path / "leaving.py").write_text(LEAVING_ENGINE)
    spec = f"ugi,depth=1,timeout=20:{sys.executable} {tmp_path / 'leaving.py'}"
    result = play_game(GameJob(1, "connect4", (spec, "random"), (), (1, 2), (60.0, 60.0),
                               400, False, (("width", 5), ("height", 4))))
    assert result.fault is None  # an engine's attempts cost nothing: they are said
    said = [f"{shown(spec, 40)} left 1 process running (killed)"]
    if contained() and traced():
        said.insert(0, f"{shown(spec, 40)} tried to read /root/book.txt (hidden)")
    assert result.reason.endswith("; " + "; ".join(said))
    assert processes_running("308.5") == []


def test_cpu_time_is_limited(tmp_path: Path) -> None:
    run = python(tmp_path, "while True:\n    pass\n", limits=Limits(seconds=60, cpu_seconds=1))
    assert not run.timed_out and run.status in (-24, -9)  # SIGXCPU, then SIGKILL
    signal = "SIGXCPU" if run.status == -24 else "SIGKILL"
    assert failure(run, 60) == ("crash", f"killed by signal {signal}")


def test_a_build_is_kept_for_the_runs_that_follow(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "main.c").write_text("#include <stdio.h>\nint main(void){puts(\"built\");}\n")
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler here")
    build = tmp_path / "build"
    run = run_program([compiler, "-o", "main", "main.c"], (), FAST, source, keep=build)
    assert (run.status, run.files) == (0, ["main"])
    assert sorted(p.name for p in build.iterdir()) == ["main", "main.c"]
    assert run_program(["./main"], (), FAST, build).stdout == "built\n"
    # what a program leaves that is no file (a FIFO) is not kept
    run = python(tmp_path, "import os\nos.mkfifo('pipe')\nopen('made', 'w').write('x')\n")
    kept = tmp_path / "kept"
    run_program([sys.executable, "prog.py"], (), FAST, tmp_path / "submission", keep=kept)
    assert sorted(p.name for p in kept.iterdir()) == ["made", "prog.py"]


@pytest.mark.parametrize("words", [
    ["assignment", "check", "comp3608", "--strict", "--", "python3", "ConnectFour.py"],
    ["tournament", "connect4", "--strict", "--agent", "course:comp3608:python3 x.py",
     "--agent", "random", "--games", "2", "--db", "never.sqlite"],
])
def test_strict_refuses_an_incomplete_sandbox_in_one_line(words: list[str],
                                                          tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("print(3)\n")
    done = subprocess.run([sys.executable, "-m", "zerosum", *words], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "ZEROSUM_SANDBOX": "limits"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("zerosum: error: --strict: this system's sandbox (limits) "
                                  "does not enforce the network; ")
    assert done.stderr.endswith(": not run\n") and done.stderr.count("\n") == 1
    assert not (tmp_path / "never.sqlite").exists()


def test_a_submission_holding_a_fifo_is_copied_without_it(tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    os.mkfifo(folder / "trap")
    (folder / "prog.py").write_text("import os\nprint(sorted(os.listdir('.')))\n")
    run = run_program([sys.executable, "prog.py"], (), FAST, folder)
    assert run.stdout == "['prog.py']\n"


def test_the_cgroups_of_a_killed_caller_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum import sandbox

    if os.geteuid() != 0 or containment().mode == "limits":
        pytest.skip("pids cgroups are made as root only")
    pid = subprocess.Popen(["true"])  # a process that is gone
    pid.wait()
    stale = sandbox.PIDS_CGROUP / f"zerosum-{pid.pid}-1"
    try:
        stale.mkdir()
    except OSError:
        pytest.skip("no pids cgroup here")
    monkeypatch.setattr(sandbox._Cgroup, "count", 0)  # as in a fresh process
    assert run_program(["/bin/true"]).status == 0
    assert not stale.exists()


def test_attempts_are_judged_by_where_a_path_lies() -> None:
    """strace's lines as they come (the container's setup, its monitor, calls split by
    another process's line, escaped names): only the program's calls outside what it may
    use are attempts, each path once, by the most it tried."""
    from zerosum.sandbox import Attempts

    seen = Attempts(Path("/tmp/zerosum-run-x/run"), ["/opt/jdk"], shell=True, hidden=True)
    for line in [
        '10 execve("/usr/bin/bwrap", ["bwrap"], 0x1 /* 3 vars */) = 0',
        '10 openat(AT_FDCWD, "/root/setup", O_RDONLY) = 4',  # bubblewrap's own
        '11 mkdir("/newroot/usr", 0755) = 0',
        '11 execve("/bin/sh", ["/bin/sh", "-c", "..."], 0x2 /* 8 vars */) = 0',
        '10 openat(AT_FDCWD, "/proc/11/uid_map", O_RDWR) = 5',  # its monitor
        '12 newfstatat(AT_FDCWD, "/usr/lib/python3.11/os.py", 0x3, 0) = -1 ENOENT (No such'
        ' file or directory)',
        '12 openat(AT_FDCWD, "/opt/jdk/lib/modules", O_RDONLY) = 3',
        '12 openat(AT_FDCWD, "/sys/fs/cgroup/cpu.max", O_RDONLY) = -1 ENOENT (No such file)',
        '12 openat(AT_FDCWD, "/proc/self/coredump_filter", O_RDWR) = 3',
        '12 openat(AT_FDCWD, "mine.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
        '12 newfstatat(AT_FDCWD, "/root/x", 0x4, 0) = -1 ENOENT (No such file or directory)',
        '12 openat(AT_FDCWD, "/root/x", O_RDONLY <unfinished ...>',
        '13 openat(AT_FDCWD, "/usr/pwned", O_WRONLY|O_CREAT, 0644) = -1 EROFS (Read-only '
        'file system)',
        '12 <... openat resumed>) = -1 ENOENT (No such file or directory)',
        '12 openat(AT_FDCWD, "../../../etc/shadow", O_RDONLY) = -1 EACCES (Permission denied)',
        '12 execve("/home/a/r\\303\\251f", ["r"], 0x5 /* 1 var */) = -1 ENOENT (No such file)',
        '12 symlink("/etc/passwd", "link") = 0',  # in its folder: its leftovers say it
        '12 openat(3, "x", O_RDONLY) = 4',  # relative to a folder it opened: not judged
        '12 chdir("/etc") = 0',
        '12 openat(AT_FDCWD, "ssh/key", O_RDONLY) = -1 ENOENT (No such file or directory)',
        # Node.js's search upward for its package's settings, libselinux's probe: none
        '12 openat(AT_FDCWD, "/tmp/zerosum-run-x/package.json", O_RDONLY) = -1 ENOENT (No '
        'such file or directory)',
        '12 openat(AT_FDCWD, "/package.json", O_RDONLY) = -1 ENOENT (No such file)',
        '12 statx(AT_FDCWD, "/tmp/node_modules", 0, 0x7ff, 0x6) = -1 ENOENT (No such file)',
        '12 statfs("/selinux", 0x7) = -1 ENOENT (No such file or directory)',
    ]:
        seen.line(line)
    assert seen.said() == ["tried to read /root/x (hidden)",
                           "tried to write /usr/pwned (refused: read-only)",
                           "tried to read /etc/shadow (refused)",
                           "tried to run /home/a/réf (hidden)",
                           "tried to read /etc/ssh/key (hidden)"]


def test_outside_bubblewrap_the_callers_tmp_is_not_its_own() -> None:
    """Where nothing is hidden (unshare, limits), its TMPDIR is a folder of the call's:
    what it reads or writes in the caller's /tmp (another run's folder, a file planted
    for the next) is an attempt, and a package.json above it that is there is read."""
    from zerosum.sandbox import Attempts

    seen = Attempts(Path("/tmp/zerosum-run-x/run"), [], shell=True, hidden=False,
                    tmp="/tmp/zerosum-run-x/private/tmp")
    for line in [
        '10 execve("/usr/bin/unshare", ["unshare"], 0x1 /* 3 vars */) = 0',
        '11 execve("/bin/sh", ["/bin/sh", "-c", "..."], 0x2 /* 8 vars */) = 0',
        '12 openat(AT_FDCWD, "/tmp/zerosum-run-x/private/tmp/scratch", O_RDWR|O_CREAT, '
        '0600) = 3',
        '12 openat(AT_FDCWD, "/tmp/planted", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
        '12 openat(AT_FDCWD, "/tmp/zerosum-run-y/run/answer.txt", O_RDONLY) = 3',
        '12 openat(AT_FDCWD, "/srv/package.json", O_RDONLY) = 3',
    ]:
        seen.line(line)
    assert seen.said() == ["wrote /tmp/planted", "read /tmp/zerosum-run-y/run/answer.txt",
                           "read /srv/package.json"]
