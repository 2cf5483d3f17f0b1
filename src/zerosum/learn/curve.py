"""A training run's learning curve: the mistake rate on each set at each checkpoint
against the games played (the history a weights file keeps); below it, where
checkpoints were gated, their ratings, and for a method whose checkpoints keep named
weights (Samuel's features), each weight against the games played. As data
(`curve_data`, what the /train page draws), as a matplotlib figure (`curve_figure`, for
a notebook) or a PNG file (`plot_curve`).

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


def weight_data(history: Sequence[dict[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """Each feature's weight at each checkpoint that kept them (a learner's `snapshot`:
    Samuel's), by feature name: (games, weight)."""
    named: list[str] = next((list(p["weights"]) for p in history if "weights" in p), [])
    return {f: [(int(p["games"]), float(p["weights"][f])) for p in history
                if f in p.get("weights", {})] for f in named}


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
    named = weight_data(history)
    panels = 1 + bool(rated) + bool(named)
    figure = Figure(figsize=(7.0, 4.5 + 3.0 * (panels - 1)), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(panels, 1, 1)
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
        below = figure.add_subplot(panels, 1, 2, sharex=axes)
        below.errorbar([g for g, _ in rated], [r["elo"] for _, r in rated],
                       yerr=[[r["elo"] - r["low"] for _, r in rated],
                             [r["high"] - r["elo"] for _, r in rated]],
                       fmt="o", capsize=4, color="tab:purple")
        below.set_xlabel("self-play games")
        below.set_ylabel("Elo of the checkpoint (mean 0)")
        below.grid(alpha=0.3)
    if named:
        weights = figure.add_subplot(panels, 1, panels, sharex=axes)
        for f, points in named.items():
            weights.plot([g for g, _ in points], [w for _, w in points], marker=".", label=f)
        weights.set_xlabel("self-play games")
        weights.set_ylabel("feature weight")
        weights.set_title("the evaluation's weights as they were learned")
        weights.grid(alpha=0.3)
        weights.legend(fontsize="small", ncol=2)
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
