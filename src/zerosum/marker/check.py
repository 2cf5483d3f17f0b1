"""The auto-marker: a person's program, in any language, run on generated cases and
compared with zerosum's reference program; a report as a course's marker gives it.

`check(marking, command, cases, seed, limits)` runs each case in the sandbox and returns
`Outcome`s; `report_text`, `report_json` and `report_junit` show them. A timeout, a crash
or garbage is a result of the case, never an error of the checker.
"""

from __future__ import annotations

import difflib
import json
import random
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from zerosum.marker.cases import Case, Marking
from zerosum.marker.sandbox import Limits, Run, failure, run_program

SHOWN_OUTPUT = 2000  # characters of a wrong answer shown in a report
SHOWN_IN_FULL = 10  # failures shown with their command line and diff; the rest a line each


@dataclass
class Outcome:
    number: int
    case: Case
    run: Run
    verdict: str  # "pass", "wrong", "timeout", "crash"
    why: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    def command_line(self, command: Sequence[str]) -> str:
        return shlex.join([*self.case.command(command), *self.case.args])

    @property
    def answer(self) -> str:
        """What came in place of `case.expected`: the first output file, or stdout."""
        if self.case.outputs:
            return self.run.outputs.get(self.case.outputs[0]) or ""
        return self.run.stdout

    def diff(self) -> str:
        if self.verdict != "wrong":
            return ""
        name = self.case.outputs[0] if self.case.outputs else "standard output"
        lines = difflib.unified_diff(self.case.expected.splitlines(),
                                     self.answer[:SHOWN_OUTPUT].splitlines(),
                                     f"expected {name}", f"got {name}", lineterm="")
        return "\n".join(lines)


# What a course's language writes by itself where a program runs: Python's bytecode
# caches (unless PYTHONDONTWRITEBYTECODE is set), Java's classes after a build. Not the
# program's doing, so not "files written in its folder".
LANGUAGE_DIRS = ("__pycache__",)
LANGUAGE_SUFFIXES = (".pyc", ".class")


def strays(files: Sequence[str]) -> list[str]:
    """The files a program left in its folder, less what its language writes by itself."""
    return [f for f in files
            if not any(part in LANGUAGE_DIRS for part in Path(f).parts)
            and not f.endswith(LANGUAGE_SUFFIXES)]


def judge(case: Case, run: Run, seconds: float) -> tuple[str, str]:
    failed = failure(run, seconds)
    if failed is not None:
        return failed
    wrong = case.judge(case, run.stdout, run.outputs)
    if wrong is not None:
        return "wrong", wrong
    left = strays(run.files)
    if left:
        return "wrong", f"wrote files in its folder: {', '.join(left[:5])}"
    return "pass", ""


def check(marking: Marking, command: Sequence[str], count: int, seed: int,
          limits: Limits, folder: Path | None = None, move_seconds: float | None = None,
          on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run the cases made from `seed`, each in a fresh copy of `folder`. A case with a
    time rule of its own (COMP3608's tournament call: 1 s) gets `move_seconds` instead
    when given."""
    cases = marking.make_cases(random.Random(seed), count)
    outcomes = []
    for number, case in enumerate(cases, 1):
        own = limits
        if case.seconds is not None:
            own = replace(limits, seconds=move_seconds or case.seconds)
        run = run_program(case.command(command), case.args, own, folder,
                          inputs=case.inputs, outputs=case.outputs)
        verdict, why = judge(case, run, own.seconds)
        outcome = Outcome(number, case, run, verdict, why)
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    return outcomes


def scores(marking: Marking, outcomes: list[Outcome]) -> dict[str, tuple[int, int, float]]:
    """part -> (passed, cases, marks out of the part's weight x 100)."""
    out = {}
    for part, weight in marking.parts.items():
        mine = [o for o in outcomes if o.case.part == part]
        passed = sum(o.passed for o in mine)
        out[part] = (passed, len(mine), 100 * weight * passed / len(mine) if mine else 0.0)
    return out


def report_text(marking: Marking, command: Sequence[str], outcomes: list[Outcome],
                seed: int) -> str:
    lines = []
    failed = [o for o in outcomes if not o.passed]
    for o in failed[:SHOWN_IN_FULL]:
        lines.append(f"case {o.number} ({o.case.part}): {o.verdict}: {o.why}")
        lines.append(f"  $ {o.command_line(command)}")
        diff = o.diff()
        if diff:
            lines.extend("  " + line for line in diff.splitlines())
        lines.append("")
    for o in failed[SHOWN_IN_FULL:]:
        lines.append(f"case {o.number} ({o.case.part}): {o.verdict}: {o.why}")
    if failed[SHOWN_IN_FULL:]:
        lines.append("")
    total = sum(marks for _, _, marks in scores(marking, outcomes).values())
    lines.append(f"{marking.program} checked against zerosum's reference, seed {seed}:")
    width = max(18, *map(len, marking.parts))
    for part, (passed, cases, marks) in scores(marking, outcomes).items():
        weight = 100 * marking.parts[part]
        lines.append(f"  {part:<{width}} {passed:3}/{cases:<3} passed  {marks:5.1f} of "
                     f"{weight:.4g}")
    lines.append(f"  {'total':<{width}} {'':11} {total:5.1f} of 100")
    times = [o.run.seconds for o in outcomes]
    if times:
        lines.append(f"  time per case: median {sorted(times)[len(times) // 2]:.2f} s, "
                     f"longest {max(times):.2f} s")
    if outcomes and not outcomes[0].run.network:
        lines.append("  note: this system cannot cut a program off the network; it was open")
    lines.append(f"  what is checked: {marking.notes}")
    return "\n".join(lines) + "\n"


def report_json(marking: Marking, command: Sequence[str], outcomes: list[Outcome],
                seed: int) -> str:
    return json.dumps({
        "assignment": marking.name, "seed": seed, "command": list(command),
        "parts": {part: {"passed": p, "cases": c, "marks": round(m, 2),
                         "out_of": round(100 * marking.parts[part], 2)}
                  for part, (p, c, m) in scores(marking, outcomes).items()},
        "cases": [{"number": o.number, "part": o.case.part, "args": list(o.case.args),
                   "verdict": o.verdict, "why": o.why, "seconds": round(o.run.seconds, 3),
                   "expected": o.case.expected, "got": o.answer[:SHOWN_OUTPUT]}
                  for o in outcomes],
    }, indent=1) + "\n"


def report_junit(marking: Marking, command: Sequence[str], outcomes: list[Outcome]) -> str:
    failures = sum(o.verdict == "wrong" for o in outcomes)
    errors = sum(o.verdict in ("timeout", "crash") for o in outcomes)
    seconds = sum(o.run.seconds for o in outcomes)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name={quoteattr(marking.name)} tests="{len(outcomes)}" '
             f'failures="{failures}" errors="{errors}" time="{seconds:.3f}">']
    for o in outcomes:
        name = quoteattr(f"case {o.number}: {o.command_line(command)}")
        lines.append(f'  <testcase classname={quoteattr(o.case.part)} name={name} '
                     f'time="{o.run.seconds:.3f}">')
        if o.verdict == "wrong":
            lines.append(f"    <failure message={quoteattr(o.why)}>{escape(o.diff())}</failure>")
        elif not o.passed:
            lines.append(f"    <error type={quoteattr(o.verdict)} message={quoteattr(o.why)}/>")
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"
