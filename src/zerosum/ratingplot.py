"""A picture of ratings: each player's Elo as a dot with its 95 % interval as a
horizontal bar, best at the top, written as a PNG file.

Needs matplotlib (the `plot` extra: `pip install -e '.[plot]'` in the clone), imported only when a
plot is drawn, so the rest of zerosum runs without it. The figure is drawn on its own
Agg canvas, not through pyplot: no window, no global state, safe in any thread.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence

from zerosum.extras import install_hint
from zerosum.fileio import check_writable, write_atomic
from zerosum.game import InputError
from zerosum.ratings import Rating, format_elo

WIDTH = 7.0  # inches, at 100 dots per inch
ROW_HEIGHT = 0.4  # inches per player
MARGIN_HEIGHT = 1.3  # inches for the title and the axis


def no_matplotlib() -> str:
    return f"plotting needs matplotlib (the plot extra): {install_hint('plot')}"


def check_plot(path: str | os.PathLike[str]) -> None:
    """InputError now if a plot could not be drawn at `path` later (no matplotlib, or
    the file cannot be written): a long tournament learns it before it starts."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise InputError(no_matplotlib())
    check_writable(path, "plot")


def plot_ratings(ratings: Sequence[Rating], path: str | os.PathLike[str], title: str) -> None:
    """Draw `ratings` (in their order, the first at the top) and write the PNG at `path`
    atomically. InputError when matplotlib is missing or `path` cannot be written."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError(no_matplotlib()) from None
    if not ratings:
        raise ValueError("no ratings to plot")
    check_writable(path, "plot")  # before the drawing, which takes a moment
    rows = list(range(len(ratings)))[::-1]  # the first rating on the top row
    figure = Figure(figsize=(WIDTH, MARGIN_HEIGHT + ROW_HEIGHT * len(ratings)), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.errorbar([r.elo for r in ratings], rows,
                  xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
                  fmt="o", color="tab:blue", ecolor="tab:blue", capsize=4, markersize=5)
    for r, y in zip(ratings, rows, strict=True):
        # The value beside its bar: "+95 ± 62" (the intervals are symmetric).
        axes.annotate(f"{format_elo(r.elo)} ± {(r.high - r.low) / 2:.0f}", (r.high, y),
                      xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
    axes.axvline(0.0, color="grey", linestyle=":", linewidth=1)
    axes.set_yticks(rows, [r.name for r in ratings])
    axes.set_ylim(-0.7, len(ratings) - 0.3)
    low, high = min(r.low for r in ratings), max(r.high for r in ratings)
    axes.set_xlim(low - 0.05 * (high - low + 1), high + 0.2 * (high - low + 1))  # room for text
    axes.set_xlabel("Elo (0 = the players' mean), with 95 % intervals")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    png = io.BytesIO()
    # No "Software" entry: the same ratings give the same file under any matplotlib.
    figure.savefig(png, format="png", metadata={"Software": None})
    write_atomic(path, png.getvalue(), what="plot")
