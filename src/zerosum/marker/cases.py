"""The cases an auto-marker runs, per assignment, made from a seed: each a command line in
the course's own format with what zerosum's reference program answers to it, and how an
answer is judged.

A `Case` belongs to a `part`, the unit a course gives marks for (COMP3608: minimax,
alpha-beta, the tournament call). `judge(case, stdout)` returns None for a right answer,
else what is wrong in one line; the checker adds the diff.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

COLUMNS, ROWS = 7, 6


@dataclass(frozen=True)
class Case:
    part: str
    args: tuple[str, ...]
    expected: str  # the reference's standard output (what a right answer prints)
    judge: Callable[[Case, str], str | None] = field(compare=False)
    what: str = ""  # what is checked, for the report
    seconds: float | None = None  # a part's own time limit (the tournament's 1 s)


@dataclass(frozen=True)
class Marking:
    """One assignment's marker: its parts (with their share of the marks) and its cases."""

    name: str
    program: str  # how the course names the program, for messages
    parts: dict[str, float]  # part -> weight
    make_cases: Callable[[random.Random, int], list[Case]]
    notes: str = ""


def reference(main: Callable[[Sequence[str]], int], args: Sequence[str]) -> str:
    """The reference program's standard output for `args` (run in this process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(args))
    if status != 0:
        raise ValueError(f"the reference refused {' '.join(args)}")
    return out.getvalue()


def exact(case: Case, stdout: str) -> str | None:
    """Every line as the reference prints it (trailing blanks and a missing final
    newline forgiven, as a course's diff would)."""
    want = [line.rstrip() for line in case.expected.rstrip("\n").split("\n")]
    got = [line.rstrip() for line in stdout.rstrip("\n").split("\n")] if stdout else []
    if got == want:
        return None
    for number, (w, g) in enumerate(zip(want, got, strict=False), 1):
        if w != g:
            return f"line {number}: expected {w!r}, got {g!r}"
    return f"expected {len(want)} lines, got {len(got)}"


# -- COMP3608: Connect Four ---------------------------------------------------------------


def connect4_state(rng: random.Random) -> str:
    """A state as the course allows: stones resting on stones, any number of each colour
    (a game need not be balanced), in the course's string (rows bottom first)."""
    heights = [0] * COLUMNS
    grid = [["."] * COLUMNS for _ in range(ROWS)]
    red_share = rng.choice((0.5, 0.5, 0.5, 0.8, 1.0, 0.2))
    for _ in range(rng.randint(0, 24)):
        column = rng.randrange(COLUMNS)
        if heights[column] < ROWS:
            grid[heights[column]][column] = "r" if rng.random() < red_share else "y"
            heights[column] += 1
    return ",".join("".join(row) for row in grid)


def comp3608_cases(rng: random.Random, count: int) -> list[Case]:
    from zerosum.frontends.connect4 import main

    cases: list[Case] = []
    while len(cases) < count:
        state, player = connect4_state(rng), rng.choice(("red", "yellow"))
        if len(cases) % 5 == 4:  # every fifth: the tournament call, state and player only
            try:
                reference(main, [state, player, "A", "1"])  # refused if already decided
            except ValueError:
                continue
            cases.append(Case("tournament call", (state, player), "", legal_column,
                              "one line, a column that is not full, within the time",
                              seconds=1.0))
            continue
        mode = rng.choice("MA")
        depth = rng.randint(1, 4 if mode == "M" else 5)
        args = (state, player, mode, str(depth))
        try:
            expected = reference(main, args)
        except ValueError:
            continue  # a state already decided: the course sends none
        part = "minimax (M)" if mode == "M" else "alpha-beta (A)"
        cases.append(Case(part, args, expected, exact, "the column and the node count"))
    return cases


def legal_column(case: Case, stdout: str) -> str | None:
    lines = stdout.rstrip("\n").split("\n") if stdout.strip() else []
    if len(lines) != 1:
        return f"expected one line (a column), got {len(lines)} lines"
    text = lines[0].strip()
    if not (text.isascii() and text.isdigit() and int(text) < COLUMNS):
        return f"not a column 0-6: {text[:40]!r}"
    top_row = case.args[0].split(",")[ROWS - 1]
    if top_row[int(text)] != ".":
        return f"column {text} is full"
    return None


COMP3608 = Marking(
    "comp3608", "ConnectFour", {"minimax (M)": 0.4, "alpha-beta (A)": 0.4,
                                "tournament call": 0.2},
    comp3608_cases,
    notes="M and A: the column and the node count must both be exact (the course's "
    "search order, ties and node count). The tournament call (state and player only) "
    "must print one line, a column that is not full, within 1 s.")


# -- CS540: Take-Stones ---------------------------------------------------------------------


def takestones_case_args(rng: random.Random) -> tuple[str, ...]:
    """A position reached by legal play, in the program's arguments."""
    from zerosum.games.takestones import TakeStones

    stones = rng.randint(3, 9)
    game = TakeStones(stones)
    state = game.initial_state()
    taken: list[str] = []
    for _ in range(rng.randint(0, 3)):
        moves = list(game.actions(state))
        if not moves:
            break
        move = rng.choice(moves)
        taken.append(game.format_move(move))
        state = game.result(state, move)
    depth = rng.choice((0, 0, 1, 2, 3))
    return (str(stones), str(len(taken)), *taken, str(depth))


def cs540_cases(rng: random.Random, count: int) -> list[Case]:
    from zerosum.frontends.cs540_takestones import main

    cases: list[Case] = []
    while len(cases) < count:
        args = takestones_case_args(rng)
        if len(cases) % 2:
            args = (*args, "--format", "summary")
        try:
            expected = reference(main, args)
        except ValueError:
            continue
        part = "summary" if "summary" in args else "trace"
        cases.append(Case(part, args, expected, exact, "every line exactly"))
    return cases


CS540 = Marking("cs540", "TakeStones", {"trace": 0.5, "summary": 0.5}, cs540_cases,
                notes="Every line of the trace and of the summary, exactly.")

MARKINGS = {m.name: m for m in (COMP3608, CS540)}
