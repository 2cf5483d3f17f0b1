"""A training run as a page or a notebook shows it while it goes, read from its files
only (its weights file, rewritten at each checkpoint, and the progress file beside it:
zerosum.learn.gate); nothing here writes.

- `status(path)`: the run so far: game, method, the curve of each set, games per
  second, the latest progress, the checkpoints' ratings and the best one;
- `move_values(...)`: on a position, the learned value of each move beside its exact
  value (a solver's, where its budget settles it), and which moves are mistakes;
- `heat_map(...)`: for n-tuples, how much each cell weighs;
- `figure(path)`: the curve as a matplotlib figure (a notebook's cell shows it).
"""

from __future__ import annotations

import os
from typing import Any

from zerosum.game import AnyGame, InputError, shown
from zerosum.games.registry import GameSpec
from zerosum.learn import gate as gating
from zerosum.learn import weights as weights_file
from zerosum.learn.curve import curve_data, curve_figure, weight_data
from zerosum.learn.grade import EXACT_SECONDS, exact_outcomes
from zerosum.learn.methods import Learner
from zerosum.learn.weights import Weights

WORDS = {1: "win", 0: "draw", -1: "loss"}


def status(path: str | os.PathLike[str], weights: Weights | None = None) -> dict[str, Any]:
    """What the run in `path` has done so far (its last checkpoint, and the progress
    since, if newer)."""
    name = os.fspath(path)
    w = weights if weights is not None else weights_file.read(name)
    run = w.header.get("run", {})
    history = list(run.get("history", []))
    progress = gating.read_progress(gating.run_folder(name))
    games = int(run.get("games", 0))
    if progress is not None and int(progress.get("games", -1)) < games:
        progress = None  # an older session's
    return {
        "file": os.path.abspath(name), "game": w.game, "options": w.options,
        "method": w.method, "settings": w.header.get("settings", {}), "games": games,
        "seconds": run.get("seconds", 0.0), "seed": run.get("seed"),
        "curves": {label: [[g, m] for g, m in points]
                   for label, points in curve_data(history).items()},
        "speed": [[int(h["games"]), float(h["per_second"])] for h in history
                  if "per_second" in h],
        "weights": {f: [[g, w] for g, w in points]
                    for f, points in weight_data(history).items()},
        "gates": [h["gate"] for h in history if "gate" in h],
        "ratings": list(run.get("ratings", [])), "best": run.get("best"),
        "progress": progress,
    }


def figure(path: str | os.PathLike[str]) -> Any:
    """The run's learning curve and its checkpoints' ratings, a matplotlib Figure."""
    w = weights_file.read(os.fspath(path))
    run = w.header.get("run", {})
    return curve_figure(run.get("history", []), f"{w.game}, {w.method}: "
                        f"{run.get('games', 0):,} games", run.get("ratings", []))


def exact_values(spec: GameSpec, game: AnyGame, state: Any,
                 seconds: float = EXACT_SECONDS) -> dict[str, str | None]:
    """Each legal move's exact outcome for the side making it ("win", "draw", "loss"),
    by its text; None where it is not settled (grade.exact_outcomes)."""
    found = exact_outcomes(spec, game, state, seconds)
    return {game.format_move(a): WORDS[found[a]] if a in found else None
            for a in game.actions(state)}


def move_values(spec: GameSpec, game: AnyGame, learner: Learner, state: Any,
                exact: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
    """Each legal move of `state`: its text, the learned value of the position after
    it for the side moving (in [-1, 1]), its exact outcome for that side (`exact`, or
    exact_values's; None where not settled), and whether it is a mistake (its outcome
    below the best move's, all settled)."""
    if game.is_terminal(state):
        return []
    if exact is None:
        exact = exact_values(spec, game, state)
    sign = 1 if game.is_maxs_turn(state) else -1
    rows: list[dict[str, Any]] = []
    for action in game.actions(state):
        text = game.format_move(action)
        rows.append({"move": text, "exact": exact.get(text),
                     "learned": round(sign * learner.afterstate_value(
                         game.result(state, action)), 4)})
    rank = {"loss": -1, "draw": 0, "win": 1}
    settled = [rank[r["exact"]] for r in rows if r["exact"] is not None]
    best = max(settled) if len(settled) == len(rows) and rows else None
    for r in rows:
        r["mistake"] = best is not None and rank[r["exact"]] < best
    return rows


def heat_map(learner: Learner) -> list[float] | None:
    """How much each cell weighs (n-tuple networks: NTupleLearner.cell_weights), None
    for a method without cells."""
    weigh = getattr(learner, "cell_weights", None)
    return None if weigh is None else list(weigh())


def check_run(path: str | os.PathLike[str]) -> Weights:
    """The weights file of a run to watch; InputError in one line if it is not one."""
    name = os.fspath(path)
    w = weights_file.read(name)
    if "run" not in w.header:
        raise InputError(f"weights file {shown(name, 60)} holds no training run")
    return w
