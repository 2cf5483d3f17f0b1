"""Running a program nobody trusts (a student's, for the marker, a course player or a
class): in a fresh folder of its own, contained, with limits, and nothing of it left
when the call ends.

The public API, used by zerosum.marker, zerosum.players.programs and the class commands:

    run_program(command, args=(), limits=Limits(), folder=None, stdin="",
                inputs=(), outputs=(), keep=None) -> Run

runs `command + args` once in a fresh copy of `folder` (None: an empty folder) with the
`inputs` (name, text) written into it, and returns a `Run`: `status` (exit status; a
negative number: killed by that signal; None: stopped at the timeout), `stdout`,
`stderr` (each at most OUTPUT_LIMIT bytes), `seconds` (the program's own time, see
below), `timed_out`, `outputs` (the text of each file of `outputs` it wrote, None when
it did not), `files` (what else it left in its folder), `attempts` (what it tried that
the sandbox stopped or undid, one phrase each: "tried to read /root/x (hidden)",
"tried to write /usr/pwned (refused: read-only)", "left 1 process running (killed)",
"wrote /tmp/x (its private /tmp, discarded)", "printed more than 1 MB (stopped)") and
`unenforced` (what this system could not enforce, one phrase each; empty when all of it
was), `stopped` (why zerosum stopped it early, "" if it did not). With `keep` (a new
folder), what the folder holds at the end is copied there first: a build's products,
for the runs that follow. `failure(run, seconds)` says in words why a run gave no
answer. `Session` keeps one program running for a whole game (a UGI engine) in the
same sandbox; `containment()` says how this system contains programs, and
`refuse_unless_contained()` is what `--strict` calls.

How a call is contained, the strongest way the system offers (`containment().mode`):

- "bwrap" (bubblewrap): user, PID, network, IPC and UTS namespaces of its own. The
  program runs as uid 65534 and sees /usr, /bin, /lib*, /etc (without its secrets:
  shadow files, ssh's folder; /etc/passwd and /etc/group reduced to root and nobody),
  /proc of its own processes, /dev's few safe devices, a private empty /tmp, its own
  folder (writable) and read-only the files its command names; nothing else (no home,
  no /root, no zerosum, no other submission, no folder of the caller). The root is
  read-only.
- "unshare" (util-linux): the same namespaces without the file system's view: the
  program can read what the caller can and write outside its folder (said in
  `unenforced`).
- "limits": only the resource limits and its process group (all said in `unenforced`).

In the first two the call's first process is a tiny shell (pid 1 of the namespace) that
starts the program, and when the program ends counts what it left running and ends
itself, which kills every process of the namespace: nothing outlives the call, and the
call ends when the program does, whatever its children hold. Everywhere: CPU time
(RLIMIT_CPU), memory as address space (RLIMIT_AS: every mapping counts, shared anonymous
memory too; a JVM is given options that fit it, through JAVA_TOOL_OPTIONS), file size
(RLIMIT_FSIZE), standard output and error (OUTPUT_LIMIT each: past it the program is
stopped), and processes: RLIMIT_NPROC, which Linux does not apply to root, so as root a
pids cgroup of the call's own bounds them where one can be made (else `unenforced` says
so).

Its file attempts: where strace works, zerosum runs it around the container (outside
it: the program can neither see nor stop it), stopping the program only at the calls
that name a file, and `Attempts` judges each path by where it lies (see its
docstring); elsewhere `unenforced` says "file attempts not traced". What attempts
cost is `COSTS`, by whose rule the program runs (`cost`).

Time: a call's `seconds` run from the moment the sandbox is set up and the program
starts (the shell says so on a pipe of its own) to the moment the program ends; the
sandbox's own start-up and tear-down (bubblewrap's and strace's: tens of milliseconds,
measured by bench/sandbox_cost.py) are not counted against it, nor is any time its
children take to be killed. What is counted: the program's wait at each file call
while strace notes it (tens of microseconds a call).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import queue
import re
import resource
import selectors
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zerosum.game import InputError

OUTPUT_LIMIT = 1 << 20  # bytes of standard output (and of error) kept: garbage must not fill memory
NOBODY = 65534
STARTUP = 10.0  # seconds the sandbox may take to start the program, not counted as its own
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SECRETS = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/ssh",
           "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d", "/etc/security/opasswd",
           "/etc/machine-id")
KEPT_ENVIRONMENT = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM", "JAVA_HOME",
                    "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING")
# The first process of a contained call: says when the program starts, runs it, and says
# how it ended and how many processes it left (its own /proc lists only the namespace's).
INIT = ('echo go >&3; "$@" 3>&-; s=$?; n=-1; for p in /proc/[0-9]*; do n=$((n+1)); done; '
        'echo "$s $n" >&3; exit $s')
PIDS_CGROUP = Path("/sys/fs/cgroup/pids")


@dataclass(frozen=True)
class Limits:
    seconds: float = 10.0  # wall clock
    cpu_seconds: int = 30
    memory_mb: int = 1024  # address space
    file_mb: int = 1
    processes: int = 64


@dataclass
class Run:
    """What one run of a program did."""

    status: int | None  # exit status (negative: killed by that signal); None at the timeout
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    files: list[str] = field(default_factory=list)  # what it left in its working folder
    outputs: dict[str, str | None] = field(default_factory=dict)  # the files it was to write
    attempts: list[str] = field(default_factory=list)  # what it tried that was stopped or undone
    unenforced: tuple[str, ...] = ()  # what this system could not enforce
    stopped: str = ""  # why zerosum stopped it before its time was up ("" if it did not)

    @property
    def crashed(self) -> bool:
        return not self.timed_out and self.status != 0

    @property
    def network(self) -> bool:
        """Was the network cut off?"""
        return "the network" not in self.unenforced


@dataclass(frozen=True)
class Containment:
    mode: str  # "bwrap", "unshare" or "limits"
    unenforced: tuple[str, ...]  # what it cannot enforce, one phrase each
    traced: bool = False  # are its file attempts traced (strace), one by one?

    def note(self) -> str | None:
        """One line for a report, None when everything is enforced."""
        if not self.unenforced:
            return None
        return (f"note: this system's sandbox ({self.mode}) does not enforce "
                + "; ".join(self.unenforced))


class Uncontained(InputError):
    """--strict, on a system that cannot contain programs fully (one line)."""


def _works(command: list[str]) -> bool:
    try:
        done = subprocess.run(command, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _can_make_pids_cgroup() -> bool:
    try:
        probe = PIDS_CGROUP / f"zerosum-probe-{os.getpid()}"
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


@functools.cache
def containment() -> Containment:
    """How this system contains programs (probed once). ZEROSUM_SANDBOX=unshare or
    =limits asks for no more than that (to compare, or where a namespace misbehaves)."""
    wanted = os.environ.get("ZEROSUM_SANDBOX", "bwrap")
    order = ("bwrap", "unshare", "limits")
    allowed = order[order.index(wanted):] if wanted in order else order
    processes: tuple[str, ...] = ()
    if os.geteuid() == 0 and not _can_make_pids_cgroup():
        processes = ("the number of processes (root, and no pids cgroup)",)
    unenforced: tuple[str, ...]
    mode, unenforced = "limits", (
        "the network", "its view of the file system (it can read what zerosum can, and "
        "write outside its folder)", "the end of processes that leave its process group",
        "its view of other processes (it can see and signal them)")
    if "bwrap" in allowed and shutil.which("bwrap") and \
            _works([*_bwrap_words([], None, [], Path("/nonexistent")), "true"]):
        mode, unenforced = "bwrap", ()
    elif "unshare" in allowed and shutil.which("unshare") and \
            _works([*_unshare_words(), "true"]):
        mode, unenforced = "unshare", ("its view of the file system (it can read what "
                                       "zerosum can, and write outside its folder)",)
    traced = _can_trace(mode)
    if not traced:
        unenforced += (UNTRACED,)
    return Containment(mode, (*unenforced, *processes), traced)


UNTRACED = "the report of its file attempts (file attempts not traced: no working strace)"


def _can_trace(mode: str) -> bool:
    """Can strace follow a contained call here (it is installed, ptrace is allowed)?
    ZEROSUM_TRACE=off says no (to compare)."""
    if os.environ.get("ZEROSUM_TRACE", "on") == "off" or shutil.which("strace") is None:
        return False
    inner = {"bwrap": lambda: _bwrap_words([], None, [], Path("/nonexistent")),
             "unshare": _unshare_words, "limits": list}[mode]()
    return _works([*_strace_words("/dev/null"), *inner, "true"])


def refuse_unless_contained() -> None:
    """Uncontained (its message one line) when this system cannot enforce everything."""
    note = containment().note()
    if note is not None:
        raise Uncontained(note.replace("note: ", "--strict: ", 1) + ": not run")


def can_cut_network() -> bool:
    return containment().mode != "limits"


# -- the command lines of the containers ---------------------------------------------------


def _unshare_words() -> list[str]:
    return ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child",
            "--mount-proc", "--net", "--ipc", "--uts"]


def _bwrap_words(visible: Sequence[str], here: Path | None, env: list[str],
                 private: Path) -> list[str]:
    words = ["bwrap", "--die-with-parent", "--new-session", "--as-pid-1", "--unshare-all",
             "--unshare-user", "--disable-userns", "--uid", str(NOBODY), "--gid", str(NOBODY),
             "--hostname", "sandbox"]
    for path in SYSTEM:
        if os.path.islink(path):
            words += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            words += ["--ro-bind", path, path]
    words += ["--ro-bind", "/etc", "/etc"]
    for path in SECRETS:
        if os.path.isdir(path) and not os.path.islink(path):
            words += ["--tmpfs", path, "--remount-ro", path]
        elif os.path.lexists(path):
            words += ["--ro-bind", "/dev/null", path]
    for name in ("passwd", "group"):
        if (private / name).exists():
            words += ["--ro-bind", str(private / name), f"/etc/{name}"]
    words += ["--proc", "/proc", "--dev", "/dev"]
    if (private / "tmp").is_dir():
        words += ["--bind", str(private / "tmp"), "/tmp"]
    if here is not None:
        words += ["--bind", str(here), str(here), "--chdir", str(here)]
    for path in visible:
        words += ["--ro-bind", path, path]
    package = Path(__file__).resolve().parent  # zerosum's own source, if a bound folder holds it
    if any(package.is_relative_to(p) for p in SYSTEM + tuple(visible)):
        words += ["--tmpfs", str(package), "--remount-ro", str(package)]
    words += ["--remount-ro", "/", "--clearenv"]
    for setting in env:
        name, _, value = setting.partition("=")
        words += ["--setenv", name, value]
    return words


def _environment(here: Path, limits: Limits, shown: Sequence[str] | None = None,
                 tmp: str = "/tmp") -> list[str]:
    """What the program's environment holds: the locale and the PATH (with `shown`, the
    paths the sandbox shows it, only its folders among them: no search of folders it
    cannot see), its folder as HOME, `tmp` as TMPDIR, and a JVM's options within the
    memory limit (a JVM
    reserves far more address space than it uses: a heap of half the limit, small
    reserved code and class spaces)."""
    env = [f"{k}={os.environ[k]}" for k in KEPT_ENVIRONMENT if k in os.environ and k != "PATH"]
    env += [f"{k}={v}" for k, v in os.environ.items() if k.startswith("LC_")]
    path = os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin").split(os.pathsep)
    if shown is not None:
        inside = (*SYSTEM, *shown)
        path = [d for d in path if any(Path(d).is_relative_to(s) for s in inside)]
    env.append("PATH=" + os.pathsep.join(path or ["/usr/bin", "/bin"]))
    heap = max(16, limits.memory_mb // 2)
    env += [f"HOME={here}", f"TMPDIR={tmp}",
            f"JAVA_TOOL_OPTIONS=-Xmx{heap}m -Xss1m -XX:ReservedCodeCacheSize=32m "
            "-XX:CompressedClassSpaceSize=64m -XX:MaxMetaspaceSize=128m -XX:+UseSerialGC "
            "-XX:-UsePerfData -XX:TieredStopAtLevel=1"]
    return env


def _visible(command: Sequence[str], here: Path) -> tuple[list[str], list[str]]:
    """The command as the sandbox runs it, and the paths outside the program's folder it
    must see read-only: each word naming an existing file or folder by an absolute path,
    and an interpreter installed outside the system's folders with its installation (a
    Python of pyenv, a JDK in /opt: the folder above its bin/), by its path or found on
    the PATH where the system's folders do not have it. A word of the folder stays as
    it is."""
    words, visible = list(command), []
    if words and os.sep not in words[0] and not _on_system_path(words[0]):
        found = shutil.which(words[0])  # a program only the caller's PATH finds (/opt/jdk)
        if found is not None:
            words[0] = os.path.realpath(found)
    for number, word in enumerate(words):
        if not os.path.isabs(word) or not os.path.exists(word):
            continue
        real = os.path.realpath(word)
        if Path(real).is_relative_to(here) or any(Path(real).is_relative_to(s) for s in SYSTEM):
            continue
        if number == 0 and os.path.isfile(real):
            words[0] = real  # by its own path, so that it finds its installation
            bin_folder = os.path.dirname(real)
            if os.path.basename(bin_folder) == "bin":
                visible.append(os.path.dirname(bin_folder))
                continue
        visible.append(real)
        words[number] = real
    return words, sorted(set(visible))


def _on_system_path(program: str) -> bool:
    """Does the PATH's part inside the system's folders (what the sandbox shows) hold
    `program`?"""
    folders = [d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
               if any(Path(d).is_relative_to(s) for s in SYSTEM)]
    return shutil.which(program, path=os.pathsep.join(folders)) is not None


def _passwd(private: Path) -> None:
    (private / "passwd").write_text(
        "root:x:0:0:root:/:/usr/sbin/nologin\n"
        f"nobody:x:{NOBODY}:{NOBODY}:nobody:/nonexistent:/usr/sbin/nologin\n")
    (private / "group").write_text(f"root:x:0:\nnogroup:x:{NOBODY}:\n")


# -- a call's place: its folder, its private /tmp, its cgroup -------------------------------


class Place:
    """A call's temporary folder: `here`, the program's working folder; `private`, what
    the sandbox binds over /tmp and /etc/passwd. Removed whole afterwards, whatever the
    program did to its permissions."""

    def __init__(self, folder: Path | None, prefix: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.here = self.root / "run"
        self.private = self.root / "private"
        self.private.mkdir()
        (self.private / "tmp").mkdir()
        _passwd(self.private)
        if folder is None:
            self.here.mkdir()
        else:
            shutil.copytree(folder, self.here, symlinks=True, ignore=_special)
        self.mounts = {self.here}  # what the sandbox binds: their mount points are no leftovers

    def leftovers(self) -> list[str]:
        """What the program left in its private /tmp, and what it did to its folder that
        outlives a file: FIFOs, sockets, links out of it, permissions taken away."""
        # the mount points of what is bound under /tmp (its folder) are no doing of its own
        mount = {p for m in self.mounts for p in (m, *m.parents)}
        found = [f"wrote /tmp/{name} (its private /tmp, discarded)"
                 for name in _listing(self.private / "tmp")
                 if Path("/tmp", name) not in mount][:5]
        for name in _listing(self.here):
            path = self.here / name
            try:
                mode = path.lstat().st_mode
            except OSError:
                continue
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                found.append(f"left a {'FIFO' if stat.S_ISFIFO(mode) else 'socket'} {name} "
                             "in its folder")
            elif stat.S_ISLNK(mode):
                target = os.path.realpath(path)
                if not Path(target).is_relative_to(self.here.resolve()):
                    found.append(f"made a link {name} to {os.readlink(path)}, outside its folder")
            elif stat.S_ISDIR(mode) and mode & 0o700 != 0o700:
                found.append(f"took permissions away from {name} (removed anyway)")
        try:
            if self.here.stat().st_mode & 0o700 != 0o700:
                found.append("took permissions away from its folder (removed anyway)")
        except OSError:
            pass
        return found

    def remove(self) -> None:
        for top, dirs, _ in os.walk(self.root, followlinks=False, onerror=None):
            for name in dirs:
                with contextlib.suppress(OSError):
                    path = os.path.join(top, name)
                    if not os.path.islink(path):
                        os.chmod(path, 0o700)
        with contextlib.suppress(OSError):
            os.chmod(self.root, 0o700)
            os.chmod(self.here, 0o700)
        # a folder made unreadable hides its children from the walk: walk again
        for _ in range(3):
            shutil.rmtree(self.root, ignore_errors=True, onerror=None)
            if not self.root.exists():
                break
            for top, dirs, _ in os.walk(self.root, followlinks=False):
                for name in dirs:
                    with contextlib.suppress(OSError):
                        os.chmod(os.path.join(top, name), 0o700)


@contextlib.contextmanager
def place(folder: Path | None, prefix: str = "zerosum-run-") -> Iterator[Place]:
    p = Place(folder, prefix)
    try:
        yield p
    finally:
        p.remove()


def _listing(folder: Path) -> list[str]:
    """Every path under `folder`, relative, links not followed."""
    found = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in [*dirs, *files]:
            found.append(os.path.relpath(os.path.join(top, name), folder))
    return sorted(found)


def _read(path: Path, folder: Path) -> str | None:
    """The text of a regular file the program wrote in its folder (a link, a FIFO or a
    device is no output: reading one could block, or read what lies outside)."""
    try:
        if not path.resolve().is_relative_to(folder.resolve()):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return f.read(OUTPUT_LIMIT).decode("utf-8", "replace")


def folder_size(folder: Path, limit: int) -> int:
    """The bytes of the files in `folder`, counted until they pass `limit`."""
    total = 0
    for top, _, files in os.walk(folder, followlinks=False):
        for name in files:
            path = Path(top) / name
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
                if total > limit:
                    return total
    return total


class _Cgroup:
    """A pids cgroup of one call (as root, where RLIMIT_NPROC does not apply)."""

    count = 0

    def __init__(self, processes: int) -> None:
        if _Cgroup.count == 0:
            _sweep_cgroups()
        _Cgroup.count += 1
        self.path: Path | None = PIDS_CGROUP / f"zerosum-{os.getpid()}-{_Cgroup.count}"
        try:
            self.path.mkdir()
            # bubblewrap and the shell, beside the program and what it starts
            (self.path / "pids.max").write_text(str(processes + 2))
        except OSError:
            self.path = None

    def join(self) -> None:
        """In the child before it runs the sandbox."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def refused(self) -> int:
        if self.path is None:
            return 0
        with contextlib.suppress(OSError, ValueError):
            return int((self.path / "pids.events").read_text().split()[1])
        return 0

    def remove(self) -> None:
        if self.path is None:
            return
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.01)


def _sweep_cgroups() -> None:
    """Remove the empty cgroups of zerosum processes that are gone (killed, say, before
    they could remove their own)."""
    with contextlib.suppress(OSError):
        for path in PIDS_CGROUP.glob("zerosum-*-*"):
            owner = path.name.split("-")[1]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                with contextlib.suppress(OSError):
                    path.rmdir()


# -- its file attempts, traced ---------------------------------------------------------------

# The calls that name a file (strace's %file class), by what they do with it: a call not
# named here only looks (stat, access, readlink, statfs, xattrs read, inotify).
WRITING = frozenset((
    "creat", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
    "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "fchmodat2",
    "chown", "lchown", "fchownat", "truncate", "utime", "utimes", "utimensat", "futimesat",
    "mknod", "mknodat", "setxattr", "lsetxattr", "removexattr", "lremovexattr", "mount",
    "umount2", "pivot_root", "swapon", "swapoff", "acct", "quotactl", "chroot"))
OPENING = frozenset(("open", "openat", "openat2"))
RUNNING = frozenset(("execve", "execveat"))
ENTERING = frozenset(("chdir",))
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
# Only the first path of these is one it uses: the rest is a result (readlink's), a name
# (an extended attribute's), a link's text (symlink's target, which it does not open).
FIRST_PATH_ONLY = frozenset(("readlink", "readlinkat", "getxattr", "lgetxattr", "setxattr",
                             "lsetxattr", "removexattr", "lremovexattr", "execve",
                             "execveat", "mount"))
LAST_PATH_ONLY = frozenset(("symlink", "symlinkat"))
# What runtimes ask the system without being shown it (a JVM's /sys/fs/cgroup, glibc's
# count of processors, libselinux's old mount point): looking there, always answered "not
# there", is no attempt. And nobody's home in the sandbox's /etc/passwd, which a JVM looks
# for.
PROBED = ("/sys", "/selinux", "/nonexistent")
# What an interpreter installed outside the system's folders (a pyenv Python) looks for
# in the folders above its installation, to find its own library, and what Node.js looks
# for in every folder above a script (its package's settings, its modules): no attempt
# either, where it is not there.
LANDMARKS = re.compile(r"/(pyvenv\.cfg|pybuilddir\.txt|Modules/Setup\.local|"
                       r"lib/python3\d*\.zip|lib/python3\.\d+/(os\.py|lib-dynload)|"
                       r"package\.json|node_modules(/.*)?)$")
TRACE_PIPE = 1 << 20  # bytes of strace's lines the pipe holds before strace waits
TRACE_BATCH = 0.005  # seconds between reads of them
FILE_ATTEMPTS_SHOWN = 10  # file attempts named for a call; the rest are counted
FILE_ATTEMPTS_COUNTED = 100_000  # (up to this many: memory is bounded)
CALL_LINE = re.compile(r"(\w+)\((.*)\)\s+=\s+(\S+)(?:\s+(E[A-Z0-9]+))?")
PATH_ARG = re.compile(r'(?:(AT_FDCWD|-?\d+), )?"((?:[^"\\]|\\.)*)"')
HOW = {"ENOENT": "hidden", "ENOTDIR": "hidden", "EROFS": "refused: read-only",
       "EACCES": "refused", "EPERM": "refused"}
VERBS = {"read": ("read", "tried to read"), "write": ("wrote", "tried to write"),
         "run": ("ran", "tried to run"), "enter": ("entered", "tried to enter"),
         "look": ("looked at", "looked for")}
STRENGTH = ("look", "enter", "read", "run", "write")  # what a path's attempt is said by


def _strace_words(output: str) -> list[str]:
    """strace, following every process (only at the calls that name a file: seccomp
    lets the rest run untouched), each path whole, writing to `output`."""
    return ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "signal=none", "-e", "trace=%file",
            "-s", "4096", "-o", output]


class Attempts:
    """What a program tried with the file system outside what it may use, judged from
    strace's lines one at a time: a path is an attempt by where it lies (outside its
    folder, its private /tmp and what the system shows it read-only; a secret of /etc),
    never by its error alone, so an interpreter's probing of its own libraries is none.
    The lines of the sandbox's own setup (before the first process of the call starts
    the shell) and of bubblewrap's monitor are not the program's."""

    def __init__(self, here: Path, visible: Sequence[str], shell: bool,
                 hidden: bool, tmp: str = "/tmp") -> None:
        """`tmp`: its temporary folder (its TMPDIR: its private /tmp where what lies
        outside is hidden, else a folder of the call's own, and the caller's /tmp is
        not its to use)."""
        self.here = str(here)
        self.shell = shell
        self.hidden = hidden  # is what lies outside hidden from it (bubblewrap)?
        self.readable = (*SYSTEM, "/etc", "/proc", "/dev", tmp, *PROBED, self.here,
                         *visible)
        self.writable = (tmp, "/dev", "/proc", self.here)
        self.parents = {str(p) for v in (self.here, *visible) for p in Path(v).parents}
        self.started = not shell  # without the shell, its first line is the program's
        self.first: str | None = None  # the pid that strace started: the container's
        self.pending: dict[str, str] = {}  # a pid's call interrupted by another's line
        self.cwd: dict[str, str] = {}  # a pid's folder, where it changed it
        self.found: dict[str, tuple[int, str]] = {}  # path -> (how strong, the attempt)
        self.more: set[str] = set()  # the paths past those named (counted only)

    def line(self, text: str) -> None:
        pid, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if self.first is None:
            self.first = pid
        if rest.endswith("<unfinished ...>"):
            self.pending[pid] = rest[:-len("<unfinished ...>")].rstrip()
            return
        if rest.startswith("<..."):
            rest = self.pending.pop(pid, "") + rest.partition("resumed>")[2]
        call = CALL_LINE.match(rest)
        if call is None:
            return
        name, args, result, error = call.groups()
        if not self.started:
            self.started = name == "execve" and pid != self.first and result == "0"
            return
        if pid == self.first and self.shell:
            return  # the container's own process (bwrap's monitor, unshare)
        self.judge(pid, name, args, result, error)

    def judge(self, pid: str, name: str, args: str, result: str, error: str | None) -> None:
        paths = [(fd, _unescape(raw)) for fd, raw in PATH_ARG.findall(args)]
        if name in FIRST_PATH_ONLY:
            paths = paths[:1]
        elif name in LAST_PATH_ONLY:
            paths = paths[-1:]
        if name in OPENING:
            kind = "write" if any(f in args for f in WRITE_FLAGS) else "read"
        else:
            kind = ("write" if name in WRITING else "run" if name in RUNNING
                    else "enter" if name in ENTERING else "look")
        folder = self.cwd.get(pid, self.here)
        for fd, path in paths:
            if not path or (not path.startswith("/") and fd not in ("", "AT_FDCWD")):
                continue  # relative to a folder it opened: not judged
            where = os.path.normpath(os.path.join(folder, path))
            if kind == "enter" and result == "0" and self.allowed(where, "read"):
                self.cwd[pid] = where
            if (self.allowed(where, kind) and not self.callers(where, error)) \
                    or (kind == "look" and self.landmark(where)) \
                    or (kind == "read" and error == "ENOENT" and self.searched_up(where)):
                continue
            done, tried = VERBS[kind]
            if result.startswith("-"):
                how = HOW.get(error or "", f"refused: {error}")
                if how == "hidden" and not self.hidden:
                    how = "not found"
                self.add(where, kind, f"{tried} {where} ({how})")
            elif _within(where, SECRETS):
                self.add(where, kind, f"{done} {where} (a secret: it is empty there)")
            else:
                self.add(where, kind, f"{done} {where}")

    def allowed(self, path: str, kind: str) -> bool:
        if _within(path, SECRETS):
            return False
        if kind == "write":
            return _within(path, self.writable)
        return path == "/" or path in self.parents or _within(path, self.readable)

    def callers(self, path: str, error: str | None) -> bool:
        """Did it name a file of the caller's /tmp, hidden behind its own private /tmp
        (a reference, another submission, the caller's folder)?"""
        if not (self.hidden and error == "ENOENT" and _within(path, ("/tmp",))
                and not _within(path, (self.here,))):
            return False
        parent = os.path.dirname(path)
        # a file not there in a folder above its own (the call's): a tool's search upward
        return os.path.lexists(path) or (parent != "/tmp" and parent not in self.parents
                                         and os.path.isdir(parent))

    def landmark(self, path: str) -> bool:
        """Does it look for what tools look for in the folders above theirs (an
        interpreter's library, a hidden file of settings: pyenv's .python-version)?"""
        if os.path.basename(path).startswith(".") and os.path.dirname(path) in self.parents:
            return True
        return self.searched_up(path)

    def searched_up(self, path: str) -> bool:
        """Is it what a runtime opens in each folder above its own to find its library or
        its package (a file not there is no attempt: a hidden file of settings, read, is)?"""
        match = LANDMARKS.search(path)
        return match is not None and (path[:match.start()] or "/") in self.parents

    def add(self, path: str, kind: str, attempt: str) -> None:
        """Once a path, said by the most it tried with it (looking, reading, running,
        writing)."""
        strength = STRENGTH.index(kind)
        if path in self.found:
            if strength > self.found[path][0]:
                self.found[path] = (strength, attempt)
        elif len(self.found) < FILE_ATTEMPTS_SHOWN:
            self.found[path] = (strength, attempt)
        elif len(self.more) < FILE_ATTEMPTS_COUNTED:
            self.more.add(path)

    def said(self) -> list[str]:
        more = [f"and {len(self.more)} more file attempts"] if self.more else []
        return [attempt for _, attempt in self.found.values()] + more


def _within(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _unescape(raw: str) -> str:
    """A path as strace quotes it (C escapes), as text."""
    if "\\" not in raw:
        return raw
    try:
        return raw.encode("latin-1", "backslashreplace").decode("unicode_escape") \
            .encode("latin-1").decode("utf-8", "replace")
    except (UnicodeError, ValueError):
        return raw


class _Trace:
    """strace around a contained call, run by zerosum outside the sandbox (the program
    can neither see, signal nor trace it), writing to a FIFO outside the program's view
    (a FIFO: the program's file size limit does not bound it), read as it comes by a
    thread that keeps only the attempts."""

    def __init__(self, p: Place, visible: Sequence[str], mode: str) -> None:
        self.fifo = p.root / "trace"
        os.mkfifo(self.fifo, 0o600)
        self.fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        # a writer of our own until strace has ended: the reader sees no end before it starts
        self.writer: int | None = os.open(self.fifo, os.O_WRONLY)
        os.set_blocking(self.fd, True)
        self.attempts = Attempts(p.here, visible, shell=mode != "limits",
                                 hidden=mode == "bwrap",
                                 tmp="/tmp" if mode == "bwrap" else str(p.private / "tmp"))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def words(self) -> list[str]:
        return _strace_words(str(self.fifo))

    def _read(self) -> None:
        rest = b""
        with contextlib.suppress(OSError):  # a larger pipe, where the system allows it
            fcntl.fcntl(self.fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), TRACE_PIPE)
        with contextlib.suppress(OSError):
            while chunk := os.read(self.fd, TRACE_PIPE):
                *lines, rest = (rest + chunk).split(b"\n")
                for line in lines:
                    self.attempts.line(line.decode("utf-8", "replace"))
                # strace writes a line at a time: read them in batches, not waking (and
                # making the traced program wait) at every line
                time.sleep(TRACE_BATCH)
        if rest:
            self.attempts.line(rest.decode("utf-8", "replace"))

    def close(self) -> list[str]:
        """After strace has ended: the attempts."""
        if self.writer is not None:
            os.close(self.writer)
            self.writer = None
        self.thread.join(10)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        return self.attempts.said()


def _limit(limits: Limits, cgroup: _Cgroup | None, status_w: int | None) -> None:
    """In the child, before it runs the sandbox: the resource limits, its cgroup, and the
    status pipe as fd 3, where the shell writes."""
    if status_w is not None and status_w != 3:
        os.dup2(status_w, 3, inheritable=True)
    mb = 1 << 20
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_mb * mb, limits.memory_mb * mb))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_mb * mb, limits.file_mb * mb))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cgroup is not None:
        cgroup.join()


def _wrapped(command: Sequence[str], args: Sequence[str], p: Place, limits: Limits
             ) -> tuple[list[str], str, _Trace | None]:
    """The command line that runs `command + args` contained (only the command's own
    words may name what it sees outside its folder: a case's arguments may not), the
    mode, and the trace of its file attempts (None where there is no strace)."""
    how = containment()
    mode = how.mode
    words, visible = _visible(command, p.here)
    words += args
    p.mounts.update(Path(v) for v in visible)
    env = _environment(p.here, limits, visible if mode == "bwrap" else None)
    # the folders of its PATH are its to search (outside bubblewrap: the caller's PATH),
    # with the installation each bin/ is part of (pyenv's shims run pyenv's libexec/)
    searched = [d for d in next(e for e in env if e.startswith("PATH="))[5:].split(os.pathsep)
                if os.path.isabs(d) and d != "/"]
    searched += [os.path.dirname(d.rstrip("/")) for d in searched
                 if os.path.basename(d.rstrip("/")) in ("bin", "sbin", "shims", "libexec")
                 and os.path.dirname(d.rstrip("/")) not in ("/", "/usr", "/usr/local")]
    trace = _Trace(p, [*visible, *searched], mode) if how.traced else None
    tracer = trace.words() if trace is not None else []
    if mode == "bwrap":
        return [*tracer, *_bwrap_words(visible, p.here, env, p.private), "/bin/sh", "-c",
                INIT, "sh", *words], mode, trace
    if mode == "unshare":
        return [*tracer, *_unshare_words(), "/bin/sh", "-c", INIT, "sh", *words], mode, trace
    return [*tracer, *words], mode, trace


def _child_environment(p: Place, limits: Limits, mode: str) -> dict[str, str] | None:
    if mode == "bwrap":
        return None  # bubblewrap sets the program's own
    return dict(item.split("=", 1) for item in _environment(p.here, limits,
                                                             tmp=str(p.private / "tmp")))


def _start(command: Sequence[str], args: Sequence[str], p: Place, limits: Limits, text: bool
           ) -> tuple[subprocess.Popen[Any], int | None, _Cgroup | None, _Trace | None]:
    """The contained program started; its status pipe's reading end (None: no shell);
    its cgroup; its trace."""
    wrapped, mode, trace = _wrapped(command, args, p, limits)
    cgroup = _Cgroup(limits.processes + (trace is not None)) \
        if os.geteuid() == 0 and mode != "limits" else None
    status_r, status_w = os.pipe() if mode != "limits" else (None, None)
    try:
        proc: subprocess.Popen[Any] = subprocess.Popen(
            wrapped, cwd=p.here, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
            env=_child_environment(p, limits, mode),
            pass_fds=() if status_w is None else (3, status_w),
            preexec_fn=functools.partial(_limit, limits, cgroup, status_w),
            text=text, encoding="utf-8" if text else None,
            errors="replace" if text else None, bufsize=1 if text else -1)
    except OSError:
        for fd in (status_r, status_w):
            if fd is not None:
                os.close(fd)
        if cgroup is not None:
            cgroup.remove()
        if trace is not None:
            trace.close()
        raise
    if status_w is not None:
        os.close(status_w)
    return proc, status_r, cgroup, trace


def _end(proc: subprocess.Popen[Any]) -> None:
    """Kill what runs the program: the namespace's first process takes every other
    with it (bubblewrap's --die-with-parent, unshare's --kill-child); without a
    namespace, its process group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        proc.kill()


# -- one run --------------------------------------------------------------------------------


def run_program(command: Sequence[str], args: Sequence[str] = (), limits: Limits = Limits(),
                folder: Path | None = None, stdin: str = "",
                inputs: Sequence[tuple[str, str]] = (), outputs: Sequence[str] = (),
                keep: Path | None = None) -> Run:
    """Run `command + args` contained, in a fresh copy of `folder` (the submission's
    files; None: an empty folder), with the case's `inputs` (name, text) written into it,
    and read back the `outputs` it is to write (None for one it did not write); the
    folder is removed afterwards, after its files are copied to `keep` (a new folder:
    what a build made; links kept as links, FIFOs and devices left out). A program that
    cannot be started is a Run with status 127 and the reason on stderr, as a shell
    reports it."""
    with place(folder) as p:
        for name, text in inputs:
            (p.here / name).write_text(text, encoding="utf-8", newline="")
        before = set(_listing(p.here))
        run = _run(list(command), list(args), limits, p, stdin)
        run.outputs = {name: _read(p.here / name, p.here) for name in outputs}
        run.files = sorted(set(_listing(p.here)) - before - set(outputs))
        run.attempts += p.leftovers()
        if keep is not None:
            _copy_out(p.here, keep)
        return run


def _copy_out(folder: Path, target: Path) -> None:
    """The regular files, folders and links of `folder`, copied to the new `target`
    (what the program made unreadable is made readable first; nothing is followed)."""
    for top, dirs, _ in os.walk(folder, followlinks=False):
        for name in dirs:
            with contextlib.suppress(OSError):
                if not os.path.islink(os.path.join(top, name)):
                    os.chmod(os.path.join(top, name), 0o755)
    with contextlib.suppress(shutil.Error):
        shutil.copytree(folder, target, symlinks=True, ignore=_special)


def _special(top: str, names: list[str]) -> set[str]:
    """What a copy leaves out: all but files, folders and links (copying a FIFO blocks)."""
    return {n for n in names if not (os.path.islink(os.path.join(top, n))
                                     or os.path.isdir(os.path.join(top, n))
                                     or os.path.isfile(os.path.join(top, n)))}


def _run(command: list[str], args: list[str], limits: Limits, p: Place, stdin: str) -> Run:
    unenforced = containment().unenforced
    try:
        proc, status_fd, cgroup, trace = _start(command, args, p, limits, text=False)
    except OSError as e:
        return Run(127, "", f"cannot start {command[0]}: {e.strerror or e}", 0.0,
                   unenforced=unenforced)
    out, err, said = bytearray(), bytearray(), bytearray()
    kept = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}  # type: ignore[union-attr]
    if status_fd is not None:
        kept[status_fd] = said
    sel = selectors.DefaultSelector()
    for fd in kept:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    pending = stdin.encode()
    stdin_fd = proc.stdin.fileno()  # type: ignore[union-attr]
    if pending:
        os.set_blocking(stdin_fd, False)
        sel.register(stdin_fd, selectors.EVENT_WRITE)
    else:
        proc.stdin.close()  # type: ignore[union-attr]
    pidfd = _pidfd(proc.pid)
    if pidfd is not None:
        sel.register(pidfd, selectors.EVENT_READ)
    started = time.perf_counter()
    began: float | None = started if status_fd is None else None
    ended: float | None = None
    timed_out, stopped = False, ""
    while True:
        now = time.perf_counter()
        if began is None and said:
            began = now
        deadline = (began + limits.seconds) if began is not None else started + STARTUP
        if ended is None and b"\n" in said[3:]:
            ended = now  # the shell's word: the program has ended
        if proc.poll() is not None:
            break
        if now >= deadline:
            timed_out = True
            break
        for key, _ in sel.select(min(deadline - now, 0.05 if pidfd is None else deadline - now)):
            fd = key.fd
            if fd == pidfd:
                continue
            if fd == stdin_fd:
                try:
                    pending = pending[os.write(fd, pending[:1 << 16]):]
                except OSError:
                    pending = b""
                if not pending:
                    sel.unregister(fd)
                    proc.stdin.close()  # type: ignore[union-attr]
                continue
            chunk = _read_some(fd)
            if chunk is None:
                continue
            if not chunk:
                sel.unregister(fd)
                continue
            buffer = kept[fd]
            if len(buffer) + len(chunk) > OUTPUT_LIMIT and fd != status_fd:
                buffer += chunk[:OUTPUT_LIMIT - len(buffer)]
                stopped = (f"printed more than {OUTPUT_LIMIT >> 20} MB on its standard "
                           f"{'output' if buffer is out else 'error'} (stopped)")
            else:
                buffer += chunk
        if stopped:
            break
    finish = time.perf_counter()
    _end(proc)
    proc.wait()
    for fd in list(kept):  # what is in the pipes now; nothing waits for a writer left
        if fd in sel.get_map():
            while chunk := _read_some(fd):
                if len(kept[fd]) < OUTPUT_LIMIT:
                    kept[fd] += chunk[:OUTPUT_LIMIT - len(kept[fd])]
    sel.close()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError):
            stream.close()  # type: ignore[union-attr]
    for fd in (status_fd, pidfd):
        if fd is not None:
            os.close(fd)
    status: int | None = proc.returncode
    attempts: list[str] = trace.close() if trace is not None else []
    words = said.decode("ascii", "replace").split()
    if len(words) >= 3 and words[0] == "go":  # the shell's word on how the program ended
        with contextlib.suppress(ValueError):
            code, left = int(words[1]), int(words[2])
            status = -(code - 128) if code > 128 else code  # the shell's 128+N: signal N
            if left > 0:
                attempts.append(f"left {left} process{'es' if left > 1 else ''} running "
                                "(killed)")
    if cgroup is not None:
        refused = cgroup.refused()
        cgroup.remove()
        if refused:
            attempts.append(f"tried to run more than {limits.processes} processes "
                            f"(refused {refused} times)")
    if stopped:
        attempts.append(stopped)
    if timed_out:
        status = None
    seconds = (ended or finish) - (began if began is not None else started)
    return Run(status, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
               seconds, timed_out, attempts=attempts, unenforced=unenforced, stopped=stopped)


def _read_some(fd: int) -> bytes | None:
    """What the pipe holds now; b"" at its end; None when it holds nothing yet."""
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _pidfd(pid: int) -> int | None:
    """A file descriptor readable when the process ends (Linux 5.3), else None: polled."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


# -- a session: a program kept running for a game ------------------------------------------


LINE_LIMIT = 64 * 1024  # characters of one line kept from a session's program


class Session:
    """A program kept running (a UGI engine for one game), contained as `run_program`
    contains a call, in an empty folder of its own (or a fresh copy of `folder`), under
    `limits` except the wall clock: each `read_line` has its own deadline. `close()`
    kills it with everything it started, removes its folder and returns its attempts;
    a program that cannot be started raises OSError."""

    def __init__(self, command: Sequence[str], limits: Limits = Limits(),
                 folder: Path | None = None) -> None:
        self.place = Place(folder, "zerosum-session-")
        self.unenforced = containment().unenforced
        self.network = "the network" not in self.unenforced
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []  # the last lines of its standard error
        try:
            self.proc, self.status_fd, self.cgroup, self.trace = _start(
                command, (), self.place, limits, text=True)
        except OSError:
            self.place.remove()
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
        said = b""
        if self.status_fd is not None:
            with contextlib.suppress(OSError):
                os.set_blocking(self.status_fd, False)
                said = _read_some(self.status_fd) or b""
        words = said.decode("ascii", "replace").split()
        try:
            status = int(words[1]) if len(words) >= 3 else self.proc.wait(wait)
        except (subprocess.TimeoutExpired, ValueError):
            return "closed its output"
        if self.status_fd is not None and status > 128:
            status = -(status - 128)
        if status < 0:
            return f"killed by signal {signal_name(-status)}"
        last = f": {self.errors[-1][:200]}" if self.errors else ""
        return f"exited with status {status}{last}"

    def close(self, wait: float = 0.0) -> list[str]:
        """End it (after `wait` seconds for it to end by itself, told by the caller to
        quit) with all it started; what it tried that the sandbox stopped or undid."""
        with contextlib.suppress(OSError, ValueError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        attempts = []
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(wait)
        if self.status_fd is not None and self.proc.returncode is not None:
            with contextlib.suppress(OSError):
                os.set_blocking(self.status_fd, False)
                words = (_read_some(self.status_fd) or b"").decode("ascii", "replace").split()
                left = int(words[-1]) if len(words) >= 3 else 0
                if left > 0:
                    attempts.append(f"left {left} process{'es' if left > 1 else ''} "
                                    "running (killed)")
        _end(self.proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        if self.status_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.status_fd)
            self.status_fd = None
        if self.trace is not None:
            attempts = [*self.trace.close(), *attempts]
            self.trace = None
        attempts += self.place.leftovers()
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        self.place.remove()
        return attempts


# What a course's language writes by itself where a program runs: Python's bytecode
# caches (unless PYTHONDONTWRITEBYTECODE is set), Java's classes after a build. Not the
# program's doing, so not "files written in its folder", which the marker and a
# tournament's course players forbid.
LANGUAGE_DIRS = ("__pycache__",)
LANGUAGE_SUFFIXES = (".pyc", ".class")


def strays(files: Sequence[str]) -> list[str]:
    """The files a program left in its folder, less what its language writes by itself."""
    return [f for f in files
            if not any(part in LANGUAGE_DIRS for part in Path(f).parts)
            and not f.endswith(LANGUAGE_SUFFIXES)]


# What a program's attempts cost, by the rule of whoever runs it: the one place that
# decides. An attempt is what the sandbox stopped or undid (a file outside its folder
# read, looked for or written, a process left running, output past the limit, files
# left in its private /tmp); a course's own files in its folder are no attempt
# (Max-Connect4's input.txt and output.txt). None: reported, costing nothing.
COSTS: dict[str, str | None] = {
    "marker": "the case",  # `assignment check`, `class mark`: the case fails
    "course:comp3608": "the game",  # the course forbids its programs the file system
    "course:maxconnect4": "the game",  # its files are in its folder; any other is forbidden
    "ugi": None,  # an engine is no course's: said in its game's record
}


def cost(rule: str, attempts: Sequence[str]) -> str | None:
    """Why `attempts` cost what `rule` (a key of COSTS) says they cost, in words; None
    when there are none or the rule lets them pass."""
    if not attempts or COSTS[rule] is None:
        return None
    shown = "; ".join(attempts[:3]) + (f"; and {len(attempts) - 3} more"
                                       if len(attempts) > 3 else "")
    return f"tried what the sandbox forbids: {shown}"


def failure(run: Run, seconds: float) -> tuple[str, str] | None:
    """("timeout" or "crash", why in words) for a run that gave no answer, else None
    (a tournament's program players judge their runs by it too)."""
    if run.timed_out:
        return "timeout", f"no answer within {seconds:g} s"
    if run.stopped:
        return "crash", run.stopped
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
