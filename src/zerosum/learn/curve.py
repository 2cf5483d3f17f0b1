"""A training run's learning curve: the mistake rate on each set at each checkpoint
against the games played (the history a weights file keeps), written as a PNG; below
it, for a method whose checkpoints keep named weights (Samuel's features), each
weight against the games played.

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
    named: list[str] = next((list(p["weights"]) for p in history if "weights" in p), [])
    figure = Figure(figsize=(7.0, 8.0 if named else 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(2, 1, 1) if named else figure.add_subplot()
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
    if named:
        below = figure.add_subplot(2, 1, 2)
        for f in named:
            points = [(p["games"], p["weights"][f]) for p in history
                      if f in p.get("weights", {})]
            below.plot([g for g, _ in points], [w for _, w in points], marker=".", label=f)
        below.set_xlabel("self-play games")
        below.set_ylabel("feature weight")
        below.set_title("the evaluation's weights as they were learned")
        below.grid(alpha=0.3)
        below.legend(fontsize="small", ncol=2)
    figure.tight_layout()
    png = io.BytesIO()
    figure.savefig(png, format="png", metadata={"Software": None})
    write_atomic(path, png.getvalue(), what="plot")
