"""The command lines of the documentation run as written, with the outputs shown.

Every fenced code block of README.md, docs/*.md and assignments/*/README.md is read:

- `$ COMMAND` starts a transcript: COMMAND runs and the lines after it, up to the next `$`
  line or the end of the block, are its expected output (stdout, then stderr). A line
  `...` stands for any number of lines; trailing blanks are ignored. The exit status must
  be 2 when the output is an error line (`PROGRAM: ...`), else 0.
- A line that starts with `zerosum `, `python3 ` or `./` is a command too, run with empty
  standard input: exit status 0, output not compared.
- A synopsis (placeholders in capitals, `[options]`, `a|b`) is not run, nor is a line
  whose trailing comment says `# long-running`.

Commands of an assignment's README run in a copy of its folder (they write files there);
the others run from the repository's root, where their examples say they run. Everything
runs in this process (the `zerosum` command through `zerosum.cli.main`, the launchers
through runpy), so the whole file takes a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from zerosum.cli import main as zerosum_main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "assignments").glob("*/README.md"))]
PROGRAMS = ("zerosum ", "python3 ", "./")
LONG = re.compile(r"#\s*long-running\b")
SECONDS = re.compile(r"\d+\.\d+(?= s\b)")


@dataclass
class Example:
    line: int
    command: str
    expected: list[str] | None  # None: a bare command line, output not compared


def fenced_blocks(text: str) -> list[list[tuple[int, str]]]:
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append((number, line))
    return blocks


def examples(doc: Path) -> list[Example]:
    found: list[Example] = []
    for block in fenced_blocks(doc.read_text()):
        transcript: Example | None = None
        for number, line in block:
            text = line.strip()
            if text.startswith("$ "):
                transcript = Example(number, text[2:], [])
                found.append(transcript)
            elif transcript is not None and transcript.expected is not None:
                transcript.expected.append(line)
            elif text.startswith(PROGRAMS):
                found.append(Example(number, text, None))
    return found


def is_synopsis(words: list[str]) -> bool:
    return any(re.fullmatch(r"[A-Z][A-Z_]{2,}", w) or "[" in w or (len(w) > 1 and "|" in w)
               for w in words)


def run_program(words: list[str], stdin: str) -> tuple[int, str]:
    """Run one program of a pipeline in this process; return (status, stdout + stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.argv, list(sys.path)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            if words[0] == "zerosum":
                status = zerosum_main(words[1:])
            elif words[0] == "cat":
                status = 0
                for name in words[1:]:
                    out.write(Path(name).read_text())
            else:
                assert words[0] == "python3" or words[0].startswith("./"), \
                    f"the docs' commands are zerosum, cat, python3 FILE or ./FILE: {words[0]}"
                script = words[1] if words[0] == "python3" else words[0]
                sys.argv = [script, *words[2 if words[0] == "python3" else 1:]]
                runpy.run_path(script, run_name="__main__")
                status = 0
    except SystemExit as e:  # the launchers' sys.exit, and argparse's --help and errors
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.stdin, sys.argv = saved[0], saved[1]
        sys.path[:] = saved[2]
    return status, out.getvalue() + err.getvalue()


def run_pipeline(command: str) -> tuple[str, int, str] | None:
    """Run `[printf TEXT |] PROGRAM ARGS [| head|tail -N]`: (the program's name, exit
    status, output); None for a synopsis."""
    words = shlex.split(command, comments=True)
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    stdin = ""
    if stages[0][0] in ("printf", "echo"):
        head = stages.pop(0)
        stdin = head[1].encode().decode("unicode_escape") if head[0] == "printf" \
            else " ".join(head[1:]) + "\n"
    program, *filters = stages
    if is_synopsis(program):
        return None
    status, output = run_program(program, stdin)
    for tool, count in filters:
        assert tool in ("head", "tail") and count.startswith("-"), f"unsupported: {tool}"
        lines = output.splitlines()
        n = int(count[1:])
        output = "\n".join(lines[:n] if tool == "head" else lines[-n:]) + "\n"
    name = Path(program[1] if program[0] == "python3" else program[0]).name
    return name, status, output


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, `...` standing for any number of lines (trailing blanks ignored)."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0].rstrip() == actual[0].rstrip() \
        and matches(expected[1:], actual[1:])


def comparable(lines: list[str]) -> list[str]:
    """Trailing blanks and blank lines dropped, times masked: `0.02 s`, and the last
    figure of each row under a heading that ends in `CPU s`."""
    out: list[str] = []
    in_table = False
    for line in lines:
        line = SECONDS.sub("<time>", line.rstrip())
        if in_table:
            line = re.sub(r"\d+\.\d+$", "<time>", line)
        in_table = line.endswith("CPU s") or (in_table and bool(line.strip()))
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


def problems_of(doc: Path, example: Example) -> str | None:
    if LONG.search(example.command):
        return None
    result = run_pipeline(example.command)
    if result is None:
        return None
    name, status, output = result
    where = f"{doc.relative_to(ROOT)}:{example.line}: {example.command}"
    if example.expected is None:
        return None if status == 0 else f"{where}\n  exit status {status}\n{output}"
    expected = comparable(example.expected)
    is_error = bool(expected) and expected[0].startswith((f"{name}: ", "zerosum: error"))
    want = 2 if is_error else 0
    if status != want or not matches(expected, comparable(output.splitlines())):
        return (f"{where}\n  exit status {status} (want {want})\n  got:\n{output}"
                f"  expected:\n" + "\n".join(expected))
    return None


def working_folder(doc: Path, tmp_path: Path) -> Path:
    if doc.parent.parent == ROOT / "assignments":
        copy = tmp_path / doc.parent.name
        shutil.copytree(doc.parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
        return copy
    # The project's examples write what they make under build/ (ignored by git), which a
    # fresh clone has only once something made it.
    (ROOT / "build").mkdir(exist_ok=True)
    return ROOT


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_doc_examples_run_as_written(doc: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(working_folder(doc, tmp_path))
    failures = [p for e in examples(doc) if (p := problems_of(doc, e)) is not None]
    assert not failures, "\n\n".join(failures)


def test_the_docs_have_examples_to_run() -> None:
    """The reader finds them all: a change of format cannot make this file test nothing."""
    found = {d.relative_to(ROOT).as_posix(): examples(d) for d in DOCS}
    transcripts = sum(e.expected is not None for ex in found.values() for e in ex)
    assert transcripts >= 30
    assert all(found[name] for name in (
        "README.md", "docs/localsearch.md", "assignments/uta-logic/README.md",
        "assignments/uta-maxconnect4/README.md", "assignments/cs540-takestones/README.md"))
