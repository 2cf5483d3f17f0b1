"""`zerosum class mark`: every submission of a folder built and marked on the same cases
(zerosum.marker.check, as `zerosum assignment check` marks one), into a folder of outputs:

    OUT/class.json           what was marked: the assignment, cases, seed, timeout
    OUT/records/KEY.json     one student's marks, written when the student is done
    OUT/reports/KEY.txt      the report `zerosum assignment check` prints, with the build
    OUT/gradebook.csv        one row a student: the marks of each part and the total
    OUT/summary.html         the distribution of totals, the commonest failures, every mark

KEY is the student's folder name made safe (zerosum.classes.build.safe_name). Every file
is written whole or not at all (zerosum.fileio.write_atomic); a student whose record is
there is not marked again, so a run killed at any moment (kill -9 too) goes on where it
stopped when run again. OUT/.work holds the builds being marked, removed as each ends
(and at the start of a run, after a kill).
"""

from __future__ import annotations

import csv
import html
import io
import json
import multiprocessing
import re
import shlex
import statistics
import urllib.parse
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from zerosum.classes.build import (
    BUILD_LIMITS,
    Submission,
    build,
    program_stem,
    remove_tree,
    submissions,
)
from zerosum.fileio import write_atomic
from zerosum.game import InputError
from zerosum.marker.cases import MARKINGS, Marking
from zerosum.marker.check import check, report_text, scores, total
from zerosum.sandbox import Limits

FAILURES_SHOWN = 12  # the commonest failures on the summary page


@dataclass(frozen=True)
class Plan:
    """What a class is marked on: the same for every student."""

    assignment: str
    cases: int
    seed: int
    timeout: float = 10.0
    build_timeout: float = BUILD_LIMITS.seconds
    move_time: float | None = None  # the tournament call's time rule (None: the course's)

    @property
    def marking(self) -> Marking:
        return MARKINGS[self.assignment]


@dataclass
class Record:
    """One student's marks, as stored in records/KEY.json."""

    name: str  # as shown (undecodable bytes replaced)
    key: str
    status: str  # "marked", or why not: "build failed", "no program", ...
    reason: str = ""
    build: str = ""
    command: list[str] = field(default_factory=list)
    # part -> marks; None for a part no case checked (fewer cases than parts), not a zero
    parts: dict[str, float | None] = field(default_factory=dict)
    total: float = 0.0
    failures: list[str] = field(default_factory=list)  # kinds of failure, once each

    @classmethod
    def from_json(cls, text: str) -> Record:
        data = json.loads(text)
        record = cls(**data)
        if not isinstance(record.total, int | float) or not isinstance(record.parts, dict):
            raise ValueError("not a record")
        return record


def marking_of(name: str) -> Marking:
    marking = MARKINGS.get(name)
    if marking is None:
        raise InputError(f"no auto-marker for {name!r}; there is one for "
                         f"{', '.join(MARKINGS)}")
    return marking


def kind_of_failure(part: str, verdict: str, why: str) -> str:
    """A failure in words that many students share: what is quoted and the numbers left
    out (`line 1: expected …, got …`)."""
    general = re.sub(r"'[^']*'|\"[^\"]*\"", "…", why)
    general = re.sub(r"\d+(\.\d+)?", "N", general)[:120]
    return f"{part}: {verdict}" + (f" ({general})" if verdict == "wrong" else "")


def mark_one(plan: Plan, submission: Submission, work: Path) -> tuple[Record, str]:
    """Build and mark one submission in the new folder `work`: its record and report."""
    marking = plan.marking
    stem = program_stem(marking.program, marking.placeholder)
    work.mkdir()
    limits = replace(BUILD_LIMITS, seconds=plan.build_timeout)
    built = build(submission, stem, marking.placeholder, work / "built", limits)
    head = [f"student: {submission.shown}", f"build: {built.how}"]
    record = Record(submission.shown, submission.key, "marked", build=built.how,
                    command=built.command,
                    parts=dict.fromkeys(marking.parts, 0.0))
    try:
        if built.failure:
            record.status = built.failure.split(":")[0]
            record.reason = built.failure
            record.failures = [record.status]
            log = "\n".join("  | " + line for line in built.log.splitlines())
            text = "\n".join([*head, f"not marked: {built.failure}", *([log] if log else []),
                              "", report_text(marking, ["(none)"], [], plan.seed)])
            return record, text
        outcomes = check(marking, built.command, plan.cases, plan.seed,
                         Limits(seconds=plan.timeout), built.folder, plan.move_time)
    finally:
        remove_tree(work)
    parts = scores(marking, outcomes)
    record.parts = {part: None if marks is None else round(marks, 2)
                    for part, (_, _, marks) in parts.items()}
    record.total = round(total(marking, outcomes), 2)  # scaled where a part had no case
    record.failures = sorted({kind_of_failure(o.case.part, o.verdict, o.why)
                              for o in outcomes if not o.passed})
    text = "\n".join([*head, f"command: {shlex.join(built.command)}", "",
                      report_text(marking, built.command, outcomes, plan.seed)])
    return record, text


def _mark_in_worker(plan: Plan, submission: Submission, work: Path
                    ) -> tuple[dict[str, Any], str]:
    record, text = mark_one(plan, submission, work)
    return asdict(record), text


def check_plan(out: Path, plan: Plan) -> None:
    """OUT holds this class's marks, or nothing yet: never another's mixed in."""
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is not a folder")
    stored = out / "class.json"
    mine = json.dumps(asdict(plan), sort_keys=True) + "\n"
    if stored.exists():
        if stored.read_text(encoding="utf-8", errors="replace") != mine:
            raise InputError(f"{out} holds the marks of another class or other settings "
                             f"({stored.name}): give another --out, or delete it to start "
                             "afresh")
        return
    if out.exists() and any(out.iterdir()):
        raise InputError(f"{out} exists and is not a class's marks: give a new or empty "
                         "--out")
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(stored, mine)


def done_records(out: Path, wanted: list[Submission]) -> dict[str, Record]:
    """The records of students already marked (a damaged one: marked again)."""
    found = {}
    for s in wanted:
        path = out / "records" / f"{s.key}.json"
        try:
            found[s.key] = Record.from_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            continue
    return found


Progress = Callable[[int, int, Record], None]


def mark_class(plan: Plan, root: Path, out: Path, workers: int = 1,
               progress: Progress | None = None) -> list[Record]:
    """Mark every submission of `root` not yet marked into `out`; every record."""
    wanted = submissions(root, [out])
    inside = [s for s in wanted if out.resolve().is_relative_to(s.folder.resolve())]
    if inside:
        raise InputError(f"{out} is inside the submission {inside[0].key}: give an --out "
                         "outside every student's folder")
    check_plan(out, plan)
    for sub in ("records", "reports"):
        (out / sub).mkdir(exist_ok=True)
    work = out / ".work"
    remove_tree(work)  # a killed run's builds
    work.mkdir()
    records = done_records(out, wanted)
    todo = [s for s in wanted if s.key not in records]
    count = len(records)

    def keep(record: Record, text: str) -> None:
        nonlocal count
        write_atomic(out / "reports" / f"{record.key}.txt", text)
        write_atomic(out / "records" / f"{record.key}.json",
                     json.dumps(asdict(record), indent=1) + "\n")
        records[record.key] = record
        count += 1
        if progress is not None:
            progress(count, len(wanted), record)

    try:
        if workers <= 1 or len(todo) <= 1:
            for s in todo:
                keep(*mark_one(plan, s, work / s.key))
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(min(workers, len(todo)), mp_context=context) as pool:
                futures: list[Future[tuple[dict[str, Any], str]]] = [
                    pool.submit(_mark_in_worker, plan, s, work / s.key) for s in todo]
                try:
                    for future in futures:
                        data, text = future.result()
                        keep(Record(**data), text)
                except BaseException:  # Ctrl-C: the students done are kept, the rest not
                    pool.shutdown(wait=False, cancel_futures=True)  # started
                    raise
    finally:
        remove_tree(work)
    every = [records[s.key] for s in wanted]
    write_atomic(out / "gradebook.csv", gradebook(plan.marking, every))
    write_atomic(out / "summary.html", summary_html(plan, every))
    return every


# -- the outputs ----------------------------------------------------------------------------


def cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text (never runs it as a formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def shown_marks(marks: float | None, places: int) -> str:
    """A part's marks as the gradebook and the page show them: "-" for a part no case
    checked."""
    return "-" if marks is None else f"{marks:.{places}f}"


def gradebook(marking: Marking, records: list[Record]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "key", *marking.parts, "total", "status", "reason"])
    for r in records:
        writer.writerow([cell(r.name), r.key, *(shown_marks(r.parts.get(p, 0.0), 2)
                                                for p in marking.parts),
                         f"{r.total:.2f}", r.status, cell(r.reason)])
    return buffer.getvalue()


def distribution(totals: list[float]) -> list[int]:
    """How many totals fall in 0-9, 10-19, ..., 90-100."""
    counts = [0] * 10
    for t in totals:
        counts[min(int(t // 10), 9)] += 1
    return counts


def commonest(records: list[Record]) -> list[tuple[str, int, list[str]]]:
    """(failure, students, some of their names), commonest first."""
    counter = Counter(f for r in records for f in r.failures)
    return [(kind, n, [r.name for r in records if kind in r.failures][:4])
            for kind, n in counter.most_common(FAILURES_SHOWN)]


STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border-bottom: 1px solid #ddd; padding: 3px 10px; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { background: #4a7bd0; height: 14px; }
.fail { color: #a33; }
"""


def summary_html(plan: Plan, records: list[Record]) -> str:
    """The class on one page; every text from a submission escaped, no script at all."""
    e = html.escape
    marking = plan.marking
    totals = [r.total for r in records]
    counts = distribution(totals)
    biggest = max(counts) or 1
    rule = f" ({plan.move_time:g} s a tournament call)" if plan.move_time else ""
    about = (f"<p>{plan.cases} cases each, seed {plan.seed}, {plan.timeout:g} s a case{rule}. "
             f"Mean {statistics.mean(totals):.1f}, median {statistics.median(totals):.1f} "
             f"of 100; {sum(r.status != 'marked' for r in records)} not marked "
             "(their reason below).</p>") if records else "<p>No submissions.</p>"
    lines = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
             "style-src 'unsafe-inline'\">",
             f"<title>{e(marking.name)}: the class's marks</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{e(marking.name)} ({e(marking.program)}): {len(records)} submissions</h1>",
             about,
             "<h2>Distribution of totals</h2>", '<table id="distribution">',
             '<tr><th>total</th><th class="n">students</th><th></th></tr>']
    for i, n in enumerate(counts):
        span = f"{10 * i}-{10 * i + 9}" if i < 9 else "90-100"
        lines.append(f'<tr><td>{span}</td><td class="n">{n}</td><td style="width:300px">'
                     f'<div class="bar" style="width:{100 * n / biggest:.0f}%"></div>'
                     "</td></tr>")
    lines += ["</table>", "<h2>Commonest failures</h2>", '<table id="failures">',
              '<tr><th>failure</th><th class="n">students</th><th>among them</th></tr>']
    for kind, n, names in commonest(records):
        lines.append(f'<tr><td class="fail">{e(kind)}</td><td class="n">{n}</td>'
                     f"<td>{e(', '.join(names))}</td></tr>")
    lines += ["</table>", "<h2>Every student</h2>", '<table id="students">',
              "<tr><th>student</th>" + "".join(f'<th class="n">{e(p)}</th>'
                                                for p in marking.parts)
              + '<th class="n">total</th><th>status</th></tr>']
    for r in records:
        link = "reports/" + urllib.parse.quote(r.key + ".txt")
        status = e(r.status if r.status == "marked" else r.reason[:160])
        lines.append(f'<tr><td><a href="{e(link)}">{e(r.name)}</a></td>'
                     + "".join(f'<td class="n">{shown_marks(r.parts.get(p, 0.0), 1)}</td>'
                               for p in marking.parts)
                     + f'<td class="n">{r.total:.1f}</td><td>{status}</td></tr>')
    lines += ["</table>", "</body></html>"]
    return "\n".join(lines) + "\n"
