"""A training run's learning curve: the mistake rate on each set at each checkpoint
against the games played (the history a weights file keeps), and, where checkpoints
were gated, their ratings; as data (`curve_data`, what the /train page draws), as a
matplotlib figure (`curve_figure`, for a notebook) or a PNG file (`plot_curve`).

Needs matplotlib (the `plot` extra) to draw, imported only when drawing, on its own
Agg canvas as zerosum.ratingplot draws."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

from zerosum.fileio import check_writable, write_atomic
from zerosum.game import InputError
from zerosum.learn.grade import PONS_SETS
from zerosum.ratingplot import no_matplotlib


def curve_data(history: Sequence[dict[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """Each set's curve, by its usual name: (games, mistakes in %) at each checkpoint."""
    sets = sorted({name for point in history for name in point.get("mistakes", {})})
    return {PONS_SETS.get(name, name): [(int(p["games"]), 100 * float(p["mistakes"][name]))
                                        for p in history if name in p.get("mistakes", {})]
            for name in sets}


def curve_figure(history: Sequence[dict[str, Any]], title: str,
                 ratings: Sequence[dict[str, Any]] = ()) -> Any:
    """The curve as a matplotlib Figure: a line per set; below it, when checkpoints were
    rated (zerosum.learn.gate), each one's Elo with its 95 % interval against its games."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError(no_matplotlib()) from None
    curves = curve_data(history)
    rated = sorted((int(r["checkpoint"].rpartition("-")[2]), r) for r in ratings
                   if r["checkpoint"].rpartition("-")[2].isdigit())
    figure = Figure(figsize=(7.0, 7.0 if rated else 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(2, 1, 1) if rated else figure.add_subplot()
    for label, points in curves.items():
        axes.plot([g for g, _ in points], [m for _, m in points], marker="o", label=label)
    axes.set_xlabel("self-play games")
    axes.set_ylabel("mistakes against perfect play, %")
    axes.set_ylim(bottom=0)
    axes.set_title(title)
    axes.grid(alpha=0.3)
    if curves:
        axes.legend(fontsize="small", ncol=2)
    if rated:
        below = figure.add_subplot(2, 1, 2, sharex=axes)
        below.errorbar([g for g, _ in rated], [r["elo"] for _, r in rated],
                       yerr=[[r["elo"] - r["low"] for _, r in rated],
                             [r["high"] - r["elo"] for _, r in rated]],
                       fmt="o", capsize=4, color="tab:purple")
        below.set_xlabel("self-play games")
        below.set_ylabel("Elo of the checkpoint (mean 0)")
        below.grid(alpha=0.3)
    figure.tight_layout()
    return figure


def plot_curve(history: Sequence[dict[str, Any]], path: str | os.PathLike[str],
               title: str, ratings: Sequence[dict[str, Any]] = ()) -> None:
    """Draw the curve of `history` (checkpoints: games, mistakes by set) at `path`."""
    check_writable(path, "plot")
    figure = curve_figure(history, title, ratings)
    png = io.BytesIO()
    figure.savefig(png, format="png", metadata={"Software": None})
    write_atomic(path, png.getvalue(), what="plot")
