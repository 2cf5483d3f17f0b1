"""The `zerosum` command: help, play from flags and from the menu, tree, errors."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.cli.play import menu
from zerosum.games.registry import all_games

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, timeout=120)


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "play" in out and "tree" in out


def test_python_dash_m_and_play_help() -> None:
    p = run(["play", "tictactoe", "--help"])
    assert p.returncode == 0 and "--opponent" in p.stdout and "--depth" in p.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "tictactoe", "--depth", "-3"],
         "--depth: must be a whole number from 0 to 99, not '-3'"),
        (["play", "tictactoe", "--depth", "²"],
         "--depth: must be a whole number from 0 to 99, not '²'"),
        (["play", "tictactoe", "--time", "abc"],
         "--time: must be a number above 0 and at most 86,400, not 'abc'"),
        (["play", "tictactoe", "--time", "1e999"],
         "--time: must be a number above 0 and at most 86,400, not '1e999'"),
        (["table", "nqueens", "--sizes", "1-1000000000"],
         "--sizes: must be numbers from 1 to 64 or ranges like 1-10, not '1-1000000000'"),
        (["play", "nosuchgame"], "invalid choice"),
        (["tree", "/nonexistent/tree.txt"], "tree file /nonexistent/tree.txt: no such file"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    p = run(args)
    assert p.returncode == 2
    assert message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert "Traceback" not in p.stderr


def test_tree_bad_syntax(tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("A[1 2\n")
    p = run(["tree", str(f)])
    assert p.returncode == 2
    assert p.stderr.strip() == "zerosum: error: tree: line 2: missing ']' for node A"


def test_tree_command(tmp_path: Path) -> None:
    f = tmp_path / "fig52.txt"
    f.write_text("A[B[3 12 8] C[2 4 6] D[14 5 2]]\n")
    p = run(["tree", str(f), "--algorithm", "minimax"])
    assert p.returncode == 0
    assert p.stdout.splitlines()[:5] == [
        "algorithm: minimax", "value: 3", "best move: B", "principal variation: B B.1",
        "nodes examined: 13",
    ]


def test_play_from_flags_engine_vs_itself() -> None:
    p = run(["play", "tictactoe", "--side", "none", "--opponent", "alphabeta"])
    assert p.returncode == 0
    assert "Game over. Draw: the board is full." in p.stdout


def test_menu_full_game() -> None:
    # tic-tac-toe, opponent 3 (alpha-beta), depth 0 (to the end), side 2 (second),
    # then the human's moves; a bad menu answer re-asks.
    n = [s.name for s in all_games()].index("tictactoe") + 1
    inp = io.StringIO(f"{n}\n99\n3\n0\n2\n5\n3\n4\n8\n")
    out = io.StringIO()
    assert menu(inp, out) == 0
    text = out.getvalue()
    assert ("  not valid: the choice must be a whole number from 1 to 6, not '99' "
            "(? for help)") in text
    assert "Tic-tac-toe: X = alphabeta, O = human" in text
    assert "X (alphabeta) plays 1" in text
    assert "Thinking time: X" in text


def test_menu_end_of_input() -> None:
    out = io.StringIO()
    assert menu(io.StringIO("1\n"), out) == 0
    assert out.getvalue().endswith("Bye.\n")


def test_no_help_text_shows_a_doubled_percent_sign() -> None:
    """argparse turns "%%" into "%" in a help string, not in a description: every
    command's and every game sub-command's help reads "95 %", never "95 %%"."""
    import argparse
    from collections.abc import Iterator

    from zerosum.cli import build_parser

    def parsers(p: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    yield from parsers(child)

    found = list(parsers(build_parser()))
    assert len(found) > 50  # every command, and each game's under the game commands
    doubled = [p.prog for p in found if "%%" in p.format_help()]
    assert doubled == []
    assert "95 % intervals" in " ".join(next(
        p for p in found if p.prog == "zerosum tournament").format_help().split())
