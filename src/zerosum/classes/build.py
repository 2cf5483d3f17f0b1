"""A class's submissions: one folder each, found, named safely, built and given the command
that runs them, all as docs/class.md says.

A submission's folder is built in a fresh copy of itself in the sandbox (the first rule
that applies):

    Makefile (or makefile)   make
    build.sh                 sh build.sh
    *.java                   javac *.java
    *.c                      gcc -O2 -o PROGRAM *.c -lm   (PROGRAM: the course's name)
    anything else            nothing (Python)

and then run as the course runs it (the first that exists in the built folder): its
`run.txt` (the first line that is not blank nor a # comment: the command), else
`java PROGRAM` (PROGRAM.class), `./PROGRAM` (an executable file), `python3 PROGRAM.py`.
Nothing a folder holds is trusted: its name only ever reaches a file name through
`safe_name`, its files are read only as run.txt (small, a plain file), and every command
it makes runs in the sandbox.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shlex
import shutil
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zerosum.game import InputError
from zerosum.sandbox import Limits, failure, folder_size, run_program

BUILD_LIMITS = Limits(seconds=120.0, cpu_seconds=120, memory_mb=2048, file_mb=64,
                      processes=64)
SUBMISSION_LIMIT = 50 << 20  # bytes of a folder, copied for every case
RUN_TXT_LIMIT = 4096  # bytes of a run.txt
LOG_SHOWN = 3000  # characters of a failed build's output kept for its report
SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@dataclass(frozen=True)
class Submission:
    name: str  # the folder's name, as it is (may hold anything but a slash)
    key: str  # a safe file name standing for it (letters, digits, _ and -)
    folder: Path

    @property
    def shown(self) -> str:
        """The name as text that can be printed (undecodable bytes replaced)."""
        return self.name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def safe_name(name: str) -> str:
    """A file name for a submission's outputs: the folder's name if it is plain (letters,
    digits, _ and -), else its plain letters and a hash of the whole name, so that two
    folders never share one and no name reaches outside its folder."""
    if SAFE.fullmatch(name):
        return name
    raw = name.encode("utf-8", "surrogateescape")
    slug = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")[:30] or "student"
    return f"{slug}-{hashlib.sha256(raw).hexdigest()[:10]}"


def submissions(root: Path, ours: Sequence[Path] = ()) -> list[Submission]:
    """The folders of `root`, one a student, in order of name (files and hidden names
    are not submissions, nor `ours`, zerosum's own outputs if they are there; a
    symbolic link is one, refused when built)."""
    if not root.is_dir():
        raise InputError(f"{root}: no such folder")
    try:
        names = sorted(os.listdir(root))
    except OSError as e:
        raise InputError(f"{root}: {e.strerror or 'cannot be read'}") from None
    mine = {p.resolve() for p in ours}
    found = [Submission(n, safe_name(n), root / n) for n in names if not n.startswith(".")
             and (root / n).is_dir() and (root / n).resolve() not in mine]
    if not found:
        raise InputError(f"{root} holds no submission (a folder a student)")
    keys = [s.key for s in found]
    twice = {k for k in keys if keys.count(k) > 1}
    if twice:  # a plain name equal to another's made-up one: take both apart
        found = [Submission(s.name, f"{s.key}-{i}" if s.key in twice else s.key, s.folder)
                 for i, s in enumerate(found)]
    return found


def program_stem(program: str, placeholder: str) -> str:
    """The program's file name without extension, as the course names it; an assignment
    of several programs (CMPT 317's a4qN) holds the marker's placeholder for the number."""
    return program.replace("qN", "q" + placeholder) if placeholder else program


def build_command(folder: Path, stem: str) -> list[str] | None:
    """How the folder is built (None: nothing to build)."""
    if (folder / "Makefile").is_file() or (folder / "makefile").is_file():
        return ["make"]
    if (folder / "build.sh").is_file():
        return ["sh", "build.sh"]
    java = sorted(p.name for p in folder.glob("*.java") if p.is_file())
    if java:
        return ["javac", *java]
    c = sorted(p.name for p in folder.glob("*.c") if p.is_file())
    if c:
        return ["gcc", "-O2", "-o", stem, *c, "-lm"]
    return None


def run_txt(folder: Path) -> list[str] | str | None:
    """The command of the folder's run.txt (None: it has none; a string: what is wrong)."""
    path = folder / "run.txt"
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_symlink() or not path.is_file():
        return "run.txt is not a plain file"
    if path.stat().st_size > RUN_TXT_LIMIT:
        return f"run.txt is larger than {RUN_TXT_LIMIT} bytes"
    text = path.read_bytes().decode("utf-8", "replace")
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                words = shlex.split(line)
            except ValueError as e:
                return f"run.txt cannot be read: {e}"
            return words
    return "run.txt holds no command"


def run_command(folder: Path, stem: str, placeholder: str) -> list[str] | str:
    """How the built folder runs, or why it cannot."""
    given = run_txt(folder)
    if given is not None:
        return given
    one = stem.replace(placeholder, "1") if placeholder else stem
    if (folder / f"{one}.class").is_file():
        return ["java", stem]
    executable = folder / one
    if executable.is_file() and os.access(executable, os.X_OK):
        return [f"./{stem}"]
    if (folder / f"{one}.py").is_file():
        return ["python3", f"{stem}.py"]
    return (f"no program: none of {one}.class, an executable {one}, {one}.py, nor a "
            "run.txt saying the command")


@dataclass
class Built:
    """A submission built (`folder` the built copy, `command` how it runs), or why not."""

    how: str  # the build's command, or "nothing to build"
    folder: Path | None = None
    command: list[str] = field(default_factory=list)
    failure: str = ""  # "": ready to run
    log: str = ""  # the build's output (the end of it), for its report
    seconds: float = 0.0


def build(submission: Submission, stem: str, placeholder: str, into: Path,
          limits: Limits = BUILD_LIMITS) -> Built:
    """Build `submission` into the new folder `into` (in the sandbox, within `limits`)."""
    folder = submission.folder
    if folder.is_symlink():
        return Built("nothing", failure="not a folder of its own (a symbolic link)")
    if folder_size(folder, SUBMISSION_LIMIT) > SUBMISSION_LIMIT:
        return Built("nothing", failure=f"more than {SUBMISSION_LIMIT >> 20} MB of files")
    how = build_command(folder, stem)
    if how is None:
        try:
            shutil.copytree(folder, into, symlinks=True)
        except (OSError, shutil.Error) as e:
            return Built("nothing to build", failure=f"cannot be copied: {e}")
        built = Built("nothing to build", into)
    else:
        try:
            run = run_program(how, [], limits, folder, keep=into)
        except (OSError, shutil.Error) as e:
            return Built(shlex.join(how), failure=f"cannot be built: {e}")
        log = (run.stdout + run.stderr)[-LOG_SHOWN:]
        failed = failure(run, limits.seconds)
        if failed is not None:
            said = [line.strip() for line in log.splitlines() if "error" in line.lower()]
            why = said[0][:200] if said and not run.timed_out else failed[1]
            return Built(shlex.join(how), failure=f"build failed: {why}", log=log,
                         seconds=run.seconds)
        built = Built(shlex.join(how), into, log=log, seconds=run.seconds)
    command = run_command(into, stem, placeholder)
    if isinstance(command, str):
        built.failure = command
    else:
        built.command = command
    return built


def remove_tree(path: Path) -> None:
    """Remove a folder a program may have made hard to remove (its folders made
    unreadable or unwritable): permissions given back on the way down."""
    if not path.exists() and not path.is_symlink():
        return
    if path.is_symlink() or not path.is_dir():
        path.unlink()
        return
    for folder in _folders(path):
        with contextlib.suppress(OSError):
            os.chmod(folder, stat.S_IRWXU)
    shutil.rmtree(path)


def _folders(path: Path) -> Iterator[Path]:
    """Every folder under `path` (not following links), each made searchable first."""
    with contextlib.suppress(OSError):
        os.chmod(path, stat.S_IRWXU)
    yield path
    with contextlib.suppress(OSError):
        for entry in os.scandir(path):
            if entry.is_dir(follow_symlinks=False):
                yield from _folders(Path(entry.path))
