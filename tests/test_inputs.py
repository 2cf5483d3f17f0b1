"""Bad input, the project's one rule for numbers, the size limits of the readers, and the
writer's promises (the path named as typed, normal permissions, no temporary file left)."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zerosum.convert import (
    int_range,
    nonneg_int,
    parse_float,
    parse_int,
    parse_range,
    positive_float,
    positive_int,
)
from zerosum.fileio import check_writable, read_text, write_atomic
from zerosum.game import InputError
from zerosum.games.checkers import Checkers
from zerosum.games.maxconnect4 import parse_board
from zerosum.games.tree import MAX_DEPTH, TreeGame, parse_tree

# --- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("7", 7), ("+7", 7), (" 7 ", 7), ("-3", -3), ("007", 7), ("9" * 18, 10**18 - 1),
])
def test_parse_int_accepts_ascii_digits_with_one_sign(text: str, value: int) -> None:
    assert parse_int(text) == value


@pytest.mark.parametrize("text", [
    "²", "𝟚", "٣", "1٣", "", " ", "+", "-", "+-1", "1_000", "0x10", "1e3", "1.0", "9" * 19,
    "9" * 5000, "1\x00", "\x00",
])
def test_parse_int_refuses_everything_else(text: str) -> None:
    with pytest.raises(InputError) as e:
        parse_int(text, "depth", lo=1, hi=40)
    message = str(e.value)
    assert message.startswith("depth must be a whole number from 1 to 40, not '")
    assert "\n" not in message and len(message) < 120


def test_parse_int_bounds_are_in_the_message() -> None:
    with pytest.raises(InputError, match=r"^depth must be a whole number from 1 to 40, not '41'$"):
        parse_int("41", "depth", lo=1, hi=40)
    with pytest.raises(InputError, match=r"^n must be a whole number, 0 or more, not '-1'$"):
        parse_int("-1", "n", lo=0)
    assert parse_int("40", "depth", lo=1, hi=40) == 40


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "Infinity", "²", "1,5",
                                  "0", "-1", "0x1p3", "1e-400", "", "1" * 50])
def test_parse_float_refuses_non_finite_and_foreign(text: str) -> None:
    with pytest.raises(InputError, match=r"^seconds must be a number above 0 and at most 60"):
        parse_float(text, "seconds", lo=0, hi=60, lo_open=True)


def test_parse_float_accepts_plain_decimals() -> None:
    assert [parse_float(t) for t in ("0.5", ".5", "+2", "2e-3", "5.")] == [0.5, 0.5, 2.0,
                                                                             0.002, 5.0]


def test_ranges_are_bounded_before_anything_is_built() -> None:
    assert parse_range("1,3,5-7", lo=1, hi=10) == [1, 3, 5, 6, 7]
    for text, why in [("1-1000000000", "numbers from 1 to 64"), ("3-1", "from low to high"),
                      ("1-²", "numbers from 1 to 64"), ("", "numbers from 1 to 64")]:
        with pytest.raises(InputError, match=why):
            parse_range(text, "sizes", lo=1, hi=64)
    with pytest.raises(InputError, match="at most 100,000 values"):
        parse_range("0-999999999999")


def test_argparse_types_are_thin_wrappers() -> None:
    assert (nonneg_int("+0"), positive_int("12"), positive_float("0.25"),
            int_range("2-4")) == (0, 12, 0.25, [2, 3, 4])
    for convert, text in [(nonneg_int, "-1"), (positive_int, "0"), (positive_float, "nan"),
                          (int_range, "4-2"), (nonneg_int, "²")]:
        with pytest.raises(argparse.ArgumentTypeError):
            convert(text)  # type: ignore[operator]


# --- reading files ----------------------------------------------------------------------


def test_read_text_limit_and_special_files(tmp_path: Path) -> None:
    f = tmp_path / "big.txt"
    f.write_bytes(b"x" * 2049)
    with pytest.raises(InputError) as e:
        read_text(f, "tree file", limit=2048)
    assert str(e.value) == f"tree file {f}: larger than 2 KiB, the most a tree file may be"
    f.write_bytes(b"x" * 2048)
    assert read_text(f, "tree file", limit=2048) == "x" * 2048
    with pytest.raises(InputError, match=r"^matrix file /dev/zero: larger than 64 KiB"):
        read_text("/dev/zero", "matrix file", limit=64 * 1024)  # answers at once
    with pytest.raises(InputError, match="is a directory"):
        read_text(tmp_path, "tree file")
    f.write_bytes(b"ok\xff")
    with pytest.raises(InputError, match=r"not a text file \(byte 2 is not UTF-8\)"):
        read_text(f, "tree file")


def test_read_text_limits_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y" * 5000))
    with pytest.raises(InputError, match=r"^tree file <stdin>: larger than 4 KiB"):
        read_text("-", "tree file", limit=4096)
    monkeypatch.setattr("sys.stdin", io.StringIO("A[1 2]"))
    assert read_text("-", "tree file") == "A[1 2]"


# --- writing files ----------------------------------------------------------------------


def test_check_writable_names_the_path_as_typed(tmp_path: Path) -> None:
    check_writable(tmp_path / "new.txt")
    cases = [(tmp_path / "no" / "out.txt", f"output file {tmp_path}/no/out.txt: no folder"),
             (tmp_path, f"output file {tmp_path}: is a directory")]
    for path, message in cases:
        with pytest.raises(InputError) as e:
            check_writable(path)
        assert str(e.value).startswith(message)
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(InputError, match="permission denied"):
            check_writable(locked / "out.txt")


def test_written_files_get_normal_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.txt", "x\n")
        os.umask(0o077)
        write_atomic(tmp_path / "b.txt", "y\n", "\r\n")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "b.txt").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "b.txt").read_bytes() == b"y\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_write_errors_never_name_the_temporary_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        write_atomic(tmp_path / "missing" / "out.txt", "x")
    assert ".tmp" not in str(e.value) and f"{tmp_path}/missing/out.txt" in str(e.value)


def test_sigterm_during_a_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A child writes a large text through a slow stream; SIGTERM arrives mid-write."""
    script = textwrap.dedent("""
        import io, sys, time
        import zerosum.fileio as fio

        real_fdopen = fio.os.fdopen

        def slow_fdopen(*args, **kwargs):
            f = real_fdopen(*args, **kwargs)
            write = f.write

            def slow_write(text):
                print("writing", flush=True)
                time.sleep(30)
                return write(text)

            f.write = slow_write
            return f

        fio.os.fdopen = slow_fdopen
        fio.write_atomic(sys.argv[1], "x" * 1000)
    """)
    target = tmp_path / "out.txt"
    child = subprocess.Popen([sys.executable, "-c", script, str(target)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline() == "writing\n"  # the temporary file exists now
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] != []
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=20) == -signal.SIGTERM  # it still dies of the signal
    assert list(tmp_path.iterdir()) == []


def test_signal_handlers_are_restored_after_a_write(tmp_path: Path) -> None:
    before = signal.getsignal(signal.SIGTERM)
    write_atomic(tmp_path / "a.txt", "x")
    assert signal.getsignal(signal.SIGTERM) is before


# --- trees ------------------------------------------------------------------------------


def test_deep_trees_are_searched_or_refused_never_a_recursion_error() -> None:
    from zerosum.explain import explain_tree

    text = "[" * MAX_DEPTH + "1 2" + "]" * MAX_DEPTH
    game = TreeGame.from_text(text)
    for algorithm in ("minimax", "alphabeta"):
        report = explain_tree(game, algorithm, True)
        assert report.startswith(f"algorithm: {algorithm}\nvalue: ")
        assert f"nodes examined: {MAX_DEPTH + 2}" in report  # both leaves at the bottom
    for depth in (MAX_DEPTH + 1, 100_000):
        with pytest.raises(InputError, match=f"^tree: line 1: nested more than {MAX_DEPTH} deep"):
            parse_tree("[" * depth + "1" + "]" * depth)


def test_tree_leaf_values_are_bounded() -> None:
    with pytest.raises(InputError, match=r"'1e999' is too large for a leaf value"):
        parse_tree("[1 1e999]")
    with pytest.raises(InputError, match="unexpected character '٣'"):
        parse_tree("[1 ٣]")
    assert parse_tree("[+inf -inf 2]").children[0].value == float("inf")


# --- impossible positions ---------------------------------------------------------------


@pytest.mark.parametrize("fen, message", [
    ("B:W21-19:B1", "the range 21-19 in PDN FEN runs backwards: write 19-21"),
    ("B:W1-13:B30", "white has 13 pieces in PDN FEN; at most 12 on 8x8"),
    ("B:W:B", "PDN FEN with no piece at all"),
    ("B:W22:B22", "square 22 is given twice"),
    ("B:W" + "9" * 4000 + ":B1", "no square '99999"),
    ("B:W²:B1", "bad square '²'"),
])
def test_impossible_checkers_positions_are_refused(fen: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        Checkers(8).from_fen(fen)


def test_a_side_without_pieces_is_a_finished_game() -> None:
    g = Checkers(8)
    s = g.from_fen("B:W21:B")
    assert g.is_terminal(s) and g.to_fen(s) == "B:W21:B"
    with pytest.raises(InputError, match="black has no piece in PDN FEN, so white took the "
                       "last one and black is to move"):
        g.from_fen("W:W21:B")


@pytest.mark.parametrize("rows, nxt, message", [
    (["0000000"] * 3 + ["1000000"] * 3, 2, "player 1 has 3 pieces and player 2 has 0"),
    (["0000000"] * 5 + ["1100000"], 1, "player 1 has 2 pieces and player 2 has 0"),
    (["0000000"] * 5 + ["1200000"], 1, None),
    (["0000000"] * 5 + ["1000000"], 1, "player 1 has 1 pieces and player 2 has 0, yet "
                                       "player 1 is next"),
    (["0000000"] * 5 + ["1000000"], 2, None),
])
def test_max_connect4_piece_counts(rows: list[str], nxt: int, message: str | None) -> None:
    text = "\n".join([*rows, str(nxt)])
    if message is None:
        assert parse_board(text).next_player == nxt
    else:
        with pytest.raises(InputError, match=message):
            parse_board(text)


def test_max_connect4_program_plays_nine_to_nothing(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The zerosum formats refuse such counts (above); the course's program plays any board
    its file format allows."""
    from zerosum.frontends.uta_maxconnect4 import main

    board, out = tmp_path / "in.txt", tmp_path / "out.txt"
    board.write_text("0000000\n" * 4 + "1110000\n1111110\n2\n")
    assert main(["one-move", str(board), str(out), "2"]) == 0
    assert capsys.readouterr().err == ""
    assert out.read_bytes() == b"0000000\r\n" * 4 + b"1112000\r\n1111110\r\n1\r\n"


def test_max_connect4_output_path_is_checked_before_the_search(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.frontends.uta_maxconnect4 import main

    board = tmp_path / "in.txt"
    board.write_text("0000000\n" * 6 + "1\n")
    out = tmp_path / "no-such-folder" / "out.txt"
    assert main(["one-move", str(board), str(out), "42"]) == 2  # depth 42 would take ages
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"maxconnect4.py: output file {out}: no folder {out.parent}\n"


def test_a_second_double_dash_is_a_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Python 3.11's argparse gave a positional [] here; it is the file name '--'."""
    from zerosum.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["tree", "--", "--"]) == 2
    assert capsys.readouterr().err == "zerosum: error: tree file --: no such file\n"
    (tmp_path / "--").write_text("[1 2]")
    assert main(["tree", "--", "--"]) == 0
    assert "value: 2\n" in capsys.readouterr().out


def test_line_breaks_in_values_keep_messages_on_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.cli import main

    assert main(["tree", "a\nb"]) == 2
    assert capsys.readouterr().err == "zerosum: error: tree file a\\nb: no such file\n"
    with pytest.raises(SystemExit):
        main(["play", "tictactoe", "--depth", "1\n2"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not '1\\n2'" in err


def test_check_true_false_checks_result_txt_before_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.frontends.uta_logic import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "result.txt").mkdir()
    assert main(["missing-rules.txt", "kb.txt", "s.txt"]) == 2  # the files are not read
    assert capsys.readouterr().err == (
        "check_true_false.py: output file result.txt: is a directory\n")
