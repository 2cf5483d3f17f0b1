"""The assignment programs against the statements of their course texts.

Each test is named after what a course's assignment text says its program must do or may
be given, and checks it on the program itself with exact values (a column and a node
count, a whole output, the bytes of a written file). Where the expected figures follow
from the text's rules rather than from a published example, a small reference written
here from those rules, independently of the library, computes them too.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from zerosum.cli import main as zerosum
from zerosum.frontends import connect4 as comp3608
from zerosum.frontends import cs540_takestones, csc242_checkers, nqueens_a4, uta_logic
from zerosum.frontends import uta_maxconnect4 as uta
from zerosum.games.checkers import Checkers, State

ROOT = Path(__file__).resolve().parents[1]


def run(main: Callable[[Sequence[str]], int], args: list[str],
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


# == COMP3608, ConnectFour.py ==============================================================
#
# The reference: the board as the text gives it (rows bottom first, 'r' 'y' '.'), the
# search as it describes it: depth-first, columns 0 to 6, a node examined when its terminal
# test runs (the root too: the text's example counts 297 so), the first of equal children
# kept; UTILITY +-10000 for a red or yellow four (red asked first), the EVALUATION
# score(red) - score(yellow) at the depth limit, and on a full board without a four (the
# text gives no utility there; the program uses the evaluation, and so does this).

EXAMPLE = ".ryyrry,.rryry.,..y.r..,..y....,.......,......."
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Reference:
    def __init__(self, state: str) -> None:
        self.grid = [list(row) for row in state.split(",")]  # grid[row][column], row 0 bottom
        self.nodes = 0

    def at(self, c: int, r: int) -> str:
        return self.grid[r][c] if 0 <= c < 7 and 0 <= r < 6 else "."

    def runs(self, p: str) -> dict[int, int]:
        """Maximal runs of p's tokens of each length, over the four directions."""
        found: dict[int, int] = {}
        for dc, dr in DIRECTIONS:
            for c in range(7):
                for r in range(6):
                    if self.at(c, r) == p and self.at(c - dc, r - dr) != p:
                        n = 1
                        while self.at(c + n * dc, r + n * dr) == p:
                            n += 1
                        found[n] = found.get(n, 0) + 1
        return found

    def score(self, p: str) -> int:
        runs = self.runs(p)
        tokens = sum(row.count(p) for row in self.grid)
        return (tokens + 10 * runs.get(2, 0) + 100 * runs.get(3, 0)
                + 1000 * sum(k for n, k in runs.items() if n >= 4))

    def winner(self, p: str) -> bool:
        return any(n >= 4 for n in self.runs(p))

    def full(self) -> bool:
        return "." not in "".join(self.grid[5])

    def evaluation(self) -> int:
        return self.score("r") - self.score("y")

    def value(self, red: bool, depth: int, limit: int, alpha: float, beta: float,
              prune: bool) -> tuple[float, int | None]:
        self.nodes += 1  # the terminal test runs here
        if self.winner("r"):
            return 10000, None
        if self.winner("y"):
            return -10000, None
        if self.full() or depth == limit:
            return self.evaluation(), None
        best: float = -1e9 if red else 1e9
        column = None
        for c in range(7):
            r = next((r for r in range(6) if self.grid[r][c] == "."), None)
            if r is None:
                continue
            self.grid[r][c] = "r" if red else "y"
            v, _ = self.value(not red, depth + 1, limit, alpha, beta, prune)
            self.grid[r][c] = "."
            if (v > best) if red else (v < best):
                best, column = v, c
            if prune:
                if red:
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
                else:
                    if best <= alpha:
                        break
                    beta = min(beta, best)
        return best, column


def reference_output(state: str, player: str, mode: str, depth: int) -> str:
    ref = Reference(state)
    _, column = ref.value(player == "red", 0, depth, -1e9, 1e9, mode == "A")
    return f"{column}\n{ref.nodes}\n"


def test_reference_gives_the_texts_example_1_and_297() -> None:
    assert reference_output(EXAMPLE, "red", "A", 4) == "1\n297\n"


def test_the_texts_example_red_alpha_beta_depth_4_prints_1_and_297(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(comp3608.main, [EXAMPLE, "red", "A", "4"], capsys) == (0, "1\n297\n", "")


# Many red tokens: in every column but the middle one, three reds stacked.
FULL_OF_RED = "rrr.rrr,rrr.rrr,rrr.rrr,.......,.......,......."


def test_state_full_of_red_tokens_with_red_to_move_gives_a_column_and_a_node_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Every move makes a four (the middle one completes the bottom row): the root and its
    # 7 children are examined, and the leftmost of the equal wins is kept.
    assert run(comp3608.main, [FULL_OF_RED, "red", "M", "3"], capsys) == (0, "0\n8\n", "")
    assert run(comp3608.main, [FULL_OF_RED, "red", "A", "5"], capsys) == (0, "0\n8\n", "")


def test_state_full_of_red_tokens_with_yellow_to_move_gives_a_column_and_a_node_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(comp3608.main, [FULL_OF_RED, "yellow", "M", "3"], capsys) == (0, "0\n99\n", "")
    assert run(comp3608.main, [FULL_OF_RED, "yellow", "A", "5"], capsys) == (0, "0\n86\n", "")


def test_state_with_only_red_tokens_and_red_to_move_is_searched(
        capsys: pytest.CaptureFixture[str]) -> None:
    state = "rrr.rrr,.......,.......,.......,.......,......."
    assert run(comp3608.main, [state, "red", "M", "3"], capsys) == (0, "3\n344\n", "")
    assert run(comp3608.main, [state, "yellow", "A", "5"], capsys) == (0, "3\n1800\n", "")


UNBALANCED = [
    "rrr.rrr,.......,.......,.......,.......,.......",  # 6 red, 0 yellow
    "r......,.......,.......,.......,.......,.......",  # one red: red moves again
    "yy.....,.......,.......,.......,.......,.......",  # two yellow, no red
    "ryyyr.r,r.y.r..,r......,.......,.......,.......",  # 6 red, 4 yellow, no four
    "yyy.yyy,rrr.rrr,rrr.rrr,.......,.......,.......",  # 12 red, 6 yellow
    "ryyrryy,yr..ryy,r.....y,.......,.......,.......",  # 6 red, 8 yellow
    "yyr.ryy,y...ryy,y.....y,.......,.......,.......",  # 3 red, 9 yellow
]


@pytest.mark.parametrize("state", UNBALANCED)
@pytest.mark.parametrize("player", ["red", "yellow"])
@pytest.mark.parametrize("mode, depth", [("M", 3), ("A", 4)])
def test_a_state_that_is_not_a_balanced_game_follows_the_search_rules_node_for_node(
        state: str, player: str, mode: str, depth: int,
        capsys: pytest.CaptureFixture[str]) -> None:
    expected = reference_output(state, player, mode, depth)
    assert run(comp3608.main, [state, player, mode, str(depth)], capsys) == (0, expected, "")


def test_a_full_board_without_a_four_in_the_search_is_valued_by_the_evaluation(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Two empty cells on top, 21 red and 19 yellow, no four anywhere: both moves lead to
    # a full board (the root, 2 children, 1 grandchild each); the text gives no utility
    # there, the evaluation values it.
    state = "ryryryr,ryryryr,yryryry,yryryry,ryryryr,ryr.ry."
    for player in ("red", "yellow"):
        assert reference_output(state, player, "M", 2) == "3\n5\n"
        assert run(comp3608.main, [state, player, "M", "2"], capsys) == (0, "3\n5\n", "")


def test_tournament_version_prints_only_the_column_for_a_state_full_of_red_tokens(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Red to move wins at once in every column (the middle one completes the bottom
    # row); yellow to move cannot stop it but must still answer with a column.
    status, out, err = run(comp3608.main, [FULL_OF_RED, "red"], capsys)
    assert (status, err) == (0, "") and out in {f"{c}\n" for c in range(7)}
    status, out, err = run(comp3608.main, [FULL_OF_RED, "yellow"], capsys)
    assert (status, err) == (0, "") and out in {f"{c}\n" for c in range(7)}


def test_tournament_version_takes_a_win_and_blocks_one_whatever_the_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Yellow has no token; red threatens column 3 on the bottom row.
    state = "rrr....,.......,.......,.......,.......,......."
    assert run(comp3608.main, [state, "red"], capsys) == (0, "3\n", "")
    assert run(comp3608.main, [state, "yellow"], capsys) == (0, "3\n", "")


def test_tournament_call_form_runs_from_the_launcher_on_an_unbalanced_state() -> None:
    launcher = ROOT / "assignments" / "comp3608-connect4" / "ConnectFour.py"
    done = subprocess.run([sys.executable, str(launcher), "rrr....,r......,r......,"
                           ".......,.......,.......", "yellow"],
                          capture_output=True, text=True, timeout=60, check=False)
    # Red threatens a four in column 0 and on the bottom row: yellow blocks one of them.
    assert done.returncode == 0 and done.stderr == "" and done.stdout in ("0\n", "3\n")


def test_possible_to_make_in_a_real_game_still_means_no_floating_pieces(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(comp3608.main, [".......,rr.....,.......,.......,.......,.......",
                                           "red", "A", "2"], capsys)
    assert (status, out) == (2, "")
    assert err == ("ConnectFour.py: STATE: column 0 (of 0-6) has a piece floating above an "
                   "empty cell\n")


# == UTA CSE 4308, maxconnect4.py ==========================================================
#
# A file is six rows of seven digits (top row first; 0 empty, 1 and 2 the players'
# pieces) and the player who plays next; pieces fall, so none floats. Nothing else limits
# a board: the program plays any such file.

FRAME = " -----------------\n"


def framed(rows: list[str]) -> str:
    return FRAME + "".join(f" | {' '.join(row)} |\n" for row in rows) + FRAME


def points(rows: list[str], player: str) -> int:
    """The text's score, counted here cell by cell: quadruples of four consecutive cells
    in a row, a column or either diagonal, all holding the player's pieces."""
    grid = {(c, r): rows[5 - r][c] for c in range(7) for r in range(6)}
    return sum(all(grid.get((c + k * dc, r + k * dr)) == player for k in range(4))
               for c in range(7) for r in range(6)
               for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))


# A full board with 22 pieces of player 1 and 20 of player 2: no alternating game ends so.
FULL_22_20 = ["1112121", "2121212", "1212121", "2121212", "1212121", "2121212"]


def board_file(rows: list[str], next_player: int) -> str:
    return "\n".join([*rows, str(next_player)]) + "\n"


def test_full_board_with_22_and_20_pieces_is_printed_with_its_score_and_one_move_exits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "".join(FULL_22_20).count("1") == 22 and "".join(FULL_22_20).count("2") == 20
    score1, score2 = points(FULL_22_20, "1"), points(FULL_22_20, "2")
    assert (score1, score2) == (12, 11)  # every diagonal quadruple is one colour
    source, target = tmp_path / "full.txt", tmp_path / "out.txt"
    source.write_text(board_file(FULL_22_20, 2))
    expected = ("\nMaxConnect-4 game\n\nGame state before move:\n" + framed(FULL_22_20)
                + f"Score: Player 1 = {score1}, Player 2 = {score2}\n\n"
                + "BOARD FULL\n\nGame Over!\n\n")
    assert run(uta.main, ["one-move", str(source), str(target), "4"], capsys) == (0, expected,
                                                                                   "")
    assert not target.exists()  # the text: if the board is full, exit


def test_full_board_with_22_and_20_pieces_is_printed_with_its_score_and_interactive_exits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "full.txt").write_text(board_file(FULL_22_20, 1))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for who in ("computer-next", "human-next"):
        expected = ("\nMaxConnect-4 game\n\nGame state before move:\n" + framed(FULL_22_20)
                    + "Score: Player 1 = 12, Player 2 = 11\n\n"
                    + "BOARD FULL\n\nGame Over!\n\nFinal score 12-11: Player 1 wins.\n")
        assert run(uta.main, ["interactive", "full.txt", who, "3"], capsys) == (0, expected, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full.txt"]


# Player 1 has seven pieces, player 2 none, and either may be next.
LOPSIDED = ["0000000", "0000000", "0000000", "0001000", "0001000", "0111110"]


def test_the_program_may_be_either_player_as_the_state_in_the_input_file_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.txt"
    for next_player, column, row in ((2, 4, 2), (1, 4, 2)):
        source.write_text(board_file(LOPSIDED, next_player))
        target = tmp_path / f"out{next_player}.txt"
        status, out, err = run(uta.main, ["one-move", str(source), str(target), "4"], capsys)
        after = list(LOPSIDED)
        after[row] = after[row][:column - 1] + str(next_player) + after[row][column:]
        assert (status, err) == (0, "")
        assert out.endswith(
            f"\n\nmove 8: Player {next_player}, column {column}\n\nGame state after move:\n"
            + framed(after) + f"Score: Player 1 = {points(after, '1')}, "
            f"Player 2 = {points(after, '2')}\n\n")
        assert target.read_bytes() == board_file(after, 3 - next_player).replace(
            "\n", "\r\n").encode()


def test_a_board_with_uneven_counts_is_played_as_well_as_plain_minimax_plays_it() -> None:
    from zerosum.games.maxconnect4 import MaxConnect4, parse_board
    from zerosum.games.registry import kernel_of
    from zerosum.result import Limit
    from zerosum.search import minimax_search
    from zerosum.search.driver import analyse_with

    game = MaxConnect4()
    # 7 empty cells, 22 pieces of player 1 and 13 of player 2: searched to the end of the
    # game, the engine's value and move are exact.
    rows = ["0000000", "1211212", "1111121", "2121112", "1112121", "2121212"]
    assert ("".join(rows).count("1"), "".join(rows).count("2")) == (22, 13)
    for next_player in (1, 2):
        pos = parse_board(board_file(rows, next_player), counts=False)
        exact = minimax_search(game, pos)
        result = analyse_with(kernel_of("maxconnect4"), game, pos, Limit(depth=3))
        assert result.value == exact.value
        assert minimax_search(game, game.result(pos, result.action)).value == exact.value


def test_interactive_plays_a_board_with_uneven_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "start.txt").write_text(board_file(LOPSIDED, 2))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    status, out, err = run(uta.main, ["interactive", "start.txt", "human-next", "2"], capsys)
    assert (status, err) == (0, "")
    human = list(LOPSIDED)
    human[5] = "2111110"
    assert "\n\nmove 8: Player 2, column 1\n\nGame state after move:\n" + framed(human) in out
    assert (tmp_path / "human.txt").read_bytes() == board_file(human, 1).replace(
        "\n", "\r\n").encode()
    computer = (tmp_path / "computer.txt").read_text().splitlines()
    assert computer[6] == "2" and sum(row.count("1") for row in computer[:6]) == 8
    assert out.endswith("\n\nEnd of input: the game stops here.\n")


def test_if_the_input_file_does_not_exist_one_move_starts_from_an_empty_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # One-move reads its input file "as in interactive mode", where a missing file gives
    # the empty board.
    monkeypatch.chdir(tmp_path)
    status, out, err = run(uta.main, ["one-move", "missing.txt", "out.txt", "2"], capsys)
    empty = ["0000000"] * 6
    after = [*empty[:5], "0001000"]
    assert (status, err) == (0, "")
    assert out == ("\nMaxConnect-4 game\n\nGame state before move:\n" + framed(empty)
                   + "Score: Player 1 = 0, Player 2 = 0\n\n"
                   + "\n\nmove 1: Player 1, column 4\n\nGame state after move:\n"
                   + framed(after) + "Score: Player 1 = 0, Player 2 = 0\n\n")
    assert (tmp_path / "out.txt").read_bytes() == board_file(after, 2).replace(
        "\n", "\r\n").encode()
    assert not (tmp_path / "missing.txt").exists()


def test_eval_explanation_txt_is_the_file_the_text_names(tmp_path: Path) -> None:
    folder = ROOT / "assignments" / "uta-maxconnect4"
    assert (folder / "eval_explanation.txt").is_file()
    assert not (folder / "eval_explanation.md").exists()
    assert zerosum(["assignment", "export", "uta-maxconnect4", str(tmp_path / "x")]) == 0
    exported = (tmp_path / "x" / "eval_explanation.txt").read_text()
    assert "bench/" not in exported and "zerosum/games/maxconnect4/bitboard.py" in exported


@pytest.mark.parametrize("first, computer_moves", [("computer-first", True),
                                                   ("human-first", False)])
def test_computer_first_and_human_first_choose_who_makes_the_next_move(
        first: str, computer_moves: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The text's usage line says computer-next/human-next; its description of the same
    # argument, computer-first/human-first.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, out, err = run(uta.main, ["interactive", "missing.txt", first, "2"], capsys)
    assert (status, err) == (0, "")
    assert ("move 1: Player 1, column 4" in out) == computer_moves
    assert (tmp_path / "computer.txt").exists() == computer_moves


# == UTA CSE 4308, check_true_false.py =====================================================

RULES = ROOT / "assignments" / "uta-logic" / "wumpus_rules.txt"
FACTS = "(not S_1_1)\n(not B_1_1)\nS_1_3\n(not S_2_2)\nB_1_2\n"


def check_true_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str], knowledge: str,
                     statement: str) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb.txt").write_text(knowledge)
    (tmp_path / "st.txt").write_text(statement)
    return run(uta_logic.main, [str(RULES), "kb.txt", "st.txt"], capsys)


def test_statement_file_with_more_than_one_expression_only_the_first_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The second line is not even valid: it is not read.
    result = check_true_false(tmp_path, monkeypatch, capsys, FACTS, "M_1_4\n(P_1_1)\nX_9_9\n")
    assert result == (0, "definitely true\n", "")
    assert (tmp_path / "result.txt").read_text() == "definitely true\n"
    result = check_true_false(tmp_path, monkeypatch, capsys, FACTS,
                              "# a comment first\n\n(not P_1_3)\nM_1_4\n")
    assert result == (0, "definitely false\n", "")


def test_a_line_with_a_single_space_is_not_read_successfully(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = check_true_false(tmp_path, monkeypatch, capsys,
                                        FACTS.replace("S_1_3\n", "S_1_3\n \n"), "M_1_4\n")
    assert (status, out) == (2, "")
    assert err == ("check_true_false.py: kb.txt:4:1: a blank line must be empty; this one "
                   "holds white space\n")
    assert not (tmp_path / "result.txt").exists()
    # Totally empty lines are fine.
    assert check_true_false(tmp_path, monkeypatch, capsys, FACTS.replace("\n", "\n\n"),
                            "M_1_4\n") == (0, "definitely true\n", "")


@pytest.mark.parametrize("statement, answer", [
    ("(and)", "definitely true"),  # an "and" with zero substatements is true
    ("(or)", "definitely false"),  # an "or" or "xor" with zero substatements is false
    ("(xor)", "definitely false"),
    ("(xor M_1_4 M_2_3 M_1_2)", "definitely true"),  # exactly one substatement true
    ("(xor M_1_4 (not M_2_3))", "definitely false"),  # two true: not exactly one
])
def test_and_or_xor_connect_any_number_of_statements(
        statement: str, answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check_true_false(tmp_path, monkeypatch, capsys, FACTS,
                            statement + "\n") == (0, answer + "\n", "")


def test_both_true_and_false_when_the_knowledge_base_is_always_false(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The rules say (2,2) has no monster.
    assert check_true_false(tmp_path, monkeypatch, capsys, FACTS + "M_2_2\n",
                            "P_3_3\n") == (0, "both true and false\n", "")


# == CS 540, TakeStones ====================================================================


def test_the_texts_example_with_min_to_move_prints_its_trace_and_next_move(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `TakeStones 7 3 1 4 2 3`: stones 3 5 6 7 left, the last move 2, depth 3; one child
    # (6), whose one child (3) ends the game. Each node, as it returns: the stone taken to
    # reach it, the stones available there, its final alpha and beta (tab-separated).
    trace = ("3\n5 7\nalpha: -1000\tbeta: 1000\n"
             "6\n3 5 7\nalpha: 100\tbeta: 1000\n"
             "2\n3 5 6 7\nalpha: -1000\tbeta: 100\n"
             "NEXT MOVE\n6\n3 5 7\n")
    assert run(cs540_takestones.main, ["7", "3", "1", "4", "2", "3"], capsys) == (0, trace, "")


@pytest.mark.parametrize("args, move, left", [
    (["7", "0", "0"], "1", "2 3 4 5 6 7"),  # first move: an odd stone below 7/2 (1 or 3)
    (["6", "0", "0"], "1", "2 3 4 5 6"),  # n = 6: only stone 1 is below 3
    (["7", "2", "3", "6", "0"], "1", "2 4 5 7"),  # the text's input: Max to move, depth 0
])
def test_the_first_move_and_the_texts_input_give_the_next_move(
        args: list[str], move: str, left: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(cs540_takestones.main, args, capsys)
    assert (status, err) == (0, "") and out.endswith(f"NEXT MOVE\n{move}\n{left}\n")


# == CMPT 317, the N-Queens game ===========================================================


def queens_value(n: int, counted: bool) -> int:
    """Minimax of the N-Queens game (variation 1a, or 1b when `counted`), written from the
    text: queens go in the left-most empty column; the player who cannot place one loses;
    the utility is +-1, or +-k for k queens on the board."""
    def value(rows: tuple[int, ...]) -> int:
        col = len(rows)
        free = [r for r in range(n)
                if all(r != q and abs(r - q) != col - c for c, q in enumerate(rows))]
        if col == n or not free:  # the last player to place a queen wins
            sign = 1 if col % 2 == 1 else -1
            return sign * (col if counted else 1)
        values = [value((*rows, r)) for r in free]
        return max(values) if col % 2 == 0 else min(values)
    return value(())


@pytest.mark.parametrize("question, counted", [(nqueens_a4.q1, False), (nqueens_a4.q2, True),
                                               (nqueens_a4.q3, False), (nqueens_a4.q4, True)])
def test_minimax_values_of_variations_1a_and_1b_for_n_1_to_7(
        question: Callable[[Sequence[str]], int], counted: bool,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(question, ["--sizes", "1-7", "--format", "csv"], capsys)
    values = [int(line.split(",")[1]) for line in out.splitlines()[1:]]
    assert (status, err) == (0, "")
    assert values == [queens_value(n, counted) for n in range(1, 8)]
    assert values == ([1, 1, 1, -1, 1, 1, 1] if not counted else [1, 1, 1, -2, 5, 5, 5])


def test_if_all_n_queens_are_on_the_board_the_last_player_to_move_wins(
        capsys: pytest.CaptureFixture[str]) -> None:
    # N = 5 (odd): all five placed, player 1 moved last: utility N = +5 in variation 1b.
    status, out, _ = run(nqueens_a4.q2, ["--sizes", "5", "--format", "csv"], capsys)
    assert status == 0 and out.splitlines()[1].split(",")[1] == "+5"


# == CSC242, checkers ======================================================================


def test_4x4_each_player_starts_with_two_pieces_on_its_first_row_and_black_moves_first(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # 4x4, the random opponent, the person plays white; then the input ends.
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nw\n"))
    status, out, _ = run(csc242_checkers.main, ["--seed", "1"], capsys)
    start = (" A |   | b |   | b |\n   +---+---+---+---+\n"
             " B |   |   |   |   |\n   +---+---+---+---+\n"
             " C |   |   |   |   |\n   +---+---+---+---+\n"
             " D | w |   | w |   |\n   +---+---+---+---+\n"
             "Next to play: BLACK\n")
    assert status == 0 and start in out


def checkers_4x4_after(moves: list[str]) -> tuple[Checkers, State]:
    game = Checkers(4, "max")  # the program's default: the most pieces must be taken
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_move(state, move))
    return game, state


def test_the_texts_first_transcript_only_the_capture_is_valid_and_white_wins() -> None:
    game, state = checkers_4x4_after(["A2-B1", "D1-C2", "A4-B3", "C2xA4", "B1-C2"])
    assert [game.format_move(a) for a in game.actions(state)] == ["D3xB1"]
    game, state = checkers_4x4_after(["A2-B1", "D1-C2", "A4-B3", "C2xA4", "B1-C2", "D3xB1"])
    assert game.outcome(state) == "Black has no pieces left: White wins"


def test_the_texts_second_transcript_forced_captures_and_black_wins() -> None:
    line = ["A4-B3", "D3-C2", "B3-C4", "C2-B3", "C4-D3", "B3-A4", "A2-B3"]
    game, state = checkers_4x4_after(line)
    # "I had to capture with A4xC2 due to the maximum capture rule"
    assert [game.format_move(a) for a in game.actions(state)] == ["A4xC2"]
    game, state = checkers_4x4_after([*line, "A4xC2", "D3xB1"])
    assert [game.format_move(a) for a in game.actions(state)] == ["D1-C2"]
    game, state = checkers_4x4_after([*line, "A4xC2", "D3xB1", "D1-C2", "B1xD3"])
    assert game.outcome(state) == "White has no pieces left: Black wins"
