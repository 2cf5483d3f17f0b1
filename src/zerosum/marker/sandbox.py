"""Running a person's program as a course runs it: in an empty working folder of its own,
with limits on CPU time, memory, file size and processes, without the network where this
system allows it, and killed whole (its process group) when it runs past its time.

What is enforced here, and how (docs/marking.md says the same):

- wall time: the program and every process it started are killed at the timeout;
- CPU time (RLIMIT_CPU), data memory (RLIMIT_DATA: the heap and anonymous maps; unlike
  RLIMIT_AS it lets a JVM reserve its address space), file size (RLIMIT_FSIZE) and
  processes (RLIMIT_NPROC, which Linux does not apply to root);
- the network: the program runs in a network namespace of its own with no interface up
  (`unshare --map-root-user --net`), where the system lets an unprivileged user make
  one; elsewhere `Run.network` is False and the report says the network was open;
- the file system: each run starts in a fresh copy of the submission's folder, removed
  afterwards; what the program added to it is reported (`Run.files`). Writing elsewhere
  is not prevented.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

OUTPUT_LIMIT = 1 << 20  # bytes of standard output kept: garbage must not fill memory


@dataclass(frozen=True)
class Limits:
    seconds: float = 10.0  # wall clock
    cpu_seconds: int = 30
    memory_mb: int = 1024
    file_mb: int = 1
    processes: int = 64


@dataclass
class Run:
    """What one run of a program did."""

    status: int | None  # exit status; None when it was killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    files: list[str] = field(default_factory=list)  # what it left in its working folder
    network: bool = True  # was the network cut off?

    @property
    def crashed(self) -> bool:
        return not self.timed_out and self.status != 0


@functools.cache
def can_cut_network() -> bool:
    """Can this system run a program without the network (an unprivileged namespace)?"""
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    try:
        done = subprocess.run([unshare, "--map-root-user", "--net", "true"],
                              capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _limit(limits: Limits) -> None:
    """In the child, before it runs the program: the resource limits."""
    mb = 1 << 20
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_mb * mb, limits.memory_mb * mb))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_mb * mb, limits.file_mb * mb))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))


def run_program(command: Sequence[str], args: Sequence[str], limits: Limits = Limits(),
                folder: Path | None = None, stdin: str = "") -> Run:
    """Run `command + args` in a fresh copy of `folder` (the submission's files; None: an
    empty folder), removed afterwards. A program that cannot be started is a Run with
    status 127 and the reason on stderr, as a shell reports it."""
    with tempfile.TemporaryDirectory(prefix="zerosum-run-") as tmp:
        here = Path(tmp) / "run"
        if folder is None:
            here.mkdir()
        else:
            shutil.copytree(folder, here, symlinks=True)
        before = set(_listing(here))
        run = _run(list(command), list(args), limits, here, stdin)
        run.files = sorted(set(_listing(here)) - before)
        return run


def _listing(folder: Path) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*")]


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _run(command: list[str], args: list[str], limits: Limits, folder: Path,
         stdin: str) -> Run:
    network = can_cut_network()
    prefix = ["unshare", "--map-root-user", "--net"] if network else []
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(
            [*prefix, *command, *args], cwd=folder, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=functools.partial(_limit, limits))
    except OSError as e:
        return Run(127, "", f"cannot start {command[0]}: {e.strerror or e}", 0.0,
                   network=network)
    timed_out = False
    try:
        out, err = proc.communicate(stdin.encode(), timeout=limits.seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = proc.communicate()
    seconds = time.perf_counter() - start
    _kill_group(proc)  # what it left running behind it
    return Run(None if timed_out else proc.returncode,
               out[:OUTPUT_LIMIT].decode("utf-8", "replace"),
               err[:OUTPUT_LIMIT].decode("utf-8", "replace"), seconds, timed_out,
               network=network)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
