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

`run_program` runs a program once (a course's call per move, a marker's case);
`Session` keeps one running for a whole game (a UGI engine), under the same limits, its
lines read with a deadline each.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import queue
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    outputs: dict[str, str | None] = field(default_factory=dict)  # the files it was to write
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
                folder: Path | None = None, stdin: str = "",
                inputs: Sequence[tuple[str, str]] = (), outputs: Sequence[str] = (),
                keep: Path | None = None) -> Run:
    """Run `command + args` in a fresh copy of `folder` (the submission's files; None: an
    empty folder), with the case's `inputs` (name, text) written into it, and read back
    the `outputs` it is to write (None for one it did not write); the folder is removed
    afterwards, or moved to `keep` (a build's result: a new path). A program that
    cannot be started is a Run with status 127 and the reason on stderr, as a shell
    reports it."""
    with tempfile.TemporaryDirectory(prefix="zerosum-run-") as tmp:
        here = Path(tmp) / "run"
        if folder is None:
            here.mkdir()
        else:
            shutil.copytree(folder, here, symlinks=True)
        for name, text in inputs:
            (here / name).write_text(text, encoding="utf-8", newline="")
        before = set(_listing(here))
        run = _run(list(command), list(args), limits, here, stdin)
        run.outputs = {name: _read(here / name) for name in outputs}
        run.files = sorted(set(_listing(here)) - before - set(outputs))
        if keep is not None:
            shutil.move(here, keep)
        return run


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            return f.read(OUTPUT_LIMIT).decode("utf-8", "replace")
    except OSError:
        return None


def _listing(folder: Path) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*")]


def folder_size(folder: Path, limit: int) -> int:
    """The bytes of the files in `folder`, counted until they pass `limit`."""
    total = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            total += path.stat().st_size
            if total > limit:
                break
    return total


def _prefix() -> list[str]:
    return ["unshare", "--map-root-user", "--net"] if can_cut_network() else []


def _run(command: list[str], args: list[str], limits: Limits, folder: Path,
         stdin: str) -> Run:
    prefix = _prefix()
    network = bool(prefix)
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(
            [*prefix, *command, *args], cwd=folder, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=functools.partial(_limit, limits))
    except OSError as e:
        return Run(127, "", f"cannot start {command[0]}: {e.strerror or e}", 0.0,
                   network=network)
    # The answer is in when the program itself ends: a process it left behind (still
    # holding the pipes) is killed then, not waited for.
    out, err = bytearray(), bytearray()
    readers = [threading.Thread(target=_drain, args=(pipe, kept), daemon=True)
               for pipe, kept in ((proc.stdout, out), (proc.stderr, err))]
    for reader in readers:
        reader.start()
    assert proc.stdin is not None
    with contextlib.suppress(OSError):  # a program that does not read its input
        proc.stdin.write(stdin.encode())
    with contextlib.suppress(OSError):
        proc.stdin.close()
    timed_out = False
    try:
        proc.wait(timeout=limits.seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
    seconds = time.perf_counter() - start
    _kill_group(proc)  # at the timeout, or what it left running behind it
    proc.wait()
    for reader in readers:
        reader.join(5.0)
    return Run(None if timed_out else proc.returncode, out.decode("utf-8", "replace"),
               err.decode("utf-8", "replace"), seconds, timed_out, network=network)


def _drain(pipe: Any, kept: bytearray) -> None:
    """Read `pipe` to its end, keeping its first OUTPUT_LIMIT bytes (garbage must not
    fill memory, nor block its writer on a full pipe)."""
    with contextlib.suppress(OSError, ValueError):
        while chunk := pipe.read1(1 << 16):
            if len(kept) < OUTPUT_LIMIT:
                kept += chunk[:OUTPUT_LIMIT - len(kept)]


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


LINE_LIMIT = 64 * 1024  # characters of one line kept from a session's program
PR_SET_PDEATHSIG = 1


def _limit_and_die_with_parent(limits: Limits) -> None:
    """The limits, and SIGKILL when the process that started it ends (a tournament's
    worker killed with -9 must not leave its engines running)."""
    _limit(limits)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Session:
    """A program kept running (a UGI engine for one game), in an empty folder of its
    own (or a fresh copy of `folder`), under `limits` except the wall clock: each
    `read_line` has its own deadline. `close()` kills it with everything it started
    and removes its folder; a program that cannot be started raises OSError."""

    def __init__(self, command: Sequence[str], limits: Limits = Limits(),
                 folder: Path | None = None) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="zerosum-session-")
        here = Path(self.tmp.name) / "run"
        if folder is None:
            here.mkdir()
        else:
            shutil.copytree(folder, here, symlinks=True)
        prefix = _prefix()
        self.network = bool(prefix)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []  # the last lines of its standard error
        try:
            self.proc = subprocess.Popen(
                [*prefix, *command], cwd=here, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                preexec_fn=functools.partial(_limit_and_die_with_parent, limits),
                text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError:
            self.tmp.cleanup()
            raise
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            while line := self.proc.stdout.readline(LINE_LIMIT):
                self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # its end

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        with contextlib.suppress(OSError, ValueError):
            while line := self.proc.stderr.readline(LINE_LIMIT):
                self.errors = [*self.errors[-4:], line.rstrip()]

    def send(self, line: str) -> bool:
        """Write a line to the program; False if it no longer reads."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def read_line(self, seconds: float) -> str | None:
        """Its next line within `seconds`; None on a timeout; EOFError when it ended."""
        try:
            line = self.lines.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # ended for good: every later read says so too
            raise EOFError
        return line

    def ended(self, wait: float = 1.0) -> str:
        """How it ended, in words (after read_line raised EOFError)."""
        try:
            status = self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if status < 0:
            with contextlib.suppress(ValueError):
                return f"killed by signal {signal.Signals(-status).name}"
        last = f": {self.errors[-1][:200]}" if self.errors else ""
        return f"exited with status {status}{last}"

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        _kill_group(self.proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        self.tmp.cleanup()


def failure(run: Run, seconds: float) -> tuple[str, str] | None:
    """("timeout" or "crash", why in words) for a run that gave no answer, else None
    (a tournament's program players judge their runs by it too)."""
    if run.timed_out:
        return "timeout", f"no answer within {seconds:g} s"
    if run.status == 127 and not run.stdout:
        return "crash", run.stderr.strip() or "could not start"
    if run.status is not None and run.status < 0:
        return "crash", f"killed by signal {signal_name(-run.status)}"
    if run.status != 0:
        last = run.stderr.strip().splitlines()[-1:] or ["no message"]
        return "crash", f"exit status {run.status}: {last[0][:200]}"
    return None


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
