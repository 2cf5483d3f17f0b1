"""`zerosum assignment`: the classic assignment programs, from anywhere zerosum is installed.

    zerosum assignment list                       the assignments and their programs
    zerosum assignment NAME [PROGRAM] ARGS...     run one: the launcher's arguments, output
                                                  and exit status
    zerosum assignment export NAME DIR [--zip]    a folder (or zip) that runs with a plain
                                                  python3, nothing installed
    zerosum assignment check NAME [...] -- CMD    a person's program (any language) against
                                                  the reference, on generated cases

ASSIGNMENTS is the one table of them. The launchers in assignments/ are its `launcher_text`
(tests/test_launchers.py keeps them equal), so running, exporting and the launchers agree.
A program that writes its outputs into its own folder (`writes_here`) gets that folder from
its launcher; run through this command, it writes into the current folder.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import zerosum
from zerosum.assignments import ASSIGNMENTS, Assignment, Program
from zerosum.console import Parser
from zerosum.convert import int_arg, positive_float, seed_arg
from zerosum.game import InputError

LAUNCHER = '''#!/usr/bin/env python3
"""{about}"""
import os
import sys

# Ctrl-C from here on exits 130 quietly. _signal, the core of signal, comes loaded with the
# interpreter (as os does); importing signal would first import enum, which takes a while.
signals = sys.modules.get("_signal") or __import__("signal")
signals.signal(signals.SIGINT, lambda signum, frame: os._exit(130))

# The zerosum package: beside this file in an export, ../../src in the repository.
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, os.pardir, "src")]
from zerosum._launch import launch  # noqa: E402  (checks the Python version first)

sys.exit(launch("{target}"{extra}))
'''


def launcher_text(program: Program) -> str:
    """The launcher file of `program`; valid Python 3.6, so that an old Python reaches
    the version check."""
    extra = ', "--folder", HERE' if program.writes_here else ""
    return LAUNCHER.format(about=program.about, target=program.target, extra=extra)


def find(name: str) -> Assignment:
    """The assignment by short name or folder name."""
    for a in ASSIGNMENTS:
        if name in (a.name, a.folder):
            return a
    known = ", ".join(a.name for a in ASSIGNMENTS)
    raise InputError(f"unknown assignment {name!r}; known: {known} (see zerosum assignment list)")


def pick(a: Assignment, words: Sequence[str]) -> tuple[Program, list[str]]:
    """The program named by the first word (as 'a4q1' or 'a4q1.py'), and its arguments;
    an assignment with one program needs no name."""
    if words:
        for p in a.programs:
            if words[0] in (p.name, p.file):
                return p, list(words[1:])
    if len(a.programs) == 1:
        return a.programs[0], list(words)
    names = ", ".join(p.name for p in a.programs)
    said = f"{a.name} has no program {words[0]!r}" if words else f"{a.name} has several programs"
    raise InputError(f"{said}; name one of: {names}")


def entry(target: str) -> Callable[[list[str]], int]:
    module, _, function = target.partition(":")
    main: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
    return main


def listing() -> str:
    lines = []
    for a in ASSIGNMENTS:
        lines.append(f"{a.name:16} {a.course:9} {a.about}")
        lines.append(f"{'':26} {a.folder}/: {' '.join(p.file for p in a.programs)}")
    return "\n".join(lines) + "\n"


# -- export ---------------------------------------------------------------------------------


def package_root() -> Path:
    return Path(zerosum.__file__).resolve().parent


def assignment_folder(a: Assignment) -> Path:
    """The assignment's launchers, README and data: package data in an installed wheel
    (zerosum/_assignments/, put there by setup.py), assignments/ in a source checkout."""
    for folder in (package_root() / "_assignments" / a.folder,
                   package_root().parents[1] / "assignments" / a.folder):
        if folder.is_dir():
            return folder
    raise InputError(f"the files of {a.name} are not installed with this zerosum")


def _skipped(path: Path) -> bool:
    return path.name == "__pycache__" or path.suffix in (".pyc", ".egg-info")


def _files(root: Path, prefix: str, leave_out: Path | None = None) -> Iterator[tuple[str, Path]]:
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames
                             if not _skipped(here / d) and here / d != leave_out)
        for name in sorted(filenames):
            if not _skipped(here / name):
                yield prefix + (here / name).relative_to(root).as_posix(), here / name


def export_files(a: Assignment) -> list[tuple[str, Path]]:
    """(name in the export, source file): the assignment's folder, then the package."""
    package = package_root()
    return [*_files(assignment_folder(a), ""),
            *_files(package, "zerosum/", leave_out=package / "_assignments")]


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """SIGTERM and SIGHUP raise SystemExit for a while, so that cleanup code runs
    (Ctrl-C already raises KeyboardInterrupt)."""
    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    kinds = [s for s in ("SIGTERM", "SIGHUP") if hasattr(signal, s)]
    before = {k: signal.signal(getattr(signal, k), stop) for k in kinds}
    try:
        yield
    finally:
        for k, handler in before.items():
            signal.signal(getattr(signal, k), handler)


def _refuse_existing(target: Path, as_zip: bool) -> None:
    if as_zip and target.exists():
        raise InputError(f"{target} already exists; export writes a new zip file")
    if not as_zip and target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(f"{target} exists and is not an empty folder")


def zip_name(name: str) -> str:
    """The zip file's name: `.zip` added unless the name has it (in any case), since a
    course's hand-in system and an unzip tool go by it."""
    name = name.rstrip("/") or name  # `out/` names the zip out.zip, not out/.zip
    return name if name.lower().endswith(".zip") else name + ".zip"


def export(a: Assignment, target: Path, as_zip: bool = False) -> int:
    """Write the assignment's export to `target` (a folder, or a zip file) all at once:
    built beside it under a temporary name, then renamed; nothing is left on failure.
    (zerosum.fileio.write_atomic does this for one text file; this is a whole folder.)
    The number of files written."""
    _refuse_existing(target, as_zip)
    files = export_files(a)
    launchers = {p.file for p in a.programs}
    if not target.parent.is_dir():
        raise InputError(f"{target.parent}: no such folder")
    write = _write_zip if as_zip else _write_folder
    with _terminate_as_exit():
        _build(target, lambda tmp: write(tmp, files, launchers), as_zip)
    return len(files)


def _build(target: Path, write: Callable[[Path], None], as_zip: bool) -> None:
    tmp = None
    try:
        prefix = f".{target.name}."
        if as_zip:
            fd, name = tempfile.mkstemp(".tmp", prefix, target.parent)
            os.close(fd)
        else:
            name = tempfile.mkdtemp(".tmp", prefix, target.parent)
        tmp = Path(name)
        write(tmp)
        if target.is_dir():  # empty (checked): renaming onto it fails on some systems
            target.rmdir()
        os.replace(tmp, target)
    except BaseException:
        if tmp and tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise


# In an assignment's Markdown files, what is true only in the repository is marked so
# that an export leaves it out (`../../src`, the docs, bench/ and tests/ are not in an
# export), and may be followed by what replaces it there, inside an HTML comment (so
# that the repository's rendering hides it):
#
#     <!-- repository -->...<!-- /repository -->
#     <!-- repository -->...<!-- export ... -->
#
# Within a paragraph the markers go mid-line (a line that starts with `<!--` ends a
# Markdown paragraph); around whole sections, on lines of their own. Spaces and line
# ends inside a marker do not matter.
REPOSITORY_ONLY = re.compile(
    r"<!--\s*repository\s*-->(.*?)(?:<!--\s*/repository\s*-->|<!--\s*export\b(.*?)-->)",
    re.S)
MARKER = re.compile(r"<!--\s*(/?repository|export)\b")


def for_export(text: str) -> str:
    """An assignment's Markdown as it reads in an export: the repository's passages
    replaced by their export text, and the package's path `src/zerosum/` as it is
    there, `zerosum/`."""
    text = REPOSITORY_ONLY.sub(lambda m: (m.group(2) or "").strip(), text)
    if MARKER.search(text):
        raise ValueError("a repository passage without its end marker")
    return text.replace("src/zerosum/", "zerosum/")


def _content(name: str, source: Path) -> bytes:
    """A file's bytes in the export: the assignment's own documents (its Markdown, and
    any text file holding a marker, e.g. eval_explanation.txt) as `for_export` has them."""
    data = source.read_bytes()
    if "/" not in name:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data
        if name.endswith(".md") or MARKER.search(text):
            data = for_export(text).encode("utf-8")
    return data


def _mode(name: str, launchers: set[str]) -> int:
    return 0o755 if name in launchers else 0o644


def _write_folder(tmp: Path, files: list[tuple[str, Path]], launchers: set[str]) -> None:
    for name, source in files:
        dest = tmp / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if "/" in name:  # the package, as it is
            shutil.copyfile(source, dest)
        else:
            dest.write_bytes(_content(name, source))
        dest.chmod(_mode(name, launchers))
    tmp.chmod(0o755)  # mkdtemp made it private


def _write_zip(tmp: Path, files: list[tuple[str, Path]], launchers: set[str]) -> None:
    import zipfile  # here: every `zerosum` command imports this module

    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, source in files:
            info = zipfile.ZipInfo.from_file(source, name, strict_timestamps=False)
            info.external_attr = (0o100000 | _mode(name, launchers)) << 16  # regular file
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, _content(name, source))
    tmp.chmod(0o644)  # mkstemp made it private


# -- the command ----------------------------------------------------------------------------


def register(sub: Any) -> None:
    p = sub.add_parser(
        "assignment",
        help="run or export the classic assignment programs",
        usage="zerosum assignment list\n"
        "       zerosum assignment NAME [PROGRAM] ARGS...\n"
        "       zerosum assignment export NAME DIR [--zip]\n"
        "       zerosum assignment check NAME [--cases N] [--seed S] [--timeout T] "
        "[--json] [--junit FILE] -- COMMAND...",
        description="List the classic assignments; run one of their programs with the same "
        "arguments, output and exit status as its launcher; or export an assignment as a "
        "folder (or zip) that runs with a plain python3 and nothing installed. NAME is a "
        "short name (e.g. comp3608) or the folder name (comp3608-connect4); PROGRAM, "
        "needed where an assignment has several, is a launcher's name (a4q1 or a4q1.py).",
    )
    p.add_argument("words", nargs=argparse.REMAINDER, metavar="...", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def export_parser() -> Parser:
    p = Parser(prog="zerosum assignment export",
               description="Write an assignment's launchers, README, data and the zerosum "
               "package into DIR: it runs with a plain python3, nothing installed.")
    p.add_argument("name", metavar="NAME", help="the assignment (see zerosum assignment list)")
    p.add_argument("dir", metavar="DIR", help="a new (or empty) folder; with --zip, the zip "
                   "file's name (.zip is added if missing)")
    p.add_argument("--zip", action="store_true", help="write a zip file instead of a folder")
    return p


MAX_SUBMISSION = 50 << 20  # bytes: a submission's folder, copied for every case


def not_submitted(folder: Path) -> list[str]:
    """The entries of `folder` that are no part of a submission, and are not copied for
    its cases: hidden ones (.git, .venv), bytecode caches and virtual environments of
    any name (a folder holding pyvenv.cfg): a clone's `make setup` leaves 850 MB there."""
    return sorted(p.name for p in folder.iterdir()
                  if p.name.startswith(".") or p.name == "__pycache__"
                  or (p.is_dir() and not p.is_symlink() and (p / "pyvenv.cfg").is_file()))


def submission_size(folder: Path, leave_out: Sequence[str], limit: int) -> int:
    """The bytes of `folder`'s files less the entries left out, counted until `limit`."""
    from zerosum.sandbox import folder_size

    total = 0
    for path in folder.iterdir():
        if path.name in leave_out or path.is_symlink():
            continue
        total += folder_size(path, limit) if path.is_dir() else path.stat().st_size
        if total > limit:
            break
    return total


def reach_left_out(command: Sequence[str], folder: Path, leave_out: Sequence[str]) -> list[str]:
    """The command's words naming a file in an entry left out of the copy (e.g. the
    interpreter `.venv/bin/python`) made absolute, so that they still name it."""
    words = []
    for word in command:
        path = Path(word)
        if not path.is_absolute() and path.parts[:1] and path.parts[0] in leave_out \
                and (folder / path).exists():
            word = str((folder / path).absolute())
        words.append(word)
    return words


@contextlib.contextmanager
def submission(where: str | None, command: list[str]) -> Iterator[Path]:
    """The folder each case copies: `where` (default: the current folder) as it is, or,
    when it holds entries no submission has (not_submitted), a copy without them, made
    once; one line on stderr says what was left out. InputError for a folder that is
    missing or, without them, over MAX_SUBMISSION. Words of `command` naming what is
    left out are made absolute, in place (reach_left_out)."""
    folder = Path(where or ".")
    named = where or "the current folder"
    if not folder.is_dir():
        raise InputError(f"{where}: no such folder")
    leave_out = not_submitted(folder)
    if submission_size(folder, leave_out, MAX_SUBMISSION) > MAX_SUBMISSION:
        hint = "" if where else " (give it with --dir FOLDER)"
        raise InputError(f"{named}: more than {MAX_SUBMISSION >> 20} MB: is it the "
                         f"submission's folder?{hint}")
    if not leave_out:
        yield folder
        return
    print(f"zerosum: each case gets a copy of {named} without {', '.join(leave_out)} "
          "(hidden entries, caches and virtual environments are no part of a submission)",
          file=sys.stderr)
    command[:] = reach_left_out(command, folder, leave_out)
    # Removed however the check ends (SIGTERM included): no copy is left behind.
    with _terminate_as_exit(), tempfile.TemporaryDirectory(prefix="zerosum-submission-") as tmp:
        copy = Path(tmp) / "submission"
        try:
            shutil.copytree(folder, copy, symlinks=True,
                            ignore=lambda here, names: leave_out if Path(here) == folder
                            else [])
        except shutil.Error as e:  # the files it could not copy: (source, target, why)
            source, _, why = e.args[0][0]
            raise InputError(f"cannot copy {source}: {why}") from None
        except OSError as e:
            raise InputError(f"cannot copy {named}: {e.strerror or e}") from None
        yield copy


def check_parser() -> Parser:
    p = Parser(prog="zerosum assignment check",
               description="Run a person's program (any language: COMMAND is how it starts, "
               "e.g. java ConnectFour, ./ConnectFour, python3 ConnectFour.py) on cases made "
               "from the seed in the course's own format, compare each answer with "
               "zerosum's reference program, and mark it as the course would. Each "
               "failure shows its command line, what was expected and what came. Exit "
               "status 0 when every case passes, 1 otherwise.")
    p.add_argument("name", metavar="NAME", help="the assignment: cmpt317 (COMMAND holds "
                   "{q}, the question: python3 a4q{q}.py), comp3608, cs540, uta-logic or "
                   "uta-maxconnect4")
    p.add_argument("--cases", type=int_arg(1, 10_000), default=25,
                   help="how many cases (default: %(default)s)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the cases' seed (default: 1)")
    p.add_argument("--timeout", type=positive_float, default=10.0, metavar="SECONDS",
                   help="wall time per case (default: %(default)s)")
    p.add_argument("--move-time", type=positive_float, default=None, metavar="SECONDS",
                   help="the time rule of a tournament call (COMP3608: the course's 1 s)")
    p.add_argument("--dir", metavar="FOLDER", default=None,
                   help="the submission's folder: each case runs in a fresh copy of it, "
                   "without hidden entries, caches and virtual environments (default: the "
                   "current folder; at most 50 MB)")
    p.add_argument("--json", action="store_true", help="the report as JSON on stdout")
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    p.add_argument("--strict", action="store_true", help="refuse to run the program where "
                   "this system's sandbox cannot contain it fully")
    return p


def run_check(words: list[str]) -> int:
    from zerosum.fileio import check_writable
    from zerosum.marker.cases import MARKINGS
    from zerosum.sandbox import refuse_unless_contained

    # Everything after the first -- is the program's command, options and all.
    at = words.index("--") if "--" in words else len(words)
    opts = check_parser().parse_args(words[:at])
    command = words[at + 1:]
    if not command:
        raise InputError("give the program's command after --, e.g. "
                         "zerosum assignment check comp3608 -- python3 ConnectFour.py")
    marking = MARKINGS.get(find(opts.name).name)
    if marking is None:
        raise InputError(f"no auto-marker for {opts.name} yet; there is one for "
                         f"{', '.join(MARKINGS)}")
    if marking.placeholder and not any(marking.placeholder in w for w in command):
        raise InputError(f"{marking.name}'s command holds {marking.placeholder} where each "
                         f"case puts its question, e.g. zerosum assignment check "
                         f"{marking.name} -- {marking.example}")
    if opts.strict:
        refuse_unless_contained()
    if opts.junit:
        check_writable(opts.junit)  # now, not after every case has run
    with submission(opts.dir, command) as folder:
        return check_folder(marking, command, opts, folder)


def check_folder(marking: Any, command: list[str], opts: argparse.Namespace,
                 folder: Path) -> int:
    from zerosum.fileio import write_atomic
    from zerosum.marker.check import check, full_marks, report_json, report_junit, report_text
    from zerosum.sandbox import Limits

    progress = sys.stderr.isatty()

    def show(outcome: Any) -> None:
        if progress:
            sys.stderr.write(f"\rcase {outcome.number}/{opts.cases}: {outcome.verdict}\033[K")
            sys.stderr.flush()

    outcomes = check(marking, command, opts.cases, opts.seed, Limits(seconds=opts.timeout),
                     folder, opts.move_time, show)
    if progress:
        sys.stderr.write("\r\033[K")
    if opts.junit:
        write_atomic(Path(opts.junit), report_junit(marking, command, outcomes))
    report = report_json if opts.json else report_text
    sys.stdout.write(report(marking, command, outcomes, opts.seed))
    return 0 if full_marks(marking, outcomes) else 1


def run(args: argparse.Namespace) -> int:
    words: list[str] = args.words
    if not words or words == ["list"]:
        sys.stdout.write(listing())
        return 0
    if words[0] == "check":
        return run_check(words[1:])
    if words[0] == "export":
        opts = export_parser().parse_args(words[1:])
        a = find(opts.name)
        target = zip_name(opts.dir) if opts.zip else opts.dir
        count = export(a, Path(target), opts.zip)
        print(f"wrote {target} ({count} files); in it: python3 {a.programs[0].file} ...",
              file=sys.stderr)
        return 0
    program, argv = pick(find(words[0]), words[1:])
    return entry(program.target)(argv)
