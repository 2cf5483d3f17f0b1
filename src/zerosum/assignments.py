"""The one table of the classic assignments: each course's programs, with the names the
course asks for, and the zerosum function each launcher runs (a "module:function"
string: the table imports no program). `zerosum assignment` (cli/assignment.py) lists,
exports and checks them; a front end run as a module (`python -m
zerosum.frontends.connect4`) points to the command with `not_a_program`."""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Program:
    file: str  # the launcher's name, exactly as the course asks for it
    target: str  # "module:function", a main(argv) -> exit status
    about: str  # the launcher's docstring
    writes_here: bool = False  # the launcher adds `--folder <its own folder>`

    @property
    def name(self) -> str:
        return self.file.removesuffix(".py")


@dataclass(frozen=True)
class Assignment:
    name: str  # short name for the command
    folder: str  # its folder under assignments/
    course: str
    about: str
    programs: tuple[Program, ...]


def _nqueens(q: int) -> Program:
    return Program(f"a4q{q}.py", f"zerosum.frontends.nqueens_a4:q{q}",
                   f"CMPT 317 A4 question {q} (N-Queens game); see README.md in this folder.")


ASSIGNMENTS = (
    Assignment(
        "cmpt317", "cmpt317-nqueens", "CMPT 317",
        "assignment 4: the N-Queens game, minimax and alpha-beta tables, matches",
        (*(_nqueens(q) for q in (1, 2, 3, 4, 5, 6, 7, 9)),
         Program("generate_outputs.py", "zerosum.frontends.nqueens_a4:generate",
                 "Regenerate A4_output.txt, a4q8.txt and A4_EXECUTION.txt; "
                 "see README.md in this folder.", writes_here=True))),
    Assignment(
        "comp3608", "comp3608-connect4", "COMP3608",
        "Connect Four: the classic search (minimax, alpha-beta) and the tournament player",
        (Program("ConnectFour.py", "zerosum.frontends.connect4:main",
                 "COMP3608 Connect Four (classic search and tournament player); "
                 "see README.md in this folder."),)),
    Assignment(
        "cs540", "cs540-takestones", "CS540",
        "Take-Stones: one alpha-beta move with the node-by-node trace or the summary",
        (Program("TakeStones", "zerosum.frontends.cs540_takestones:main",
                 "Take-Stones: one alpha-beta move with the CS540 trace or summary; "
                 "see README.md in this folder."),)),
    Assignment(
        "csc242", "csc242-checkers", "CSC242",
        "checkers in the terminal, 4x4 or 8x8, against the computer",
        (Program("checkers", "zerosum.frontends.csc242_checkers:main",
                 "The classic terminal checkers program (4x4 or 8x8 against the computer); "
                 "see README.md in this folder."),)),
    Assignment(
        "uta-logic", "uta-logic", "UTA",
        "the wumpus-world checker: what rules and facts entail (propositional logic)",
        (Program("check_true_false.py", "zerosum.frontends.uta_logic:main",
                 "The wumpus-world checker (propositional logic); "
                 "see README.md in this folder."),)),
    Assignment(
        "uta-maxconnect4", "uta-maxconnect4", "UTA",
        "Max-Connect4: Connect Four scored by fours, one-move and interactive modes",
        (Program("maxconnect4.py", "zerosum.frontends.uta_maxconnect4:main",
                 "The Max-Connect4 program (one-move and interactive modes); "
                 "see README.md in this folder."),)),
)


def not_a_program() -> int:
    """What `python -m zerosum.frontends.X` does: a one-line pointer to the command, exit 2."""
    spec = sys.modules["__main__"].__spec__
    module = spec.name if spec else "this module"
    for a in ASSIGNMENTS:
        if any(p.target.startswith(module + ":") for p in a.programs):
            which = "" if len(a.programs) == 1 else "PROGRAM "
            print(f"{module} is not a program: run `zerosum assignment {a.name} {which}ARGS...`"
                  f" or a launcher in {a.folder}/ (see zerosum assignment list)",
                  file=sys.stderr)
            return 2
    print(f"{module} is not a program: see `zerosum assignment list`", file=sys.stderr)
    return 2
