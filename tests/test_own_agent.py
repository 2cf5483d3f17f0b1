"""A person's own agent file as the opponent in `zerosum play` (the file that plays in
`zerosum tournament --agent FILE.py`), and the players' specs the tournament writes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[1]
AGENT = str(ROOT / "docs" / "examples" / "myagent.py")
GAME = str(ROOT / "docs" / "examples" / "mygame.py")
TIMES = re.compile(r"\d+\.\d+ s\b")


def zerosum(args: list[str], capsys: pytest.CaptureFixture[str],
            stdin: str = "") -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(stdin))
        status = main(args)
    out, err = capsys.readouterr()
    return status, TIMES.sub("T", out), err


def test_a_person_plays_their_agent_file(capsys: pytest.CaptureFixture[str]) -> None:
    # Greedy (docs/examples/myagent.py) blocks the row it sees, then wins with its own.
    status, out, err = zerosum(["play", "tictactoe", "--opponent", AGENT, "--seed", "1"],
                               capsys, "5\n1\n9\n7\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"Tic-tac-toe: X = human, O = {AGENT}"
    assert [line for line in lines if " plays " in line or "move:" in line] == [
        "Your move (? for help): X (human) plays 5: time T",
        f"O ({AGENT}) plays 3: time T",
        "Your move (? for help): X (human) plays 1: time T",
        f"O ({AGENT}) plays 9: time T",
        "Your move (? for help): Invalid move: cell 9 is not free",
        "Your move (? for help): X (human) plays 7: time T",
        f"O ({AGENT}) plays 6: time T",
    ]
    assert lines[-2:] == ["Game over. O wins: three in a row.", "Thinking time: X T, O T"]


def test_an_agent_file_plays_a_game_file(capsys: pytest.CaptureFixture[str]) -> None:
    # Twenty-one counters, take 1-3, the last one wins: Greedy takes the last ones when
    # it can, and never leaves 1-3 behind when it need not.
    status, out, err = zerosum(["play", "--game-file", GAME, "--opponent", AGENT,
                                "--seed", "2", "--side", "none"], capsys)
    assert (status, err) == (0, "")
    moves = re.findall(r"\) plays (\d): ", out)
    assert sum(map(int, moves)) == 21 and out.endswith("Thinking time: First T, Second T\n")
    assert out.splitlines()[0] == f"mygame: First = {AGENT}, Second = {AGENT}"


def test_a_written_player_with_its_settings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = zerosum(["play", "tictactoe", "--opponent", "alphabeta:depth=0",
                              "--side", "none"], capsys)
    assert status == 0 and out.splitlines()[0] == (
        "Tic-tac-toe: X = alphabeta:depth=0, O = alphabeta:depth=0")
    assert out.splitlines()[-2] == "Game over. Draw: the board is full."


BROKEN = {
    "illegal.py": "class A:\n    def play(self, game, state):\n        return 42\n\n"
                  "def make_agent(seed, **settings):\n    return A()\n",
    "raises.py": "class A:\n    def play(self, game, state):\n        return 1 // 0\n\n"
                 "def make_agent(seed, **settings):\n    return A()\n",
}


@pytest.mark.parametrize(("args", "message"), [
    (["illegal.py"], "agent file {dir}/illegal.py: played an illegal move, 42"),
    (["raises.py"], "agent file {dir}/raises.py, line 3: ZeroDivisionError during the game: "
                    "integer division or modulo by zero"),
    ([f"{AGENT}:greed=2"], f"agent file {AGENT}, line 52: ValueError while making the "
                           "agent: Greedy takes no settings, not greed"),
    (["nowhere.py"], "agent file {dir}/nowhere.py: no such file"),
    ([AGENT, "--depth", "3"], f"--depth and --time go with a player's name; {AGENT} says "
                              "its own settings (e.g. alphabeta:depth=6,time=2)"),
    (["alphabeta:depht=3"], "player 'alphabeta:depht=3': 'depht=3' is unknown (settings: "
                            "time, depth, nodes, seed, off)"),
    (["engine"], "unknown opponent 'engine'; choose from random, minimax, alphabeta, "
                 "depth-limited, iterative, mcts, or your own agent FILE.py"),
])
def test_a_broken_agent_is_one_line(args: list[str], message: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in BROKEN.items():
        (tmp_path / name).write_text(text)
    first, *rest = args
    path = str(tmp_path / first) if not first.startswith(("/", "alphabeta", "engine")) \
        else first
    status, _, err = zerosum(["play", "tictactoe", "--opponent", path, "--side", "second",
                                *rest], capsys, "5\n")
    assert status == 2 and err == f"zerosum: error: {message.format(dir=tmp_path)}\n"
