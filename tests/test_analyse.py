"""`zerosum analyse`: a search's Info stream printed as it comes, then its result."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[1]
TIMES = re.compile(r" +\d[\d,]* +\d+\.\d\ds|\d+\.\d\d s\b")  # nodes/s and times vary


def analyse(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["analyse", *args])
    out, err = capsys.readouterr()
    return status, TIMES.sub("T", out), err


def test_iterative_deepening_pass_by_pass(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = analyse(["tictactoe", "1", "5", "--player", "iterative", "--time", "60"],
                               capsys)
    assert status == 0 and err == ""
    assert out.splitlines()[6:] == [
        "    1  +0.111 (estimate, good for X)               8T  3",
        "    2  -0.111 (estimate, good for O)              31T  3 7",
        "    3  +0.222 (estimate, good for X)             117T  3 2 8",
        "    4  0 (estimate, about even)                  207T  3 2 8 7",
        "    5  +0.111 (estimate, good for X)             497T  3 2 8 7 4",
        "    6  0 (estimate, about even)                  669T  3 2 8 7 4 6",
        "    7  0 (draw, proven)                          816T  3 2 8 7 4 6 9",
        "best move 3: value 0 (draw, proven), depth 7, nodes 816, time T",
    ]
    assert out.startswith("Tic-tac-toe: iterative searches, 60 s\nX . .\n. O .\n")


def test_mcts_reports_every_thousand_simulations(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = analyse(["tictactoe", "--player", "mcts", "--nodes", "2500", "--seed", "3"],
                             capsys)
    lines = out.splitlines()
    assert status == 0 and lines[0] == "Tic-tac-toe: mcts searches, 2,500 nodes"
    assert [re.findall(r" (\d,000)T", line) for line in lines[-3:-1]] == [["1,000"], ["2,000"]]
    assert lines[-1].startswith("best move ") and "simulations 2,500," in lines[-1]


@pytest.mark.parametrize(("args", "message"), [
    (["tictactoe", "1", "1"], "zerosum: error: move 2 (1): cell 1 is not free\n"),
    (["tictactoe", "1", "4", "2", "5", "3", "6"],
     "zerosum: error: move 6 (6): the game is already over\n"),
    (["tictactoe", "1", "4", "2", "5", "3"],
     "zerosum: error: the game is over in that position: X wins: three in a row\n"),
    (["connect4", "--player", "alphabeta", "--depth", "²"], None),
    ([], "zerosum: error: name a game, e.g. zerosum analyse connect4 4 4 5\n"),
])
def test_bad_input_is_one_line(args: list[str], message: str | None,
                               capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["analyse", *args])
    except SystemExit as e:  # argparse's own usage error
        status = int(str(e.code))
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    if message is not None:
        assert err == message


def test_ctrl_c_prints_the_best_so_far() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "analyse", "connect4", "--player", "iterative",
         "--time", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    for _ in range(12):  # the header, the board, then the first passes: the search runs
        child.stdout.readline()  # under its Ctrl-C handler (it prints its passes there)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    last = out.splitlines()[-1]
    assert child.returncode == 130 and err == ""
    assert last.startswith("best move ") and " (stopped)" not in last  # a finished pass


def test_enhancements_switched_off_cost_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    def nodes(*off: str) -> int:
        args = ["connect4", "4", "4", "--depth", "7", "--time", "60", *off]
        status, out, _ = analyse(args, capsys)
        last = out.splitlines()[-1]
        assert status == 0 and last.startswith("best move 4: ") and "depth 7," in last
        return int(re.findall(r"nodes ([\d,]+)", last)[0].replace(",", ""))

    every, plain = nodes(), nodes("--off", "table+ordering+pvs+aspiration")
    assert (every, plain) == (4_390, 55_411)


def test_a_full_table_keeps_the_principal_variation() -> None:
    """When the table makes room it keeps its exact entries (the principal variations'
    nodes): a pass of iterative deepening stores its line's deep nodes first, and
    forgetting by age alone left a long pass showing its first move only (Connect Four
    after 4 4 showed "4" from depth 7 on with this table; the page did at depth 17 and 19
    with its own). Native and pure agree (the twins' make_room is one rule)."""
    from zerosum.game import play_line
    from zerosum.games.registry import get_game, kernel_of
    from zerosum.kernel import bound_memory
    from zerosum.result import Info, Limit
    from zerosum.search.driver import analyse_with
    from zerosum.table import Bound, TranspositionTable

    table = TranspositionTable(8)
    for key in range(8):
        table.store(key, 0.0, Bound.EXACT if key in (1, 2, 3) else Bound.LOWER, 5, None)
    table.make_room()  # the older half, 0-3: the exact 1-3 stay, the capacity's quarter
    assert list(table.entries) == [2, 3, 4, 5, 6, 7]

    game = get_game("connect4").create()
    bound_memory(game, 2000)
    state, _ = play_line(game, game.initial_state(), ["4", "4"])
    infos: list[Info] = []
    result = analyse_with(kernel_of("connect4"), game, state, Limit(depth=11),
                          on_info=infos.append)
    assert [(i.depth, len(i.pv)) for i in infos] == [(1, 1), (3, 3), (5, 5), (7, 7), (9, 8),
                                                      (11, 10)]
    assert result.stats.nodes == 152_046
