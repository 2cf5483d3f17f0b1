"""A person's own game from a file: `zerosum play/perft --game-file FILE`, the example
docs/examples/mygame.py, and one line (exit 2) for each way the file can be wrong."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "docs" / "examples" / "mygame.py")
SECONDS = re.compile(r"\d+\.\d+ s\b")

# Both sides search 4 plies with no heuristic (every estimate 0): they take 1 until the
# end comes within reach, then First, to move at 7, takes 3 and leaves a multiple of 4.
PLAYED = """\
mygame: First = alphabeta (depth 4), Second = alphabeta (depth 4)
21 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
20 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
19 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
18 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
17 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
16 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
15 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
14 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
13 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
12 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
11 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
10 counters left
Second (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
9 counters left
First (alphabeta (depth 4)) plays 1: value 0 (estimate, about even), depth 4, nodes 35, time T
8 counters left
Second (alphabeta (depth 4)) plays 1: value -1 (First wins, proven), depth 4, nodes 35, time T
7 counters left
First (alphabeta (depth 4)) plays 3: value +1 (First wins, proven), depth 4, nodes 38, time T
4 counters left
Second (alphabeta (depth 4)) plays 1: value -1 (First wins, proven), depth 4, nodes 15, time T
3 counters left
First (alphabeta (depth 4)) plays 3: value +1 (First wins, proven), depth 4, nodes 8, time T
0 counters left
Game over. First wins.
Thinking time: First T, Second T
"""


def zerosum(args: list[str], capsys: pytest.CaptureFixture[str],
            stdin: str = "") -> tuple[int, str, str]:
    """(exit status, stdout with CPU times as T, stderr) of the command run in-process."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(stdin))
        status = main(args)
    out, err = capsys.readouterr()
    return status, SECONDS.sub("T", out), err


def test_play_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = zerosum(["play", "--game-file", EXAMPLE, "--opponent", "alphabeta",
                                "--side", "none"], capsys)
    assert (status, out, err) == (0, PLAYED, "")


def test_play_the_example_against_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = zerosum(["play", "--game-file", EXAMPLE, "--opponent", "random",
                              "--seed", "3", "--side", "second"], capsys, "4\n" + "3\n" * 5)
    assert status == 0
    assert out == """\
mygame: First = random, Second = human
21 counters left
First (random) plays 1: time T
20 counters left
Your move (? for help): Invalid move: not a legal move here: '4'
Legal moves: 1 2 3
Your move (? for help): Second (human) plays 3: time T
17 counters left
First (random) plays 3: time T
14 counters left
Your move (? for help): Second (human) plays 3: time T
11 counters left
First (random) plays 3: time T
8 counters left
Your move (? for help): Second (human) plays 3: time T
5 counters left
First (random) plays 1: time T
4 counters left
Your move (? for help): Second (human) plays 3: time T
1 counter left
First (random) plays 1: time T
0 counters left
Game over. First wins.
Thinking time: First T, Second T
"""


# The players of a game with no engine, in menu order (the catalogue's).
OPPONENTS = ["random", "minimax", "alphabeta", "depth-limited", "iterative", "mcts"]


def test_the_menu_with_the_files_game(capsys: pytest.CaptureFixture[str]) -> None:
    # Opponent alphabeta, the default depth, side 3 (none): the game is not asked.
    alphabeta = list(OPPONENTS).index("alphabeta") + 1
    status, out, _ = zerosum(["play", "--game-file", EXAMPLE], capsys, f"{alphabeta}\n\n3\n")
    assert status == 0
    assert "Game:" not in out and "\nOpponent:\n" in out
    assert "mygame: First = alphabeta (depth 4), Second = alphabeta (depth 4)" in out
    assert out.endswith("Game over. First wins.\nThinking time: First T, Second T\n")


def test_perft_of_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = zerosum(["perft", "--game-file", EXAMPLE, "--depth", "8", "--divide"],
                             capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "perft mygame from the start"
    assert [line.split()[:2] for line in lines[2:10]] == [
        [str(d), n] for d, n in enumerate(
            ["3", "9", "27", "81", "243", "729", "2,187", "6,516"], 1)]
    # 6,516, not 3^8 = 6,561: some lines take the last counter sooner and stop there.
    assert lines[10:] == ["divide at depth 8:", "  1 2186", "  2 2179", "  3 2151"]


def test_a_file_with_a_game_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "from zerosum.games.registry import GameSpec\n"
                 "from zerosum.games.tictactoe import TicTacToe\n\n"
                 "GAME = GameSpec('ttt', 'My tic-tac-toe', TicTacToe, default_depth=9)\n")
    status, out, _ = zerosum(["perft", "--game-file", path, "--depth", "3"], capsys)
    assert status == 0 and out.splitlines()[0] == "perft ttt from the start"
    assert [line.split()[1] for line in out.splitlines()[2:]] == ["9", "72", "504"]
    status, out, _ = zerosum(["play", "--game-file", path, "--opponent", "alphabeta",
                              "--side", "none"], capsys)
    assert status == 0
    assert out.startswith("My tic-tac-toe: X = alphabeta (depth 9), O = alphabeta (depth 9)\n")
    assert out.endswith("Game over. Draw: the board is full.\nThinking time: X T, O T\n")


BROKEN = """\
from zerosum.game import GameBase


class Misread(GameBase[int, int]):
    def initial_state(self) -> int:
        return 5

    def actions(self, state: int) -> list[int]:
        return [1, 2] if state >= 2 else [1] if state else []

    def result(self, state: int, action: int) -> int:
        return state - action

    def utility(self, state: int) -> float:
        return 1.0

    def is_maxs_turn(self, state: int) -> bool:
        return state % 2 == 1

    def parse_move(self, state: int, text: str) -> int:
        return 3 - int(text)


GAME = Misread()
"""


def write(tmp_path: Path, text: str, name: str = "game.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_game_breaking_a_rule_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, BROKEN)
    status, out, err = zerosum(["play", "--game-file", path, "--side", "none"], capsys)
    assert (status, out) == (2, "")
    assert err == (f"zerosum: error: game file {path} breaks a rule: parse_move(state, "
                   "format_move(a)) == a for every legal move a: move 1 is written '1', which "
                   "reads back as 2 at state 5 (playthrough 1, at the start) (--no-check "
                   "plays it anyway)\n")
    status, out, err = zerosum(["play", "--game-file", path, "--side", "none", "--no-check",
                                "--opponent", "minimax", "--depth", "0"], capsys)
    assert (status, err) == (0, "")
    assert out.endswith("Game over. Max wins.\nThinking time: Max T, Min T\n")


# The broken game above, with an `actions` that raises after the first move.
CRASHING = BROKEN.replace("class Misread", "class Crashing").replace(
    "GAME = Misread()", "GAME = Crashing()").replace(
    "        return [1, 2] if state >= 2",
    "        if state < 5:\n            raise KeyError(state)\n        return [1, 2] if state >= 2")


@pytest.mark.parametrize("command", [["play", "--side", "none", "--opponent", "random"],
                                     ["perft", "--depth", "3"]])
def test_a_game_raising_during_play_is_one_line(tmp_path: Path, command: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, CRASHING)
    status, _, err = zerosum([command[0], "--game-file", path, "--no-check", *command[1:]],
                             capsys)
    assert status == 2
    assert re.fullmatch(f"zerosum: error: game file {re.escape(path)}, line 10: KeyError during "
                        "the game: [34]\n", err), err


@pytest.mark.parametrize(("text", "problem"), [
    (None, "no such file"),
    ("x = (\n", "line 1: syntax error: '(' was never closed"),
    ("y = 1\n", "defines no GAME (a game object or a GameSpec; see docs/examples/mygame.py)"),
    ("import no_such_module_here\n",
     "line 1: ModuleNotFoundError while loading it: No module named 'no_such_module_here'"),
    ("def f():\n    raise RuntimeError('boom')\n\n\nf()\n",
     "line 2: RuntimeError while loading it: boom"),
    ("class G:\n    pass\n\n\nGAME = G\n", "GAME is a class, not a game: make one, "
     "GAME = MyGame()"),
    ("GAME = 3\n", "GAME is not a game: it has no initial_state, actions, result, "
     "is_terminal, utility, is_maxs_turn"),
    ("from zerosum.games.registry import GameSpec\n\n\ndef make():\n    return 1 / 0\n\n\n"
     "GAME = GameSpec('zero', 'Zero', make)\n",
     "line 5: ZeroDivisionError while making the game: division by zero"),
], ids=["missing", "syntax", "no-game", "import", "raises", "class", "not-a-game", "make"])
def test_a_wrong_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  text: str | None, problem: str) -> None:
    path = str(tmp_path / "nothing.py") if text is None else write(tmp_path, text)
    sep = ":" if problem.startswith(("no such", "defines", "GAME")) else ","
    expected = f"zerosum: error: game file {path}{sep} {problem}\n"
    for args in (["play", "--game-file", path], ["perft", "--game-file", path, "--depth", "2"]):
        assert zerosum(args, capsys) == (2, "", expected)


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--game-file", EXAMPLE, "tictactoe"],
     "give a game name or --game-file, not both (tictactoe)"),
    (["play", "--side", "none"], "options before the game's name go with --game-file; put "
     "them after it, e.g. zerosum play tictactoe --side none"),
    (["play", "--game-file", EXAMPLE, "--opponent", "engine"],
     f"unknown opponent 'engine'; choose from {', '.join(OPPONENTS)}, or your own agent "
     "FILE.py"),
    (["perft", "--game-file", EXAMPLE], "--game-file needs --depth N, e.g. zerosum perft "
     "--game-file mygame.py --depth 4"),
    (["perft", "--game-file", EXAMPLE, "--depth", "2", "checkers", "--depth", "2"],
     "give a game name or --game-file, not both (checkers)"),
])
def test_game_file_usage_errors(args: list[str], message: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(args, capsys) == (2, "", f"zerosum: error: {message}\n")


# Twenty-one (docs/examples/mygame.py) with one method replaced by one breaking a rule.
def twentyone(method: str, body: str) -> str:
    text = Path(EXAMPLE).read_text()
    start = text.index(f"    def {method}(")
    end = text.index("\n    def ", start + 1)
    return text[:start] + f"    def {method}(self, *args):\n        {body}\n" + text[end:]


RULE_BREAKERS = {
    "generator": ("actions", "return (take for take in (1, 2, 3) if take <= args[0][0])"),
    "unhashable": ("result", "return [args[0][0] - args[1], not args[0][1]]"),
    "no-utility": ("utility", "return None"),
    "nan": ("utility", "return float('nan')"),
    "turn-not-bool": ("is_maxs_turn", "return 'yes'"),
    "never-terminal": ("is_terminal", "return False"),
    "exits": ("result", "import sys; sys.exit(3)"),
}


@pytest.mark.parametrize("name", list(RULE_BREAKERS))
def test_a_rule_breaking_game_is_one_line_with_and_without_the_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    path = write(tmp_path, twentyone(*RULE_BREAKERS[name]))
    commands = [["play", "--game-file", path, "--side", "none", "--opponent", "alphabeta",
                 "--depth", "3"],
                ["perft", "--game-file", path, "--depth", "3"]]
    for command in commands:
        status, _, err = zerosum(command, capsys)  # checked: the rule it breaks
        assert status == 2 and err.startswith(f"zerosum: error: game file {path} breaks a "
                                              "rule: "), err
        assert len(err.splitlines()) == 1
        status, _, err = zerosum([*command, "--no-check"], capsys)
        assert "Traceback" not in err and status in (0, 2), err
        if status == 2:
            assert err.startswith(f"zerosum: error: game file {path}") and \
                len(err.splitlines()) == 1, err


def test_actions_as_a_generator_is_refused_by_the_check_and_one_line_in_perft(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, twentyone(*RULE_BREAKERS["generator"]))
    status, _, err = zerosum(["perft", "--game-file", path, "--depth", "3"], capsys)
    assert (status, err) == (2, f"zerosum: error: game file {path} breaks a rule: actions() "
                                "returns a sequence (a list or a tuple), not an iterator: it "
                                "returned generator for state (21, True) (playthrough 1, at "
                                "the start) (--no-check plays it anyway)\n")
    status, _, err = zerosum(["perft", "--game-file", path, "--depth", "3", "--no-check"],
                             capsys)
    assert (status, err) == (2, f"zerosum: error: game file {path} breaks a rule: TypeError "
                                "during the game: object of type 'generator' has no len() "
                                "(without --no-check, the check says which rule)\n")


@pytest.mark.parametrize("where, line", [("at import", "import sys\nsys.exit(4)\n"),
                                          ("in GAME's making", None)])
def test_sys_exit_in_a_game_file_never_decides_zerosums_exit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, line: str | None
        ) -> None:
    if line is not None:
        path = write(tmp_path, line)
        message = "line 2: sys.exit(4) called while loading it"
    else:
        path = write(tmp_path, "import sys\nfrom zerosum.games.registry import GameSpec\n"
                     "GAME = GameSpec('x', 'X', lambda: sys.exit(0))\n")
        message = "line 3: sys.exit(0) called while making the game"
    for command in (["play", "--game-file", path], ["perft", "--game-file", path,
                                                    "--depth", "2"],
                    ["tournament", "game-file", path, "--agent", "random", "--agent",
                     "alphabeta", "--db", str(tmp_path / "t.sqlite")]):
        assert zerosum(command, capsys) == (2, "", f"zerosum: error: game file {path}, "
                                                   f"{message}\n")
    assert not (tmp_path / "t.sqlite").exists()


def test_a_game_file_of_any_name_plays_in_a_tournament(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "twentyone.game"
    path.write_text(Path(EXAMPLE).read_text())
    status, out, err = zerosum(["tournament", "game-file", str(path), "--agent", "alphabeta",
                                "--agent", "random", "--games", "2", "--workers", "1",
                                "--db", str(tmp_path / "t.sqlite")], capsys)
    assert (status, err) == (0, "")
    assert "  alphabeta vs random: 2W 0D 0L of 2" in out


# Its actions loop once a counter is taken, saying so first: the test waits for that.
LOOPING = twentyone("actions", "import time\n        if args[0][0] < 21:\n"
                    "            print('looping', flush=True)\n"
                    "        while args[0][0] < 21:\n"
                    "            time.sleep(0.001)\n"
                    "        return [take for take in (1, 2, 3) if take <= args[0][0]]")


def test_a_search_stuck_in_the_games_code_ends_at_the_first_ctrl_c(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    path = write(tmp_path, LOOPING)
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "play", "--game-file", path, "--no-check",
         "--side", "none", "--opponent", "alphabeta", "--depth", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("game: First = alphabeta")
        while process.stdout.readline() not in ("looping\n", ""):
            pass  # until the search is in actions(), looping
        # The search's thread says so at once; the main thread then enters its wait,
        # under its Ctrl-C handler, which nothing announces (a Ctrl-C before it exits
        # 130 quietly, not this test's case).
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 2
    assert err == (f"zerosum: error: game file {path}: the search did not stop within 2 s "
                   "of Ctrl-C: its code loops\n")


def test_an_unwritten_method_and_an_error_name_their_method_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A method left to GameBase (its NotImplementedError says nothing) is named; an error
    in the game's own code names its method and the file's line, checked or not."""
    text = Path(EXAMPLE).read_text()
    start = text.index("    def is_maxs_turn(")
    unwritten = write(tmp_path, text[:start] + text[text.index("\n    def ", start + 1) + 1:],
                      "noturn.py")
    status, _, err = zerosum(["play", "--game-file", unwritten, "--side", "none"], capsys)
    assert (status, err) == (2, f"zerosum: error: game file {unwritten} breaks a rule: the "
                             "game's methods raise no exception on states reached in play: "
                             "is_maxs_turn() is not written: the game must define it "
                             "(playthrough 1, at the start) (--no-check plays it anyway)\n")
    status, _, err = zerosum(["play", "--game-file", unwritten, "--side", "none",
                              "--opponent", "random", "--no-check"], capsys)
    assert (status, err) == (2, f"zerosum: error: game file {unwritten}: is_maxs_turn() is "
                             "not written: the game must define it\n")
    crashing = twentyone("actions", "return [(1, 2, 3)[args[0][0]]]")
    line = crashing.splitlines().index("        return [(1, 2, 3)[args[0][0]]]") + 1
    path = write(tmp_path, crashing, "index.py")
    status, _, err = zerosum(["perft", "--game-file", path, "--depth", "2"], capsys)
    assert (status, err) == (2, f"zerosum: error: game file {path} breaks a rule: the game's "
                             "methods raise no exception on states reached in play: "
                             "IndexError: tuple index out of range in actions(), index.py "
                             f"line {line} (playthrough 1, at the start) (--no-check plays it "
                             "anyway)\n")


def test_a_tuple_move_is_read_as_it_is_written_or_by_its_words() -> None:
    """A move shown as `(0, 2)` may be typed so, or `0 2`, `0,2`, `[0, 2]`; a text that
    matches no legal move, or several, is refused as before."""
    from zerosum.game import GameBase, InputError

    class Cells(GameBase[tuple[int, ...], tuple[int, int]]):
        def initial_state(self) -> tuple[int, ...]:
            return ()

        def actions(self, state: tuple[int, ...]) -> list[tuple[int, int]]:
            return [(0, 2), (1, 0), (0, 20)]

    game, state = Cells(), ()
    for typed in ("(0, 2)", "0 2", "0,2", " [0 , 2] ", "(0 2)"):
        assert game.parse_move(state, typed) == (0, 2)
    assert game.parse_move(state, "1 0") == (1, 0)
    for typed in ("0", "2 0", "", "()", "0 2 0"):
        with pytest.raises(InputError, match="not a legal move here"):
            game.parse_move(state, typed)


def test_serve_and_tournaments_take_no_check_as_their_advice_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The check's refusal says "--no-check plays it anyway": every command taking a game
    file takes it (serve refused the flag it advised)."""
    pytest.importorskip("starlette")
    from zerosum.cli.serve import own_games_and_agents
    from zerosum.game import InputError

    path = write(tmp_path, BROKEN)
    with pytest.raises(InputError, match=r"\(--no-check plays it anyway\)$"):
        own_games_and_agents([path], [])
    games, _ = own_games_and_agents([path], [], check=False)
    assert [g.name for g in games] == ["game"]
    args = ["tournament", "game-file", path, "--agent", "random", "--agent", "minimax",
            "--games", "2", "--workers", "1", "--db", str(tmp_path / "t.sqlite")]
    status, _, err = zerosum(args, capsys)
    assert status == 2 and err.endswith("(--no-check plays it anyway)\n")
    status, out, err = zerosum([*args, "--no-check"], capsys)
    assert (status, err) == (0, "") and "2 games, 2 agents" in out
