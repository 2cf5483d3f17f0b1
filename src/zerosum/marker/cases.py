"""The cases an auto-marker runs, per assignment, made from a seed: each a command line in
the course's own format with what zerosum's reference program answers to it, and how an
answer is judged.

A `Case` belongs to a `part`, the unit a course gives marks for (COMP3608: minimax,
alpha-beta, the tournament call). It may bring input files (`inputs`: written into the
program's folder first) and name the files the program must write (`outputs`).
`judge(case, stdout, outputs)` returns None for a right answer, else what is wrong in one
line; the checker adds the diff of `expected` (standard output, or with `outputs` the
first output file) against what came.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

COLUMNS, ROWS = 7, 6


Outputs = dict[str, "str | None"]  # output file -> its text (None: not written)


@dataclass(frozen=True)
class Case:
    part: str
    args: tuple[str, ...]
    expected: str  # what a right answer gives: standard output, or the first output file
    judge: Callable[[Case, str, Outputs], str | None] = field(compare=False)
    what: str = ""  # what is checked, for the report
    seconds: float | None = None  # a part's own time limit (the tournament's 1 s)
    inputs: tuple[tuple[str, str], ...] = ()  # files written before the run: (name, text)
    outputs: tuple[str, ...] = ()  # files the program is to write
    fill: tuple[tuple[str, str], ...] = ()  # placeholders of the command, filled in

    def command(self, command: Sequence[str]) -> list[str]:
        """The program's command for this case, its placeholders (`{q}`) filled in."""
        words = list(command)
        for key, value in self.fill:
            words = [w.replace(key, value) for w in words]
        return words


@dataclass(frozen=True)
class Marking:
    """One assignment's marker: its parts (with their share of the marks) and its cases."""

    name: str
    program: str  # how the course names the program, for messages
    parts: dict[str, float]  # part -> weight
    make_cases: Callable[[random.Random, int], list[Case]]
    notes: str = ""
    placeholder: str = ""  # what every command must hold (CMPT 317: {q}, the question)
    example: str = ""  # a command with it, for the message when it is missing


def reference(main: Callable[[Sequence[str]], int], args: Sequence[str]) -> str:
    """The reference program's standard output for `args` (run in this process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(args))
    if status != 0:
        raise ValueError(f"the reference refused {' '.join(args)}")
    return out.getvalue()


@contextlib.contextmanager
def inside(inputs: Sequence[tuple[str, str]]) -> Iterator[Path]:
    """A temporary working folder holding `inputs`, for a reference program that reads
    and writes files where it runs."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="zerosum-reference-") as tmp:
        for name, text in inputs:
            (Path(tmp) / name).write_text(text, encoding="utf-8", newline="")
        os.chdir(tmp)
        try:
            yield Path(tmp)
        finally:
            os.chdir(before)


def exact(case: Case, stdout: str, outputs: Outputs) -> str | None:
    """Every line as the reference prints it (trailing blanks and a missing final
    newline forgiven, as a course's diff would)."""
    return same_lines(case.expected, stdout)


QUOTED = 200  # characters of a line quoted in a verdict: a 1 MB line is not shown whole


def clip(text: str, limit: int = QUOTED) -> str:
    """`text`, or its first `limit` characters and how many more there are."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more)"


def quoted(line: str) -> str:
    """A line as a verdict quotes it: repr'd, at most QUOTED characters of it."""
    return repr(line) if len(line) <= QUOTED else \
        f"{line[:QUOTED]!r}… ({len(line) - QUOTED} more)"


def same_lines(expected: str, text: str) -> str | None:
    want = [line.rstrip() for line in expected.rstrip("\n").split("\n")]
    got = [line.rstrip() for line in text.rstrip("\n").split("\n")] if text else []
    if got == want:
        return None
    for number, (w, g) in enumerate(zip(want, got, strict=False), 1):
        if w != g:
            return f"line {number}: expected {quoted(w)}, got {quoted(g)}"
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


def legal_column(case: Case, stdout: str, outputs: Outputs) -> str | None:
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

# -- UTA CSE 4308: the wumpus-world checker ------------------------------------------------

WUMPUS_SQUARES = [(i, j) for i in range(1, 5) for j in range(1, 5)]
SAFE = {(1, 1), (1, 2), (2, 1), (2, 2)}  # no monster and no pit, by the rules


def wumpus_world(rng: random.Random) -> dict[str, bool]:
    """Every symbol's truth in a random world the rules allow."""
    free = [sq for sq in WUMPUS_SQUARES if sq not in SAFE]
    monster = rng.choice(free)
    pits = set(rng.sample(free, rng.randint(1, 11)))

    def near(i: int, j: int, cells: set[tuple[int, int]]) -> bool:
        return any((i + di, j + dj) in cells for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    world = {}
    for i, j in WUMPUS_SQUARES:
        world[f"M_{i}_{j}"] = (i, j) == monster
        world[f"P_{i}_{j}"] = (i, j) in pits
        world[f"S_{i}_{j}"] = near(i, j, {monster})
        world[f"B_{i}_{j}"] = near(i, j, pits)
    return world


def literal(symbol: str, value: bool) -> str:
    return symbol if value else f"(not {symbol})"


def logic_case_files(rng: random.Random) -> tuple[str, str]:
    """An additional knowledge file fixing 48 to 56 symbols (as the course promises),
    sometimes contradicting the rules, and a statement about the world."""
    world = wumpus_world(rng)
    symbols = sorted(world)
    known = rng.sample(symbols, rng.randint(48, 56))
    lines = ["# what the agent knows"] + [literal(s, world[s]) for s in known]
    if rng.random() < 0.15:  # a knowledge base with no model: "both true and false"
        lines.append(literal(rng.choice(["M_1_1", "P_2_2"]), True))
    unknown = [s for s in symbols if s not in known]
    pick = rng.choice(unknown or symbols)
    kind = rng.randrange(4)
    if kind == 0:
        statement = pick
    elif kind == 1:
        statement = f"(not {pick})"
    else:
        other = rng.choice(symbols)
        statement = f"({rng.choice(['or', 'and', 'if', 'iff', 'xor'])} {pick} {other})"
    return "\n".join(lines) + "\n", statement + "\n"


UTA_LOGIC_PARTS = ("definitely true", "definitely false", "possibly true, possibly false",
                   "both true and false")


def uta_logic_cases(rng: random.Random, count: int) -> list[Case]:
    from zerosum.frontends.uta_logic import main
    from zerosum.logic import wumpus_rules_text

    rules = wumpus_rules_text()
    cases: list[Case] = []
    share = -(-count // len(UTA_LOGIC_PARTS))  # each answer as often as the others
    while len(cases) < count:
        kb, statement = logic_case_files(rng)
        inputs = (("wumpus_rules.txt", rules), ("kb.txt", kb), ("statement.txt", statement))
        args = ("wumpus_rules.txt", "kb.txt", "statement.txt")
        with inside(inputs) as folder:
            reference(main, args)
            expected = (folder / "result.txt").read_text(encoding="utf-8")
        part = expected.strip()
        if sum(c.part == part for c in cases) >= share:
            continue
        cases.append(Case(part, args, expected, result_file, "result.txt, exactly",
                          inputs=inputs, outputs=("result.txt",)))
    return cases


def result_file(case: Case, stdout: str, outputs: Outputs) -> str | None:
    text = outputs.get("result.txt")
    if text is None:
        return "wrote no result.txt"
    return same_lines(case.expected, text)


UTA_LOGIC = Marking(
    "uta-logic", "check_true_false", dict.fromkeys(UTA_LOGIC_PARTS, 0.25),
    uta_logic_cases,
    notes="result.txt exactly, for knowledge bases fixing 48-56 of the 64 symbols (as the "
    "course promises) and statements of every kind; the parts are the four answers, 5 "
    "marks each in the course. The rules file given is zerosum's wumpus_rules.txt.")


# -- UTA CSE 4308: Max-Connect4, one-move mode -----------------------------------------------


def maxconnect4_board(rng: random.Random) -> tuple[list[list[int]], int]:
    """A board reached by random alternating play, not full, and the player to move."""
    grid = [[0] * COLUMNS for _ in range(ROWS)]  # grid[row][col], row 0 at the bottom
    player = rng.choice((1, 2))
    for _ in range(rng.randint(0, 38)):
        open_columns = [c for c in range(COLUMNS) if grid[ROWS - 1][c] == 0]
        col = rng.choice(open_columns)
        row = next(r for r in range(ROWS) if grid[r][col] == 0)
        grid[row][col] = player
        player = 3 - player
    return grid, player


def board_text(grid: list[list[int]], player: int) -> str:
    rows = ["".join(map(str, grid[r])) for r in reversed(range(ROWS))]
    return "\r\n".join([*rows, str(player)]) + "\r\n"


def maxconnect4_cases(rng: random.Random, count: int) -> list[Case]:
    from zerosum.frontends.uta_maxconnect4 import main

    cases: list[Case] = []
    while len(cases) < count:
        grid, player = maxconnect4_board(rng)
        depth = rng.randint(1, 4)
        inputs = (("input.txt", board_text(grid, player)),)
        args = ("one-move", "input.txt", "output.txt", str(depth))
        with inside(inputs) as folder:
            reference(main, args)
            expected = (folder / "output.txt").read_text(encoding="utf-8")
        cases.append(Case("one-move", args, expected, one_move,
                          "the output file's format, a legal move of the player to move, "
                          "the scores printed before and after",
                          inputs=inputs, outputs=("output.txt",)))
    return cases


def one_move(case: Case, stdout: str, outputs: Outputs) -> str | None:
    """The output file is read by the game's own board reader (the format the input
    file had) and must hold one legal move of the player to move."""
    from zerosum.games.maxconnect4 import parse_board

    text = outputs.get("output.txt")
    if text is None:
        return "wrote no output.txt"
    from zerosum.games.maxconnect4.onemove import one_move_made

    column = one_move_made(case.inputs[0][1], text)
    if isinstance(column, str):
        return column
    before = parse_board(case.inputs[0][1], "input.txt", counts=False)
    after = parse_board(text, "output.txt", counts=False)
    scores = [before.score1, before.score2, after.score1, after.score2]
    if not in_order(scores, [int(n) for line in score_lines(stdout)
                             for n in re.findall(r"-?\d+", line)]):
        return (f"the scores before ({scores[0]}-{scores[1]}) and after ({scores[2]}-"
                f"{scores[3]}) are not printed, in that order, on lines saying score")
    return None


SCORE_LINE = re.compile(r"score|point", re.I)


def score_lines(stdout: str) -> list[str]:
    """The lines that tell the scores (`Score: Player 1 = 3, Player 2 = 1`, as the
    course's sample code prints them): those saying score or points. The boards' own
    digits are no scores."""
    return [line for line in stdout.splitlines() if SCORE_LINE.search(line)]


def in_order(wanted: list[int], numbers: list[int]) -> bool:
    """Do `wanted` come in `numbers` in this order (others may come between)?"""
    it = iter(numbers)
    return all(any(n == w for n in it) for w in wanted)


UTA_MAXCONNECT4 = Marking(
    "uta-maxconnect4", "maxconnect4", {"one-move": 1.0}, maxconnect4_cases,
    notes="one-move mode on boards reached by random play, depth 1-4: output.txt in the "
    "input's format (LF or CRLF), one legal move of the player to move, the next player "
    "switched, and both players' scores printed before and after, in that order, on lines "
    "saying score or points. A "
    "depth-limited search has no single right move, so the move itself is not compared "
    "with the reference's (the diff shows the reference's file for comparison).")


# -- CMPT 317: the N-Queens game's tables ---------------------------------------------------

NQUEENS_SIZES = 10  # the course's tables: N = 1..10
CUTOFF_EXACT = 4  # with a depth-4 cutoff, rows up to N = 4 still hold the true values
# A number on its own: not part of a word (1a), nor of a number like 2,057.
NUMBER = re.compile(r"(?<![\w.,])[+-]?\d+(?:\.\d+)?(?![.,]?\w)")
ROW_START = re.compile(r"^[^A-Za-z0-9]*(?:[Nn]\s*[:=]?)?[^A-Za-z0-9+-]*(?=[+-]?\d)")


def table_rows(text: str) -> list[list[tuple[int, float]]]:
    """The (N, value) rows of each table a program printed: lines that begin with a
    board size 1-10 (after a label `N`, `N=` or table rules, if any), the value being
    the next number of the line; a table ends where N does not grow. The course leaves
    the layout free, so this reads any table whose rows begin with N and the value."""
    tables: list[list[tuple[int, float]]] = []
    current: list[tuple[int, float]] = []
    for line in text.splitlines():
        if not ROW_START.match(line):
            continue
        numbers = NUMBER.findall(line)
        if len(numbers) < 2 or not numbers[0].isdigit() \
                or not 1 <= int(numbers[0]) <= NQUEENS_SIZES:
            continue
        n = int(numbers[0])
        if current and n <= current[-1][0]:
            tables.append(current)
            current = []
        current.append((n, float(numbers[1])))
    return [*tables, current] if current else tables


def nqueens_cases(rng: random.Random, count: int) -> list[Case]:
    from zerosum.frontends.nqueens_a4 import QUESTIONS, question_main

    cases: list[Case] = []
    expected: dict[int, str] = {}
    for number in range(count):
        q = number % len(QUESTIONS) + 1  # each question in turn: the tables are fixed
        if q not in expected:
            expected[q] = reference(question_main(q), [])
        part = f"q{q}"
        upto = CUTOFF_EXACT if QUESTIONS[q].cutoff else NQUEENS_SIZES
        cases.append(Case(part, (), expected[q], same_values,
                          f"the values of N = 1-{upto}", fill=(("{q}", str(q)),)))
    return cases


def same_values(case: Case, stdout: str, outputs: Outputs) -> str | None:
    from zerosum.frontends.nqueens_a4 import QUESTIONS

    question = QUESTIONS[int(case.part[1:])]
    upto = CUTOFF_EXACT if question.cutoff else NQUEENS_SIZES
    want, got = table_rows(case.expected), table_rows(stdout)
    if len(got) < len(want):
        return f"expected {len(want)} table{'s' if len(want) > 1 else ''} (rows of N and " \
               f"the value), found {len(got)}"
    for variation, mine, theirs in zip(question.variations, want, got, strict=False):
        values = dict(theirs)
        for n, value in mine:
            if n > upto:
                break
            if n not in values:
                return f"variation {variation}: no row for N = {n}"
            if values[n] != value:
                return f"variation {variation}, N = {n}: expected the value {value:+g}, " \
                       f"got {values[n]:+g}"
    return None


CMPT317 = Marking(
    "cmpt317", "a4qN", {f"q{q}": 1 / 7 for q in range(1, 8)}, nqueens_cases,
    notes="questions 1-7 in turn, each script run alone: the minimax value of every N = "
    "1-10 (questions 5-7, with a depth-4 cutoff and your own heuristic: N = 1-4, whose "
    "searches reach the end), read from the first two whole numbers of each row; the "
    "best opening move (any best move is right) and the times are not compared.",
    placeholder="{q}", example="python3 a4q{q}.py")


MARKINGS = {m.name: m for m in (CMPT317, COMP3608, CS540, UTA_LOGIC, UTA_MAXCONNECT4)}
