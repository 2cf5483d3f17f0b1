"""zerosum.ratingplot: the ratings' PNG, and a clear error without matplotlib."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from zerosum.game import InputError
from zerosum.ratingplot import plot_ratings
from zerosum.ratings import bradley_terry

ROOT = Path(__file__).resolve().parents[1]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def field() -> list[tuple[str, str, float]]:
    return ([("alphabeta", "mcts", 1.0)] * 14 + [("alphabeta", "mcts", 0.5)] * 4
            + [("alphabeta", "mcts", 0.0)] * 2 + [("mcts", "random", 1.0)] * 20
            + [("alphabeta", "random", 1.0)] * 20 + [("greedy", "random", 1.0)] * 15
            + [("greedy", "random", 0.0)] * 5 + [("greedy", "mcts", 0.0)] * 20)


def test_the_plot_is_a_png_and_nothing_else_is_left(tmp_path: Path) -> None:
    path = tmp_path / "ratings.png"
    plot_ratings(bradley_terry(field()), path, "A small tournament")
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    # The IHDR chunk: 700 pixels wide, 1.3 + 4 * 0.4 inches high at 100 dots per inch.
    assert int.from_bytes(data[16:20], "big") == 700
    assert int.from_bytes(data[20:24], "big") == 290
    assert [p.name for p in tmp_path.iterdir()] == ["ratings.png"]


def test_without_matplotlib_the_error_says_how_to_get_it(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    # The command that works from this clone (no index knows zerosum by name).
    hint = f"in {ROOT} run: .venv/bin/python -m pip install -e '.[plot]'"
    with pytest.raises(InputError, match="^" + re.escape(
            f"plotting needs matplotlib (the plot extra): {hint}") + "$"):
        plot_ratings(bradley_terry(field()), tmp_path / "r.png", "t")
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^plot .*nowhere/r\.png: no folder"):
        plot_ratings(bradley_terry(field()), tmp_path / "nowhere" / "r.png", "t")
    with pytest.raises(ValueError, match="no ratings to plot"):
        plot_ratings([], tmp_path / "r.png", "t")
