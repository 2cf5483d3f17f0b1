"""`zerosum review GAME RECORD`: the value after every move of a recorded game, exact
where a solver settles it, and the moves that changed the game's value."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.game import InputError
from zerosum.games.registry import get_game
from zerosum.match import MoveRecord
from zerosum.records import HUMAN, game_record
from zerosum.review import Value, read_lines, read_pdn, read_records, verdict

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def review(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["review", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_tictactoe_game_with_its_four_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    # Each value from its mover's side (O's -1: X wins), the words naming the winner.
    assert review(capsys, "tictactoe", str(EXAMPLES / "tictactoe-game.txt")) == [
        "Tic-tac-toe: 9 moves; values exact by the strong solver (budget 200,000 positions), "
        "else estimates by iterative deepening at depth 9",
        "start   0 (draw, proven)",
        "1. X 5  0 (draw, proven)",
        "2. O 2  -1 (X wins in 5 plies)  <- O turned a draw into a loss: draw -> loss",
        "3. X 1  +1 (X wins in 4 plies)",
        "4. O 9  -1 (X wins in 3 plies)",
        "5. X 3  0 (draw, proven)  <- X threw a win away: win -> draw",
        "6. O 7  0 (draw, proven)",
        "7. X 4  -1 (O wins in 1 ply)  <- X turned a draw into a loss: draw -> loss",
        "8. O 6  0 (draw, proven)  <- O threw a win away: win -> draw",
        "9. X 8  0 (draw, proven)",
        "Draw: the board is full",
    ]


def test_a_connect_four_4x4_game_by_the_perfect_solver(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = review(capsys, "connect4", str(EXAMPLES / "connect4-4x4-game.txt"),
                 "--width", "4", "--height", "4")
    assert out[0].startswith("Connect Four: 8 moves; values exact by the game's solver")
    assert out[1:] == [
        "start        0 (draw, proven)",
        "1. Red 1     0 (draw, proven)",
        "2. Yellow 2  0 (draw, proven)",
        "3. Red 2     -1 (Yellow wins in 13 plies)  <- Red turned a draw into a loss: "
        "draw -> loss",
        "4. Yellow 1  0 (draw, proven)  <- Yellow threw a win away: win -> draw",
        "5. Red 3     0 (draw, proven)",
        "6. Yellow 4  0 (draw, proven)",
        "7. Red 4     -1 (Yellow wins in 9 plies)  <- Red turned a draw into a loss: "
        "draw -> loss",
        "8. Yellow 3  0 (draw, proven)  <- Yellow threw a win away: win -> draw",
        "unfinished",
    ]


def test_a_checkers_4x4_pdn_game_ends_in_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    out = review(capsys, "checkers", str(EXAMPLES / "checkers4-game.pdn"), "--size", "4")
    assert out[1:] == [
        "start         0 (draw, proven)",
        "1. Black 1-3  -1 (White wins in 5 plies)  <- Black turned a draw into a loss: "
        "draw -> loss",
        "2. White 8-5  -1 (Black wins in 3 plies)  <- White threw a win away: win -> loss",
        "3. Black 3x8  +1 (Black wins in 2 plies)",
        "4. White 7-5  -1 (Black wins in 1 ply)",
        "5. Black 8x3  +1 (Black wins, proven)",
        "White has no pieces left: Black wins",
    ]


def test_a_long_review_reports_its_progress_on_stderr(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import zerosum.cli.review as command
    from zerosum.cli.table import StderrProgress

    monkeypatch.setattr(command, "StderrProgress", lambda: StderrProgress(after=0.0))
    assert main(["review", "tictactoe", str(EXAMPLES / "tictactoe-game.txt")]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 12  # stdout keeps only the review
    # The last position is valued first (the solver works backwards from the end).
    assert [line.split("] ")[1] for line in captured.err.splitlines()] == [
        f"position {i} of 10" for i in range(10, 0, -1)]


def test_too_big_to_solve_gives_estimates_said_to_be_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.pdn"
    record.write_text("1. 11-15 22-18 2. 15x22 25x18 *\n")
    out = review(capsys, "checkers", str(record), "--budget", "1000", "--depth", "2")
    assert out[0] == ("Checkers: 4 moves; values exact by the strong solver (budget 1,000 "
                      "positions), else estimates by the engine at depth 2")
    assert out[1:] == [
        "start           -0.01 (estimate, about even)",
        "1. Black 11-15  -0.016 (estimate, about even)",
        "2. White 22-18  -0.007 (estimate, about even)",
        "3. Black 15x22  +0.007 (estimate, about even)",
        "4. White 25x18  -0.007 (estimate, about even)",
        "unfinished",
        "not decided: after moves 1-4 the value is an estimate, and a mistake there cannot "
        "be told; a larger --budget (now 1,000) may decide more",
    ]


def test_undecided_moves_are_named_as_ranges() -> None:
    from zerosum.review import Reviewed, Value, undecided

    exact, guess = Value(1, True, 3, "solver"), Value(0.1, False, None, "estimate")
    moves = [Reviewed(n, "X", "1", guess if n in (1, 2, 3, 5, 8, 9) else exact, None)
             for n in range(1, 10)]
    assert undecided(moves) == "1-3, 5, 8-9"
    assert undecided([Reviewed(1, "X", "1", exact, None)]) == ""


def test_what_the_project_writes_reads_back() -> None:
    """A record from records.py (the page's download, a tournament's export) reads back
    to its moves: checkers PDN with figures and a set-up position, Connect Four's move
    string, the moves one a line."""
    today = datetime.date(2026, 11, 26)
    for name, options, moves in [("checkers", {"size": 8}, ["11-15", "22-18", "15x22"]),
                                 ("connect4", {}, ["4", "4", "3"]),
                                 ("tictactoe", {}, ["5", "1", "9"])]:
        spec = get_game(name)
        game = spec.create(**options)
        state = start = game.initial_state()
        plies, names = [], []
        for i, text in enumerate(moves):
            action = game.parse_move(state, text)
            by = HUMAN if i % 2 else "alphabeta"
            plies.append(MoveRecord(game.format_move(action), 0.5, "+0.1 (estimate)", 4,
                                    1234))
            names.append(by)
            state = game.result(state, action)
        text, _ = game_record(spec.record, game, start, plies, names, None, today)
        games = read_records(text, spec.record)
        assert [(g.moves, g.position) for g in games] == [(tuple(moves), None)]


def test_a_stored_game_that_cannot_be_replayed_is_named_not_a_crash() -> None:
    """An export of stored moves (a damaged or edited result): an illegal move, or a lost
    turn in a game that has no passing, is one message naming the game and the move."""
    from zerosum.game import InputError
    from zerosum.tournament.export import export
    from zerosum.tournament.jobs import GameJob, GameResult

    today = datetime.date(2026, 11, 26)
    for job, moves, error in [
            (GameJob(7, "tictactoe", ("random", "random")), ["5", "5"],
             "game 7, move 2 (5): cell 5 is not free"),
            (GameJob(8, "checkers", ("random", "random"), options=(("size", 8),)),
             ["11-15", "", "22-18"], "game 8, move 2: a lost turn, but this game has no "
             "passing")]:
        stored = tuple(MoveRecord(m, 0.0, by=i % 2, forfeit="" if m else "late")
                       for i, m in enumerate(moves))
        with pytest.raises(InputError) as e:
            export({job.number: job}, {job.number: GameResult(job.number, 0.5, "?", stored)},
                   today)
        assert str(e.value) == error


def test_a_tournament_export_holds_several_games() -> None:
    text = ("# game 1: alphabeta (X) - random (O): 1-0, X wins\n1. 5\n2. 1\nunfinished\n\n"
            "# game 2: random (X) - alphabeta (O): 0-1, O wins\n1. 1\n2. 5\n3. 9\nunfinished\n")
    assert [g.moves for g in read_lines(text)] == [("5", "1"), ("1", "5", "9")]
    pdn = ('[Event "a"]\n[SetUp "1"]\n[FEN "W:W18:B14"]\n\n1... 18x9 {x, 1 s} 1-0\n\n'
           '[Event "b"]\n\n1. 11-15 22-18 2. 15x22 *\n')
    games = read_pdn(pdn)
    assert [(g.moves, g.position) for g in games] == [
        (("18x9",), "W:W18:B14"), (("11-15", "22-18", "15x22"), None)]


def test_a_set_up_pdn_position_is_reviewed_from_its_fen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "end.pdn"
    record.write_text('[FEN "W:W18:B14"]\n\n1... 18x9 1-0\n')
    out = review(capsys, "checkers", str(record), "--number", "1")
    assert out[1:] == ["start          +1 (White wins in 1 ply)",
                       "1. White 18x9  +1 (White wins, proven)",
                       "Black has no pieces left: White wins"]


def test_only_exact_values_give_verdicts() -> None:
    win, draw, loss = (Value(v, True, None, "solver") for v in (1, 0, -1))
    assert verdict(win, draw, maxs=True) == "threw a win away: win -> draw"
    assert verdict(loss, draw, maxs=False) == "threw a win away: win -> draw"
    assert verdict(draw, loss, maxs=True) == "turned a draw into a loss: draw -> loss"
    assert verdict(win, win, maxs=True) is None
    assert verdict(Value(0.5, False, None, "estimate"), draw, maxs=True) is None


@pytest.mark.parametrize(("text", "args", "error"), [
    (None, ["tictactoe"], "zerosum: error: record missing.txt: no such file"),
    ("", ["tictactoe"], "zerosum: error: no game in the record: expected moves one a "
     "line (5, or 1. 5)"),
    ("", ["connect4"], "zerosum: error: no game in the record: expected moves one a "
     "line (5, or 1. 5), or a Connect Four move string"),
    ("1. 5\n2. 5\n", ["tictactoe"], "zerosum: error: move 2 (5): cell 5 is not free"),
    ("1. 5\n3. 1\n", ["tictactoe"], "zerosum: error: line 2: move '3' where move 2 was "
     "expected"),
    ("1. 5\nDraw\n", ["tictactoe", "--number", "2"],
     "zerosum: error: game.txt holds 1 game, not 2"),
    ("[Event oops]\n", ["checkers"], "zerosum: error: not a PDN tag: [Event oops]"),
])
def test_bad_records_are_one_line_and_status_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        text: str | None, args: list[str], error: str) -> None:
    monkeypatch.chdir(tmp_path)
    if text is not None:
        (tmp_path / "game.txt").write_text(text)
    game, *rest = args
    record = "missing.txt" if text is None else "game.txt"
    assert main(["review", game, record, *rest]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [error]


def test_moves_one_a_line_as_a_person_types_them() -> None:
    """The help promises "moves one a line": a file of ten Connect Four columns, one a
    line, is one game of ten moves (it was read as five games), as are bare tic-tac-toe
    cells and checkers moves; a move string still reads as one; mixing is one line."""
    ten = "4\n4\n3\n5\n2\n6\n4\n4\n1\n7\n"
    assert [g.moves for g in read_records(ten, "move-string")] == [
        ("4", "4", "3", "5", "2", "6", "4", "4", "1", "7")]
    assert [g.moves for g in read_records("4453\nRed wins: four in a row\n",
                                          "move-string")] == [("4", "4", "5", "3")]
    assert [g.moves for g in read_records("5\n1\n9\nDraw\n\n1\n2\n", "plain")] == [
        ("5", "1", "9"), ("1", "2")]
    # a move string is Connect Four's alone: Take-Stones' 12 is one move
    assert [g.moves for g in read_records("12\n3\n", "plain")] == [("12", "3")]
    assert [g.moves for g in read_records("11-15\n22-18\n", "plain")] == [
        ("11-15", "22-18")]
    for text, error in [
            ("4453\n2\n", "line 2: '2' after a move string: give the moves one a line "
             "or all in the string"),
            ("5\n2. 1\n", "line 2: '2. 1' mixes numbered and unnumbered moves: number "
             "every move of a game or none"),
            ("1. 5\n9\n", "line 2: '9' mixes numbered and unnumbered moves: number "
             "every move of a game or none"),
            ("1. 5\n" + "9" * 5000 + ". 1\n", "line 2: move '999999999999999999999999'... "
             "(5000 characters) where move 2 was expected")]:
        with pytest.raises(InputError) as e:
            read_records(text, "move-string")
        assert str(e.value) == error
