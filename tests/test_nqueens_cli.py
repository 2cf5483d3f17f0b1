"""`zerosum table nqueens`, `zerosum play nqueens` and the CMPT 317 A4 front-end."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerosum.cli import main as zerosum
from zerosum.frontends import nqueens_a4
from zerosum.reports import Cell, Table, render, write

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "assignments" / "cmpt317-nqueens"


def test_table_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["table", "nqueens", "--sizes", "1-4,8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "N-Queens, variation 1a: minimax, to the end of the game"
    assert out[1].split() == ["N", "value", "best", "move", "nodes", "CPU", "s"]
    rows = [line.rsplit(None, 1)[0] for line in out[3:8]]  # without the CPU column
    # Printed as each size is solved, so the columns take their least widths.
    assert rows == [
        " 1      +1  ('X', 1)               2",
        " 2      +1  ('X', 1)               3",
        " 3      +1  ('X', 2)               6",
        " 4      -1  ('X', 1)              17",
        " 8      -1  ('X', 1)           2,057",
    ]
    assert out[8].startswith("total: 2,085 nodes, ")


def test_table_csv_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["table", "nqueens", "--variation", "1b", "--algorithm", "alphabeta", "--table",
            "--order", "--sizes", "10", "--format", "csv"]
    assert zerosum(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "N,value,best move,nodes,CPU s"
    assert re.fullmatch(r"""10,\+7,"\('X', 3\)",1579,\d+\.\d{3}""", lines[1])
    assert zerosum(["table", "nqueens", "--variation", "2b", "--algorithm", "alphabeta",
                    "--depth", "2", "--sizes", "4", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| 4 | +3 | (1, 1) |" in md and "cutoff at depth 2" in md


@pytest.mark.parametrize(("args", "message"), [
    (["--table"], "need alpha-beta"),
])
def test_table_bad_input(args: list[str], message: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["table", "nqueens", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--sizes", "0-3"], "--sizes: must be numbers from 1 to 64 or ranges like 1-10, not '0-3'"),
    (["--sizes", "3-1"], "--sizes: must be a range from low to high, not '3-1'"),
    (["--sizes", "1-1000000000"], "numbers from 1 to 64 or ranges like 1-10, not '1-1000000000'"),
])
def test_table_bad_sizes(args: list[str], message: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        zerosum(["table", "nqueens", *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize("args", [["--variation", "3"], ["--depth", "-3"],
                                  ["--sizes", "x"], ["--format", "html"]])
def test_table_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        zerosum(["table", "nqueens", *args])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_write_prints_each_row_before_the_next_is_computed() -> None:
    out = io.StringIO()
    seen: list[str] = []  # what had been printed when each row's computation began

    def rows() -> Iterator[list[Cell]]:
        for n in (1, 22):
            seen.append(out.getvalue())
            yield [n, "x" * n]
        table.notes.append("done")

    table = Table("T", ["n", "cells"], right={0}, widths={0: 3})
    table.pending = rows()
    write(table, "text", out)
    assert seen[1].endswith("  1  x\n")  # row 1 was out before row 2 was asked for
    assert out.getvalue() == ("T\n  n  cells\n---  -----\n  1  x\n 22  " + "x" * 22 + "\ndone\n")
    assert table.rows == [[1, "x"], [22, "x" * 22]] and table.pending is None
    assert render(table) == ("T\n n  cells\n--  ----------------------\n 1  x\n22  "
                             + "x" * 22 + "\ndone\n")


def test_render_formats() -> None:
    t = Table("T", ["a", "n"], [["x", 1234], ["yy", 5]], right={1}, notes=["note"])
    assert render(t) == "T\na       n\n--  -----\nx   1,234\nyy      5\nnote\n"
    assert render(t, "csv") == "a,n\nx,1234\nyy,5\n"
    assert render(t, "markdown") == ("**T**\n\n| a | n |\n| --- | ---: |\n| x | 1,234 |\n"
                                     "| yy | 5 |\n\nnote\n")


def test_play_registered(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["play", "nqueens", "--size", "5", "--variation", "1b", "--side", "none",
                    "--opponent", "alphabeta"]) == 0
    out = capsys.readouterr().out
    # Best play on 5 x 5 in 1b: X wins with all 5 queens.
    assert "Game over. All 5 queens are placed: X wins." in out
    # (Alpha-beta to depth 4 reaches the end: proven, its line's length no distance.)
    assert "value +5 (X wins, proven)" in out


# ---------------------------------------------------------------- the front-end


def test_questions(capsys: pytest.CaptureFixture[str]) -> None:
    assert nqueens_a4.q2(["--sizes", "1-5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Question 2: variation 1b, minimax, to the end of the game\n")
    values = [line.split()[1] for line in out.splitlines()[3:8]]
    assert values == ["+1", "+1", "+1", "-2", "+5"]
    assert nqueens_a4.q7(["--sizes", "10", "--depth", "4", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Depth 4 at N = 10, 1a then 1b: estimates (1a: as many lengths good for X as
    # for O), the same move, the same tree.
    assert [line.rsplit(",", 1)[0] for line in lines if line.startswith("10,")] == [
        '10,0,"(\'X\', 5)",357', '10,-0.500,"(\'X\', 5)",357']
    with pytest.raises(SystemExit) as e:
        nqueens_a4.q5(["--depth", "-1"])
    assert e.value.code == 2
    assert "--depth: must be a whole number from 0 to 99, not '-1'" in capsys.readouterr().err


def test_match_and_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert nqueens_a4.q9(["--sizes", "10", "--cutoffs", "4,4", "5,3", "--variation",
                          "1b"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("N = 10, cutoffs 4/4: O wins, 8 queens, utility -8; true value +7: "
                      "does NOT match best play (X erred)")
    assert out[2] == ("  moves: ('X', 5) ('O', 1) ('X', 4) ('O', 7) ('X', 3) ('O', 6) "
                      "('X', 2) ('O', 10)")
    assert out[3].startswith("N = 10, cutoffs 5/3: X wins, 7 queens, utility +7; "
                             "true value +7: matches best play")
    with pytest.raises(SystemExit) as e:
        nqueens_a4.q9(["--cutoffs", "4"])
    assert e.value.code == 2
    assert "a cutoff pair is X,O depths 0-99 like 5,3, not '4'" in capsys.readouterr().err


def _mask_times(text: str) -> str:
    """Blank out what changes between runs: CPU seconds (3 decimals, end of a table
    row or followed by ' s') and the Python version."""
    text = re.sub(r"\d+\.\d{3}( s)?$", "T", text, flags=re.M)
    text = re.sub(r"\d+\.\d+ s\b", "T s", text)
    return re.sub(r"Python: .*", "Python", text)


def test_outputs_are_generated_not_edited(tmp_path: Path) -> None:
    """The committed outputs are exactly what generate_outputs.py writes, up to times."""
    assert nqueens_a4.generate(["--folder", str(tmp_path)]) == 0
    for name in ("A4_output.txt", "a4q8.txt", "A4_EXECUTION.txt"):
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        committed = (FOLDER / name).read_text(encoding="utf-8")
        assert _mask_times(fresh) == _mask_times(committed), name


def test_launcher_runs_with_plain_python() -> None:
    # The launchers must work without installing anything: -I -S leaves out the
    # environment and every site-packages (the editable install included).
    done = subprocess.run([sys.executable, "-I", "-S", str(FOLDER / "a4q3.py"), "--sizes", "4"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[3].split()[:4] == ["4", "-1", "('X',", "1)"]
    bad = subprocess.run([sys.executable, "-I", "-S", str(FOLDER / "a4q1.py"), "--sizes", "2-1"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


# ------------------------------------------- moves in the game's notation, everywhere


def plays(out: str) -> list[str]:
    """The moves of `zerosum play`'s lines `X (alphabeta (depth 4)) plays MOVE: ...`."""
    return re.findall(r"\) plays (\S+): ", out)


def test_play_writes_queens_in_the_games_notation(capsys: pytest.CaptureFixture[str]) -> None:
    # Was ('X', 2) ('O', 4) ...: the action's tuple, which the page never wrote.
    assert zerosum(["play", "nqueens", "--size", "5", "--side", "none",
                    "--opponent", "alphabeta"]) == 0
    assert plays(capsys.readouterr().out) == ["X2", "O4", "X1", "O3", "X5"]
    assert zerosum(["play", "nqueens", "--size", "5", "--variation", "2", "--side", "none",
                    "--opponent", "alphabeta", "--depth", "2"]) == 0
    assert plays(capsys.readouterr().out) == ["r3c3", "r1c2", "r2c5", "r4c1", "r5c4"]


def test_a_persons_help_lists_the_moves_wrapped_between_moves() -> None:
    from zerosum.games.nqueens import nqueens
    from zerosum.players.terminal import HumanAgent

    out = io.StringIO()
    game = nqueens(5, "2")
    state = game.result(game.initial_state(), (3, 3))
    agent = HumanAgent(io.StringIO("?\n2 2\nr1c2\n"), out)
    assert agent.choose(game, state).action == (1, 2)
    assert out.getvalue().splitlines() == [
        "Your move (? for help): Type the row and column (each 1-5) of an open square, "
        "e.g. 2 3 or r2c3.",
        "Legal moves: r1c2 r1c4 r2c1 r2c5 r4c1 r4c5 r5c2 r5c4",
        "Your move (? for help): Invalid move: square r2c2 is not open",
        "Legal moves: r1c2 r1c4 r2c1 r2c5 r4c1 r4c5 r5c2 r5c4",
        "Your move (? for help): "]
    # A list longer than a line breaks between moves, never inside one.
    game = nqueens(12, "2")
    lines = HumanAgent(io.StringIO(), io.StringIO()).legal_moves(
        game, game.initial_state()).splitlines()
    assert lines[0] == ("Legal moves: r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r1c10 "
                        "r1c11 r1c12")
    assert max(map(len, lines)) <= 79 and lines[1].startswith("  r2c1 r2c2")
    words = " ".join(lines).split()[2:]
    assert words == [game.format_move(a) for a in game.actions(game.initial_state())]


def pvs(lines: list[str]) -> list[str]:
    """The principal variations of analyse's lines (after the time, `0.00s  X2 O4`)."""
    return [m[1] for line in lines if (m := re.search(r"\d\.\d\ds  (.+)$", line))]


def test_analyse_writes_the_principal_variation_in_the_games_notation(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["analyse", "nqueens", "X2", "--depth", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert pvs(lines) == ["O4", "O4 X1", "O4 X1 O3"]
    assert lines[-1].startswith("best move O4: ")
    assert zerosum(["analyse", "nqueens", "--variation", "2", "--size", "5", "r3c3",
                    "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert pvs(lines) == ["r1c2", "r1c2 r2c5"]


@pytest.mark.parametrize("name", ["checkers", "connect4", "maxconnect4", "nqueens",
                                  "takestones", "tictactoe"])
def test_every_game_plays_and_analyses_in_its_notation(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """What `zerosum play` says was played replays, read back by the game's parse_move,
    to the position it says came next; analyse's line is the same kind of text."""
    from zerosum.games.registry import get_game

    assert zerosum(["play", name, "--side", "none", "--opponent", "random", "--seed", "1"]
                   ) == 0
    out = capsys.readouterr().out
    moves = plays(out)
    assert moves and "(" not in " ".join(moves)
    game = get_game(name).create()
    state = game.initial_state()
    for text in moves:
        action = game.parse_move(state, text)
        assert game.format_move(action) == text
        state = game.result(state, action)
    assert game.is_terminal(state)
    assert zerosum(["analyse", name, "--player", "alphabeta", "--depth", "1"]) == 0
    best = capsys.readouterr().out.splitlines()[-1]
    written = {game.format_move(a) for a in game.actions(game.initial_state())}
    assert re.match(r"best move (\S+):", best)[1] in written  # type: ignore[index]
