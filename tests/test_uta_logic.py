"""check_true_false.py: answers written to result.txt, and bad files refused cleanly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.frontends.uta_logic import main

FOLDER = Path(__file__).resolve().parents[1] / "assignments" / "uta-logic"
RULES = str(FOLDER / "wumpus_rules.txt")


def run(tmp_path: Path, kb: str, statement: str, *options: str) -> tuple[int, str | None]:
    (tmp_path / "kb.txt").write_text(kb, encoding="utf-8")
    (tmp_path / "statement.txt").write_text(statement, encoding="utf-8")
    status = main([RULES, "kb.txt", "statement.txt", *options])
    result = tmp_path / "result.txt"
    return status, result.read_text(encoding="utf-8") if result.exists() else None


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    "kb, statement, answer",
    [
        ("", "(not M_1_1)\n", "definitely true"),
        ("", "M_3_3\n", "possibly true, possibly false"),
        ("# an agent's facts\nS_1_3\n(not S_2_2)\n", "M_1_4\n", "definitely true"),
        ("S_1_3\n(not S_2_2)\n", "# which square?\n\nM_2_3\nM_1_4\n", "definitely false"),
        ("B_1_1\n", "P_4_4\n", "both true and false"),
    ],
)
def test_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kb: str, statement: str, answer: str
) -> None:
    status, result = run(tmp_path, kb, statement)
    assert (status, result) == (0, answer + "\n")
    assert capsys.readouterr().out == answer + "\n"


def world_facts(fixed: int) -> str:
    """Facts of the world with the monster at (4,2) and pits at (3,3) and (1,4): the first
    `fixed` symbols in rows of M, S, P, B."""
    monster, pits = (4, 2), {(3, 3), (1, 4)}
    lines = []
    for kind in "MSPB":
        for i in range(1, 5):
            for j in range(1, 5):
                near = {(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)}
                value = {
                    "M": (i, j) == monster,
                    "S": monster in near,
                    "P": (i, j) in pits,
                    "B": bool(near & pits),
                }[kind]
                name = f"{kind}_{i}_{j}"
                lines.append(name if value else f"(not {name})")
    return "\n".join(lines[:fixed]) + "\n"


@pytest.mark.parametrize("method", ["tt", "dpll"])
def test_truth_table_with_48_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], method: str
) -> None:
    kb = world_facts(48)  # monsters, stenches and pits known; breezes not
    assert run(tmp_path, kb, "B_2_4\n", "--method", method) == (0, "definitely true\n")
    assert run(tmp_path, kb, "(or B_1_1 B_2_1)\n", "--method", method) == (
        0,
        "definitely false\n",
    )
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "file, text, message",
    [
        ("kb.txt", "S_1_3\n(and S_2_2 (P_1_2))\n", "kb.txt:2:12: a symbol is never parenthesised"),
        ("kb.txt", "(not X_1_1)\n", "kb.txt:1:6: unknown symbol 'X_1_1' (the wumpus world's"),
        ("kb.txt", "M_5_1\n", "kb.txt:1:1: unknown symbol 'M_5_1'"),
        ("statement.txt", "(if M_1_3)\n", "statement.txt:1:1: 'if' takes exactly two operands"),
        ("statement.txt", "# nothing\n", "statement file statement.txt: no statement in it"),
        ("statement.txt", b"\xff\xfe", "statement file statement.txt: not a text file"),
    ],
)
def test_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str, text: str | bytes, message: str
) -> None:
    (tmp_path / "kb.txt").write_text("S_1_3\n", encoding="utf-8")
    (tmp_path / "statement.txt").write_text("M_1_4\n", encoding="utf-8")
    path = tmp_path / file
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    assert main([RULES, "kb.txt", "statement.txt"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"check_true_false.py: {message}") and err.count("\n") == 1
    assert not (tmp_path / "result.txt").exists()


def test_bad_arguments_leave_result_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "result.txt").write_text("old\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text("M_1_4\n", encoding="utf-8")
    assert main([RULES, "missing.txt", "s.txt"]) == 2
    assert capsys.readouterr().err == (
        "check_true_false.py: additional knowledge file missing.txt: no such file\n"
    )
    with pytest.raises(SystemExit) as exit_info:
        main([RULES, "s.txt"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        main([RULES, "s.txt", "s.txt", "--method", "resolution"])
    assert "invalid choice: 'resolution'" in capsys.readouterr().err
    assert (tmp_path / "result.txt").read_text(encoding="utf-8") == "old\n"


def test_launcher_runs_without_installation(tmp_path: Path) -> None:
    (tmp_path / "kb.txt").write_text("S_1_3\n(not S_2_2)\n", encoding="utf-8")
    (tmp_path / "st.txt").write_text("M_1_4\n", encoding="utf-8")
    launcher = FOLDER / "check_true_false.py"
    # -S: no site-packages, so the launcher must find the library by itself.
    done = subprocess.run(
        [sys.executable, "-S", str(launcher), RULES, "kb.txt", "st.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "definitely true\n", "")
    assert (tmp_path / "result.txt").read_text(encoding="utf-8") == "definitely true\n"


def test_zerosum_logic_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.cli import main as zerosum

    (tmp_path / "facts.txt").write_text("S_1_3\n(not S_2_2)\n", encoding="utf-8")
    assert zerosum(["logic", "check", "--wumpus", "facts.txt", "-s", "M_1_4"]) == 0
    assert capsys.readouterr().out == "definitely true\n"
    # Any symbols without --wumpus; both methods agree, so one answer.
    assert zerosum(["logic", "check", "facts.txt", "-s", "(or S_1_3 Q)", "--method", "both"]) == 0
    assert capsys.readouterr().out == "definitely true\n"
    assert zerosum(["logic", "check", "-s", "(P)"]) == 2
    assert capsys.readouterr().err == (
        "zerosum: error: --statement:1:1: a symbol is never parenthesised: write P, not (P)\n"
    )
    assert zerosum(["logic", "rules"]) == 0
    assert capsys.readouterr().out == (FOLDER / "wumpus_rules.txt").read_text(encoding="utf-8")
