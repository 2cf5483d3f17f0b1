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
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from zerosum.marker.cases import Case, Marking, clip
from zerosum.sandbox import Limits, Run, cost, failure, run_program, strays

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
        # Each line clipped (a 1 MB line of garbage is quoted in part, its size said),
        # and control characters (a program's colours) shown as escapes, not obeyed.
        lines = difflib.unified_diff([clip(line) for line in self.case.expected.splitlines()],
                                     [clip(xml_text(line)) for line in
                                      self.answer[:SHOWN_OUTPUT].splitlines()],
                                     f"expected {name}", f"got {name}", lineterm="")
        return "\n".join(lines)


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
    forbidden = cost("marker", run.attempts)  # the marker's rule: it costs the case
    if forbidden is not None:
        return "wrong", forbidden
    return "pass", ""


def check(marking: Marking, command: Sequence[str], count: int, seed: int,
          limits: Limits, folder: Path | None = None, move_seconds: float | None = None,
          on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run the cases made from `seed`, each in a fresh copy of `folder`. A case with a
    time rule of its own (COMP3608's tournament call: 1 s) gets `move_seconds` instead
    when given."""
    cases = spread(marking, seed, count)
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


SPREAD_TRIES = 6  # doublings of the cases made in search of a part's first case


def spread(marking: Marking, seed: int, count: int) -> list[Case]:
    """`count` cases made from `seed`, every part with at least one when there are as
    many cases as parts: a part the first `count` cases miss gets its first case from a
    longer run of the same seed, in place of the last case of the part with the most.
    (Fewer cases than parts: the marks are scaled to the parts checked, see `total`.)"""
    cases = marking.make_cases(random.Random(seed), count)
    missing = [p for p in marking.parts if all(c.part != p for c in cases)]
    if not missing or count < len(marking.parts):
        return cases
    longer = count
    for _ in range(SPREAD_TRIES):
        longer *= 2
        more = marking.make_cases(random.Random(seed), longer)
        firsts = [next((c for c in more if c.part == p), None) for p in missing]
        found = [c for c in firsts if c is not None]
        if len(found) == len(missing):
            break
    else:
        return cases  # a part that never comes up: the marks are scaled instead
    for case in found:
        counts = {p: sum(c.part == p for c in cases) for p in marking.parts}
        most = max(counts, key=lambda p: counts[p])
        at = max(i for i, c in enumerate(cases) if c.part == most)
        cases = [*cases[:at], *cases[at + 1:], case]
    return cases


def scores(marking: Marking,
           outcomes: list[Outcome]) -> dict[str, tuple[int, int, float | None]]:
    """part -> (passed, cases, marks out of the part's weight x 100; None for a part
    with no case: not checked, which is not a zero)."""
    out: dict[str, tuple[int, int, float | None]] = {}
    for part, weight in marking.parts.items():
        mine = [o for o in outcomes if o.case.part == part]
        passed = sum(o.passed for o in mine)
        out[part] = (passed, len(mine), 100 * weight * passed / len(mine) if mine else None)
    return out


def total(marking: Marking, outcomes: list[Outcome]) -> float:
    """The marks out of 100: of the parts checked, scaled up when some had no case."""
    parts = scores(marking, outcomes)
    checked = sum(marking.parts[p] for p, (_, _, marks) in parts.items() if marks is not None)
    got = sum(marks for _, _, marks in parts.values() if marks is not None)
    return got / checked if checked else 0.0


def full_marks(marking: Marking, outcomes: list[Outcome]) -> bool:
    """Every case passed, so the total is 100 (the exit status is 0 only then)."""
    return bool(outcomes) and all(o.passed for o in outcomes) \
        and round(total(marking, outcomes), 6) == 100


# Characters XML 1.0 forbids (a program's ANSI colours start with ESC, 0x1b): shown as
# Python escapes, so that the report stays well-formed and says what came.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    return NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)


def report_text(marking: Marking, command: Sequence[str], outcomes: list[Outcome],
                seed: int) -> str:
    lines = []
    failed = [o for o in outcomes if not o.passed]
    for o in failed[:SHOWN_IN_FULL]:
        lines.append(f"case {o.number} ({o.case.part}): {o.verdict}: {o.why}")
        lines.append(f"  $ {o.command_line(command)}")
        if len(o.run.attempts) > 3:  # the reason names three: here is the whole of it
            lines.append("  what it tried:")
            lines.extend(f"    {attempt}" for attempt in o.run.attempts)
        diff = o.diff()
        if diff:
            lines.extend("  " + line for line in diff.splitlines())
        lines.append("")
    for o in failed[SHOWN_IN_FULL:]:
        lines.append(f"case {o.number} ({o.case.part}): {o.verdict}: {o.why}")
    if failed[SHOWN_IN_FULL:]:
        lines.append("")
    lines.append(f"{marking.program} checked against zerosum's reference, seed {seed}:")
    width = max(18, *map(len, marking.parts))
    unchecked = []
    for part, (passed, cases, marks) in scores(marking, outcomes).items():
        weight = 100 * marking.parts[part]
        if marks is None:
            unchecked.append(part)
            lines.append(f"  {part:<{width}}   no case     not checked (of {weight:.4g})")
            continue
        lines.append(f"  {part:<{width}} {passed:3}/{cases:<3} passed  {marks:5.1f} of "
                     f"{weight:.4g}")
    lines.append(f"  {'total':<{width}} {'':11} {total(marking, outcomes):5.1f} of 100")
    if unchecked:
        lines.append(f"  note: {len(unchecked)} of {len(marking.parts)} parts had no case "
                     f"(--cases {len(outcomes)}); the total is of the parts checked, scaled "
                     f"to 100: give --cases {len(marking.parts)} or more for every part")
    times = [o.run.seconds for o in outcomes]
    if times:
        lines.append(f"  time per case: median {sorted(times)[len(times) // 2]:.2f} s, "
                     f"longest {max(times):.2f} s")
    if outcomes and outcomes[0].run.unenforced:
        lines.append(f"  note: this system's sandbox does not enforce "
                     f"{'; '.join(outcomes[0].run.unenforced)}")
    lines.append(f"  what is checked: {marking.notes}")
    return "\n".join(lines) + "\n"


def report_json(marking: Marking, command: Sequence[str], outcomes: list[Outcome],
                seed: int) -> str:
    return json.dumps({
        "assignment": marking.name, "seed": seed, "command": list(command),
        "parts": {part: {"passed": p, "cases": c,
                         "marks": None if m is None else round(m, 2),
                         "out_of": round(100 * marking.parts[part], 2)}
                  for part, (p, c, m) in scores(marking, outcomes).items()},
        "total": round(total(marking, outcomes), 2),
        "cases": [{"number": o.number, "part": o.case.part, "args": list(o.case.args),
                   "verdict": o.verdict, "why": o.why, "seconds": round(o.run.seconds, 3),
                   "attempts": o.run.attempts, "unenforced": list(o.run.unenforced),
                   "expected": o.case.expected, "got": o.answer[:SHOWN_OUTPUT]}
                  for o in outcomes],
    }, indent=1) + "\n"


def report_junit(marking: Marking, command: Sequence[str], outcomes: list[Outcome]) -> str:
    failures = sum(o.verdict == "wrong" for o in outcomes)
    errors = sum(o.verdict in ("timeout", "crash") for o in outcomes)
    seconds = sum(o.run.seconds for o in outcomes)
    def attr(text: str) -> str:
        return quoteattr(xml_text(text))

    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name={attr(marking.name)} tests="{len(outcomes)}" '
             f'failures="{failures}" errors="{errors}" time="{seconds:.3f}">']
    for o in outcomes:
        name = attr(f"case {o.number}: {o.command_line(command)}")
        lines.append(f'  <testcase classname={attr(o.case.part)} name={name} '
                     f'time="{o.run.seconds:.3f}">')
        if o.verdict == "wrong":
            lines.append(f"    <failure message={attr(o.why)}>{escape(xml_text(o.diff()))}"
                         "</failure>")
        elif not o.passed:
            lines.append(f"    <error type={attr(o.verdict)} message={attr(o.why)}/>")
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"
