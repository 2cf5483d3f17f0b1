"""The csc242 checkers terminal program, driven through scripted input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from clocks import SteppingClock

from zerosum.frontends.csc242_checkers import run

ROOT = Path(__file__).resolve().parents[1]


def session(answers: str, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    # Every read of the clock moves it on by 0.25 s: each move takes exactly 0.250 s.
    status = run(list(argv), io.StringIO(answers), out, SteppingClock(0.25))
    return status, out.getvalue()


def test_menus_reask_and_end_of_input_ends_cleanly() -> None:
    status, text = session("3\n1\nx\n9\n3\n-2\n0\nq\nb\n")
    assert status == 0
    assert text.count("Choose a game:") == 1
    assert "Invalid answer: answer a number from 1 to 2" in text
    assert "Invalid answer: answer a number from 1 to 6" in text
    assert "Invalid answer: the depth must be a whole number from 0 to 99, not '-2'" in text
    assert "Invalid answer: answer b (black, moves first) or w (white)" in text
    assert "You play BLACK; the computer plays WHITE (alphabeta, to the end)." \
        in text
    assert text.rstrip().endswith("Your move (? for help): \nInput ended. Bye.")
    for prompt in ("Your choice (1-2): ", "Your choice (1-6): ",
                   "Depth limit (0 = search to the end of the game): ", "Your colour (b or w): "):
        status, text = session({"Your choice (1-2): ": "",
                                "Your choice (1-6): ": "1\n",
                                "Depth limit (0 = search to the end of the game): ": "1\n3\n",
                                "Your colour (b or w): ": "1\n3\n0\n"}[prompt])
        assert status == 0 and text.endswith(prompt + "\nInput ended. Bye.\n")


def test_computer_move_report_and_human_help_and_invalid_move() -> None:
    status, text = session("1\n4\n3\nw\n?\nd1-c3\nd1-c2\n")
    assert status == 0
    lines = text.splitlines()
    assert "Next to play: BLACK" in lines
    i = lines.index("Thinking... (depth-limited, depth 3)")
    assert lines[i + 1:i + 3] == ["visited 28 states",
                                  "best move: b:A2-B3, value: -0.001 (estimate, about even)"]
    assert lines[i + 3] == "Elapsed time: 0.250 secs"
    assert lines[i + 4] == "BLACK moves b:A2-B3"
    assert "Legal moves: w:D1-C2 w:D3-C4 w:D3-C2" in lines
    j = lines.index("Your move (? for help): Invalid move: C3 is a light square; pieces stand "
                    "on dark squares only.")
    assert lines[j + 1] == "Valid moves: w:D1-C2 w:D3-C4 w:D3-C2"
    assert lines[j + 2:j + 4] == ["Your move (? for help): You moved w:D1-C2",
                                  "Elapsed time: 0.250 secs"]
    assert "best move: b:B3xD1, value: +0.138 (estimate, good for Black)" in lines


def test_whole_game_ends_with_the_result_and_thinking_times() -> None:
    # 4x4, random opponent, a move limit of 2 moves each: the human (black) tries moves
    # until one is legal; the game ends after four plies at the latest.
    tries = "A4-B3\n" + "A2-B1\nA2-B3\nB3-C2\nB3-C4\nB3xD1\nB3xD5\nA2xC4\nB1-C2\n" * 3
    status, text = session("1\n1\nb\n" + tries, "--moves", "2", "--seed", "1")
    assert status == 0
    assert "Draw: 2 moves by each side without a winner." in text
    assert text.endswith("Total thinking time: BLACK 0.500 secs, WHITE 0.500 secs\n")


def test_engine_opponent_on_4x4_plays_from_the_exact_solution() -> None:
    status, text = session("1\n6\n0.5\nw\n")
    assert status == 0
    assert "Thinking... (engine, 0.5 s)" in text
    assert "visited 2409 states\nbest move: b:A4-B3, value: 0 (draw, proven)\n" in text


def test_launcher_runs_with_plain_python() -> None:
    launcher = ROOT / "assignments" / "csc242-checkers" / "checkers"
    assert os.access(launcher, os.X_OK)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-S", str(launcher)], input="2\n1\nb\n",
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert "Next to play: BLACK" in proc.stdout and proc.stdout.endswith("Input ended. Bye.\n")
    bad = subprocess.run([sys.executable, "-S", str(launcher), "--moves", "-1"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
