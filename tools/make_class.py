#!/usr/bin/env python3
"""Write a made-up COMP3608 class into a folder, one folder a student, for `zerosum class
mark comp3608` and `zerosum class tournament connect4` to be tried on:

    python3 tools/make_class.py DIR [--size N]

The programs are the example submissions of tests/data/submissions/comp3608 (Python, C,
Java), right or wrong in known ways, built by each rule of docs/class.md (nothing,
gcc, javac, a Makefile, build.sh, run.txt), and hostile ones: names made to break a web
page, a spreadsheet or a shell, output that is HTML, builds that fail or never end, a
program that is missing, one that writes outside its folder or leaves processes behind.
`students(size)` says what each is; the tests use a small class (--size 12), the bench
the whole one (--size 30 or more: the kinds repeat, each copy its own name).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "submissions" / "comp3608"

Maker = Callable[[Path], None]


def copy(name: str) -> Maker:
    def make(folder: Path) -> None:
        shutil.copy(EXAMPLES / name, folder / name)
    return make


def python(*fault: str) -> Maker:
    """The Python example; with a fault, its run.txt passes --fault."""
    def make(folder: Path) -> None:
        copy("ConnectFour.py")(folder)
        if fault:
            (folder / "run.txt").write_text(f"# how my program runs\npython3 ConnectFour.py "
                                            f"--fault {fault[0]}\n")
    return make


def c_makefile(flags: str) -> Maker:
    def make(folder: Path) -> None:
        copy("ConnectFour.c")(folder)
        (folder / "Makefile").write_text(f"ConnectFour: ConnectFour.c\n"
                                         f"\tgcc -O1 {flags} -o ConnectFour ConnectFour.c\n")
    return make


def c_build_sh(flags: str) -> Maker:
    def make(folder: Path) -> None:
        copy("ConnectFour.c")(folder)
        (folder / "build.sh").write_text(f"set -e\ncc {flags} -o ConnectFour ConnectFour.c\n")
    return make


def c_broken(folder: Path) -> None:
    (folder / "ConnectFour.c").write_text("int main(void) { return 0 }\n")  # no semicolon


def java_broken(folder: Path) -> None:
    (folder / "ConnectFour.java").write_text("public class ConnectFour { void f( }\n")


def nothing(folder: Path) -> None:
    (folder / "README.txt").write_text("I could not finish, sorry.\n")


def endless_build(folder: Path) -> None:
    copy("ConnectFour.py")(folder)
    (folder / "build.sh").write_text("while true; do :; done\n")


HTML_OUTPUT = """import sys
print("<script>alert('marks')</script><img src=x onerror=alert(1)>")
print("</td></tr></table><h1>100 of 100</h1>")
"""

ESCAPES = """import os, subprocess, sys
# Reads and writes where it should not, and leaves a process behind; then answers.
for path in ("/etc/shadow", "/root/.bash_history", "/home"):
    try:
        print(len(os.listdir(path) if os.path.isdir(path) else open(path).read()),
              file=sys.stderr)
    except OSError:
        pass
for path in ("../../escaped.txt", "/tmp/zerosum-class-escaped.txt", "/usr/escaped.txt"):
    try:
        with open(path, "w") as f:
            f.write("escaped\\n")
    except OSError:
        pass
subprocess.Popen(["sleep", "300"], start_new_session=True)
exec(open("ConnectFour_real.py").read())
"""

FORK_LOOP = """import os, sys, time
for _ in range(500):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
    except OSError:
        break
print(3)
"""

HUGE = """import sys
while True:
    sys.stdout.write("x" * 65536)
"""


def script(text: str, real: bool = False) -> Maker:
    def make(folder: Path) -> None:
        (folder / "ConnectFour.py").write_text(text)
        if real:
            shutil.copy(EXAMPLES / "ConnectFour.py", folder / "ConnectFour_real.py")
    return make


def symlinked_run_txt(folder: Path) -> None:
    copy("ConnectFour.py")(folder)
    (folder / "run.txt").symlink_to("/etc/passwd")


def evil_makefile(folder: Path) -> None:
    copy("ConnectFour.py")(folder)
    (folder / "Makefile").write_text("all:\n\t-touch ../../../made-by-make.txt\n"
                                     "\t-chmod 000 .\n")


# (folder name, language, what it is, how it is made): the kinds of a class, in turn.
KINDS: list[tuple[str, str, str, Maker]] = [
    ("alice", "python", "correct", python()),
    ("bob_c", "c", "correct, gcc *.c", copy("ConnectFour.c")),
    ("carol_java", "java", "off by one at depth 5 and more", copy("ConnectFour.java")),
    ("dave", "python", "counts a node too many", python("nodes")),
    ("erin-make", "c", "correct, by its Makefile", c_makefile("")),
    ("frank", "c", "crashes (SIGSEGV), by build.sh", c_build_sh("-DFAULT_CRASH")),
    ("grace", "c", "does not compile", c_broken),
    ("<img src=x onerror=alert('name')><b>", "python", "hostile name (HTML)", python()),
    ("heidi", "python", "prints HTML instead of an answer", script(HTML_OUTPUT)),
    ("=HYPERLINK(\"x\",\"y\")", "python", "hostile name (spreadsheet formula)",
     python("garbage")),
    ("ivan", "none", "no program at all", nothing),
    ("judy", "java", "does not compile", java_broken),
    ("$(touch pwned); `id`", "c", "hostile name (shell), counts a node too many",
     c_makefile("-DFAULT_NODES")),
    ("mallory", "python", "reads and writes outside its folder, leaves a process",
     script(ESCAPES, True)),
    ("niaj", "python", "crashes", python("crash")),
    ("olivia", "python", "too slow", python("slow")),
    ("peggy", "python", "run.txt a link to /etc/passwd", symlinked_run_txt),
    ("quentin", "python", "forks hundreds of processes", script(FORK_LOOP)),
    ("rupert", "python", "endless output", script(HUGE)),
    ("sybil", "python", "a build that never ends", endless_build),
    ("trent", "python", "Makefile writing outside, locking its folder", evil_makefile),
    ("line\nbreak", "python", "hostile name (a new line)", python()),
    ("walter", "python", "writes a file in its folder", python("file")),
    ("zoe", "java", "off by one, like carol", copy("ConnectFour.java")),
]


def students(size: int) -> list[tuple[str, str, str, Maker]]:
    """`size` students: the kinds in turn, a number added to a name seen before."""
    chosen = []
    for i in range(size):
        name, language, what, make = KINDS[i % len(KINDS)]
        if i >= len(KINDS):
            name = f"{name}{i // len(KINDS) + 1}" if name.isidentifier() else f"{name} {i}"
        chosen.append((name, language, what, make))
    return chosen


def make_class(target: Path, size: int) -> list[tuple[str, str, str]]:
    """Write the class into the new folder `target`: (name, language, what) of each."""
    target.mkdir(parents=True)
    made = []
    for name, language, what, make in students(size):
        folder = target / name
        folder.mkdir()
        make(folder)
        made.append((name, language, what))
    return made


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="a new folder")
    p.add_argument("--size", type=int, default=30, help="students (default: 30)")
    args = p.parse_args(argv)
    if Path(args.dir).exists():
        print(f"{args.dir} exists: give a new folder", file=sys.stderr)
        return 2
    for name, language, what in make_class(Path(args.dir), args.size):
        print(f"{name!r:40} {language:7} {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
