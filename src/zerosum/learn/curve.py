"""A training run's learning curve: the mistake rate on each set at each checkpoint
against the games played (the history a weights file keeps), written as a PNG.

Needs matplotlib (the `plot` extra), imported only when drawing, on its own Agg canvas
as zerosum.ratingplot draws."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

from zerosum.fileio import check_writable, write_atomic
from zerosum.game import InputError
from zerosum.learn.grade import PONS_SETS
from zerosum.ratingplot import no_matplotlib


def plot_curve(history: Sequence[dict[str, Any]], path: str | os.PathLike[str],
               title: str) -> None:
    """Draw the curve of `history` (checkpoints: games, mistakes by set) at `path`."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError(no_matplotlib()) from None
    check_writable(path, "plot")
    sets = sorted({name for point in history for name in point.get("mistakes", {})})
    figure = Figure(figsize=(7.0, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for name in sets:
        points = [(p["games"], 100 * p["mistakes"][name]) for p in history
                  if name in p.get("mistakes", {})]
        axes.plot([g for g, _ in points], [m for _, m in points], marker="o",
                  label=PONS_SETS.get(name, name))
    axes.set_xlabel("self-play games")
    axes.set_ylabel("mistakes against perfect play, %")
    axes.set_ylim(bottom=0)
    axes.set_title(title)
    axes.grid(alpha=0.3)
    if sets:
        axes.legend()
    figure.tight_layout()
    png = io.BytesIO()
    figure.savefig(png, format="png", metadata={"Software": None})
    write_atomic(path, png.getvalue(), what="plot")
